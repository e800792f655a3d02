"""Benchmark: what each per-process cache of the live table saves, on varied tables.

`scripts.bench.profile` plays one table of clones, where every cache hits; this plays N
tables that differ (each its own campaign, GM, 2–5 players with random sheets, 1–4 NPCs or
bestiary creatures, sometimes a hidden one) by real play: the current combatant attacks a
living enemy, moves, takes Zasłona or ends the turn, chosen at random; a defender's prompt is
answered by its player (an NPC by its policy, or by the GM when the policy is "ask"). The
table that acts next is picked at random, so consecutive actions rarely share a table.

Per action it measures the CPU (`time.process_time`, this process) of the command
(`services.run_command`, NPC answers included) and of the push: the head loaded once and the
regions rendered in Polish for every viewer of the table (GM and players), as the consumer
does; and the bytes of the regions each viewer had not got yet, whole (the item swaps of
`combat.pushes` left out: the modes compare caches, not pushes).

Modes, each a fresh process on a copy of the same world playing the same seeded sequence,
taking turns 20 actions at a time (so the machine's other load falls on all of them alike):
A as is; B `fragments.clear_caches()` before each push (regions are still shared by the
viewers of one push); C B plus `services.clear_cache()` before each command and push (no
snapshot cache); D the `{% memo %}` tag rendering every time; then one cache level alone:
E regions only (no snapshot cache, no memo), F memo only (no snapshot cache; the region, row
and roster caches cleared before each push, those of them that still exist), G F with the
snapshot cache. A mode about the memo tag is skipped with a note when the tag is gone.
Each mode hashes what it pushed (countdowns left out): a cache that changed what a viewer
sees would show as a digest unlike mode A's.

`python -m scripts.bench.caches [--tables N] [--actions N] [--modes A,B,C,D,E,F,G] [--json]`
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import importlib
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
MODES = {
    "A": "everything as is",
    "B": "fragment caches cleared before each push",
    "C": "B, and the snapshot cache cleared before each command and push",
    "D": "{% memo %} renders every time",
    "E": "regions only: no snapshot cache, {% memo %} renders every time",
    "F": "memo only: no snapshot cache, region/row/roster caches cleared before each push",
    "G": "memo and snapshots: region/row/roster caches cleared before each push",
}
DEFAULT_MODES = tuple(MODES)
NO_SNAPSHOTS = {"C", "E", "F"}  # services.clear_cache() before each command and push
NO_FRAGMENTS = {"B", "C"}  # fragments.clear_caches() before each push
BESIDE_MEMO = {"F", "G"}  # the fragment caches other than the memo cleared before each push
NO_MEMO = {"D", "E"}  # the memo tag patched to render every time
NEEDS_MEMO = {"D", "F", "G"}  # meaningless without the memo tag: skipped
CLOCK_STEP_S = 0.01  # virtual seconds per action: a prompt's 15 s outlast 1,500 actions
COUNTDOWN = re.compile(r'data-(?:deadline|server-now)="[^"]*"|countdown-text">\d+')


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=30, help="tables (default 30)")
    parser.add_argument("--actions", type=int, default=400, help="timed actions (default 400)")
    parser.add_argument("--warmup", type=int, help="untimed actions first (default: --tables)")
    parser.add_argument("--seed", type=int, default=1, help="world and play seed (default 1)")
    parser.add_argument(
        "--modes", default=",".join(DEFAULT_MODES), help="default: all, A,B,C,D,E,F,G"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--worker", choices=("build", "play"), help=argparse.SUPPRESS)
    parser.add_argument("--world", help=argparse.SUPPRESS)
    parser.add_argument("--mode", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    warmup = args.tables if args.warmup is None else args.warmup
    if args.worker is not None:
        return _work(args, warmup)
    modes = [m.strip().upper() for m in args.modes.split(",") if m.strip()]
    if unknown := set(modes) - set(MODES):
        parser.error(f"unknown modes: {sorted(unknown)}")
    result = compare(args.tables, args.actions, warmup, args.seed, modes)
    print(json.dumps(result, indent=2, ensure_ascii=False) if args.json else report(result))
    return 0


def compare(tables: int, actions: int, warmup: int, seed: int, modes: list[str]) -> dict[str, Any]:
    """Build the world once; then a process per mode, each on its own copy of it, plays the
    same sequence. They take turns, CHUNK actions at a time, so a neighbour's load on the
    machine falls on every mode alike rather than on whichever ran while it lasted."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="eleora-caches-") as name:
        tmp = Path(name)
        common = ["--tables", str(tables), "--seed", str(seed), "--warmup", str(warmup)]
        (tmp / "world.json").write_text(
            _worker(tmp / "world.sqlite3", ["--worker", "build", *common])
        )
        out: dict[str, Any] = {
            "tables": tables,
            "actions": actions,
            "warmup": warmup,
            "seed": seed,
            "chunk": CHUNK,
            "world": _describe(json.loads((tmp / "world.json").read_text())),
            "modes": {},
            "skipped": {},
        }
        workers = {mode: Worker(tmp, mode, common) for mode in modes}
        try:
            for mode, worker in list(workers.items()):
                if (why := worker.ready()) is not None:
                    out["skipped"][mode] = why
                    del workers[mode]
            for done in range(0, actions, CHUNK):
                for worker in workers.values():
                    worker.play(min(CHUNK, actions - done))
            out["modes"] = {mode: worker.finish() for mode, worker in workers.items()}
        finally:
            for worker in workers.values():
                worker.close()
    _compare_html(out["modes"])
    out["seconds"] = round(time.perf_counter() - started, 1)
    return out


