"""One load process: the sockets of some tables, their actions at random times, and what
each socket received and when.

`python -m scripts.bench.load PLAN.json RESULT.json`. The plan names the servers, the tables
(for Eleora: their users, who plays which seat, and the users' sessions), the schedule
(`start_at`, `period`, `duration`, wall-clock epoch seconds so that every load process starts
together) and optional chaos (random client disconnects). Each table acts at the arrivals of
its own Poisson process of mean interval `period` (seeded by the plan's seed and the table),
whatever happened to the last action (open loop: a slow server cannot slow the load down).

An action's latency is from just before its send to its arrival at the *last* socket of the
table. Floors (`mode: echo`) relay the sender's message; Eleora (`mode: play`) plays as its
players would (scripts/bench/bot.py): each socket keeps the regions it was pushed, the one who
can act picks a form of its page and sends it, a prompt is answered by its player's socket a
moment after it opens, and every socket waits for a push with the new seq.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from combat.homing import CLOSE_MOVED
from scripts.bench import bot
from scripts.bench.processes import backoff

ANSWER_DELAY_S = (0.3, 1.5)  # a player reads the prompt, then answers
CONFIRM_DELAY_S = (0.2, 0.8)  # a player looks at the route drawn, then confirms the move
MOVES = 0.5  # how often a player on a map taps it rather than take another action
# Errors that are no refusal of the rules: the server failed, or the bot sent a bad message.
FAULTS = ("Błąd serwera", "Błędna wiadomość", "Za dużo poleceń")
GRACE_S = 10.0  # after the schedule, how long an action may still arrive before it is lost
CURRENT_GRACE_S = 0.25  # a socket that lags its table's head by less than this is current


@dataclass
class Action:
    key: int  # echo: the action's number; play: the seq it should produce
    sent: float  # time.time() just before the send
    arrivals: dict[int, float] = field(default_factory=dict)  # socket index → time.time()
    command_id: str = ""
    error: str = ""
    message: str = ""  # the command as sent, for a resend with the same id
    acked: bool = False
    on_connection: int = 0  # the sender's connection it went out on
    resent: int = 0
    sender: int = 0  # the socket that sent it
    kind: str = ""  # play: what the bot chose (bot.Form.kind): prompt, play, attack, …
    logged: bool = False  # a command the log keeps by its id (a play's commands have their own)
    form: bot.Form | None = None
    idle: bool = False  # answered without a new seq: it changed nothing (a play that waits)


@dataclass
class Sock:
    """One browser tab: reconnects after any close with the page's capped, jittered backoff."""

    table: Table
    index: int
    url: str
    headers: dict[str, str]
    heartbeat: float | None
    viewer: bot.Viewer | None = None  # play: the page the bot reads
    seq: int = -1
    ws: ClientConnection | None = None
    connections: int = 0
    pushes: int = 0  # of this connection: its first is the whole page, not an action's news
    closes: int = 0
    failures: list[str] = field(default_factory=list)  # why connecting or a socket failed
    bad_since: float | None = None  # closed, or behind its table's head
    outages: list[tuple[float, float | None]] = field(default_factory=list)  # (from, to)
    successor: tuple[ClientConnection, str | bytes] | None = None  # going home (`move`)
    moving: asyncio.Future[None] | None = None

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
        open again after any close; go home when asked, as the page does (`move`)."""
        await asyncio.sleep(delay)
        attempt = 0
        while not stop.is_set():
            moved = False
            try:
                next_, first = self.successor or (await self.open(), None)
                self.successor = None
                async with next_ as ws:
                    attempt = 0
                    self.ws, self.connections, self.pushes = ws, self.connections + 1, 0
                    if first is not None:
                        self.table.received(self, first)
                    beat = asyncio.create_task(self.beat(ws)) if self.heartbeat else None
                    try:
                        async for raw in ws:
                            self.table.received(self, raw)
                    finally:
                        if beat is not None:
                            beat.cancel()
                        if self.successor is None:
                            self.ws = None
                        moved = ws.close_code == CLOSE_MOVED  # sent home: back at once
            except (OSError, TimeoutError, WebSocketException) as exc:
                self.failures.append(f"{type(exc).__name__}: {exc}"[:160])
                self.ws = None
            self.closes += 1
            if self.successor is None:
                delay = 0.0 if moved else backoff(attempt)
                attempt += 1
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), delay)

    async def open(self) -> ClientConnection:
        return await connect(
            self.url,
            additional_headers=self.headers,
            open_timeout=10,
            compression=None,
            max_size=2**22,
        )

    async def move(self, old: ClientConnection) -> None:
        """Asked to go home (combat/homing.py): open the next socket while `old` keeps the
        page current; once the new one brought its first push, it takes over and `old` is
        closed. A new one that fails first leaves `old` as it was."""
        try:
            new = await self.open()
            first = await new.recv()
        except (OSError, TimeoutError, WebSocketException):
            return
        if self.ws is not old:
            await new.close()
            return
        self.successor = (new, first)
        await old.close()

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
        self.news = 0  # bytes of the pushes an action sent (not a connection's first)
        self.head = int(spec.get("seq", 0))
        self.head_at = 0.0
        self.socks: list[Sock] = []
        self.rng = random.Random(f"{plan.get('seed', 0)}:bot:{spec['pk']}")
        self.controllers: dict[str, str] = spec.get("controllers", {})
        self.refusals = bot.Refusals()
        self.refused: Counter[str] = Counter()  # refusals by their message
        self.nothing = 0  # scheduled while no page offered anything to send
        self.routes = 0  # taps on the map (a route's answer: for the one socket, no seq)
        self.reach: dict[int, float] = {}  # socket -> how far toward the foe it tapped last
        self.answering: set[int] = set()  # sockets with a prompt answer on its way
        self.until = float(plan["start_at"]) + float(plan["duration"])
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
            sock = Sock(self, i, url, headers, plan.get("heartbeat"))
            if self.mode == "play":
                sock.viewer = bot.Viewer(str(user), gm=i == 0, controllers=self.controllers)
            self.socks.append(sock)

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
        """The viewer who can act sends what its page offers (bot.pick). While the last
        command is unanswered nothing new is sent; if its socket closed meanwhile it is sent
        again with the same id, like a player clicking again (the log runs an id once)."""
        waiting = next(iter(self.pending.values()), None)
        if waiting is not None:
            await self._resend(waiting)
            self.skipped += 1
            return
        await self._play(prompts=False)

    async def _resend(self, waiting: Action) -> None:
        sock = self.socks[waiting.sender]
        if sock.ws is not None and sock.connections != waiting.on_connection:
            waiting.resent += 1
            waiting.on_connection = sock.connections
            with contextlib.suppress(WebSocketException):
                await sock.ws.send(waiting.message)

    async def _play(self, *, prompts: bool) -> bool:
        """Pick and send one form (only prompt answers if `prompts`); False if none. Where
        the best a page offers is no attack and the table has a map, the player may rather
        tap the map beside a foe (`bot.route`): the answer's confirm form is the move."""
        ready = [s for s in self.socks if s.ws is not None and s.seq >= 0 and s.viewer]
        # Closed, or open without its first push yet: a page has nothing to click then.
        viewers = [s.viewer for s in ready if s.viewer is not None]
        refused = self.refusals.active(self.head)
        got = bot.pick(viewers, self.controllers, self.rng, refused=refused, prompts=prompts)
        if got is not None and got[1].kind() in ("other", "end") and self.rng.random() < MOVES:
            sock = next(s for s in ready if s.viewer is got[0])
            if await self._tap(sock, got[0]):
                return True
        if got is None:
            if not prompts:
                self.nothing += 1
            return False
        await self._send(next(s for s in ready if s.viewer is got[0]), *got)
        return True

    async def _send(self, sock: Sock, viewer: bot.Viewer, form: bot.Form) -> None:
        """Fill the form as its page would and send it: an action the table waits for."""
        _, shared = viewer.forms()
        action = Action(key=self.head + 1, sent=0.0, command_id=uuid.uuid4().hex)
        msg = bot.message(
            form,
            shared,
            self.rng,
            command_id=action.command_id,
            seq=sock.seq,
            foe=bot.foe_of(viewer, self.controllers),
        )
        action.message = json.dumps(msg)
        action.kind, action.form, action.sender = form.kind(), form, sock.index
        action.logged = msg["type"] == "command"
        action.on_connection = sock.connections
        action.sent = time.time()
        self.actions.append(action)
        self.pending[action.command_id] = action
        assert sock.ws is not None
        with contextlib.suppress(WebSocketException):
            await sock.ws.send(action.message)

    async def confirm(self, sock: Sock) -> None:
        """A route's answer came: the player looks at the path, then confirms the move (if
        the route allows it and the table is not waiting for another command)."""
        await asyncio.sleep(self.rng.uniform(*CONFIRM_DELAY_S))
        viewer = sock.viewer
        if viewer is None or sock.ws is None or self.pending or time.time() >= self.until:
            return
        found, _ = viewer.forms()
        moves = [f for f in found if f.region == bot.ROUTE and f.fillable()]
        viewer.regions.drop(bot.ROUTE)
        if moves:
            await self._send(sock, viewer, moves[0])
            return
        reach = self.reach.get(sock.index, 1.0) / 2  # too far (or a wall): a nearer tap
        if reach >= 0.2:
            await self._tap(sock, viewer, reach)

    async def _tap(self, sock: Sock, viewer: bot.Viewer, reach: float = 1.0) -> bool:
        """Tap the map beside a foe (`reach` of the way there); False if the page has no
        map or the turn is not this viewer's."""
        tap = bot.route(viewer, bot.foe_of(viewer, self.controllers), self.rng, reach)
        if tap is None or sock.ws is None:
            return False
        self.routes += 1
        self.reach[sock.index] = reach
        with contextlib.suppress(WebSocketException):
            await sock.ws.send(json.dumps({**tap, "seq": sock.seq}))
        return True

    async def answer(self, sock: Sock) -> None:
        """A prompt opened for this socket's viewer: it is answered after the player read
        it; while the table's last command is unanswered, a little later."""
        try:
            await asyncio.sleep(self.rng.uniform(*ANSWER_DELAY_S))
            while time.time() < self.until:
                if not self.pending:
                    await self._play(prompts=True)
                    return
                await asyncio.sleep(0.1)
        finally:
            self.answering.discard(sock.index)

    # --- receiving --------------------------------------------------------------------------

    def received(self, sock: Sock, raw: str | bytes) -> None:
        now = time.time()
        msg = json.loads(raw)
        if self.mode == "echo":
            action = self._find(int(msg["k"]))
            if action is not None:
                action.arrivals.setdefault(sock.index, now)
            return
        if msg.get("t") == "move":  # sent home: the page opens its next socket
            moving = sock.moving
            if sock.ws is not None and (moving is None or moving.done()):
                sock.moving = asyncio.ensure_future(sock.move(sock.ws))
            return
        if msg.get("t") == "error":
            action = self.pending.pop(str(msg.get("id")), None)
            if action is not None:
                action.error = str(msg.get("message"))
                self.refused[action.error] += 1
                if action.form is not None:
                    self.refusals.add(action.form, self.head)
            return
        acked = self.pending.pop(str(msg.get("ack")), None) if msg.get("ack") else None
        seq = msg.get("seq")
        if acked is not None:
            acked.acked = True
            acked.idle = isinstance(seq, int) and seq < acked.key  # in the log, yet no news
            # Tried again later: what changed nothing, and an NPC's turn played (a GM plays
            # it once, then lets the players declare theirs).
            if acked.form is not None and (acked.idle or acked.kind == "play"):
                self.refusals.add(acked.form, self.head)
        if isinstance(seq, int):
            size = len(raw.encode() if isinstance(raw, str) else raw)  # bytes on the wire
            self.sizes.append(size)  # a push (a route's answer is for one socket alone)
            sock.pushes += 1
            if sock.pushes > 1:
                self.news += size
        fresh = not isinstance(seq, int) or seq >= sock.seq  # a page ignores a stale push
        if sock.viewer is not None and msg.get("html") and fresh:
            self._read(sock, sock.viewer, str(msg["html"]))
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

    def _read(self, sock: Sock, viewer: bot.Viewer, html: str) -> None:
        """Keep the regions; a prompt newly open for this viewer gets its answer on the way."""
        changed = viewer.regions.update(html)
        if bot.ROUTE in changed:
            self._later(self.confirm(sock))
            return
        viewer.regions.drop(bot.ROUTE)  # the table moved on: a route drawn before is stale
        if "table-prompts" not in changed or not viewer.regions.has_prompt_for_me():
            return
        if sock.index not in self.answering and time.time() < self.until:
            self.answering.add(sock.index)
            self._later(self.answer(sock))

    def _later(self, job: Any) -> None:
        task = asyncio.get_running_loop().create_task(job)
        ANSWERS.add(task)
        task.add_done_callback(ANSWERS.discard)

    def _find(self, key: int) -> Action | None:
        for action in reversed(self.actions):
            if action.key == key:
                return action
        return None


