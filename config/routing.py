"""Websocket URL patterns."""

from django.urls import path, re_path

from play.consumers import LobbyConsumer, MatchConsumer, NotFoundConsumer

websocket_urlpatterns = [
    # The id is read by the bounded parser in the consumer (a 5,000-digit id is no match).
    re_path(r"^ws/match/(?P<pk>[0-9]{1,30})/$", MatchConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    re_path(r"", NotFoundConsumer.as_asgi()),  # every other path: refused, not a 500
]
