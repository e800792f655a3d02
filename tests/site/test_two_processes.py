"""Two server processes behind one table: a change made through one reaches sockets of the other.

Self-contained: a private PostgreSQL database and a private redis-server, both shared by two
daphne processes as a deployment with several workers shares them.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scripts.bench.processes import (
    Daphne,
    RedisServer,
    TableClient,
    assert_log_whole,
    prepare_demo,
    private_database,
    server_env,
)

pytestmark = pytest.mark.services

IDLE_S = 7.0  # longer than channels_redis' 5 s blocking read of a process's channel


@pytest.fixture
def database() -> Iterator[str]:
    with private_database() as url:
        yield url


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.close()


async def test_a_player_on_one_process_sees_a_gm_action_made_through_the_other_within_a_second(
    tmp_path: Path, database: str, redis: RedisServer
) -> None:
    env = server_env(tmp_path, database, redis.url)
    demo = prepare_demo(env)
    a, b = Daphne(env, tmp_path, "a"), Daphne(env, tmp_path, "b")
    # No heartbeat: the player's socket may learn of the change only through the fan-out.
    player = TableClient("gracz1", a, demo.encounter, demo.sessions["gracz1"], heartbeat=None)
    gm = TableClient("mistrz", b, demo.encounter, demo.sessions["mistrz"], heartbeat=None)
    try:
        a.launch()
        b.launch()
        a.ready()
        b.ready()
        assert (await player.start()).seq == demo.seq
        assert (await gm.start()).seq == demo.seq

        public, secret = f"Tropy-{secrets.token_hex(3)}", f"Zasadzka-{secrets.token_hex(3)}"
        sent = time.monotonic()
        await gm.send(
            {"type": "command", "id": "roll-1",
             "command": {"type": "gm_roll", "dice": 3, "label": public, "secret": False}}
        )  # fmt: skip
        seen = await player.wait_seq(demo.seq + 1, timeout=5)
        print(f"fan-out latency {seen.at - sent:.3f}s")
        assert seen.at - sent < 1.0, f"the player saw it after {seen.at - sent:.3f}s"
        assert seen.seq == demo.seq + 1 and seen.connection == 1
        assert public in seen.html  # the roll is in the player's log

        sent = time.monotonic()
        await gm.send(
            {"type": "command", "id": "roll-2",
             "command": {"type": "gm_roll", "dice": 3, "label": secret, "secret": True}}
        )  # fmt: skip
        seen = await player.wait_seq(demo.seq + 2, timeout=5)
        print(f"fan-out latency {seen.at - sent:.3f}s")
        assert seen.at - sent < 1.0, f"the player saw it after {seen.at - sent:.3f}s"
        assert secret not in seen.html and public in seen.html
        assert secret in (await gm.wait_seq(demo.seq + 2, timeout=5)).html
        assert not player.errors and not gm.errors
        assert_log_whole(database, demo.encounter, demo.seq + 2)
    except BaseException:
        print(a.logs(), b.logs(), sep="\n")
        raise
    finally:
        await player.stop()
        await gm.stop()
        a.close()
        b.close()


async def test_an_idle_socket_stays_open_and_still_hears_the_other_process(
    tmp_path: Path, database: str, redis: RedisServer
) -> None:
    env = server_env(tmp_path, database, redis.url)
    demo = prepare_demo(env)
    a, b = Daphne(env, tmp_path, "a"), Daphne(env, tmp_path, "b")
    player = TableClient("gracz1", a, demo.encounter, demo.sessions["gracz1"], heartbeat=None)
    gm = TableClient("mistrz", b, demo.encounter, demo.sessions["mistrz"], heartbeat=None)
    try:
        a.launch()
        b.launch()
        a.ready()
        b.ready()
        await player.start()
        await gm.start()
        await asyncio.sleep(IDLE_S)  # nobody at the table says anything for a while
        sent = time.monotonic()
        await gm.send(
            {"type": "command", "id": "roll-idle",
             "command": {"type": "gm_roll", "dice": 1, "label": "cisza", "secret": False}}
        )  # fmt: skip
        seen = await player.wait_seq(demo.seq + 1, timeout=5)
        assert seen.at - sent < 1.0, f"the player saw it after {seen.at - sent:.3f}s"
        assert (player.connections, player.closes) == (1, []), player.closes
        assert (gm.connections, gm.closes) == (1, []), gm.closes
    finally:
        await player.stop()
        await gm.stop()
        a.close()
        b.close()