CHUNK = 20  # actions a mode plays before the next takes its turn


def _env(db: Path) -> dict[str, str]:
    """This module's environment in a worker: Django on the SQLite file `db`, as served."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DATABASE_URL=f"sqlite:///{db}",
        DJANGO_SETTINGS_MODULE="eleora_site.settings",
        DEBUG="0",  # as served: no query log, no template debug info
        SECRET_KEY="bench-caches-" + "x" * 40,
        ALLOW_IN_MEMORY_LAYER="1",  # publishes go to the in-memory layer, as in profile.py
        FAST_PASSWORD_HASHER="1",
        LOG_LEVEL="ERROR",
    )
    return env


def _worker(db: Path, args: list[str]) -> str:
    """Run this module in a fresh interpreter on the SQLite file `db`; its last stdout line."""
    command = [sys.executable, "-m", "scripts.bench.caches", *args]
    done = subprocess.run(command, cwd=ROOT, env=_env(db), capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args[:2])} failed:\n{done.stderr[-4000:]}")
    return done.stdout.strip().splitlines()[-1]


class Worker:
    """One mode's process on its own copy of the world: set up and warmed up, then playing
    as many actions as it is told on its stdin ("20"), until "done" asks for its figures."""

    def __init__(self, tmp: Path, mode: str, common: list[str]) -> None:
        self.mode, db = mode, tmp / f"mode-{mode}.sqlite3"
        shutil.copyfile(tmp / "world.sqlite3", db)
        self.errors = (tmp / f"mode-{mode}.log").open("w+")
        args = ["--worker", "play", "--mode", mode, "--world", str(tmp / "world.json"), *common]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "scripts.bench.caches", *args],
            cwd=ROOT, env=_env(db), text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors,
        )  # fmt: skip

    def ready(self) -> str | None:
        """None once it is ready to play; why not, if the mode does not apply to this code."""
        answer = self._answer()
        return None if answer == "ready" else str(json.loads(answer)["skipped"])

    def play(self, actions: int) -> None:
        self._tell(str(actions))
        if (answer := self._answer()) != "ok":
            raise RuntimeError(f"mode {self.mode}: {answer!r} instead of ok")

    def finish(self) -> dict[str, Any]:
        self._tell("done")
        return dict(json.loads(self._answer()))

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.errors.close()

    def _tell(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def _answer(self) -> str:
        """Its next line of the protocol ("ready", "ok" or JSON), anything else skipped."""
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.strip() in ("ready", "ok") or line.startswith("{"):
                return line.strip()
        self.errors.seek(0)
        raise RuntimeError(f"mode {self.mode} failed:\n{self.errors.read()[-4000:]}")


def _work(args: argparse.Namespace, warmup: int) -> int:
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    if args.worker == "build":
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        print(json.dumps(build(args.tables, args.seed)))
        return 0
    skipped = _set_mode(args.mode)
    if skipped is not None:
        print(json.dumps({"skipped": skipped}), flush=True)
        return 0
    player = Player(json.loads(Path(args.world).read_text()), args.mode, args.seed)
    _samples(player, warmup)
    player.region_bytes.clear()
    print("ready", flush=True)
    timed: list[Sample] = []
    with GcTimer() as gc_time:
        for line in sys.stdin:
            if line.strip() == "done":
                break
            timed += _samples(player, int(line))
            print("ok", flush=True)
    print(json.dumps(figures(player, timed, gc_time.spent)), flush=True)
    return 0


# --- the world ------------------------------------------------------------------------------

NAMES = (
    *("Radosław", "Milena", "Bogumił", "Jarogniew", "Wiesława", "Dobrosław", "Zbysław"),
    *("Mirosława", "Ludmiła", "Przemko", "Gniewko", "Świętosława", "Bolko", "Dobrawa"),
)
WEAPONS = (
    {"name": "Szabla", "kind": "lekka", "damage": 2},
    {"name": "Sztylet", "kind": "lekka", "damage": 1, "short": True},
    {"name": "Miecz", "kind": "ciezka", "damage": 3},
    {"name": "Włócznia", "kind": "ciezka", "damage": 3},
    {"name": "Pałka", "kind": "wrecz", "damage": 2, "damage_type": "ogluszajace"},
    {"name": "Łuk", "kind": "lekka", "damage": 2, "ranged": True},
    {"name": "Kusza", "kind": "lekka", "damage": 3, "ranged": True, "reload_actions": 1},
)
ARMOUR = (
    (),
    ({"name": "Kaftan skórzany", "defence_bonus": 0, "armour_points": 1},),
    ({"name": "Kolczuga", "defence_bonus": 1, "armour_points": 2},),
)
CREATURES = ("Wilk", "Wilk", "Wilk", "Dzik", "Bandyta", "Strażnik")
POLICIES = ("ask", "lepsza", "unik", "parowanie", "brak")


def random_sheet(rng: random.Random, rules: Any, settings: Any) -> dict[str, Any]:
    """A sheet with random attributes, skills, 1–3 weapons, maybe armour and a shield."""
    attributes = [a.key for a in rules.attributes(settings)]
    skills = [s.key for s in rules.skills(settings)]
    fighting = {"walka_wrecz", "bron_lekka", "bron_ciezka"}
    shields = [{"name": "Tarcza", "bonus": rng.randint(1, 2)}] if rng.random() < 0.3 else []
    return {
        "attributes": {a: rng.randint(1, 4) for a in attributes},
        "skills": {s: rng.randint(1, 4) if s in fighting else rng.randint(0, 2) for s in skills},
        "weapons": [dict(w) for w in rng.sample(WEAPONS, rng.randint(1, 3))],
        "armour": [dict(a) for a in rng.choice(ARMOUR)],
        "shields": shields,
    }


def build(tables: int, seed: int) -> list[dict[str, Any]]:
    """`tables` started encounters, each its own campaign; their pks and viewers' user ids."""
    rng = random.Random(seed)
    return [_table(rng, n) for n in range(tables)]


