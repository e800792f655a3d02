"""Benchmark the battle map of issue #14: 60 × 60 maps with 20 tokens, rendered for each viewer
after each move; the time and the bytes pushed per move.

Every table is its own campaign (a GM, six players with a random sheet each, fourteen NPCs
with random sheets, two of them hidden) on its own 60 × 60 map painted at random from its own
seed (walls, obstacles, difficult terrain, patches of the three darkness levels), the tokens
on random free fields. A move is what a player does on the map: the current combatant asks the
route to a random field it can reach (`route`, what the tap on a field costs the server), then
confirms it (`services.run_command` with the route's command), and the table is rendered for
every viewer in Polish as the consumer does (`fragments.regions`), each viewer sent only what
changed since its last push (`combat.pushes.changes`). Then the turn ends (not timed). The
table that moves next is picked at random, so consecutive moves rarely share a table and no
figure rests on one table's cache.

Per move: CPU ms of the route (and of one to a random field anywhere on the map, a tap far
beyond the move), of the command and of the push (all viewers), and the bytes
pushed (all viewers, and per viewer), split by region; and once per table the size of the
whole map region as a page load sends it.

`python -m scripts.bench.battlemap [--tables N] [--moves N] [--seed N] [--short] [--json]`
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SIDE = 60
PLAYERS = 6
NPCS = 14
HIDDEN = 2
MAP_REGIONS = ("table-map", "table-map-terrain", "table-map-tokens")
REACH = 3  # fields a Ruch may end on: Eleora's 3 m


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=6, help="tables (default 6)")
    parser.add_argument("--moves", type=int, default=150, help="timed moves (default 150)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--short", action="store_true", help="2 tables, 12 moves: a smoke run")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.short:
        args.tables, args.moves = 2, 12
    if args.worker:
        return _work(args)
    from scripts.bench.caches import _env

    with tempfile.TemporaryDirectory(prefix="eleora-map-") as name:
        command = [sys.executable, "-m", "scripts.bench.battlemap", "--worker"]
        command += ["--tables", str(args.tables), "--moves", str(args.moves)]
        command += ["--seed", str(args.seed)]
        env = _env(Path(name) / "map.sqlite3")
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stderr[-4000:])
        return 1
    result = json.loads(done.stdout.strip().splitlines()[-1])
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


def _work(args: argparse.Namespace) -> int:
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    rng = random.Random(args.seed)
    started = time.perf_counter()
    tables = [Table.build(rng, n) for n in range(args.tables)]
    built = time.perf_counter() - started
    samples: list[dict[str, Any]] = []
    refused: Counter[str] = Counter()
    idle = 0
    while len(samples) < args.moves and idle < 200:
        sample = rng.choice(tables).move(rng, refused)
        idle = 0 if sample is not None else idle + 1
        if sample is not None:
            samples.append(sample)
    print(json.dumps(figures(tables, samples, refused, built)))
    return 0


class Table:
    """One encounter with its viewers and what each socket was last sent."""

    def __init__(self, pk: int, viewers: list[Any]) -> None:
        self.pk, self.viewers = pk, viewers
        self.sent: list[dict[str, Any]] = [{} for _ in viewers]
        self.shown: list[dict[str, Any]] = [{} for _ in viewers]
        self.page_bytes: dict[str, int] = {}

    @classmethod
    def build(cls, rng: random.Random, n: int) -> Table:
        from django.contrib.auth.models import User

        from characters import services as characters
        from combat import services
        from combat.access import Viewer
        from scripts.bench.caches import NAMES, _character

        gm = User.objects.create_user(f"map-gm-{n}")
        campaign = characters.create_campaign(
            gm=gm, name=f"Mapa {n}", description="", ruleset="eleora"
        )
        campaign.settings = {**campaign.settings, "auto_end_turn": False}
        campaign.save(update_fields=["settings"])
        players = [User.objects.create_user(f"map-t{n}-p{i}") for i in range(PLAYERS)]
        heroes = []
        for i, player in enumerate(players):
            characters.join_campaign(campaign=campaign, user=player)
            heroes.append(_character(rng, campaign, f"{rng.choice(NAMES)} {i + 1}", player))
        npcs = [_character(rng, campaign, f"Zbój {i + 1}", None) for i in range(NPCS)]
        encounter = services.create_encounter(campaign=campaign, name=f"Mapa {n}", by=gm)
        gm_viewer = Viewer(user_id=gm.pk, is_gm=True)
        shown, hidden = npcs[:-HIDDEN], npcs[-HIDDEN:]
        services.add_combatants(
            encounter.pk, viewer=gm_viewer, characters=[c.pk for c in heroes + shown]
        )
        services.add_combatants(
            encounter.pk, viewer=gm_viewer, characters=[c.pk for c in hidden], hidden=True
        )
        table = cls(
            encounter.pk, [gm_viewer] + [Viewer(user_id=p.pk, is_gm=False) for p in players]
        )
        table.lay(rng)
        table.gm({"type": "start_combat"}, rng, command_id="start")  # initiative rolled by the dice
        table.measure_page()
        return table

    def gm(self, command: dict[str, Any], rng: random.Random, command_id: str | None = None) -> Any:
        from combat import services

        return services.run_command(
            self.pk, command, viewer=self.viewers[0], rng=random.Random(rng.random()),
            command_id=command_id,
        )  # fmt: skip

    def lay(self, rng: random.Random) -> None:
        """A random 60 × 60 map and every token on a free field of it."""
        from combat import services
        from combat.rules import battlemap
        from combat.rules.base import battle_maps_of
        from combat.rules.registry import get_ruleset

        table = services.load_table(self.pk)
        rules = get_ruleset(table.ruleset)
        maps = battle_maps_of(rules)
        assert maps is not None, f"{table.ruleset} has no battle map"
        fields = [(x, y) for x in range(SIDE) for y in range(SIDE)]
        edits: list[Any] = [battlemap.Resize(SIDE, SIDE)]
        for tool, share in (("wall", 0.06), ("obstacle", 0.03), ("difficult", 0.1)):
            painted = _patches(rng, share)
            edits += [battlemap.Paint(tool, chunk) for chunk in _chunks(painted)]  # type: ignore[arg-type]
        for level in ("dark1", "dark2", "dark3"):
            edits += [battlemap.Paint(level, chunk) for chunk in _chunks(_patches(rng, 0.04))]  # type: ignore[arg-type]
        commands = [maps.map_command(edit, 0.0) for edit in edits]
        for command in commands:
            self.gm(rules.command_to_dict(command), rng)
        m = maps.battle_map(services.load_table(self.pk).state)
        free = [f for f in fields if m.passable(f)]
        spots = rng.sample(free, len(table.view.order))
        for cid, spot in zip(table.view.order, spots, strict=True):
            self.gm(rules.command_to_dict(maps.place_command(cid, spot, 0.0)), rng)

    def measure_page(self) -> None:
        """The whole map region as a page load sends it, for the GM and for a player."""
        from combat import fragments, services

        table = services.load_table(self.pk)
        for who, viewer in (("gm", self.viewers[0]), ("player", self.viewers[1])):
            regions = fragments.regions(table, viewer)
            self.page_bytes[who] = sum(len(regions[name].encode()) for name in MAP_REGIONS)
        self.push()  # every socket starts with the whole page

    def move(self, rng: random.Random, refused: Counter[str]) -> dict[str, Any] | None:
        """The current combatant moves to a random field it can reach, then ends its turn."""
        from combat import services
        from combat.rules import battlemap
        from combat.rules.base import battle_maps_of
        from combat.rules.registry import get_ruleset

        table = services.load_table(self.pk)
        rules = get_ruleset(table.ruleset)
        maps = battle_maps_of(rules)
        state, view = table.state, table.view
        cid = view.current
        if cid is None or view.stage != "running":
            refused["no turn"] += 1
            return None
        seat = view.seats[cid]
        viewer = self.viewer_of(seat)
        m = maps.battle_map(state)
        if seat.position is None or m is None:
            refused["no token"] += 1
            return self.end_turn(cid, viewer, rng)
        far = rng.choice(
            [(x, y) for x in range(m.width) for y in range(m.height) if m.passable((x, y))]
        )
        cpu = time.process_time()
        maps.route(state, cid, far, "", time.time())  # a tap anywhere: mostly "too far"
        far_cpu = time.process_time() - cpu
        reach = battlemap.reachable(m, seat.position, REACH)
        targets = [f for f in reach if f != seat.position]
        for to in rng.sample(targets, min(5, len(targets))):
            cpu = time.process_time()
            route = maps.route(state, cid, to, "", time.time())
            route_cpu = time.process_time() - cpu
            if not route.allowed:
                refused["route not allowed"] += 1
                continue
            cpu = time.process_time()
            try:
                services.run_command(
                    self.pk, dict(route.command), viewer=viewer, rng=random.Random(rng.random()),
                    command_id=f"m{time.perf_counter_ns()}",
                )  # fmt: skip
            except Exception as refusal:  # noqa: BLE001 - counted and reported
                refused[type(refusal).__name__] += 1
                continue
            command_cpu = time.process_time() - cpu
            cpu = time.process_time()
            sizes = self.push()
            push_cpu = time.process_time() - cpu
            self.end_turn(cid, viewer, rng)
            return {
                "route_ms": route_cpu * 1000,
                "route_far_ms": far_cpu * 1000,
                "command_ms": command_cpu * 1000,
                "push_ms": push_cpu * 1000,
                "bytes": sum(sum(s.values()) for s in sizes),
                "per_viewer": [sum(s.values()) for s in sizes],
                "regions": dict(sum((Counter(s) for s in sizes), Counter())),
                "fields": len(route.path) - 1,
            }
        return self.end_turn(cid, viewer, rng)

    def viewer_of(self, seat: Any) -> Any:
        """The seat's player, or the GM for an NPC."""
        if seat.controller is None:
            return self.viewers[0]
        for viewer in self.viewers[1:]:
            if viewer.owns(seat.controller):
                return viewer
        return self.viewers[0]

    def end_turn(self, cid: str, viewer: Any, rng: random.Random) -> None:
        from combat import services

        for who in (viewer, self.viewers[0]):
            try:
                services.run_command(
                    self.pk, {"type": "end_turn", "actor": cid}, viewer=who,
                    rng=random.Random(rng.random()), command_id=f"e{time.perf_counter_ns()}",
                )  # fmt: skip
                break
            except Exception:  # noqa: BLE001, S112 - the GM ends it when the player may not
                continue
        self.push()
        return None

    def push(self) -> list[dict[str, int]]:
        """Render the head for every viewer as the consumer does; the bytes of the regions
        each had not been sent yet, by region."""
        from django.utils import translation

        from combat import fragments, pushes, services

        table = services.load_table(self.pk)
        track = pushes.tracks.of(self.pk)
        sizes = []
        with translation.override("pl"):
            for i, viewer in enumerate(self.viewers):
                sent: dict[str, int] = {}
                view = fragments.View(table, viewer)
                for part in fragments.tree(view):
                    render = fragments.Render(view)
                    html, self.shown[i] = pushes.changes(
                        self.sent[i], self.shown[i], [part], track, "pl", render
                    )
                    self.sent[i][part.id] = part
                    if html:
                        sent[part.id] = len(html.encode())
                sizes.append(sent)
        return sizes


