"""Bad input against a real daphne (issue #23, point 5): what the in-process tests cannot see,
the websocket library's own close codes and the server's log.

A message nested 3,000 levels deep gets an error with its id and the socket stays open; a
flood closes the socket with a code daphne's library sends (4008; 1008 died as 1011 with a
traceback); socket paths that name no table are refused at the handshake (403, not 500); and
the server's log holds no traceback for any of it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from combat.consumers import BURST, RATE, STRIKES
from scripts.bench.processes import Daphne, prepare_demo, private_database, server_env

pytestmark = pytest.mark.services


@pytest.fixture
def database() -> Iterator[str]:
    with private_database("eleora_badinput") as url:
        yield url


def headers(server: Daphne, session: str) -> dict[str, str]:
    return {"Cookie": f"sessionid={session}", "Origin": server.base}


async def reply(ws: ClientConnection) -> dict[str, Any]:
    """The next message that is not a push of the table."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
        if message.get("t") != "swap":
            return message


async def flood_until_closed(ws: ClientConnection) -> int | None:
    """Send heartbeats as fast as the socket takes them: what closes it (its burst and
    strikes, 60) and what refills in 7 s more; the code it was closed with. Not more: heartbeats
    still unread when the server drops the connection make its kernel reset it, and a reset
    throws away the close frame the client had not read yet (1006 on a loaded machine)."""
    limit = BURST + STRIKES + int(7 * RATE)
    try:
        for _n in range(limit):
            await ws.send(json.dumps({"type": "sync", "seq": 2**31 - 1}))
        async for _message in ws:
            pass
    except ConnectionClosed:
        pass
    await ws.wait_closed()
    return ws.close_code


async def test_bad_input_gets_an_answer_or_a_clean_close_and_no_traceback(
    tmp_path: Path, database: str
) -> None:
    env = server_env(tmp_path, database)
    demo = prepare_demo(env)
    server = Daphne(env, tmp_path, "bad-input")
    url = f"ws://127.0.0.1:{server.port}/ws/encounters/{demo.encounter}/"
    try:
        server.start()
        async with connect(url, additional_headers=headers(server, demo.sessions["gracz1"])) as ws:
            deep = '{"type": "command", "id": "deep-1", "command": ' + "[" * 3000 + "]" * 3000
            await ws.send(deep + "}")
            error = await reply(ws)
            assert error["t"] == "error" and error["id"] == "deep-1", error
            # The socket is still open and answers.
            await ws.send(json.dumps({"type": "route", "actor": "?", "to": [0, 0]}))
            assert (await reply(ws))["t"] == "error"
            assert await flood_until_closed(ws) == 4008

        for path in ("/ws/encounters/-1/", "/ws/encounters/abc/"):
            gm = headers(server, demo.sessions["mistrz"])
            with pytest.raises(InvalidStatus) as refused:
                async with connect(f"ws://127.0.0.1:{server.port}{path}", additional_headers=gm):
                    pass
            assert refused.value.response.status_code == 403, path
    finally:
        server.close()
    logs = server.logs()
    assert "Traceback" not in logs, logs
