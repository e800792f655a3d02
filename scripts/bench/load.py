"""One load process: the sockets of some tables, their actions on a fixed schedule, and what
each socket received and when.

`python -m scripts.bench.load PLAN.json RESULT.json`. The plan names the servers, the tables
(for Eleora: their turn order and the users' sessions), the schedule (`start_at`, `period`,
`duration`, wall-clock epoch seconds so that every load process starts together) and optional
chaos (random client disconnects). Each table sends one action per period at its own offset,
whatever happened to the last one (open loop: a slow server cannot slow the load down).

An action's latency is from just before its send to its arrival at the *last* socket of the
table. Floors (`mode: echo`) relay the sender's message; Eleora (`mode: eleora`) sends a real
command as its controller would and every socket waits for a push with the new seq.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

MAX_DELAY_S = 4.0  # the page's reconnect backoff cap
CYCLE = ("move", "guard", "end_turn")  # a turn as the load plays it: move 2 m, Zasłona, end
GRACE_S = 10.0  # after the schedule, how long an action may still arrive before it is lost
CURRENT_GRACE_S = 0.25  # a socket that lags its table's head by less than this is current


@dataclass
class Action:
    key: int  # echo: the action's number; eleora: the seq it should produce
    sent: float  # time.time() just before the send
    arrivals: dict[int, float] = field(default_factory=dict)  # socket index → time.time()
    command_id: str = ""
    error: str = ""
    message: str = ""  # the command as sent, for a resend with the same id
    acked: bool = False
    on_connection: int = 0  # the sender's connection it went out on
    resent: int = 0


@dataclass
class Sock:
    """One browser tab: reconnects after any close with the page's capped, jittered backoff."""

    table: Table
    index: int
    url: str
    headers: dict[str, str]
    heartbeat: float | None
    seq: int = -1
    ws: ClientConnection | None = None
    connections: int = 0
    closes: int = 0
    failures: list[str] = field(default_factory=list)  # why connecting or a socket failed
    bad_since: float | None = None  # closed, or behind its table's head
    outages: list[tuple[float, float | None]] = field(default_factory=list)  # (from, to)

    def check(self, now: float) -> None:
        """Every 100 ms: is this tab open and on its table's current seq?"""
        table = self.table
        lagging = self.seq < table.head and now - table.head_at > CURRENT_GRACE_S
        ok = self.ws is not None and not lagging
        if not ok and self.bad_since is None:
            self.bad_since = now if self.ws is None else table.head_at
        elif ok and self.bad_since is not None:
            self.outages.append((self.bad_since, now))
            self.bad_since = None

    async def run(self, stop: asyncio.Event, delay: float = 0.0) -> None:
        """Open (after `delay`: players arrive over a few seconds, not in one instant), and
        open again after any close."""
        await asyncio.sleep(delay)
        attempt = 0
        while not stop.is_set():
            try:
                async with connect(
                    self.url,
                    additional_headers=self.headers,
                    open_timeout=10,
                    compression=None,
                    max_size=2**22,
                ) as ws:
                    attempt = 0
                    self.ws, self.connections = ws, self.connections + 1
                    beat = asyncio.create_task(self.beat(ws)) if self.heartbeat else None
                    try:
                        async for raw in ws:
                            self.table.received(self, raw)
                    finally:
                        if beat is not None:
                            beat.cancel()
                        self.ws = None
            except (OSError, TimeoutError, WebSocketException) as exc:
                self.failures.append(f"{type(exc).__name__}: {exc}"[:160])
            self.closes += 1
            delay = min(MAX_DELAY_S, 0.25 * 2**attempt) * (0.5 + random.random() / 2)
            attempt += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), delay)

    async def beat(self, ws: ClientConnection) -> None:
        assert self.heartbeat is not None
        with contextlib.suppress(WebSocketException):
            while True:
                await asyncio.sleep(self.heartbeat * (0.5 + random.random()))
                await ws.send(json.dumps({"type": "sync", "seq": max(self.seq, 0)}))

    async def drop(self) -> None:
        """A network drop as the client sees it: the socket goes away without a goodbye."""
        if self.ws is not None and self.ws.transport is not None:
            self.ws.transport.abort()


