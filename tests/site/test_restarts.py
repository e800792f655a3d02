"""Crashes: a server process killed mid-prompt, and Redis restarted under two live servers.

Self-contained: a private PostgreSQL database and (for the Redis test) a private redis-server
on a free port, so killing it disturbs nothing else on the machine.
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
    deadline_in,
    entries,
    prepare_demo,
    private_database,
    server_env,
)

pytestmark = pytest.mark.services

RECOVERY_S = 5.0  # every client back on the head within this of a fault (issue #5)
REACTION_TIMEOUT_S = 6  # long enough to restart a server inside it, short enough to wait out


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


async def test_a_server_restart_mid_prompt_resumes_and_honours_the_deadline(
    tmp_path: Path, database: str
) -> None:
    # One process, so the in-memory channel layer will do; the prompt lives in the database.
    env = server_env(tmp_path, database)
    demo = prepare_demo(
        env, settings={"reaction_timeout_s": REACTION_TIMEOUT_S}, new_encounter=True
    )
    hero, wolf = demo.cid("Radosław Szablista"), demo.cid("Wilk 1")
    assert demo.combatants["Radosław Szablista"]["player"] == "gracz1"
    server = Daphne(env, tmp_path, "table")
    player = TableClient("gracz1", server, demo.encounter, demo.sessions["gracz1"])
    gm = TableClient("mistrz", server, demo.encounter, demo.sessions["mistrz"])
    try:
        server.start()
        await player.start()
        await gm.start()
        # Fixed initiative: the hero first (his turn lets him react), then Wilk 1.
        rolls = {c["id"]: [1, 1] for c in demo.combatants.values()}
        rolls |= {hero: [6, 6], wolf: [6, 5]}
        await gm.command({"type": "start_combat", "rolls": rolls})
        await gm.command({"type": "end_turn", "actor": hero})
        await gm.command(
            {"type": "declare_attack", "actor": wolf, "target": hero, "weapon": "Ugryzienie"}
        )
        prompted = await player.wait_for(lambda p: "data-my-prompt" in p.html, timeout=5)
        deadline = deadline_in(prompted.html)
        assert deadline is not None and deadline > time.time() + 3, "too little time left"
        open_seq = prompted.seq

        server.kill()  # the timer that would close the prompt dies with the process
        server.start()  # same database, same port: the pages reconnect by themselves
        assert time.time() < deadline, "the restart took longer than the reaction time"
        resumed = await player.wait_for(lambda p: p.connection == 2, timeout=10)
        assert resumed.seq == open_seq, "the restart changed the log"
        assert "data-my-prompt" in resumed.html and deadline_in(resumed.html) == deadline

        closed = await player.wait_seq(open_seq + 1, timeout=deadline - time.time() + 5)
        print(
            f"restarted {deadline - resumed.wall:.2f}s before the deadline; resolved",
            f"{closed.wall - deadline:+.3f}s after it",
        )
        assert closed.wall >= deadline, "resolved before the deadline"
        assert closed.wall < deadline + 2, f"resolved {closed.wall - deadline:.2f}s late"
        assert "data-my-prompt" not in closed.html
        # The GM's socket noticed the same deadline: still one resolution, and nothing after it.
        await gm.wait_seq(open_seq + 1, timeout=5)
        await asyncio.sleep(0.5)
        log = entries(database, demo.encounter)
        assert [t for _, _, t in log].count("resolve_expired") == 1, log
        assert log[-1][2] == "resolve_expired" and log[-1][0] == open_seq + 1, log
        assert_log_whole(database, demo.encounter, open_seq + 1)
        assert player.seq == gm.seq == open_seq + 1
    except BaseException:
        print(server.logs(), player.closes, gm.closes, sep="\n")
        raise
    finally:
        await player.stop()
        await gm.stop()
        server.close()


async def test_a_redis_restart_loses_no_event_and_every_client_catches_up(
    tmp_path: Path, database: str, redis: RedisServer
) -> None:
    env = server_env(tmp_path, database, redis.url)
    demo = prepare_demo(env)
    a, b = Daphne(env, tmp_path, "a"), Daphne(env, tmp_path, "b")
    clients = [
        TableClient("gracz1@a", a, demo.encounter, demo.sessions["gracz1"]),
        TableClient("gracz2@b", b, demo.encounter, demo.sessions["gracz2"]),
        TableClient("mistrz@a", a, demo.encounter, demo.sessions["mistrz"]),
        TableClient("mistrz@b", b, demo.encounter, demo.sessions["mistrz"]),
    ]
    gm = clients[3]
    try:
        a.launch()
        b.launch()
        a.ready()
        b.ready()
        for client in clients:
            await client.start()
        roll = {"type": "gm_roll", "dice": 2, "label": "przed", "secret": False}
        before = (await gm.command(roll)).seq
        for client in clients:  # the fan-out works before the restart
            await client.wait_seq(before, timeout=2)

        redis.restart()
        restarted = time.monotonic()
        label = f"po-{secrets.token_hex(3)}"
        after = (await gm.command({**roll, "label": label})).seq
        sent = gm.sent_at  # the send that counted (a socket the restart closed loses one)
        assert after == before + 1
        caught = await asyncio.gather(*(c.wait_seq(after, timeout=RECOVERY_S) for c in clients))
        lags = {c.name: round(p.at - sent, 3) for c, p in zip(clients, caught, strict=True)}
        assert all(label in p.html for p in caught)
        assert max(lags.values()) < RECOVERY_S, lags
        print(
            f"sent {sent - restarted:.2f}s after the restart (resent {gm.resent}x);",
            f"caught up after {lags}",
            {c.name: (c.connections, c.closes, c.syncs_sent) for c in clients},
        )
        # One more change after the dust settles: the fan-out itself is back for everyone.
        sent = time.monotonic()
        last = (await gm.command({**roll, "label": "znowu"})).seq
        for client in clients:
            await client.wait_seq(last, timeout=RECOVERY_S)
        assert_log_whole(database, demo.encounter, last)
        assert not any(c.errors for c in clients), [c.errors for c in clients]
    except BaseException:
        print(a.logs(), b.logs(), {c.name: c.closes for c in clients}, sep="\n")
        raise
    finally:
        for client in clients:
            await client.stop()
        a.close()
        b.close()
