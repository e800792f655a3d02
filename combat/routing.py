"""Websocket routes. The live encounter table (issue [live-table]) adds its consumer here."""

from __future__ import annotations

from typing import Any

websocket_urlpatterns: list[Any] = []
