"""Benchmark target: the server's own work per action, without sockets or a second process.

The live-table target (200 tables × 6 sockets on one daphne process, 100 actions/s) leaves
about 5 ms of one core per action for everything: the command (`services.run_command`) and a
push rendered for each of the table's six viewers (the GM and five players). This measures
exactly that work in one process against a private PostgreSQL database built by
`scripts.bench.world` (three tables; the first is played): the current combatant's controller
moves 2 m, takes Zasłona and ends the turn, over and over.

`python -m scripts.bench.profile [--actions N] [--cprofile [TOP]]` prints a JSON
breakdown (median/p95 ms of run_command, of the six pushes, per region per audience, bytes per
push); `--cprofile` adds the top functions by cumulative time. `measure(actions)` returns the
same dict, run in a fresh interpreter so the caller's Django setup is not disturbed.

`--daphne` plays the same actions through a real server instead (daphne, PostgreSQL, a private
redis-server, six websockets, one action at a time) and reports the latency to the last socket
and the server's CPU per action in its event loop and in Channels' sync thread: what the
in-process figures leave out (frames, the channel layer, thread hops, the access check).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TABLES = 3
WARMUP = 20  # actions before timing: imports, template compilation, caches warm


def measure(actions: int = 120) -> dict[str, Any]:
    """The breakdown for `actions` timed actions, from a fresh interpreter."""
    command = [sys.executable, "-m", "scripts.bench.profile", "--actions", str(actions)]
    out = subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return dict(json.loads(out))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=120, help="timed actions (default 120)")
    parser.add_argument(
        "--cprofile", type=int, nargs="?", const=30, default=0, metavar="TOP",
        help="also profile the timed actions and list the TOP functions by cumulative time",
    )  # fmt: skip
    parser.add_argument("--daphne", action="store_true", help="through a real server instead")
    args = parser.parse_args(argv)
    result = serve(args.actions) if args.daphne else run(args.actions, cprofile=args.cprofile)
    print(_dumps(result))
    return 0


def run(actions: int, *, cprofile: int = 0) -> dict[str, Any]:
    """Set up Django on a private database, build the world and play `actions` actions.

    The in-memory channel layer publishes (a plain thread has no server loop to hand the
    message to, so Redis would cost a new event loop per command here: `--daphne` has it)."""
    sys.path.insert(0, str(ROOT))
    from scripts.bench.processes import private_database

    with private_database("eleora_profile") as url:
        os.environ.update(DATABASE_URL=url, FAST_PASSWORD_HASHER="1")
        os.environ.pop("REDIS_URL", None)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "eleora_site.settings")
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connections

        call_command("migrate", verbosity=0)
        try:
            return Session().play(actions, cprofile)
        finally:
            connections.close_all()  # the database is dropped next


@dataclass(frozen=True)
class Sample:
    """One action: wall and CPU (this process, every thread) seconds, and each push's bytes."""

    command: float
    command_cpu: float
    pushes: float
    pushes_cpu: float
    sizes: list[int]


class Session:
    """One benchmark table and its six viewers; `act` plays the next action."""

    def __init__(self) -> None:
        from django.contrib.auth.models import User

        from combat import services
        from scripts.bench import world

        self.table = world.clones(TABLES)["tables"][0]
        users = {u.username: u.pk for u in User.objects.all()}
        self.users = users
        self.viewers = [
            services.Viewer(users[name], name == world.GM) for name in (world.GM, *world.PLAYERS)
        ]
        self.seq = self.table["seq"]
        self.turn = 0
        self.count = 0
        self.sockets = [Socket(v) for v in self.viewers]

    def act(self) -> Sample:
        """One action by the current combatant's controller, timed."""
        from combat import services

        order = self.table["order"]
        who = order[self.turn % len(order)]
        viewer = services.Viewer(self.users[who["user"]], who["user"] == "bench-gm")
        step = self.count % 3
        command: dict[str, Any] = {"type": ("move", "guard", "end_turn")[step], "actor": who["id"]}
        if step == 0:
            command["metres"] = 2
        elif step == 2:
            self.turn += 1
        self.count += 1
        t0, c0 = time.perf_counter(), time.process_time()
        done = services.run_command(
            self.table["pk"], command, viewer=viewer, command_id=f"p{self.count}", seen_seq=self.seq
        )
        t1, c1 = time.perf_counter(), time.process_time()
        self.seq = done.seq
        sizes = push(self.table["pk"], done.head or done.seq, self.sockets)  # the command's hop
        t2, c2 = time.perf_counter(), time.process_time()
        return Sample(t1 - t0, c1 - c0, t2 - t1, c2 - c1, [sizes[s] for s in self.sockets])

    def play(self, actions: int, cprofile: int) -> dict[str, Any]:
        for _n in range(WARMUP):
            self.act()
        with RegionTimer() as regions:
            samples = [self.act() for _n in range(actions)]
        result: dict[str, Any] = {
            "actions": actions,
            "run_command_ms": _stats([s.command for s in samples]),
            "run_command_cpu_ms": _stats([s.command_cpu for s in samples]),
            "pushes_ms": _stats([s.pushes for s in samples]),
            "pushes_cpu_ms": _stats([s.pushes_cpu for s in samples]),
            "per_action_ms": _stats([s.command + s.pushes for s in samples]),
            "per_action_cpu_ms": _stats([s.command_cpu + s.pushes_cpu for s in samples]),
            "push_bytes": {
                "gm": _stats([s.sizes[0] for s in samples], scale=1),
                "player": _stats([b for s in samples for b in s.sizes[1:]], scale=1),
            },
            "regions_per_action_ms": regions.per_action(actions),
            "regions_cold_ms": self.regions(),
        }
        if cprofile:
            result["cprofile"] = _profiled(lambda: [self.act() for _n in range(actions)], cprofile)
        return result

    def regions(self) -> dict[str, dict[str, Any]]:
        """Each region rendered alone from nothing for the GM and for a player: [ms, bytes]."""
        from combat import fragments, services

        table = services.load_table(self.table["pk"])
        out = {}
        for audience, viewer in (("gm", self.viewers[0]), ("player", self.viewers[1])):
            out[audience] = {
                name: [round(ms, 3), size]
                for name, (ms, size) in region_costs(fragments, table, viewer).items()
            }
        return out