ANSWERS: set[asyncio.Task[None]] = set()  # answers and confirms under way (a reference each)


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
    if plan.get("idle"):
        end = float(plan["start_at"]) + float(plan["duration"])
        await asyncio.sleep(max(0.0, end - time.time()))
        return
    running: set[asyncio.Task[None]] = set()
    for at, k, i in arrivals(plan, [t.spec for t in tables]):
        delay = at - time.time()
        if delay > 0:
            await asyncio.sleep(delay)
        task = asyncio.create_task(tables[i].act(k))
        running.add(task)
        task.add_done_callback(running.discard)


def arrivals(plan: dict[str, Any], specs: list[dict[str, Any]]) -> list[tuple[float, int, int]]:
    """(when, its number at the table, table index) of every action, in time order: each
    table's a Poisson process of mean interval `period` over [start_at, start_at + duration),
    seeded by the plan's seed and the table's pk (the same world and seed, the same times)."""
    period, start = float(plan["period"]), float(plan["start_at"])
    end = start + float(plan["duration"])
    due = []
    for i, spec in enumerate(specs):
        rng = random.Random(f"{plan.get('seed', 0)}:schedule:{spec['pk']}")
        at, k = start + rng.expovariate(1 / period), 0
        while at < end:
            due.append((at, k, i))
            at, k = at + rng.expovariate(1 / period), k + 1
    return sorted(due)


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
    by_kind: dict[str, list[float]] = {}  # play: the latencies of each kind of action
    lost, unanswered, errors, acknowledged = 0, 0, [], []
    for table in tables:
        for action in table.actions:
            if action.error:
                # A rule's refusal is play (the bot's figures count them by their text); an
                # error is the server failing, or a message the bot should not have sent.
                if not action.kind or action.error.startswith(FAULTS):
                    errors.append(action.error)
                continue
            if action.command_id:
                if not action.acked:
                    unanswered += 1
                    continue
                if action.logged:
                    acknowledged.append(action.command_id)
                if action.idle:
                    continue
            missing = len(table.socks) - len(action.arrivals)
            lost += missing
            if not missing and not action.resent:
                latencies.append((max(action.arrivals.values()) - action.sent) * 1000)
                if action.kind:
                    by_kind.setdefault(action.kind, []).append(latencies[-1])
    socks = [s for t in tables for s in t.socks]
    played = [a for t in tables for a in t.actions if a.kind]
    refused: Counter[str] = sum((t.refused for t in tables), Counter())
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
        "bot": {
            "sent": dict(Counter(a.kind for a in played)),
            "done": dict(Counter(a.kind for a in played if a.acked and not a.idle)),
            "idle": sum(1 for a in played if a.idle),
            "logged": sum(1 for a in played if a.acked and a.logged),
            "nothing_to_do": sum(t.nothing for t in tables),
            "map_taps": sum(t.routes for t in tables),
            "refusals": dict(refused),
            "faults": sum(n for m, n in refused.items() if m.startswith(FAULTS)),
            "latency_ms": by_kind,
        },
        "connections": sum(s.connections for s in socks),
        "failures": sorted({f for s in socks for f in s.failures})[:10],
        "push_bytes": sorted(n for t in tables for n in t.sizes),
        "news_bytes": sum(t.news for t in tables),
        "final": {str(t.spec["pk"]): [s.seq for s in t.socks] for t in tables},
        "outages": [o for s in socks for o in s.outages]
        + [(s.bad_since, None) for s in socks if s.bad_since is not None],
    }


def merge_bot(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """The bot's figures of several load processes together (`_report`'s "bot"), with the
    median latency of each kind of action (a played NPC turn is several commands)."""
    out: dict[str, Any] = {"sent": Counter(), "done": Counter(), "refusals": Counter()}
    latencies: dict[str, list[float]] = {}
    for part in parts:
        for key in ("sent", "done", "refusals"):
            out[key].update(part.get(key, {}))
        for kind, values in part.get("latency_ms", {}).items():
            latencies.setdefault(kind, []).extend(values)
        for key in ("idle", "logged", "nothing_to_do", "map_taps", "faults"):
            out[key] = out.get(key, 0) + int(part.get(key, 0))
    out = {k: dict(v.most_common()) if isinstance(v, Counter) else v for k, v in out.items()}
    out["latency_p50_ms"] = {
        kind: round(sorted(values)[len(values) // 2], 1) for kind, values in latencies.items()
    }
    return out


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
