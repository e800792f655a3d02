"""Websocket routes: one table socket per browser tab."""

from __future__ import annotations

from django.urls import path

from combat.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/encounters/<int:pk>/", TableConsumer.as_asgi()),
]
