"""A socket's home (combat/homing.py): only another process on this host, named by the front
door's header; a socket held for its home is sent there once the home answers."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from combat import consumers
from combat.homing import CLOSE_MOVED, LOOK_S, MOVE, home_of
from combat.routing import websocket_urlpatterns
from scripts.bench.processes import free_port
from tests.combat.table.helpers import Party
from tests.combat.table.test_consumer import ready_party

app = URLRouter(websocket_urlpatterns)


def scope(
    header: bytes | None, server: Any = ("127.0.0.1", 8002), client: str = "127.0.0.1"
) -> dict[str, Any]:
    headers = [(b"origin", b"http://x"), *([(b"x-eleora-home", header)] if header else [])]
    return {"server": server, "client": [client, 50123], "headers": headers}


def test_another_process_on_this_host_is_the_home() -> None:
    assert home_of(scope(b"127.0.0.1:8001")) == ("127.0.0.1", 8001)


@pytest.mark.parametrize(
    "header, server",
    [
        (None, ("127.0.0.1", 8002)),  # no front door (make run)
        (b"127.0.0.1:8002", ("127.0.0.1", 8002)),  # this process is the home
        (b"10.0.0.5:8001", ("127.0.0.1", 8002)),  # another host: not believed
        (b"127.0.0.1:http", ("127.0.0.1", 8002)),
        (b"127.0.0.1", ("127.0.0.1", 8002)),
        (b":8001", ("127.0.0.1", 8002)),
        (b"127.0.0.1:8001", None),  # a server that does not say where it listens
    ],
)
def test_anything_else_is_no_home(header: bytes | None, server: Any) -> None:
    assert home_of(scope(header, server)) is None


def test_the_header_is_believed_only_from_a_trusted_proxy() -> None:
    """A browser that reaches the process without the proxy cannot have it probe ports."""
    assert home_of(scope(b"127.0.0.1:8001", client="203.0.113.7")) is None


# --- a socket held for its home, in this process (channels' WebsocketCommunicator) -----------


@contextlib.asynccontextmanager
async def listening(port: int) -> AsyncIterator[None]:
    """Something that answers on `port`, as a home process back up does."""

    async def drop(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.close()

    server = await asyncio.start_server(drop, "127.0.0.1", port)
    try:
        yield
    finally:
        server.close()
        await server.wait_closed()


async def held_for(home: int, party: Party) -> WebsocketCommunicator:
    """A player's socket on this process (it listens on port 1, say) whose home is `home`."""
    headers = [(b"origin", b"http://127.0.0.1"), (b"x-eleora-home", f"127.0.0.1:{home}".encode())]
    ws = WebsocketCommunicator(app, f"/ws/encounters/{party.encounter.pk}/", headers=headers)
    ws.scope["server"] = ["127.0.0.1", 1]
    ws.scope["client"] = ["127.0.0.1", 50123]  # through the proxy
    ws.scope["user"] = party.p1
    connected, _code = await ws.connect()
    assert connected
    return ws


@pytest.mark.django_db(transaction=True)
async def test_a_page_shown_is_asked_to_move_once_its_home_answers() -> None:
    party = await ready_party()
    home = free_port()
    ws = await held_for(home, party)
    first = json.loads(await ws.receive_from(timeout=5))
    assert first["t"] == "swap" and "table-status" in first["html"]
    assert await ws.receive_nothing(timeout=LOOK_S * 5)  # the home is down: it stays
    async with listening(home):
        assert json.loads(await ws.receive_from(timeout=5)) == MOVE
    assert await ws.receive_nothing(timeout=0.3)  # not closed: the page closes it when moved
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_socket_not_yet_sent_its_page_is_closed_to_come_back_at_home(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    party = await ready_party()
    monkeypatch.setattr(consumers.live, "greet", lambda socket: None)  # its page not sent yet
    home = free_port()
    async with listening(home):
        ws = await held_for(home, party)
        closed = await ws.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": CLOSE_MOVED}
