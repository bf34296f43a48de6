"""The reference client as a test's subprocess: a random bot that also writes every event
it receives, one JSON line each, to the file named by OWNBOT_EVENTS (so the test can check
each "your move" against the position). Usage: python -m tests.ownbot_client URL VERSION;
the token comes from FOUNDRY_BOT_TOKEN."""

import json
import logging
import os
import random
import sys

from foundry_bot.client import BotClient


def main() -> None:
    url, version = sys.argv[1], sys.argv[2]
    path = os.environ["OWNBOT_EVENTS"]
    rng = random.Random(int(os.environ.get("OWNBOT_SEED", "1")))

    def record(event: dict) -> None:
        with open(path, "a") as out:
            out.write(json.dumps(event) + "\n")

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    client = BotClient(
        url,
        os.environ["FOUNDRY_BOT_TOKEN"],
        lambda view, legal: rng.choice(legal),
        version,
        max_pause=1.0,
        on_event=record,
    )
    client.run()


if __name__ == "__main__":
    main()
