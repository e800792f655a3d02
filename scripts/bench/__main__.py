"""The benchmark: `python -m scripts.bench [--short]` (or `make bench` / `make bench-short`).

It starts what it measures — a private PostgreSQL database, a private redis-server, daphne
processes serving Eleora (or one of the two floors) — and drives them from separate load
processes over real websockets (scripts/bench/load.py). It writes every figure to a JSON
file and, for a full run, the table in docs/performance.md. `--short` is the smoke check the
test suite runs: the same code paths on a few tables for a few seconds, nothing timed strictly.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scripts.bench import load, report
from scripts.bench.processes import (
    ROOT,
    Daphne,
    RedisServer,
    entries,
    free_port,
    prepare_demo,
    private_database,
    server_env,
    stop,
    wait_for_port,
)

SERVER_CPU = "0"  # one server process on core 0, the load processes on core 1
LOAD_CPU = "1"
ELEORA_PATH = "/ws/encounters/{pk}/"
# daphne gives the application 5 s to accept a socket, then answers 403 and the browser
# retries: under a reconnect storm the work for handshakes it gave up on was wasted and the
# queue never drained. The servers here get 30 s, as the README recommends for deployments.
DAPHNE_ARGS = tuple(os.environ.get("BENCH_DAPHNE_ARGS", "--websocket_connect_timeout 30").split())
FLOOR_PATH = "/ws/{pk}/"
CONNECT_RATE = 60.0  # new sockets per second, all load processes together (the floors)
# Eleora's: each connect renders its viewer's first page, about 30 ms of a core for viewers
# of different tables, so one process serves some 30 connects a second. Faster, the handshakes
# time out (the client's open timeout is 10 s), are retried, and the server renders pages for
# sockets already gone: 287 of 996 sockets open after 3 minutes at 60 a second.
ELEORA_CONNECT_RATE = 20.0


@dataclass
class Size:
    """How much a run does: the full figures, or the smoke check's few seconds."""

    tables: int
    idle_sockets: int
    duration: float
    resilience: float
    loaders: int
    clicks: int
    drop_rate: float
    grace: float  # after the last action, how long it may take to arrive before it is lost
    runs: int = 1  # of the headline parts (`repeated`): the median and the spread reported
    headline: float = 6.0  # seconds of each headline run

    @classmethod
    def of(cls, short: bool, minutes: float | None) -> Size:
        if short:
            return cls(6, 60, 6.0, minutes * 60 if minutes else 30.0, 2, 0, 0.01, 3.0)
        return cls(200, 3000, 60.0, minutes * 60 if minutes else 600.0, 4, 40, 0.002, 6.0, 3, 300.0)