def _patches(rng: random.Random, share: float) -> list[tuple[int, int]]:
    """About `share` of the map's fields, in blobs as a GM paints them (no token yet)."""
    fields: set[tuple[int, int]] = set()
    target = int(share * SIDE * SIDE)
    while len(fields) < target:
        x, y, r = rng.randrange(SIDE), rng.randrange(SIDE), rng.randint(1, 3)
        for dx in range(-r, r + 1):
            for dy in range(-r, r + 1):
                if 0 <= x + dx < SIDE and 0 <= y + dy < SIDE and rng.random() < 0.7:
                    fields.add((x + dx, y + dy))
    return sorted(fields)[: max(target, 1)]


def _chunks(fields: list[tuple[int, int]], size: int = 400) -> list[tuple[tuple[int, int], ...]]:
    return [tuple(fields[i : i + size]) for i in range(0, len(fields), size)]


def figures(
    tables: list[Table], samples: list[dict[str, Any]], refused: Counter[str], built: float
) -> dict[str, Any]:
    n = max(1, len(samples))
    regions: Counter[str] = Counter()
    for s in samples:
        regions.update(s["regions"])
    per_viewer = [b for s in samples for b in s["per_viewer"]]
    return {
        "tables": len(tables),
        "viewers_per_table": len(tables[0].viewers) if tables else 0,
        "side": SIDE,
        "tokens_per_table": PLAYERS + NPCS,
        "moves": len(samples),
        "build_s": round(built, 1),
        "route_cpu_ms": _stats([s["route_ms"] for s in samples]),
        "route_far_cpu_ms": _stats([s["route_far_ms"] for s in samples]),
        "command_cpu_ms": _stats([s["command_ms"] for s in samples]),
        "push_cpu_ms_all_viewers": _stats([s["push_ms"] for s in samples]),
        "push_cpu_ms_per_viewer": _stats(
            [s["push_ms"] / len(s["per_viewer"]) for s in samples if s["per_viewer"]]
        ),
        "kb_per_move_all_viewers": _stats([s["bytes"] / 1024 for s in samples], 1),
        "kb_per_move_per_viewer": _stats([b / 1024 for b in per_viewer], 1),
        "map_kb_per_move_per_viewer": _stats(
            [
                sum(s["regions"].get(r, 0) for r in MAP_REGIONS) / 1024 / len(s["per_viewer"])
                for s in samples
            ]  # fmt: skip
        ),
        "kb_per_move_by_region": {
            name: round(size / 1024 / n, 2) for name, size in regions.most_common()
        },
        "fields_moved": _stats([float(s["fields"]) for s in samples], 1),
        "map_region_page_kb": {
            who: round(statistics.mean(t.page_bytes[who] for t in tables) / 1024, 1)
            for who in ("gm", "player")
        }
        if tables
        else {},
        "refused": dict(sorted(refused.items())),
    }


