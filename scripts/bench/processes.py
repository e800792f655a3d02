"""Real server processes for the multi-process tests: a private PostgreSQL database, a private
redis-server, daphne processes serving the app, and a websocket client that behaves like the
table page (heartbeat with its seq, reconnect with capped backoff after any close).

Everything here is owned by the test that starts it: a database named `eleora_twoproc_<hex>`
(dropped at the end) and a redis-server on a free port (so restarting it disturbs nobody).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from combat.homing import CLOSE_MOVED
from scripts.bench.page import Page

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN = os.environ.get("ELEORA_TEST_PG", "postgres://postgres@127.0.0.1:5432/postgres")
HEARTBEAT_S = 25.0  # as static/js/table.js
MAX_DELAY_S = 4.0  # the page's reconnect backoff cap
DEADLINE_RE = re.compile(r'data-deadline="([0-9.]+)"')


def backoff(attempt: int) -> float:
    """The page's wait before its reconnect `attempt` (0 first): capped, doubling, jittered."""
    return min(MAX_DELAY_S, 0.25 * 2**attempt) * (0.5 + random.random() / 2)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(proc: subprocess.Popen[bytes], port: int, timeout: float = 30.0) -> None:
    """Until something listens on `port`; fails at once if `proc` exits first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            try:
                proc.wait(timeout=0.05)  # doubles as the pause between attempts
            except subprocess.TimeoutExpired:
                continue
            raise RuntimeError(f"{proc.args[0]} exited early with code {proc.returncode}") from None
    raise RuntimeError(f"nothing listened on {port} within {timeout}s")


def stop(proc: subprocess.Popen[bytes] | None, sig: int = signal.SIGTERM) -> None:
    """Signal one process we started (by its pid) and reap it; SIGKILL if it lingers."""
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(sig)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


# --- PostgreSQL and Redis -------------------------------------------------------------------


@contextlib.contextmanager
def private_database(prefix: str = "eleora_twoproc") -> Iterator[str]:
    """A fresh, empty PostgreSQL database; its URL. Dropped (connections and all) at the end."""
    name = f"{prefix}_{secrets.token_hex(4)}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    base = PG_ADMIN.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


class RedisServer:
    """A private redis-server on a free loopback port, without persistence: a restart forgets
    every group and queue, as a crashed production Redis without AOF would."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.starts += 1
        log = (self.tmp / f"redis-{self.starts}.log").open("wb")
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", str(self.tmp)],
            stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        log.close()
        wait_for_port(self.proc, self.port, timeout=10)

    def kill(self) -> None:
        """A crash: SIGKILL, nothing flushed."""
        stop(self.proc, signal.SIGKILL)

    def restart(self) -> None:
        self.kill()
        self.start()

    def close(self) -> None:
        stop(self.proc)


# --- the app --------------------------------------------------------------------------------


def server_env(
    tmp: Path, database_url: str, redis_url: str | None = None, *, debug: bool = True
) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DATABASE_URL=database_url,
        MEDIA_ROOT=str(tmp / "media"),
        FAST_PASSWORD_HASHER="1",
        DEBUG="1" if debug else "0",
        HTTPS="0",  # plain http on loopback (deploy/nginx-loopback.conf): no TLS to redirect to
        SECRET_KEY="bench-" + secrets.token_hex(16),
        PYTHONUNBUFFERED="1",
        DJANGO_SETTINGS_MODULE="eleora_site.settings",
        LOG_LEVEL="INFO",
    )
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env


# Run in a `python -c` subprocess against the test's database: an encounter with the demo's
# heroes and wolves (its table settings taken from the campaign now), and one session per user.
SETUP = """
import json, sys
import django
django.setup()
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from characters.models import Campaign
from combat import services

options = json.loads(sys.argv[1])
campaign = Campaign.objects.get(name="Wilki z Czarnego Lasu")
if options.get("settings"):
    campaign.settings = {**campaign.settings, **options["settings"]}
    campaign.save(update_fields=["settings"])
encounter = campaign.encounters.order_by("pk").first()
if options.get("new_encounter"):
    gm = campaign.gm
    encounter = services.create_encounter(campaign=campaign, name="Test", by=gm)
    services.add_combatants(
        encounter.pk,
        viewer=services.Viewer(user_id=gm.pk, is_gm=True),
        characters=list(campaign.characters.values_list("pk", flat=True)),
    )
    encounter.refresh_from_db()
sessions = {}
for user in User.objects.filter(username__in=["mistrz", "gracz1", "gracz2"]):
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    sessions[user.username] = store.session_key
users = {str(u.pk): u.username for u in User.objects.all()}
head = encounter.rules().state_to_dict(services.load_table(encounter.pk).state)
combatants = {
    c["name"]: {"id": cid, "player": users.get(str(c.get("controller")))}
    for cid, c in head["combatants"].items()
}
print(json.dumps({"encounter": encounter.pk, "seq": encounter.seq, "sessions": sessions,
                  "combatants": combatants}))
"""