class RegionTimer:
    """Time spent rendering records (`fragments.Render`: regions whole, and the order's rows
    and the log's entries alone) per region and audience while in use: a record that did not
    change is not rendered, so this is where the pushes' rendering goes."""

    def __enter__(self) -> RegionTimer:
        from combat import fragments

        self.cls = fragments.Render
        self.real = (self.cls.region, self.cls.item)
        self.spent: dict[str, float] = {}
        region, item = self.real

        def timed(real: Any) -> Any:
            def call(render: Any, part: Any, *args: Any, **kwargs: Any) -> str:
                t0 = time.perf_counter()
                try:
                    return str(real(render, part, *args, **kwargs))
                finally:
                    key = f"{render.view.audience} {part.id}"
                    self.spent[key] = self.spent.get(key, 0.0) + time.perf_counter() - t0

            return call

        self.cls.region, self.cls.item = timed(region), timed(item)  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        self.cls.region, self.cls.item = self.real  # type: ignore[method-assign]

    def per_action(self, actions: int) -> dict[str, float]:
        ordered = sorted(self.spent.items(), key=lambda kv: -kv[1])
        return {key: round(1000 * spent / actions, 3) for key, spent in ordered}


@dataclass(eq=False)
class Socket:
    """A table socket as `combat.consumers` sees it: a viewer, a language, what it sent."""

    viewer: Any
    language: str = "pl"
    seq: int = -1
    sent: Any = None  # the records it was sent last (combat.pushes)
    shown: dict[str, Any] = field(default_factory=dict)


def push(pk: int, seq: int, sockets: list[Socket]) -> dict[Socket, int]:
    """What the consumer does when the table moved: one call works out for these sockets
    what changed since each one's last push (`live.render`), then each encodes it; the bytes
    each would send."""
    from combat import consumers, live

    rendered = live.render(pk, seq, sockets)
    sizes = {}
    for socket, one in zip(sockets, rendered, strict=True):
        socket.seq, socket.sent, socket.shown = one.seq, one.tree, one.shown
        payload = {"t": "swap", "seq": one.seq, "html": one.html, "now": time.time(), "ack": None}
        sizes[socket] = len(consumers.encode(payload).encode())
    return sizes


def region_costs(fragments: Any, table: Any, viewer: Any) -> dict[str, tuple[float, int]]:
    """Each region for this viewer with every cache empty: what the first socket pays."""
    from django.utils import translation

    costs = {}
    with translation.override("pl"):
        for name in fragments.regions_of(viewer):
            fragments.clear_caches()
            t0 = time.perf_counter()
            html = fragments.render_one(table, viewer, name)
            costs[name] = ((time.perf_counter() - t0) * 1000, len(html))
    fragments.clear_caches()
    return costs


def serve(actions: int) -> dict[str, Any]:
    """The actions through one daphne process on PostgreSQL and Redis, as the benchmark runs
    it, but one table and one action at a time: latency and the server's CPU per action."""
    sys.path.insert(0, str(ROOT))
    from scripts.bench.processes import Daphne, RedisServer, private_database, server_env

    with tempfile.TemporaryDirectory() as tmp, private_database("eleora_profile") as url:
        redis = RedisServer(Path(tmp))
        redis.start()
        env = server_env(Path(tmp), url, redis.url, debug=False)
        env.update(SECRET_KEY="profile-" + "x" * 40, LOG_LEVEL="ERROR")
        server = Daphne(env, Path(tmp), "profile")
        try:
            for module in (
                ["manage.py", "migrate", "-v0"],
                ["-m", "scripts.bench.world", "1", "--clones"],
            ):
                done = subprocess.run(
                    [sys.executable, *module], cwd=ROOT, env=env, check=True, capture_output=True
                )
            world = json.loads(done.stdout.decode().strip().splitlines()[-1])
            server.start()
            return asyncio.run(_over_sockets(server, world, actions))
        finally:
            server.close()
            redis.close()


