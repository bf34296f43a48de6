"""Websocket URL patterns (the apps' consumers are added here as they arrive)."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