@dataclass
class Bench:
    size: Size
    tmp: Path
    database: str
    redis: RedisServer
    layer: str = "core"
    results: dict[str, Any] = field(default_factory=dict)
    secret: str = field(default_factory=lambda: "bench-" + secrets.token_hex(16))
    proxy: list[int] = field(default_factory=list)  # nginx's processes while the front door is up

    def env(self, layer: str | None = None) -> dict[str, str]:
        env = server_env(self.tmp, self.database, self.redis.url, debug=False)
        env["CHANNEL_LAYER"] = layer or self.layer
        env["SECRET_KEY"] = self.secret  # the world's sessions are signed with it
        env["LOG_LEVEL"] = "ERROR"
        return env

    def python(self, *args: str, timeout: float) -> str:
        """Run `python ARGS` against the benchmark's database; its output, or RuntimeError."""
        done = subprocess.run(
            [sys.executable, *args],
            cwd=ROOT,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if done.returncode:
            raise RuntimeError(f"{' '.join(args)} failed:\n{done.stderr[-3000:]}")
        return done.stdout

    def world(self, tables: int) -> dict[str, Any]:
        out = self.python("-m", "scripts.bench.world", str(tables), timeout=900)
        return dict(json.loads(out.strip().splitlines()[-1]))


# --- process measurements -------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_of(pids: list[int]) -> float:
    """CPU seconds of these processes so far (0 for one that is gone)."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            total += cpu_seconds(pid)
    return total


def postgres_cpu() -> float:
    """CPU seconds of the machine's PostgreSQL so far: every postgres process's own, and the
    postmaster's reaped children (the backends of connections already closed). The benchmark
    is the only client of the server while it runs, so this is its database's work."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            name, rest = stat.read_text().split(" (", 1)[1].rsplit(")", 1)
            if name != "postgres":
                continue
            fields = rest.split()
            total += (int(fields[11]) + int(fields[12])) / tick
            if Path(f"/proc/{fields[1]}/comm").read_text().strip() != "postgres":
                total += (int(fields[13]) + int(fields[14])) / tick  # the postmaster
    return total


def cpu_by_part(
    bench: Bench, servers: list[int], loads: list[int], start_at: float, duration: float
) -> Callable[[], dict[str, Any]]:
    """Measure in a thread, over the middle of the run as `cpu_window`, the CPU of every part
    (the servers, PostgreSQL, Redis, the load processes); the returned call waits and gives
    each part's share of a core and its milliseconds per action (`per_action(actions)`)."""
    lead = min(5.0, duration / 4)
    found: dict[str, Any] = {}

    def sample() -> dict[str, float]:
        redis = [bench.redis.proc.pid] if bench.redis.proc else []
        found = {
            "server": cpu_of(servers),
            "postgres": postgres_cpu(),
            "redis": cpu_of(redis),
            "load": cpu_of(loads),
        }
        if bench.proxy:
            found["proxy"] = cpu_of(bench.proxy)
        return found

    def measure() -> None:
        time.sleep(max(0.0, start_at + lead - time.time()))
        before, t0 = sample(), time.monotonic()
        time.sleep(max(1.0, duration - 2 * lead))
        after, elapsed = sample(), time.monotonic() - t0
        found["seconds"] = elapsed
        found["spent"] = {k: after[k] - before[k] for k in before}

    thread = threading.Thread(target=measure, daemon=True)
    thread.start()

    def result() -> dict[str, Any]:
        thread.join()
        return found

    return result


def per_action(cpu: dict[str, Any], actions: int, duration: float) -> dict[str, Any]:
    """Each part's share of a core and its CPU milliseconds per action, the actions in the
    window counted as the run's share (the schedule is even over the run)."""
    if not cpu.get("seconds"):
        return {}
    in_window = actions * cpu["seconds"] / duration if duration else 0
    spent = cpu["spent"]
    return {
        "percent": {k: round(100 * v / cpu["seconds"], 1) for k, v in spent.items()},
        "ms_per_action": {
            k: round(1000 * v / in_window, 2) if in_window else None for k, v in spent.items()
        },
    }


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def summary(values: list[float]) -> dict[str, float | int]:
    if not values:
        return {"n": 0}
    ordered = sorted(values)

    def pct(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))], 2)

    return {
        "n": len(ordered),
        "p50": pct(0.50),
        "p90": pct(0.90),
        "p99": pct(0.99),
        "max": round(ordered[-1], 2),
        "mean": round(statistics.fmean(ordered), 2),
    }


# --- load processes -------------------------------------------------------------------------