async def _over_sockets(server: Any, world: dict[str, Any], actions: int) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    table = world["tables"][0]
    users = ["bench-gm", *sorted({c["user"] for c in table["order"]} - {"bench-gm"})]
    url = f"ws://127.0.0.1:{server.port}/ws/encounters/{table['pk']}/"
    arrived: dict[int, dict[str, tuple[float, int]]] = {}
    sockets = {}
    for user in users:
        headers = {"Origin": server.base, "Cookie": f"sessionid={world['sessions'][user]}"}
        sockets[user] = await connect(url, additional_headers=headers, max_size=2**22)
        seq = json.loads(await sockets[user].recv())["seq"]

    async def read(user: str, ws: Any) -> None:
        async for raw in ws:
            message = json.loads(raw)
            if message.get("t") == "swap" and isinstance(message.get("seq"), int):
                size = len(raw.encode())  # bytes on the wire
                arrived.setdefault(message["seq"], {})[user] = (time.perf_counter(), size)

    readers = [asyncio.create_task(read(user, ws)) for user, ws in sockets.items()]
    play = Player(table)
    for _n in range(WARMUP):
        seq = await play.one(sockets, arrived, seq)
    pid = server.proc.pid
    before, latencies, sizes = _thread_cpu(pid), [], []
    for _n in range(actions):
        sent, seq = time.perf_counter(), await play.one(sockets, arrived, seq)
        latencies.append(max(at for at, _ in arrived[seq].values()) - sent)
        sizes.append(sum(size for _, size in arrived[seq].values()))
    after = _thread_cpu(pid)
    for task in readers:
        task.cancel()
    spent = {tid: cpu - before.get(tid, 0.0) for tid, cpu in after.items()}
    loop = spent.pop(pid, 0.0)
    return {
        "actions": actions,
        "latency_ms": _stats(latencies),
        "server_cpu_ms_per_action": {
            "event loop": round(1000 * loop / actions, 2),
            "sync thread": round(1000 * sum(spent.values()) / actions, 2),
        },
        "bytes_per_action": _stats(sizes, scale=1),
    }


class Player:
    """The load's turn: the current combatant's controller moves, takes Zasłona, ends it."""

    def __init__(self, table: dict[str, Any]) -> None:
        self.order, self.count = table["order"], 0

    async def one(self, sockets: dict[str, Any], arrived: dict[int, Any], seq: int) -> int:
        """Send the next action and wait until every socket has its seq (then a pause, so
        the figures are per action, not per burst)."""
        who = self.order[(self.count // 3) % len(self.order)]
        kind = ("move", "guard", "end_turn")[self.count % 3]
        command = {"type": kind, "actor": who["id"], **({"metres": 2} if kind == "move" else {})}
        self.count += 1
        message = {"type": "command", "id": uuid.uuid4().hex, "seq": seq, "command": command}
        await sockets[who["user"]].send(json.dumps(message))
        while len(arrived.get(seq + 1, ())) < len(sockets):
            await asyncio.sleep(0.0005)
        await asyncio.sleep(0.05)
        return seq + 1


def _thread_cpu(pid: int) -> dict[int, float]:
    """CPU seconds of each thread of a process (Linux /proc)."""
    out = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        out[int(task.name)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def _dumps(result: dict[str, Any]) -> str:
    """JSON with one line per measured thing (a list, as the cProfile one, one per item)."""

    def value(v: Any) -> str:
        if isinstance(v, list):
            return (
                "[\n" + ",\n".join(f"    {json.dumps(x, ensure_ascii=False)}" for x in v) + "\n  ]"
            )
        return json.dumps(v, ensure_ascii=False)

    return "{\n" + ",\n".join(f"  {json.dumps(k)}: {value(v)}" for k, v in result.items()) + "\n}"


def _stats(values: list[float], scale: float = 1000) -> dict[str, float]:
    ordered = sorted(v * scale for v in values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"median": round(statistics.median(ordered), 3), "p95": round(p95, 3)}


def _profiled(work: Callable[[], Any], top: int) -> list[str]:
    profile = cProfile.Profile()
    profile.enable()
    work()
    profile.disable()
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(top)
    return [line for line in out.getvalue().splitlines() if line.strip()]


if __name__ == "__main__":
    sys.exit(main())
