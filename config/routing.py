"""Websocket URL patterns."""

from django.urls import path

from play.consumers import LobbyConsumer, MatchConsumer

websocket_urlpatterns = [
    path("ws/match/<int:pk>/", MatchConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
