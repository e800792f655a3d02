"""Websocket routes: one table socket per browser tab."""

from __future__ import annotations

from django.urls import path, re_path

from combat.consumers import NoTable, TableConsumer

websocket_urlpatterns = [
    path("ws/encounters/<int:pk>/", TableConsumer.as_asgi()),
    # Any other path is refused at the handshake (403), not a server error (500).
    re_path(r"", NoTable.as_asgi()),
]
