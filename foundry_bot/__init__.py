"""Variant Foundry's reference bot client: ``foundry_bot.client.run(url, token, choose)``.

Standalone (it imports nothing of the site, only ``websockets``): copy this folder next to
your own AI and run it there. See README.md ("Bring your own bot") and play/PROTOCOL.md.
"""

from .client import BotClient, run

__all__ = ["BotClient", "run"]
