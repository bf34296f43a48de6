"""A bot that plays a random legal move:

FOUNDRY_BOT_TOKEN=vfb_... python -m foundry_bot.examples.random_bot --url ws://host/ws/bot/
"""

import random

from foundry_bot.client import main_options, run


def choose(view: dict, legal: list[str]) -> str:
    return random.choice(legal)


if __name__ == "__main__":
    options = main_options(__doc__)
    run(options.url, options.token, choose, options.version, reconnect=not options.once)
