"""The two floors every Eleora figure is compared with: servers that only broadcast.

(a) `channels_app`: a bare Channels consumer on the same channel layer (Redis) under daphne,
    built the way Eleora is (combat/hub.py, combat/consumers.py): a table's group holds one
    member per process (a delegate), which relays each message to the process's sockets of
    the table, and no message takes Channels' per-message hop to its sync thread. A message
    from one socket goes to its table's group and out to every socket of the table.
    `channels_app(per_socket=True)` (`application_per_socket`) is the method of the first
    reports, kept for comparison: every socket in the group, each message with the hop.
(b) `python -m scripts.bench.floors PORT`: a plain `websockets` server that relays a message
    to the sockets of its table in-process (no layer, no Django): the floor of Python itself.

Both take the table from the path, /ws/<table>/, and relay the text as it came.
"""

from __future__ import annotations

import asyncio
import sys
from collections import defaultdict
from typing import Any


def channels_app(per_socket: bool = False) -> Any:
    """The ASGI application of floor (a); Django's settings give it the channel layer."""
    import django

    django.setup()
    from channels.consumer import get_handler_name
    from channels.generic.websocket import AsyncWebsocketConsumer
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.urls import path

    tables: defaultdict[str, set[Any]] = defaultdict(set)  # group -> this process's sockets
    delegates: dict[str, Any] = {}  # group -> the one socket of it in the group

    class Broadcast(AsyncWebsocketConsumer):
        async def connect(self) -> None:
            self.group = f"floor-{self.scope['url_route']['kwargs']['table']}"
            tables[self.group].add(self)
            if per_socket or self.group not in delegates:
                delegates.setdefault(self.group, self)
                await self.channel_layer.group_add(self.group, self.channel_name)
            await self.accept()

        async def disconnect(self, code: int) -> None:
            tables[self.group].discard(self)
            if per_socket:
                await self.channel_layer.group_discard(self.group, self.channel_name)
            elif delegates.get(self.group) is self:
                del delegates[self.group]
                successor = next(iter(tables[self.group]), None)
                if successor is not None:
                    delegates[self.group] = successor
                    await self.channel_layer.group_add(self.group, successor.channel_name)
                await self.channel_layer.group_discard(self.group, self.channel_name)

        async def receive(self, text_data: str | None = None, bytes_data: Any = None) -> None:
            await self.channel_layer.group_send(self.group, {"type": "relay", "text": text_data})

        async def relay(self, event: dict[str, Any]) -> None:
            if per_socket:
                await self.send(text_data=event["text"])
                return
            for socket in list(tables[self.group]):
                await socket.send(text_data=event["text"])

        async def dispatch(self, message: dict[str, Any]) -> None:
            if per_socket:  # Channels' own: closes stale connections in its sync thread first
                await super().dispatch(message)
                return
            await getattr(self, get_handler_name(message))(message)

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
    if name == "application_per_socket":
        return channels_app(per_socket=True)
    raise AttributeError(name)


if __name__ == "__main__":
    asyncio.run(serve_websockets(int(sys.argv[1])))