def _table(rng: random.Random, n: int) -> dict[str, Any]:
    """A campaign with its GM, 2–5 players and their characters, 1–4 opponents (campaign
    NPCs or bestiary creatures), sometimes a hidden wolf, and its encounter started."""
    from django.contrib.auth.models import User

    from characters import services as characters
    from characters.models import CreatureTemplate
    from combat import services

    gm = User.objects.create_user(f"caches-gm-{n}")
    campaign = characters.create_campaign(
        gm=gm, name=f"Kampania {n}", description="", ruleset="eleora"
    )
    players = [User.objects.create_user(f"caches-t{n}-p{i}") for i in range(rng.randint(2, 5))]
    joining = []
    for i, player in enumerate(players):
        characters.join_campaign(campaign=campaign, user=player)
        joining.append(_character(rng, campaign, f"{rng.choice(NAMES)} {i + 1}", player))
    creatures: Counter[int] = Counter()
    for i in range(rng.randint(1, 4)):
        if rng.random() < 0.5:
            name = rng.choice(CREATURES)
            creatures[CreatureTemplate.objects.get(campaign=None, name=name).pk] += 1
        else:
            joining.append(_character(rng, campaign, f"Zbój {i + 1}", None))
    encounter = services.create_encounter(campaign=campaign, name=f"Stół {n}", by=gm)
    gm_viewer = _viewer_class()(user_id=gm.pk, is_gm=True)
    services.add_combatants(
        encounter.pk, viewer=gm_viewer, characters=[c.pk for c in joining], creatures=creatures
    )
    if rng.random() < 0.25:  # a hidden wolf: what players may not see differs from the GM's
        wolf = CreatureTemplate.objects.get(campaign=None, name="Wilk")
        services.add_combatants(encounter.pk, viewer=gm_viewer, creatures={wolf.pk: 1}, hidden=True)
    _start(encounter.pk, gm_viewer, rng)
    return {"pk": encounter.pk, "gm": gm.pk, "players": [p.pk for p in players]}


