"""``/ws/bot/`` outside the browser sockets' stack: a bot client is no browser (it sends
no Origin and no session cookie) and authenticates with its token alone, so neither the
origin check nor the session middleware applies to it."""

from __future__ import annotations

BOT_PATH = "/ws/bot/"


class BotRoute:
    def __init__(self, bots, rest):
        self.bots, self.rest = bots, rest

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and scope.get("path") == BOT_PATH:
            return await self.bots(scope, receive, send)
        return await self.rest(scope, receive, send)