class Table:
    def __init__(self, plan: dict[str, Any], spec: dict[str, Any], servers: list[str]) -> None:
        self.mode, self.spec = plan["mode"], spec
        self.pad = "x" * int(plan.get("pad", 0))
        self.actions: list[Action] = []
        self.pending: dict[str, Action] = {}
        self.skipped = 0  # scheduled while the previous command was still unanswered
        self.sizes: list[int] = []  # bytes of each push
        self.head = int(spec.get("seq", 0))
        self.head_at = 0.0
        self.turn = self.step = 0
        self.socks: list[Sock] = []
        users = spec.get("users") or [None] * int(plan.get("sockets", 6))
        for i, user in enumerate(users):
            # A table's sockets span the servers, or (`affinity`, as a proxy that routes by
            # the socket's path would) all go to one.
            spread = 0 if plan.get("affinity") else i
            server = servers[(spread + spec["n"]) % len(servers)]
            headers = {"Origin": server.replace("ws://", "http://")}
            if user is not None:
                headers["Cookie"] = f"sessionid={plan['sessions'][user]}"
            url = f"{server}{plan['path'].format(pk=spec['pk'])}"
            self.socks.append(Sock(self, i, url, headers, plan.get("heartbeat")))
        self.user_sock = dict(zip(users, self.socks, strict=True))

    # --- sending ----------------------------------------------------------------------------

    async def act(self, number: int) -> None:
        if self.mode == "echo":
            await self._echo(number)
        else:
            await self._command()

    async def _echo(self, number: int) -> None:
        sock = self.socks[0]
        action = Action(key=number, sent=time.time())
        self.actions.append(action)
        if sock.ws is None:
            action.error = "not connected"
            return
        payload = json.dumps({"k": number, "pad": self.pad})
        with contextlib.suppress(WebSocketException):
            await sock.ws.send(payload)

    async def _command(self) -> None:
        """The current combatant's controller plays the next step of the turn. While the last
        command is unanswered nothing new is sent; if its socket closed meanwhile it is sent
        again with the same id, like a player clicking again (the log runs an id once)."""
        waiting = next(iter(self.pending.values()), None)
        if waiting is not None:
            sock = self._sender()
            if sock.ws is not None and sock.connections != waiting.on_connection:
                waiting.resent += 1
                waiting.on_connection = sock.connections
                with contextlib.suppress(WebSocketException):
                    await sock.ws.send(waiting.message)
            self.skipped += 1
            return
        sock = self._sender()
        actor = self.spec["order"][self.turn % len(self.spec["order"])]
        kind = CYCLE[self.step]
        command: dict[str, Any] = {"type": kind, "actor": actor["id"]}
        if kind == "move":
            command["metres"] = 2
        action = Action(key=self.head + 1, sent=time.time(), command_id=uuid.uuid4().hex)
        if sock.ws is None or sock.seq < 0:
            # Closed, or open without its first push yet: a page has nothing to click then.
            self.skipped += 1
            return
        action.message = json.dumps(
            {"type": "command", "id": action.command_id, "seq": sock.seq, "command": command}
        )
        action.on_connection = sock.connections
        self.actions.append(action)
        self.pending[action.command_id] = action
        with contextlib.suppress(WebSocketException):
            await sock.ws.send(action.message)

    def _sender(self) -> Sock:
        actor = self.spec["order"][self.turn % len(self.spec["order"])]
        return self.user_sock[actor["user"]]

    def _acked(self, action: Action) -> None:
        action.acked = True
        self.step = (self.step + 1) % len(CYCLE)
        if self.step == 0:
            self.turn += 1

    # --- receiving --------------------------------------------------------------------------

    def received(self, sock: Sock, raw: str | bytes) -> None:
        now = time.time()
        msg = json.loads(raw)
        if self.mode == "echo":
            action = self._find(int(msg["k"]))
            if action is not None:
                action.arrivals.setdefault(sock.index, now)
            return
        if msg.get("t") == "error":
            action = self.pending.pop(str(msg.get("id")), None)
            if action is not None:
                action.error = str(msg.get("message"))
            return
        acked = self.pending.pop(str(msg.get("ack")), None) if msg.get("ack") else None
        if acked is not None:
            self._acked(acked)
        seq = msg.get("seq")
        self.sizes.append(len(raw))
        if not isinstance(seq, int) or seq < sock.seq:
            return
        sock.seq = seq
        if seq > self.head:
            self.head, self.head_at = seq, now
        for action in reversed(self.actions):
            if action.key > seq:
                continue
            if sock.index in action.arrivals:
                break
            action.arrivals[sock.index] = now

    def _find(self, key: int) -> Action | None:
        for action in reversed(self.actions):
            if action.key == key:
                return action
        return None


