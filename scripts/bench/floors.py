"""The two floors every Eleora figure is compared with: servers that only broadcast.

(a) `channels_app`: a bare Channels consumer on the same channel layer (Redis) under daphne:
    a message from one socket goes to its table's group and back out to every member.
(b) `python -m scripts.bench.floors PORT`: a plain `websockets` server that relays a message
    to the sockets of its table in-process (no layer, no Django): the floor of Python itself.

Both take the table from the path, /ws/<table>/, and relay the text as it came.
"""

from __future__ import annotations

import asyncio
import sys
from collections import defaultdict
from typing import Any


def channels_app() -> Any:
    """The ASGI application of floor (a); Django's settings give it the channel layer."""
    import django

    django.setup()
    from channels.generic.websocket import AsyncWebsocketConsumer
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.urls import path

    class Broadcast(AsyncWebsocketConsumer):
        async def connect(self) -> None:
            self.group = f"floor-{self.scope['url_route']['kwargs']['table']}"
            await self.channel_layer.group_add(self.group, self.channel_name)
            await self.accept()

        async def disconnect(self, code: int) -> None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

        async def receive(self, text_data: str | None = None, bytes_data: Any = None) -> None:
            await self.channel_layer.group_send(self.group, {"type": "relay", "text": text_data})

        async def relay(self, event: dict[str, Any]) -> None:
            await self.send(text_data=event["text"])

    routes = URLRouter([path("ws/<int:table>/", Broadcast.as_asgi())])
    return ProtocolTypeRouter({"websocket": routes})


async def serve_websockets(port: int) -> None:
    from websockets.asyncio.server import ServerConnection, broadcast, serve

    rooms: dict[str, set[ServerConnection]] = defaultdict(set)

    async def relay(ws: ServerConnection) -> None:
        assert ws.request is not None
        room = rooms[ws.request.path]
        room.add(ws)
        try:
            async for message in ws:
                broadcast(room, message)
        finally:
            room.discard(ws)

    async with serve(relay, "127.0.0.1", port, compression=None, max_size=2**20) as server:
        await server.serve_forever()


def __getattr__(name: str) -> Any:
    # `daphne scripts.bench.floors:application` builds the app only when daphne asks for it.
    if name == "application":
        return channels_app()
    raise AttributeError(name)


if __name__ == "__main__":
    asyncio.run(serve_websockets(int(sys.argv[1])))