def _character(rng: random.Random, campaign: Any, name: str, owner: Any) -> Any:
    """A player's character (an NPC without `owner`) with a random, normalised sheet."""
    from characters.models import Character
    from characters.sheets import clean_sheet

    rules, settings = campaign.rules(), campaign.settings
    sheet = clean_sheet(random_sheet(rng, rules, settings), rules=rules, settings=settings)
    kind = Character.Kind.PC if owner is not None else Character.Kind.NPC
    return Character.objects.create(
        campaign=campaign, owner=owner, name=name, kind=kind, sheet=sheet
    )


def _start(pk: int, gm: Any, rng: random.Random) -> None:
    """NPC policies at random (some left to the GM), then initiative, sometimes a surprise."""
    from combat import services

    state = services.load_table(pk).state
    for cid, c in sorted(state.combatants.items()):
        if c.controller is None:
            services.set_npc_policy(pk, viewer=gm, combatant=cid, policy=rng.choice(POLICIES))
    start: dict[str, Any] = {"type": "start_combat"}
    if rng.random() < 0.2:
        start["surprise_side"] = rng.choice(("druzyna", "przeciwnicy"))
    services.run_command(pk, start, viewer=gm, rng=random.Random(rng.random()), command_id="start")


def _describe(world: list[dict[str, Any]]) -> dict[str, Any]:
    viewers = [1 + len(t["players"]) for t in world]
    return {
        "viewers_per_table": {
            "min": min(viewers),
            "max": max(viewers),
            "mean": round(statistics.mean(viewers), 2),
        }
    }


def _viewer_class() -> Any:
    """`Viewer`, wherever it lives now (it may move from services to access)."""
    for name in ("combat.access", "combat.services"):
        found = getattr(importlib.import_module(name), "Viewer", None)
        if found is not None:
            return found
    raise ImportError("no Viewer in combat.access or combat.services")


# --- playing --------------------------------------------------------------------------------