@dataclass(frozen=True)
class Demo:
    encounter: int
    seq: int
    sessions: dict[str, str]
    combatants: dict[str, dict[str, Any]]  # name → {"id": …, "player": username or None}

    def cid(self, name: str) -> str:
        return str(self.combatants[name]["id"])


def prepare_demo(env: dict[str, str], **options: Any) -> Demo:
    """Migrate and seed the database in `env`, then SETUP with `options`."""
    manage = [sys.executable, str(ROOT / "manage.py")]
    for args in (["migrate", "--noinput", "-v0"], ["seed_demo"]):
        done = subprocess.run(
            [*manage, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
    done = subprocess.run(
        [sys.executable, "-c", SETUP, json.dumps(options)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return Demo(**json.loads(done.stdout.strip().splitlines()[-1]))


class Daphne:
    """One server process; `start` again after `kill` is a restart on the same port."""

    APP = "eleora_site.asgi:application"

    def __init__(
        self,
        env: dict[str, str],
        tmp: Path,
        name: str,
        port: int | None = None,
        *,
        app: str = APP,
        cpus: str | None = None,
        extra: tuple[str, ...] = (),
    ) -> None:
        self.env, self.tmp, self.name = env, tmp, name
        self.port = port or free_port()
        self.app, self.cpus, self.extra = app, cpus, extra
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def launch(self) -> None:
        """Start without waiting (several servers boot in parallel); then `ready`."""
        self.starts += 1
        log = (self.tmp / f"daphne-{self.name}-{self.starts}.log").open("wb")
        pin = ["taskset", "-c", self.cpus] if self.cpus else []
        self.proc = subprocess.Popen(
            [*pin, sys.executable, "-m", "daphne", "-v", "0", "-b", "127.0.0.1",
             "-p", str(self.port), *self.extra, self.app],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        log.close()

    def ready(self) -> None:
        assert self.proc is not None
        wait_for_port(self.proc, self.port)

    def start(self) -> None:
        self.launch()
        self.ready()

    def kill(self) -> None:
        """A crash: SIGKILL, no shutdown of sockets or timers."""
        stop(self.proc, signal.SIGKILL)

    def close(self) -> None:
        stop(self.proc)

    def logs(self) -> str:
        return "\n".join(
            f"--- {p.name}\n{p.read_text(errors='replace')[-4000:]}"
            for p in sorted(self.tmp.glob(f"daphne-{self.name}-*.log"))
        )


def entries(database_url: str, encounter: int) -> list[tuple[int, str | None, str | None]]:
    """The encounter's log as (seq, command id, command type), in order."""
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT seq, command_id, command->>'type' FROM combat_encounterentry "
            "WHERE encounter_id = %s ORDER BY seq",
            [encounter],
        ).fetchall()
    return [(int(s), c, t) for s, c, t in rows]


def assert_log_whole(database_url: str, encounter: int, head: int) -> None:
    """Entries 1..head, each once, none missing, none beyond; command ids unique."""
    log = entries(database_url, encounter)
    assert [s for s, _, _ in log] == list(range(1, head + 1)), log
    ids = [c for _, c, _ in log if c is not None]
    assert len(ids) == len(set(ids)), log


# --- a table page, as a websocket client ----------------------------------------------------


@dataclass
class Push:
    seq: int
    html: str
    at: float  # time.monotonic() on arrival
    wall: float  # time.time() on arrival
    connection: int  # which connection of this client (1 = the first)


@dataclass
class TableClient:
    """What static/js/table.js does, minus the DOM: keeps its seq, sends `sync` with it every
    `heartbeat` seconds (None: never), and reconnects after any close with capped backoff."""

    name: str
    server: Daphne
    encounter: int
    session: str
    heartbeat: float | None = HEARTBEAT_S
    reconnect: bool = True
    seq: int = -1
    pushes: list[Push] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    closes: list[str] = field(default_factory=list)  # close codes / connect failures, in order
    syncs_sent: int = 0
    connections: int = 0
    resent: int = 0  # commands sent again after their socket closed unanswered
    sent_at: float = 0.0  # time.monotonic() of the last command sent

    def __post_init__(self) -> None:
        self.page = Page()  # region id -> its HTML, as the page shows it now
        self._changed = asyncio.Condition()
        self._socket: ClientConnection | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.server.port}/ws/encounters/{self.encounter}/"

    @property
    def html(self) -> str:
        return self.pushes[-1].html if self.pushes else ""

    async def start(self, timeout: float = 10.0) -> Push:
        """Connect (in the background, for good) and return the first push."""
        self._task = asyncio.create_task(self._run(), name=f"client-{self.name}")
        return await self.wait_for(lambda p: True, timeout)

    async def stop(self) -> None:
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        attempt = 0
        headers = {"Cookie": f"sessionid={self.session}", "Origin": self.server.base}
        while not self._stopping:
            moved = False
            try:
                async with connect(self.url, additional_headers=headers, open_timeout=5) as ws:
                    attempt = 0
                    await self._connected(ws)
                    beat = asyncio.create_task(self._beat(ws)) if self.heartbeat else None
                    try:
                        async for raw in ws:
                            await self._receive(json.loads(raw))
                    finally:
                        if beat is not None:
                            beat.cancel()
                        self._socket = None
                    self.closes.append(f"closed {ws.close_code}")
                    moved = ws.close_code == CLOSE_MOVED  # sent home: back at once
            except (OSError, TimeoutError, WebSocketException) as exc:
                self.closes.append(type(exc).__name__)
            if not self.reconnect:
                return
            await asyncio.sleep(0.0 if moved else backoff(attempt))
            attempt += 1

    async def _connected(self, ws: ClientConnection) -> None:
        async with self._changed:
            self._socket = ws
            self.connections += 1
            self._changed.notify_all()

    async def _beat(self, ws: ClientConnection) -> None:
        assert self.heartbeat is not None
        with contextlib.suppress(WebSocketException):
            while True:
                await asyncio.sleep(self.heartbeat)
                await ws.send(json.dumps({"type": "sync", "seq": max(self.seq, 0)}))
                self.syncs_sent += 1

    async def _receive(self, msg: dict[str, Any]) -> None:
        async with self._changed:
            if msg.get("t") == "error":
                self.errors.append(msg)
            # Like the page: a swap without a seq is a preview; a stale push is ignored.
            elif msg.get("t") == "ack":
                pass  # the answer to a command whose result a push already brought
            elif isinstance(msg.get("seq"), int) and msg["seq"] >= self.seq:
                self.seq = msg["seq"]
                self.page.apply(msg["html"])
                html = "".join(self.page.values())  # the page as it reads after this push
                self.pushes.append(
                    Push(msg["seq"], html, time.monotonic(), time.time(), self.connections)
                )
            self._changed.notify_all()

    async def wait_for(self, test: Callable[[Push], bool], timeout: float) -> Push:
        """The first push from now on (or already the latest) that passes `test`."""
        start = len(self.pushes) - 1 if self.pushes else 0

        def found() -> Push | None:
            return next((p for p in self.pushes[start:] if test(p)), None)

        async with asyncio.timeout(timeout), self._changed:
            await self._changed.wait_for(lambda: found() is not None)
        push = found()
        assert push is not None
        return push

    async def wait_seq(self, seq: int, timeout: float) -> Push:
        return await self.wait_for(lambda p: p.seq >= seq, timeout)

    async def wait_connected(self, after: int = 0, timeout: float = 15.0) -> None:
        """Until an open socket (the `after`+1-th connection or later)."""
        async with asyncio.timeout(timeout), self._changed:
            await self._changed.wait_for(
                lambda: self._socket is not None and self.connections > after
            )

    async def send(self, message: dict[str, Any]) -> None:
        assert self._socket is not None, f"{self.name} is not connected"
        await self._socket.send(json.dumps(message))

    async def command(self, command: dict[str, Any], timeout: float = 10.0) -> Push:
        """Send a command and wait for this client's push past its seq (or fail on its error).

        If the socket closes first, the command may be lost with it (the page queues nothing):
        like a player clicking again, send it again once reconnected, with the same id, which
        the log runs at most once."""
        before, cid = self.seq, f"t-{uuid.uuid4().hex[:16]}"

        def answered() -> bool:
            return self.seq > before or any(e.get("id") == cid for e in self.errors)

        async with asyncio.timeout(timeout):
            while True:
                await self.wait_connected(after=0, timeout=timeout)
                self.sent_at, on = time.monotonic(), self.connections
                with contextlib.suppress(WebSocketException):
                    await self.send({"type": "command", "id": cid, "command": command})
                async with self._changed:
                    await self._changed.wait_for(lambda on=on: answered() or self.connections > on)
                    if answered():
                        break
                self.resent += 1
        refused = [e for e in self.errors if e.get("id") == cid]
        assert not refused, f"{command} refused: {refused}"
        return self.pushes[-1]


def deadline_in(html: str) -> float | None:
    """The first prompt countdown's deadline (epoch seconds) in a pushed page, if any."""
    found = DEADLINE_RE.search(html)
    return float(found.group(1)) if found else None