def _stats(values: list[float], scale: float = 1.0) -> dict[str, float]:
    """The median and p95 as the caches benchmark reports them, and the slowest."""
    from scripts.bench.caches import _stats as stats

    return {**stats(values, scale), "max": round(max(values, default=0.0) * scale, 2)}


def report(result: dict[str, Any]) -> str:
    rows = [
        ("route (tap → path and cost)", "route_cpu_ms", "ms"),
        ("route to any field of the map", "route_far_cpu_ms", "ms"),
        ("command (the move appended)", "command_cpu_ms", "ms"),
        ("push, all viewers", "push_cpu_ms_all_viewers", "ms"),
        ("push, per viewer", "push_cpu_ms_per_viewer", "ms"),
        ("bytes pushed, all viewers", "kb_per_move_all_viewers", "KB"),
        ("bytes pushed, per viewer", "kb_per_move_per_viewer", "KB"),
        ("of them the map's, per viewer", "map_kb_per_move_per_viewer", "KB"),
    ]
    lines = [
        f"{result['tables']} tables × {result['viewers_per_table']} viewers, "
        f"{result['side']}×{result['side']} maps, {result['tokens_per_table']} tokens, "
        f"{result['moves']} moves (CPU of this process)",
        f"{'per move':<32} {'median':>9} {'p95':>9} {'max':>9}",
    ]
    for label, key, unit in rows:
        s = result[key]
        figures = " ".join(f"{s[k]:>6.2f} {unit}" for k in ("median", "p95", "max"))
        lines.append(f"{label:<32} {figures}")
    lines.append("by region (KB per move, all viewers): " + ", ".join(
        f"{name} {kb}" for name, kb in result["kb_per_move_by_region"].items()
    ))  # fmt: skip
    lines.append(
        "map regions on a page load (controls, terrain, tokens): "
        + ", ".join(f"{who} {kb} KB" for who, kb in result["map_region_page_kb"].items())
    )
    if result["refused"]:
        lines.append(f"refused or skipped: {result['refused']}")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
