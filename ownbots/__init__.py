"""Bring your own bot (issue 26): a trainer's AI plays from their machine over a websocket.

A player of kind ``ownbot`` has an access token (stored hashed) and, while its client is
connected, one ``BotConnection``. The client is sent "your move" for every seat the bot
holds: live matches (``live``) and tournament games a Celery worker plays (``turns``,
``remote``). See play/PROTOCOL.md ("Bring your own bot") and foundry_bot/client.py.
"""