async def run(plan: dict[str, Any]) -> dict[str, Any]:
    servers = plan["servers"]
    tables = [Table(plan, spec, servers) for spec in plan["tables"]]
    stop = asyncio.Event()
    socks = [s for t in tables for s in t.socks]
    rate = float(plan.get("connect_rate", 100))  # new sockets per second from this process
    tasks = [asyncio.create_task(s.run(stop, delay=i / rate)) for i, s in enumerate(socks)]
    connected = await _connected(tables, plan["start_at"])
    schedule = asyncio.create_task(_schedule(plan, tables))
    watch = asyncio.create_task(_watch(plan, tables))
    chaos = asyncio.create_task(_chaos(plan, tables))
    await schedule
    await asyncio.sleep(min(GRACE_S, float(plan.get("grace", GRACE_S))))
    await _stop(watch)
    await _stop(chaos)
    stop.set()
    await asyncio.gather(*(s.ws.close() for t in tables for s in t.socks if s.ws is not None))
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return _report(tables, connected)


async def _connected(tables: list[Table], start_at: float) -> int:
    """Wait for the start; how many sockets had their first push (or were open) by then."""
    await asyncio.sleep(max(0.0, start_at - time.time()))
    return sum(1 for t in tables for s in t.socks if s.ws is not None)


async def _schedule(plan: dict[str, Any], tables: list[Table]) -> None:
    period, start = float(plan["period"]), float(plan["start_at"])
    count = max(1, int(float(plan["duration"]) / period))
    offsets = [period * i / len(tables) for i in range(len(tables))]
    due = sorted(
        (start + k * period + offsets[i], k, i) for k in range(count) for i in range(len(tables))
    )
    if plan.get("idle"):
        await asyncio.sleep(max(0.0, start + float(plan["duration"]) - time.time()))
        return
    running: set[asyncio.Task[None]] = set()
    for at, k, i in due:
        delay = at - time.time()
        if delay > 0:
            await asyncio.sleep(delay)
        task = asyncio.create_task(tables[i].act(k))
        running.add(task)
        task.add_done_callback(running.discard)


async def _watch(plan: dict[str, Any], tables: list[Table]) -> None:
    """Every 100 ms, every socket: open and current? Each lapse is an outage (from, to)."""
    with contextlib.suppress(asyncio.CancelledError):
        while True:
            now = time.time()
            for table in tables:
                for sock in table.socks:
                    sock.check(now)
            await asyncio.sleep(0.1)


async def _chaos(plan: dict[str, Any], tables: list[Table]) -> None:
    """Random client drops: each second, each socket drops with probability `drop_rate`."""
    rate = float(plan.get("drop_rate", 0))
    if not rate:
        return
    rng = random.Random(plan.get("seed", 0))
    await asyncio.sleep(max(0.0, plan["start_at"] - time.time()))
    end = plan["start_at"] + plan["duration"]
    while time.time() < end:
        for table in tables:
            for sock in table.socks:
                if rng.random() < rate:
                    await sock.drop()
        await asyncio.sleep(1.0)


async def _stop(task: asyncio.Task[Any]) -> Any:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        return await task
    return None


def _report(tables: list[Table], connected: int) -> dict[str, Any]:
    latencies: list[float] = []
    lost, unanswered, errors, acknowledged = 0, 0, [], []
    for table in tables:
        for action in table.actions:
            if action.error:
                errors.append(action.error)
                continue
            if action.command_id:
                if not action.acked:
                    unanswered += 1
                    continue
                acknowledged.append(action.command_id)
            missing = len(table.socks) - len(action.arrivals)
            lost += missing
            if not missing and not action.resent:
                latencies.append((max(action.arrivals.values()) - action.sent) * 1000)
    socks = [s for t in tables for s in t.socks]
    return {
        "sockets": len(socks),
        "connected_at_start": connected,
        "actions": sum(len(t.actions) for t in tables),
        "skipped": sum(t.skipped for t in tables),
        "latencies_ms": latencies,
        "lost_deliveries": lost,
        "unanswered": unanswered,
        "errors": errors,
        "acknowledged": acknowledged,
        "resent": sum(a.resent for t in tables for a in t.actions),
        "connections": sum(s.connections for s in socks),
        "failures": sorted({f for s in socks for f in s.failures})[:10],
        "push_bytes": sorted(n for t in tables for n in t.sizes),
        "final": {str(t.spec["pk"]): [s.seq for s in t.socks] for t in tables},
        "outages": [o for s in socks for o in s.outages]
        + [(s.bad_since, None) for s in socks if s.bad_since is not None],
    }


def main() -> int:
    plan = json.loads(Path(sys.argv[1]).read_text())
    with contextlib.suppress(ImportError):
        import uvloop  # type: ignore[import-not-found]

        uvloop.install()
    result = asyncio.run(run(plan))
    Path(sys.argv[2]).write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