@dataclass
class Seat:
    """One table as its sockets know it: its viewers, what each was sent, the head they saw."""

    pk: int
    viewers: list[Any]
    table: Any = None
    sent: list[dict[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class Sample:
    """One timed action: its kind, its command's and its push's seconds, the bytes it sent."""

    kind: str
    command: float  # CPU seconds
    push: float
    command_wall: float
    push_wall: float
    size: int  # bytes of changed regions, summed over the viewers


class Player:
    """Plays the seeded sequence on every seat and times each action in one mode."""

    def __init__(self, world: list[dict[str, Any]], mode: str, seed: int) -> None:
        from combat import services

        viewer = _viewer_class()
        self.seats = [
            Seat(
                t["pk"],
                [viewer(user_id=t["gm"], is_gm=True)]
                + [viewer(user_id=u, is_gm=False) for u in t["players"]],
            )
            for t in world
        ]
        self.mode = mode
        self.choose = random.Random(seed)
        self.dice = random.Random(seed + 1)
        self.clock = time.time()
        self.count = 0
        self.refused: Counter[str] = Counter()
        self.digest = hashlib.sha256()
        self.region_bytes: Counter[str] = Counter()  # of the changed regions, by region id
        for seat in self.seats:
            seat.table = services.load_table(seat.pk)
            seat.sent = [{} for _v in seat.viewers]

    def act(self) -> Sample | None:
        """The next action on a table picked at random; None if it had none to take."""
        seat = self.choose.choice(self.seats)
        self.count += 1
        self.clock += CLOCK_STEP_S
        for kind, command, viewer in self.candidates(seat):
            done = self.timed_command(seat, command, viewer)
            if done is not None:
                return self.timed_push(seat, kind, *done)
            self.refused[kind] += 1
        return None

    def candidates(self, seat: Seat) -> list[tuple[str, dict[str, Any], Any]]:
        """The chosen step first, then what a player does when it is refused: end the turn
        (and the GM ending it for them)."""
        state, gm = seat.table.state, seat.viewers[0]
        if state.prompts:
            return self.answers(seat)
        cid = state.current
        if cid is None:
            return []
        c = state.combatants[cid]
        viewer = self.controller(seat, c.controller)
        end = {"type": "end_turn", "actor": cid}
        steps = [("end_turn", end, viewer), ("end_turn", end, gm)]
        if not c.conscious or c.actions_left <= 0:
            return steps
        kind = self.choose.choices(("attack", "move", "guard", "end_turn"), (4, 2, 2, 2))[0]
        if kind == "attack" and (attack := self.attack(state, c, viewer.is_gm)) is not None:
            return [("attack", attack, viewer), *steps]
        if kind == "move":
            move = {"type": "move", "actor": cid, "metres": self.choose.randint(1, 2)}
            return [("move", move, viewer), *steps]
        if kind == "guard":
            return [("guard", {"type": "guard", "actor": cid}, viewer), *steps]
        return steps

    def attack(self, state: Any, c: Any, by_gm: bool) -> dict[str, Any] | None:
        """A declared attack with a usable weapon on a conscious enemy the actor's side sees."""
        enemies = [
            e.id
            for e in state.combatants.values()
            if e.side != c.side and e.conscious and (by_gm or not e.hidden)
        ]
        if not enemies:
            return None
        weapons = [
            w.name
            for w in c.sheet.weapons
            if c.holds(w.name) and w.name not in c.unloaded and w.name not in c.weapons_used
        ]
        weapon = self.choose.choice(weapons) if weapons else "wrecz"  # wrecz: bare hands
        target = self.choose.choice(sorted(enemies))
        return {"type": "declare_attack", "actor": c.id, "target": target, "weapon": weapon}

    def answers(self, seat: Seat) -> list[tuple[str, dict[str, Any], Any]]:
        """The oldest prompt answered by whoever controls its actor with a random option;
        then the GM answering "no reaction" for them, should the rules refuse that."""
        state = seat.table.state
        rules = _ruleset(seat.table.ruleset)
        prompt = rules.open_prompts(state)[0]
        viewer = self.controller(seat, state.combatants[prompt.actor].controller)
        keys = [key for key, _label in prompt.options]
        out = []
        for key, by in ((self.choose.choice(keys), viewer), (keys[-1], seat.viewers[0])):
            command = rules.prompt_command(state, prompt.id, key, self.clock)
            out.append(("answer", rules.command_to_dict(command), by))
        return out

    def controller(self, seat: Seat, controller: str | None) -> Any:
        """The viewer who plays a combatant: its player, or the GM for NPCs."""
        return next(
            (v for v in seat.viewers if controller is not None and v.controller == controller),
            seat.viewers[0],
        )

    def timed_command(
        self, seat: Seat, command: dict[str, Any], viewer: Any
    ) -> tuple[int, float, float] | None:
        """(seq to push, CPU s, wall s) of the command, or None if the table refused it."""
        from combat import services

        if self.mode in NO_SNAPSHOTS:
            services.clear_cache()
        c0, w0 = time.process_time(), time.perf_counter()
        try:
            done = services.run_command(
                seat.pk, command, viewer=viewer, command_id=f"caches-{self.count}",
                seen_seq=seat.table.seq, rng=self.dice, now=self.clock,
            )  # fmt: skip
        except _refusals():
            return None
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        return getattr(done, "head", None) or done.seq, cpu, wall

    def timed_push(self, seat: Seat, kind: str, seq: int, cpu: float, wall: float) -> Sample:
        """The push of `seq` to every viewer of the seat, timed; the bytes of what changed."""
        from django.utils import translation

        from combat import fragments, services

        self.before_push()
        c0, w0 = time.process_time(), time.perf_counter()
        table = _load(services, seat.pk, seq)
        rendered = []
        for viewer in seat.viewers:
            with translation.override("pl"):
                rendered.append(fragments.regions(table, viewer))
        push_cpu, push_wall = time.process_time() - c0, time.perf_counter() - w0
        seat.table = table
        size = 0
        for sent, regions in zip(seat.sent, rendered, strict=True):
            for name, html in regions.items():
                if sent.get(name) != html:
                    sent[name] = html
                    self.region_bytes[name] += len(html.encode())
                    size += len(html.encode())
                    self.digest.update(COUNTDOWN.sub("", html).encode())
        return Sample(kind, cpu, push_cpu, wall, push_wall, size)

    def before_push(self) -> None:
        """Forget what this mode does without, between the command and its push."""
        from combat import fragments, services

        if self.mode in NO_FRAGMENTS:
            fragments.clear_caches()
        if self.mode in NO_SNAPSHOTS:
            services.clear_cache()
        if self.mode in BESIDE_MEMO:
            for name in ("_regions", "_shared", "_rosters"):
                cache = getattr(fragments, name, None)
                if cache is not None:
                    cache.clear()


def _ruleset(key: str) -> Any:
    """The ruleset `key`, from its registry wherever that lives now."""
    try:
        from combat.rules.registry import get_ruleset
    except ImportError:
        from combat.rules import get_ruleset  # type: ignore[attr-defined,no-redef]
    return get_ruleset(key)


def _refusals() -> tuple[type[Exception], ...]:
    """The refusal class(es) of the table (`Refused` may move from services to access)."""
    found = []
    for name in ("combat.services", "combat.access"):
        cls = getattr(importlib.import_module(name), "Refused", None)
        if isinstance(cls, type) and issubclass(cls, Exception):
            found.append(cls)
    return tuple(found)


def _load(services: Any, pk: int, seq: int) -> Any:
    """The table at `seq`, as the consumer loads it from a fan-out message's hint."""
    try:
        return services.load_table(pk, seq)
    except TypeError:  # the hint went away
        return services.load_table(pk)


def figures(player: Player, timed: list[Sample], gc_spent: float) -> dict[str, Any]:
    """One mode's figures over its timed actions."""
    n = max(1, len(timed))
    what = MODES[player.mode]
    if player.mode in NO_MEMO and _memo_tags() is None:
        what += " (there is no {% memo %} tag)"
    return {
        "what": what,
        "actions": len(timed),
        "command_cpu_ms": _stats([s.command for s in timed]),
        "push_cpu_ms": _stats([s.push for s in timed]),
        "total_cpu_ms": _stats([s.command + s.push for s in timed]),
        "command_wall_ms": _stats([s.command_wall for s in timed]),
        "push_wall_ms": _stats([s.push_wall for s in timed]),
        "gc_ms_per_action": round(1000 * gc_spent / n, 3),
        "kb_per_action": _stats([s.size for s in timed], scale=1 / 1024),
        "kb_per_action_by_region": {
            name: round(size / 1024 / n, 2) for name, size in player.region_bytes.most_common()
        },
        "kinds": dict(sorted(Counter(s.kind for s in timed).items())),
        "refused": dict(sorted(player.refused.items())),
        "html_digest": player.digest.hexdigest()[:16],
    }


def _samples(player: Player, count: int) -> list[Sample]:
    """`count` actions (fewer if the tables have nothing left to do: ended or stuck)."""
    samples: list[Sample] = []
    idle = 0  # picks in a row that found nothing to do
    while len(samples) < count and idle < 1000:
        sample = player.act()
        idle = 0 if sample is not None else idle + 1
        if sample is not None:
            samples.append(sample)
    return samples


class GcTimer:
    """Wall time spent in the garbage collector while in use: a cache's objects lengthen each
    full collection and a missing cache allocates more; either lands on whatever code runs."""

    def __enter__(self) -> GcTimer:
        self.spent, self._started = 0.0, 0.0
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.spent += time.perf_counter() - self._started


def _memo_tags() -> Any:
    """The template tag module whose `memo` the `{% memo %}` tag calls, or None if gone."""
    try:
        tags = importlib.import_module("combat.templatetags.table")
    except ImportError:
        return None
    return tags if callable(getattr(tags, "memo", None)) else None


def _set_mode(mode: str) -> str | None:
    """Patch the `{% memo %}` tag to render every time where the mode says so; the reason to
    skip a mode that needs the tag when it is gone (this process plays one mode and exits,
    so nothing is put back)."""
    tags = _memo_tags()
    if tags is None:
        return (
            "no {% memo %} tag (combat.templatetags.table.memo) any more"
            if mode in NEEDS_MEMO
            else None
        )
    if mode in NO_MEMO:
        tags.memo = lambda key, render: render()
    return None


def _stats(values: list[float], scale: float = 1000) -> dict[str, float]:
    if not values:
        return {"median": 0.0, "p95": 0.0, "mean": 0.0}
    ordered = sorted(v * scale for v in values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "median": round(statistics.median(ordered), 3),
        "p95": round(p95, 3),
        "mean": round(statistics.mean(ordered), 3),
    }


# --- the report -----------------------------------------------------------------------------


def _compare_html(modes: dict[str, dict[str, Any]]) -> None:
    """Mark each mode whose pushes were not byte for byte mode A's (countdowns aside)."""
    reference = modes.get("A", {}).get("html_digest")
    for figures in modes.values():
        figures["same_html_as_A"] = reference is not None and figures["html_digest"] == reference


def report(result: dict[str, Any]) -> str:
    """The figures as a Markdown table: CPU ms per action (GC: wall ms per action spent in the
    collector, part of the total), KB of changed regions per action over the viewers."""
    lines = [
        f"{result['tables']} tables, {result['actions']} timed actions after {result['warmup']}, "
        f"seed {result['seed']}, viewers per table {result['world']['viewers_per_table']}; "
        f"{result['seconds']} s",
        "",
        "| mode | command ms med / p95 | push ms med / p95 | total ms med / p95 / mean "
        "| of it GC | KB med | same HTML as A | what |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for mode, m in result["modes"].items():
        total, same = m["total_cpu_ms"], "yes" if m["same_html_as_A"] else "NO"
        cells = (
            mode,
            _pair(m["command_cpu_ms"]),
            _pair(m["push_cpu_ms"]),
            f"{_pair(total)} / {total['mean']:.2f}",
            f"{m['gc_ms_per_action']:.2f}",
            f"{m['kb_per_action']['median']:.1f}",
            same,
            m["what"],
        )
        lines.append("| " + " | ".join(cells) + " |")
    lines += [f"mode {mode} skipped: {why}" for mode, why in result["skipped"].items()]
    if result["modes"]:
        first = next(iter(result["modes"].values()))
        lines.append(f"actions by kind: {first['kinds']}; refused and replaced: {first['refused']}")
    return "\n".join(lines)


def _pair(stats: dict[str, float]) -> str:
    return f"{stats['median']:.2f} / {stats['p95']:.2f}"


if __name__ == "__main__":
    sys.exit(main())
