"""A table's sockets go home (combat/homing.py), with real daphne processes.

The front door sends a table's sockets to the table's home process, or to another process
while the home is down, naming the home in `X-Eleora-Home` (deploy/eleora-upstreams.conf).
Here the test is the front door: it opens a socket on the stand-in process naming a home that
is down. The socket stays while the home is down and is asked to move (the page opens its next
socket, which the front door takes home) soon after the home process starts; a socket at its
home is never sent away.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import ClientConnection, connect

from combat.homing import MOVE
from scripts.bench.processes import Daphne, free_port, prepare_demo, private_database, server_env

pytestmark = pytest.mark.services


@pytest.fixture
def database() -> Iterator[str]:
    with private_database("eleora_homing") as url:
        yield url


async def first_page(ws: ClientConnection) -> None:
    message = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
    assert message["t"] == "swap" and "table-status" in message["html"], message


async def stays_open(ws: ClientConnection, seconds: float) -> None:
    """Nothing closes the socket for `seconds` (pushes may come: none is expected)."""
    deadline = time.monotonic() + seconds
    with pytest.raises(TimeoutError):
        while True:
            await asyncio.wait_for(ws.recv(), timeout=max(0.01, deadline - time.monotonic()))


async def asked_to_move(ws: ClientConnection, seconds: float) -> bool:
    async with asyncio.timeout(seconds):
        async for message in ws:
            if json.loads(message) == MOVE:
                return True
    return False


async def test_a_socket_held_for_a_home_that_is_down_goes_home_once_it_is_back(
    tmp_path: Path, database: str
) -> None:
    env = server_env(tmp_path, database)
    demo = prepare_demo(env)
    stand_in = Daphne(env, tmp_path, "stand-in")
    home = Daphne(env, tmp_path, "home", free_port())
    path = f"/ws/encounters/{demo.encounter}/"

    def opened(server: Daphne, home_port: int) -> object:
        headers = {
            "Cookie": f"sessionid={demo.sessions['gracz1']}",
            "Origin": server.base,
            "X-Eleora-Home": f"127.0.0.1:{home_port}",
        }
        return connect(f"ws://127.0.0.1:{server.port}{path}", additional_headers=headers)

    try:
        stand_in.start()
        async with opened(stand_in, home.port) as away, opened(stand_in, stand_in.port) as at_home:
            await first_page(away)
            await first_page(at_home)
            await stays_open(away, 1.5)  # the home is down: nowhere to go
            home.start()
            assert await asked_to_move(away, 5.0)
            async with opened(home, home.port) as back:  # where the front door now sends it
                await first_page(back)
                await away.close()  # the page's old socket, once the new one brought the page
                await stays_open(back, 1.0)
            await stays_open(at_home, 0.1)
    finally:
        stand_in.close()
        home.close()
    for server in (stand_in, home):
        assert "Traceback" not in server.logs(), server.logs()
