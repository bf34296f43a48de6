"""The reference client as a test's subprocess: a random bot that also writes every event
it receives, one JSON line each, to the file named by OWNBOT_EVENTS (so the test can check
each "your move" against the position). Usage: python -m tests.ownbot_client URL VERSION;
the token comes from FOUNDRY_BOT_TOKEN. With OWNBOT_ANSWERS=n it answers n turns, then
hangs (still connected) on the next one: a test then kills it with turns surely open."""

import json
import logging
import os
import random
import sys
import threading

from foundry_bot.client import BotClient


def main() -> None:
    url, version = sys.argv[1], sys.argv[2]
    path = os.environ["OWNBOT_EVENTS"]
    rng = random.Random(int(os.environ.get("OWNBOT_SEED", "1")))

    def record(event: dict) -> None:
        # several turns in one message (the client takes them: "batch") are written
        # as one "your-move" line each, as they would come one by one
        events = event["turns"] if event.get("type") == "your-moves" else [event]
        with open(path, "a") as out:
            out.write("".join(json.dumps(e) + "\n" for e in events))

    limit = int(os.environ.get("OWNBOT_ANSWERS", "0")) or None
    answered = 0

    def choose(view, legal):
        nonlocal answered
        if limit is not None and answered >= limit:
            threading.Event().wait()  # hang: no more answers from this process
        answered += 1
        return rng.choice(legal)

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    client = BotClient(
        url,
        os.environ["FOUNDRY_BOT_TOKEN"],
        choose,
        version,
        max_pause=1.0,
        on_event=record,
    )
    client.run()


if __name__ == "__main__":
    main()