def run_load(
    bench: Bench,
    plan: dict[str, Any],
    tables: list[dict[str, Any]],
    *,
    pin: str | None = LOAD_CPU,
    during: Any = None,
    server_pids: list[int] | None = None,
) -> dict[str, Any]:
    """Split the tables over the load processes, run them, merge what they report.

    `during(start_at)` runs in this process while the load runs (CPU windows, faults). The
    start is set here, when the servers are up, so that every socket has had time to connect
    (the plan's `connect_rate` new sockets a second, all load processes together; the floors'
    `CONNECT_RATE` when it has none) and get its first push
    before the first action (`schedule`)."""
    count = max(1, min(bench.size.loaders, len(tables)))
    chunks = [tables[i::count] for i in range(count)]
    sockets = len(tables) * int(plan.get("sockets", 6))
    connect_rate = float(plan.get("connect_rate", CONNECT_RATE))
    plan = {
        **plan,
        "connect_rate": connect_rate / count,
        "start_at": schedule(sockets, connect_rate),
    }
    procs = []
    for i, chunk in enumerate(chunks):
        plan_file = bench.tmp / f"plan-{i}.json"
        plan_file.write_text(json.dumps({**plan, "tables": chunk}))
        pinned = ["taskset", "-c", pin] if pin else []
        procs.append(
            subprocess.Popen(
                [
                    *pinned,
                    sys.executable,
                    "-m",
                    "scripts.bench.load",
                    str(plan_file),
                    str(bench.tmp / f"result-{i}.json"),
                ],
                cwd=ROOT,
            )
        )
    cpu = cpu_by_part(
        bench, server_pids or [], [p.pid for p in procs], plan["start_at"], plan["duration"]
    )
    extra = during(plan["start_at"]) if during else None
    for proc in procs:
        proc.wait(timeout=plan["start_at"] - time.time() + plan["duration"] + 300)
        if proc.returncode:
            raise RuntimeError(f"a load process failed with {proc.returncode}")
    parts = [json.loads((bench.tmp / f"result-{i}.json").read_text()) for i in range(count)]
    merged = merge(parts)
    merged["during"] = extra
    merged["seconds"] = plan["duration"]
    merged["cpu"] = per_action(cpu(), merged["actions"], plan["duration"])
    return merged


def merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ("sockets", "connected_at_start", "actions", "skipped", "lost_deliveries"):
        out[key] = sum(p.get(key, 0) for p in parts)
    for key in ("unanswered", "resent", "connections"):
        out[key] = sum(p.get(key, 0) for p in parts)
    latencies = [x for p in parts for x in p["latencies_ms"]]
    out["latency_ms"] = summary(latencies)
    out["errors"] = [e for p in parts for e in p["errors"]][:20]
    out["failures"] = sorted({f for p in parts for f in p.get("failures", [])})[:10]
    out["error_count"] = sum(len(p["errors"]) for p in parts)
    out["acknowledged"] = [a for p in parts for a in p["acknowledged"]]
    out["final"] = {k: v for p in parts for k, v in p["final"].items()}
    out["outages"] = [o for p in parts for o in p["outages"]]
    sizes = sorted(n for p in parts for n in p.get("push_bytes", []))
    out["push_bytes_median"] = sizes[len(sizes) // 2] if sizes else 0
    actions = out.get("actions", 0)  # bytes to a table's sockets per action, pages aside
    out["bytes_per_action"] = (
        round(sum(p.get("news_bytes", 0) for p in parts) / actions) if actions else 0
    )
    if any("bot" in p for p in parts):
        out["bot"] = load.merge_bot([p.get("bot", {}) for p in parts])
    return out


FLOOR_APPS = {  # floor (a) as Eleora is built, and as the first reports measured it
    "channels": "scripts.bench.floors:application",
    "channels_per_socket": "scripts.bench.floors:application_per_socket",
}


def schedule(sockets: int, rate: float) -> float:
    """When the load starts: after every socket had time to connect and get its first push."""
    return time.time() + 3.0 + sockets / rate * 1.3


def cpu_window(pids: list[int], start_at: float, duration: float) -> dict[str, Any]:
    """Server CPU over the middle of the run (the first and last seconds left out)."""
    lead = min(5.0, duration / 4)
    time.sleep(max(0.0, start_at + lead - time.time()))
    before = [cpu_seconds(p) for p in pids]
    t0 = time.monotonic()
    time.sleep(max(1.0, duration - 2 * lead))
    spent = [cpu_seconds(p) - b for p, b in zip(pids, before, strict=True)]
    elapsed = time.monotonic() - t0
    return {
        "cpu_percent": [round(100 * s / elapsed, 1) for s in spent],
        "rss_mb": [round(rss_kb(p) / 1024, 1) for p in pids],
    }


# --- scenarios ------------------------------------------------------------------------------


@contextlib.contextmanager
def servers(
    bench: Bench,
    count: int,
    *,
    app: str | None = None,
    layer: str | None = None,
    ports: tuple[int, ...] = (),
) -> Iterator[list[Daphne]]:
    """`count` daphne processes, each pinned to its own core (one: core 0), on `ports` if
    given (the front door's), else on free ones."""
    env = bench.env(layer)
    started = []
    for i in range(count):
        name = f"{(app or 'eleora').split('.')[-1].split(':')[0]}-{i}"
        port = ports[i] if ports else None
        started.append(
            Daphne(
                env,
                bench.tmp,
                name,
                port,
                app=app or Daphne.APP,
                cpus=str(i % 2),
                extra=DAPHNE_ARGS,
            )
        )
    try:
        for d in started:
            d.launch()
        for d in started:
            d.ready()
        yield started
    finally:
        for d in started:
            d.close()


def eleora_load(
    bench: Bench,
    name: str,
    *,
    processes: int = 1,
    layer: str | None = None,
    affinity: bool = False,
    duration: float | None = None,
    proxied: bool = False,
) -> dict[str, Any]:
    """`proxied`: through the front door (`front_door`), which routes a table's tabs to one
    process by the socket's path."""
    world = bench.world(bench.size.tables)
    tables = [{**t, "n": i, "users": users_of(t)} for i, t in enumerate(world["tables"])]
    plan = {
        "mode": "play",
        "path": ELEORA_PATH,
        "sessions": world["sessions"],
        "period": 2.0,
        "duration": duration or bench.size.duration,
        "heartbeat": 25.0,
        "grace": bench.size.grace,
        "affinity": affinity,
        "seed": 15,
        "connect_rate": ELEORA_CONNECT_RATE,
    }
    if proxied:
        with (
            servers(bench, processes, layer=layer, ports=PROXY_PORTS) as running,
            front_door(bench) as via,
        ):
            result = load_servers(bench, running, plan, tables, via=via)
    else:
        with servers(bench, processes, layer=layer) as running:
            result = load_servers(bench, running, plan, tables)
    result["log"] = check_logs(bench.database, world, result)
    drop_raw(result)
    bench.results.setdefault("push_bytes", result["push_bytes_median"])
    print(f"  {name}: {brief(result)}", flush=True)
    print(f"    bot: {json.dumps(result['bot'], ensure_ascii=False)}", flush=True)
    return result


def load_servers(
    bench: Bench,
    running: list[Daphne],
    plan: dict[str, Any],
    tables: list[dict[str, Any]],
    *,
    via: str | None = None,
) -> dict[str, Any]:
    """`run_load` against these daphne processes (or through the front door `via`), with
    their CPU over the run's middle; the load is pinned to the other core when there is one
    server, and floats with two."""
    pids = [d.proc.pid for d in running if d.proc]
    return run_load(
        bench,
        {**plan, "servers": [via] if via else [f"ws://127.0.0.1:{d.port}" for d in running]},
        tables,
        pin=None if len(running) > 1 else LOAD_CPU,
        during=lambda at: cpu_window(pids, at, plan["duration"]),
        server_pids=pids,
    )


def drop_raw(result: dict[str, Any]) -> None:
    """What the database check needed and the report does not keep."""
    for key in ("final", "acknowledged", "outages"):
        result.pop(key, None)


# The README's deployment on plain HTTP on loopback: its own upstreams and locations (the
# files deploy/nginx.conf includes), not a copy.
PROXY_CONF = "deploy/nginx-loopback.conf"
PROXY_PORTS = (8001, 8002)  # the daphne processes the file names
PROXY_URL = "ws://127.0.0.1:8080"  # where it listens


@contextlib.contextmanager
def front_door(bench: Bench) -> Iterator[str]:
    """nginx from Debian's package with `deploy/nginx-loopback.conf`, run from the repository
    root as the README says; only its pid file and error log go to the benchmark's folder."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    (ROOT / "build" / "nginx").mkdir(parents=True, exist_ok=True)
    bench.python("manage.py", "collectstatic", "--noinput", "-v0", timeout=300)
    globals_ = f"daemon off; pid {bench.tmp}/nginx.pid; error_log {bench.tmp}/nginx.log warn;"
    proc = subprocess.Popen([nginx, "-p", f"{ROOT}/", "-c", PROXY_CONF, "-g", globals_], cwd=ROOT)
    try:
        wait_for_port(proc, int(PROXY_URL.rsplit(":", 1)[1]))
        bench.proxy = [proc.pid, *children(proc.pid)]
        yield PROXY_URL
    finally:
        bench.proxy = []
        stop(proc)


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (nginx's workers)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def users_of(table: dict[str, Any]) -> list[str]:
    """A table's tabs (six or fewer): its GM first, then each of its players once."""
    return list(table["users"])


def floor_load(
    bench: Bench, name: str, *, kind: str, processes: int = 1, duration: float | None = None
) -> dict[str, Any]:
    tables = [{"pk": i, "n": i} for i in range(bench.size.tables)]
    duration = duration or bench.size.duration
    plan = {
        "mode": "echo",
        "path": FLOOR_PATH,
        "sockets": 6,
        "pad": bench.results.get("push_bytes", 4096),
        "period": 2.0,
        "duration": duration,
        "grace": bench.size.grace,
    }
    if kind in FLOOR_APPS:
        with servers(bench, processes, app=FLOOR_APPS[kind]) as running:
            result = load_servers(bench, running, plan, tables)
    else:
        port = free_port()
        proc = subprocess.Popen(
            ["taskset", "-c", SERVER_CPU, sys.executable, "-m", "scripts.bench.floors", str(port)],
            cwd=ROOT,
        )
        try:
            wait_for_port(proc, port)
            plan["servers"] = [f"ws://127.0.0.1:{port}"]
            result = run_load(
                bench,
                plan,
                tables,
                during=lambda at: cpu_window([proc.pid], at, duration),
                server_pids=[proc.pid],
            )
        finally:
            stop(proc)
    drop_raw(result)
    print(f"  {name}: {brief(result)}", flush=True)
    return result


def idle(bench: Bench) -> dict[str, Any]:
    """Sockets that only stay open (with the page's heartbeat): memory and CPU per process.
    The world's tables seat four to six tabs (five on average): enough of them for
    `idle_sockets`, the last one's tabs cut to the number."""
    wanted = bench.size.idle_sockets
    world = bench.world(max(1, wanted * 11 // 50 + 2))
    tables: list[dict[str, Any]] = []
    for i, t in enumerate(world["tables"]):
        opened = sum(len(table["users"]) for table in tables)
        if opened >= wanted:
            break
        tables.append({**t, "n": i, "users": users_of(t)[: wanted - opened]})
    duration = 60.0 if bench.size.tables > 10 else 5.0
    with servers(bench, 1) as running:
        server = running[0]
        assert server.proc is not None
        warm = {
            "mode": "play",
            "servers": [f"ws://127.0.0.1:{server.port}"],
            "path": ELEORA_PATH,
            "sessions": world["sessions"],
            "idle": True,
            "connect_rate": ELEORA_CONNECT_RATE,
            "period": 2.0,
            "duration": 1.0,
            "grace": 0,
        }
        run_load(bench, warm, tables[:1])
        before = rss_kb(server.proc.pid)
        plan = {
            **warm,
            "duration": duration,
            "heartbeat": 25.0,
        }
        pid = server.proc.pid
        # Each connect renders its viewer's first page (3,000 different viewers): paced at
        # the plan's ELEORA_CONNECT_RATE, every socket is open and served before the CPU window.
        result = run_load(bench, plan, tables, during=lambda at: cpu_window([pid], at, duration))
        after = result["during"]["rss_mb"][0] * 1024
    sockets = result["sockets"]
    out = {
        "sockets": sockets,
        "connected": result["connected_at_start"],
        "rss_before_mb": round(before / 1024, 1),
        "rss_after_mb": round(after / 1024, 1),
        "kb_per_socket": round((after - before) / max(1, sockets), 1),
        "cpu_percent": result["during"]["cpu_percent"][0],
        "seconds": duration,
    }
    print(f"  idle: {out}", flush=True)
    return out


def check_logs(database: str, world: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """From the database: every table's log whole (seq 1..head, once each), every command a
    client saw answered is in it once, and every tab ended on its table's head."""
    acked = set(result["acknowledged"])
    found: set[str] = set()
    gaps, behind, twice = 0, 0, 0
    for table in world["tables"]:
        log = entries(database, table["pk"])
        if [s for s, _, _ in log] != list(range(1, len(log) + 1)):
            gaps += 1
        # An id is unique within its table's log (the server's own, "auto-<seq>", repeat
        # across tables); the load's are unique everywhere.
        ids = [command_id for _, command_id, _ in log if command_id]
        twice += len(ids) - len(set(ids))
        found.update(ids)
        head = log[-1][0] if log else 0
        behind += sum(1 for seq in result["final"].get(str(table["pk"]), []) if seq != head)
    return {
        "tables_with_gaps": gaps,
        "acknowledged": len(acked),
        "acknowledged_missing": len(acked - found),
        "applied_twice": twice,
        "tabs_not_on_head_at_end": behind,
    }


def brief(result: dict[str, Any]) -> str:
    lat = result.get("latency_ms", {})
    cpu = (result.get("during") or {}).get("cpu_percent")
    per = (result.get("cpu") or {}).get("ms_per_action") or {}
    return (
        f"p50 {lat.get('p50')} ms, p99 {lat.get('p99')} ms, max {lat.get('max')} ms, "
        f"n {lat.get('n')}, lost {result.get('lost_deliveries')}, "
        f"errors {result.get('error_count')}, cpu {cpu}, cpu ms per action {per}"
    )


# --- resilience ------------------------------------------------------------------------------


def resilience(bench: Bench) -> dict[str, Any]:
    """The load over two processes for `resilience` seconds with random client drops, one
    Redis restart (a third of the way) and one server killed and restarted (two thirds).
    Through the front door (`front_door`, the README's nginx), which routes a table's tabs to
    one process and a killed process's reconnecting tabs to the other."""
    duration = bench.size.resilience
    tables_n = bench.size.tables
    world = bench.world(tables_n)
    tables = [{**t, "n": i, "users": users_of(t)} for i, t in enumerate(world["tables"])]
    faults: list[dict[str, Any]] = []
    with servers(bench, 2, ports=PROXY_PORTS) as running, front_door(bench) as via:
        plan = {
            "mode": "play",
            "servers": [via],
            "path": ELEORA_PATH,
            "sessions": world["sessions"],
            "period": 2.0,
            "duration": duration,
            "heartbeat": 25.0,
            "drop_rate": bench.size.drop_rate,
            "grace": 8.0,
            "seed": 5,
            "connect_rate": ELEORA_CONNECT_RATE,
        }

        def chaos(start_at: float) -> None:
            time.sleep(max(0.0, start_at + duration / 3 - time.time()))
            faults.append({"fault": "redis restart", "at": time.time()})
            bench.redis.kill()
            time.sleep(2.0)
            bench.redis.start()
            faults[-1]["back"] = time.time()
            time.sleep(max(0.0, start_at + 2 * duration / 3 - time.time()))
            faults.append({"fault": "server process killed", "at": time.time()})
            running[1].kill()
            running[1].start()
            faults[-1]["back"] = time.time()

        threads: list[threading.Thread] = []
        ends: list[float] = []

        def faults_from(start_at: float) -> None:
            ends.append(start_at + duration)
            threads.append(threading.Thread(target=chaos, args=(start_at,)))
            threads[0].start()

        result = run_load(bench, plan, tables, pin=None, during=faults_from)
        threads[0].join()
    log = check_logs(bench.database, world, result)
    outages = [(a, b) for a, b in result["outages"]]
    out = {
        "seconds": duration,
        "tables": tables_n,
        "sockets": result["sockets"],
        "drop_rate_per_socket_s": bench.size.drop_rate,
        "connections": result["connections"],
        "actions": result["actions"],
        "latency_ms": result["latency_ms"],
        "resent_after_reconnect": result["resent"],
        "unanswered_at_end": result["unanswered"],
        "errors": result["errors"],
        "error_count": result["error_count"],
        "bot": result.get("bot", {}),
        "log": log,
        "faults": [fault_recovery(f, outages) for f in faults],
        "lapses_per_minute": lapse_rates(faults, outages, ends[0] - duration, ends[0]),
        "outages": outage_summary(outages),
    }
    shown = ("log", "faults", "lapses_per_minute", "outages")
    print(f"  resilience: {json.dumps({k: out[k] for k in shown})}")
    return out


def fault_recovery(fault: dict[str, Any], outages: list[tuple[float, float | None]]) -> dict:
    """Seconds from the fault to the last tab it put off the head being back on it: the
    lapses under way at the fault or starting before 2 s after the service came back (later
    ones are the random client drops, reported with all lapses)."""
    at, back = fault["at"], fault.get("back", fault["at"])
    hit = [(a, b) for a, b in outages if at - 0.5 <= a <= back + 2 or (a < at and (b or 1e18) > at)]
    ends = [b for _, b in hit]
    worst = None if any(b is None for b in ends) else max((b - at for b in ends), default=0.0)
    return {
        "fault": fault["fault"],
        "outage_s": round(back - at, 2),
        "tabs_affected": len(hit),
        "all_back_after_s": None if worst is None else round(worst, 2),
        "met": worst is not None and worst <= 5.0,
    }


def lapse_rates(
    faults: list[dict[str, Any]],
    outages: list[tuple[float, float | None]],
    start: float,
    end: float,
) -> dict[str, float]:
    """Lapses (a tab closed or behind) a minute before the first fault (the random drops
    alone) and from 5 s after the killed process came back to the end: a process left
    carrying both processes' tables keeps lagging long after the fault."""

    def rate(since: float, until: float) -> float:
        count = sum(1 for a, _ in outages if since <= a < until)
        return round(60 * count / max(until - since, 1e-9), 1)

    return {
        "before_the_faults": rate(start, faults[0]["at"]),
        "after_the_restart": rate(faults[-1].get("back", faults[-1]["at"]) + 5.0, end),
    }


def outage_summary(outages: list[tuple[float, float | None]]) -> dict[str, Any]:
    closed = [b - a for a, b in outages if b is not None]
    return {
        "count": len(outages),
        "never_recovered": sum(1 for _, b in outages if b is None),
        "seconds": summary(closed),
    }


# --- the rest --------------------------------------------------------------------------------


def browser(bench: Bench) -> dict[str, Any]:
    from scripts.bench import browser as chromium

    env = bench.env()
    demo = prepare_demo(env)
    with servers(bench, 1) as running:
        return dict(
            chromium.measure(
                running[0].base, demo.sessions, demo.encounter, clicks=bench.size.clicks
            )
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.bench", description=__doc__)
    parser.add_argument("--short", action="store_true", help="the smoke check (seconds)")
    parser.add_argument("--minutes", type=float, help="resilience run length (default 10)")
    parser.add_argument("--tables", type=int, help="tables of the load runs (default 200)")
    parser.add_argument("--runs", type=int, help="runs of the headline parts (default 3)")
    parser.add_argument("--run-minutes", type=float, help="length of each headline run (default 5)")
    parser.add_argument("--only", default="", help="comma list: " + ",".join(PARTS))
    parser.add_argument(
        "--layer",
        choices=["core", "pubsub"],
        default="core",
        help="channel layer of every run that names none (the pub/sub run always uses pubsub)",
    )
    parser.add_argument("--out", default=str(ROOT / "build" / "bench.json"))
    parser.add_argument(
        "--doc", help="Markdown report (default: docs/performance.md, for a whole full run)"
    )
    args = parser.parse_args(argv)
    size = Size.of(args.short, args.minutes)
    if args.tables:
        size.tables = args.tables
    if args.runs:
        size.runs = args.runs
    if args.run_minutes:
        size.headline = args.run_minutes * 60
    parts = [p for p in (args.only.split(",") if args.only else PARTS) if p]
    if args.short:
        parts = [p for p in parts if p != "browser"]
    started = time.time()
    results: dict[str, Any] = {"short": args.short, "parts": parts, "machine": report.machine()}
    with (
        tempfile.TemporaryDirectory(prefix="eleora-bench-") as tmp,
        private_database("eleora_bench") as database,
    ):
        redis = RedisServer(Path(tmp))
        redis.start()
        bench = Bench(size, Path(tmp), database, redis, layer=args.layer, results=results)
        try:
            migrate(bench)
            for part in parts:
                print(f"{part} …", flush=True)
                results[part] = PARTS[part](bench)
        finally:
            redis.close()
    results["seconds"] = round(time.time() - started, 1)
    results["targets"] = report.targets(results)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2))
    whole = not args.short and not args.only  # a part alone leaves the committed report be
    doc = args.doc or (str(ROOT / "docs" / "performance.md") if whole else None)
    if doc:
        previous = Path(doc).read_text() if Path(doc).exists() else ""
        Path(doc).write_text(report.markdown(results, " ".join(sys.argv[1:]), previous))
    print(report.verdict(results))
    return 0 if report.sound(results) else 1


def migrate(bench: Bench) -> None:
    bench.python("manage.py", "migrate", "--noinput", "-v0", timeout=300)


def rules(bench: Bench) -> dict[str, Any]:
    from scripts.bench import rules as engine

    return dict(engine.measure(short=bench.size.tables <= 10))


def profile(bench: Bench) -> dict[str, Any]:
    from scripts.bench import profile as hot_path

    return dict(hot_path.measure(actions=30 if bench.size.tables <= 10 else 300))


def repeated(bench: Bench, run: Callable[[float], dict[str, Any]]) -> dict[str, Any]:
    """A headline part: `Size.runs` runs of `Size.headline` seconds, reported as the run with
    the median p50, its p50, p99 and server CPU per action replaced by the medians of the runs,
    with every run's figures and the spread (lowest, highest) of each."""
    runs = [run(bench.size.headline) for _ in range(bench.size.runs)]
    if len(runs) == 1:
        return runs[0]

    def figure(r: dict[str, Any], key: str) -> float:
        if key == "server_ms":
            return float(r.get("cpu", {}).get("ms_per_action", {}).get("server") or 0.0)
        return float(r["latency_ms"].get(key) or 0.0)

    keys = ("p50", "p99", "server_ms")
    result = dict(sorted(runs, key=lambda r: figure(r, "p50"))[len(runs) // 2])
    medians = {k: statistics.median(figure(r, k) for r in runs) for k in keys}
    result["latency_ms"] = {**result["latency_ms"], "p50": medians["p50"], "p99": medians["p99"]}
    if result.get("cpu", {}).get("ms_per_action"):
        cpu = result["cpu"]
        result["cpu"] = {
            **cpu,
            "ms_per_action": {**cpu["ms_per_action"], "server": medians["server_ms"]},
        }
    result["runs"] = [
        {
            "latency_ms": r["latency_ms"],
            "cpu": r.get("cpu"),
            "bytes_per_action": r.get("bytes_per_action"),
        }
        for r in runs
    ]
    result["spread"] = {
        k: [min(figure(r, k) for r in runs), max(figure(r, k) for r in runs)] for k in keys
    }
    return result


PARTS: dict[str, Any] = {
    "rules": rules,
    "profile": profile,
    "eleora": lambda b: repeated(
        b, lambda s: eleora_load(b, f"eleora, 1 process, {b.layer} layer", duration=s)
    ),
    "floor_channels": lambda b: repeated(
        b, lambda s: floor_load(b, "floor (a) channels", kind="channels", duration=s)
    ),
    "floor_channels_old": lambda b: floor_load(
        b, "floor (a) channels, the first reports' method", kind="channels_per_socket"
    ),
    "floor_websockets": lambda b: floor_load(b, "floor (b) websockets", kind="websockets"),
    "eleora_pubsub": lambda b: eleora_load(b, "eleora, 1 process, pubsub", layer="pubsub"),
    "floor_channels_2": lambda b: floor_load(
        b, "floor (a), 2 processes", kind="channels", processes=2
    ),
    "eleora_2": lambda b: eleora_load(b, "eleora, 2 processes", processes=2),
    "eleora_2_tables": lambda b: eleora_load(
        b, "eleora, 2 processes behind nginx, a table's tabs on one", processes=2, proxied=True
    ),
    "idle": idle,
    "browser": browser,
    "resilience": resilience,
}


if __name__ == "__main__":
    sys.exit(main())
