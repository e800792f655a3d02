"""The benchmark's world: `tables` started encounters that differ as real tables do.

Run in a subprocess against the benchmark's database (`python -m scripts.bench.world N`):
migrate first, then this prints one JSON line the load processes play from. Table n plays
ruleset `RULESETS[n % 3]` in its own campaign, with its own GM and 3–5 players (one hero each,
made from that ruleset's demo heroes under a name of its own), 2–4 opponents from the ruleset's
shared bestiary, a battle map with every token on it (Eleora and Magus always, d100 at every
other of its tables), its NPC policies and initiative rolled by the engine. The load knows none
of this: its bot reads the pages the server pushes (scripts/bench/load.py). `clones` is the
first benchmark's world of identical tables, kept for the fixed script of scripts.bench.profile.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any

RULESETS = ("eleora", "magus", "d100")
# Each ruleset's demo encounter whose map the table lays (seed_demo.MAPS).
MAP_OF = {
    "eleora": "Zasadzka na leśnym trakcie",
    "magus": "Zasadzka w wąwozie",
    "d100": "Zasadzka przy brodzie",
}
BYNAMES = (
    *("Śmiały", "Cichy", "z Brodu", "Rudy", "Młodszy", "Stary", "z Gór", "Wędrowiec"),
    *("Siwy", "z Puszczy", "Bystry", "Mały"),
)
SEED = 15
PARTS = 3  # processes that build a large world together
PARALLEL_FROM = 30  # tables
# The first benchmark's world (`clones`).
PLAYERS = ("bench-p1", "bench-p2", "bench-p3", "bench-p4", "bench-p5")
GM = "bench-gm"
WOLVES = 3


def build(tables: int, part: int = 0, parts: int = 1) -> dict[str, Any]:
    """The world's tables (those n with n % parts == part), and a session for each of their
    users. Table n is the same whichever part builds it (its own seed)."""
    from django.contrib.auth.models import User

    numbers = [n for n in range(tables) if n % parts == part]
    names = [f"bench-t{n}-{role}" for n in numbers for role in ("gm", *_players(5))]
    User.objects.bulk_create([User(username=name) for name in names], ignore_conflicts=True)
    users = {u.username: u for u in User.objects.filter(username__in=names)}
    out = [_table(n, random.Random(f"{SEED}:{n}"), users) for n in numbers]
    used = {name for table in out for name in table["users"]}
    return {"sessions": {name: _session(users[name]) for name in sorted(used)}, "tables": out}


def build_in_parallel(tables: int, parts: int) -> dict[str, Any]:
    """`build` in `parts` processes at once (the database's work overlaps the Python's),
    merged in table order."""
    command = [sys.executable, "-m", "scripts.bench.world", str(tables), "--part"]
    procs = [
        subprocess.Popen([*command, f"{i}/{parts}"], stdout=subprocess.PIPE, text=True)
        for i in range(parts)
    ]
    done = [json.loads(proc.communicate()[0].strip().splitlines()[-1]) for proc in procs]
    if any(proc.returncode for proc in procs):
        raise RuntimeError("a part of the world failed")
    made = sorted((t for d in done for t in d["tables"]), key=lambda t: int(t["n"]))
    return {"sessions": {k: v for d in done for k, v in d["sessions"].items()}, "tables": made}


def _players(count: int) -> list[str]:
    return [f"p{i + 1}" for i in range(count)]


def _table(n: int, rng: random.Random, users: dict[str, Any]) -> dict[str, Any]:
    """Table n: its campaign, characters, map and started encounter."""
    from django.db import transaction

    from combat import services

    ruleset = RULESETS[n % len(RULESETS)]
    gm = users[f"bench-t{n}-gm"]
    players = [users[f"bench-t{n}-{p}"] for p in _players(rng.randint(3, 5))]
    with transaction.atomic():
        campaign, heroes = _campaign(n, ruleset, gm, players, rng)
        encounter = services.create_encounter(campaign=campaign, name=f"Stół {n}", by=gm)
    viewer = services.Viewer(user_id=gm.pk, is_gm=True)
    services.add_combatants(
        encounter.pk, viewer=viewer, characters=heroes, creatures=_opponents(ruleset, rng)
    )
    with_map = ruleset != "d100" or n // len(RULESETS) % 2 == 0
    if with_map:
        _lay_map(encounter.pk, gm, ruleset, rng)
    done = services.run_command(
        encounter.pk, {"type": "start_combat"}, viewer=viewer, command_id=f"bench-start-{n}"
    )
    owners = {str(p.pk): p.username for p in players}
    seats = services.load_table(encounter.pk).view.seats
    return {
        "n": n,
        "pk": encounter.pk,
        "ruleset": ruleset,
        "seq": done.head if done.head is not None else done.seq,
        "map": with_map,
        "users": [gm.username, *(p.username for p in players)],
        # Who plays which seat, as each player's page shows it ("twoja"); the GM plays the rest.
        "controllers": {
            cid: owners[seat.controller] for cid, seat in seats.items() if seat.controller in owners
        },
    }


def _campaign(
    n: int, ruleset: str, gm: Any, players: list[Any], rng: random.Random
) -> tuple[Any, list[int]]:
    """The table's campaign (settings the bot can play through) and its heroes, one a player."""
    from characters import services as characters
    from characters.models import Character
    from characters.sheets import clean_sheet

    campaign = characters.create_campaign(
        gm=gm, name=f"Kampania ławy {n}", description="", ruleset=ruleset
    )
    # The bot ends a turn it could still act in only now and then: Eleora's turn ends itself
    # once nothing is left to do. Magus rolls initiative for everyone (else each round waits
    # for every page's roll, or its 30 s timeout).
    campaign.settings = {**campaign.settings, **_settings(ruleset)}
    campaign.save(update_fields=["settings"])
    demo = _demo_heroes(ruleset)
    start = rng.randrange(len(demo))
    heroes = []
    rules = campaign.rules()
    for i, player in enumerate(players):
        characters.join_campaign(campaign=campaign, user=player)
        name, sheet = demo[(start + i) % len(demo)]
        heroes.append(
            Character.objects.create(
                campaign=campaign,
                kind=Character.Kind.PC,
                owner=player,
                name=f"{name.split()[0]} {rng.choice(BYNAMES)} {n}.{i + 1}",
                sheet=clean_sheet(sheet, rules=rules, settings=campaign.settings),
            ).pk
        )
    return campaign, heroes


def _settings(ruleset: str) -> dict[str, Any]:
    if ruleset == "eleora":
        return {"auto_end_turn": True}
    if ruleset == "magus":
        return {"players_roll_initiative": False}
    return {}


def _demo_heroes(ruleset: str) -> list[tuple[str, dict[str, Any]]]:
    from characters.management.commands import seed_demo

    if ruleset == "eleora":
        return [(name, sheet) for name, sheet, _ in seed_demo.HEROES.values()]
    heroes = seed_demo.MAGUS_HEROES if ruleset == "magus" else seed_demo.D100_HEROES
    return [(name, sheet) for _, name, sheet, _ in heroes]


def _opponents(ruleset: str, rng: random.Random) -> dict[int, int]:
    """2–4 creatures of the ruleset's shared bestiary, by template id and count."""
    from characters.models import CreatureTemplate

    shared = sorted(
        CreatureTemplate.objects.filter(campaign=None, ruleset=ruleset).values_list("pk", flat=True)
    )
    counts: dict[int, int] = {}
    for _ in range(rng.randint(2, 4)):
        pk = rng.choice(shared)
        counts[pk] = counts.get(pk, 0) + 1
    return counts


def _lay_map(encounter_id: int, gm: Any, ruleset: str, rng: random.Random) -> None:
    """The ruleset's demo map, painted, with every seat's token on it: the party on the
    drawing's P fields, the others on its N fields, then on free ground nearest to their side
    (a table seats more than the drawing marks)."""
    from characters.management.commands.seed_demo import MAPS, map_edits
    from combat import services
    from combat.rules.base import battle_maps_of
    from combat.rules.registry import get_ruleset

    rules = get_ruleset(ruleset)
    maps = battle_maps_of(rules)
    assert maps is not None, ruleset
    marks, edits = map_edits(MAPS[MAP_OF[ruleset]])
    commands = [maps.map_command(edit, 0.0) for edit in edits]
    table = services.load_table(encounter_id)
    seats = [table.view.seats[cid] for cid in table.view.order]
    party = {seat.side for seat in seats if seat.controller is not None}
    ground = [*marks.get(".", ())]
    rng.shuffle(ground)
    free = {side: list(marks.get(side, ())) for side in ("P", "N")}
    for seat in seats:
        side = "P" if seat.side in party else "N"
        spots = free[side] or _nearest(ground, marks.get(side, [(0, 0)])[0])
        commands.append(maps.place_command(seat.id, spots.pop(0), 0.0))
    viewer = services.Viewer(user_id=gm.pk, is_gm=True)
    for command in commands:
        services.run_command(encounter_id, rules.command_to_dict(command), viewer=viewer)


def _nearest(ground: list[tuple[int, int]], to: tuple[int, int]) -> list[tuple[int, int]]:
    """The free ground field nearest to `to`, taken out of `ground` (as a one-item list)."""
    best = min(ground, key=lambda f: (f[0] - to[0]) ** 2 + (f[1] - to[1]) ** 2)
    ground.remove(best)
    return [best]


def clones(tables: int) -> dict[str, Any]:
    """The first benchmark's world, for `scripts.bench.profile`'s fixed script (its figures
    stay comparable with the earlier reports): a GM and five players at `tables` clones of one
    Eleora table, its five heroes and three wolves with fixed initiative rolls, so that the
    script knows whose turn it is without reading the page (`order`: the heroes, then the
    wolves)."""
    from django.contrib.auth.models import User
    from django.db import transaction

    from characters import services as characters
    from characters.management.commands.seed_demo import HEROES
    from characters.models import Character, CreatureTemplate
    from characters.sheets import clean_sheet
    from combat import services

    with transaction.atomic():
        users = {name: _user(User, name) for name in (GM, *PLAYERS)}
        campaign = characters.create_campaign(
            gm=users[GM], name="Benchmark", description="", ruleset="eleora"
        )
        # The scripted turn (Ruch, Zasłona, end of turn) ends the turn by hand, as measured
        # before turns could end by themselves.
        campaign.settings = {**campaign.settings, "auto_end_turn": False}
        campaign.save(update_fields=["settings"])
        sheets = [sheet for _, sheet, _ in HEROES.values()]
        heroes = []
        for i, login in enumerate(PLAYERS):
            characters.join_campaign(campaign=campaign, user=users[login])
            sheet = clean_sheet(
                sheets[i % len(sheets)], rules=campaign.rules(), settings=campaign.settings
            )
            heroes.append(
                Character.objects.create(
                    campaign=campaign, owner=users[login], name=f"Bohater {i + 1}", sheet=sheet
                )
            )
        wolf = CreatureTemplate.objects.get(campaign=None, name="Wilk")
    gm = services.Viewer(user_id=users[GM].pk, is_gm=True)
    hero_ids = [f"c{h.pk}" for h in heroes]
    out = []
    for n in range(tables):
        encounter = services.create_encounter(campaign=campaign, name=f"Stół {n}", by=users[GM])
        services.add_combatants(
            encounter.pk, viewer=gm, characters=[h.pk for h in heroes], creatures={wolf.pk: WOLVES}
        )
        table = services.load_table(encounter.pk)
        wolves = sorted(cid for cid in table.state.combatants if cid not in hero_ids)
        owner = dict(zip(hero_ids, PLAYERS, strict=True))
        targets = {cid: wolves[0] if cid in owner else hero_ids[0] for cid in hero_ids + wolves}
        rolls = {cid: _dice(12 - i) for i, cid in enumerate(hero_ids + wolves)}
        done = services.run_command(
            encounter.pk, {"type": "start_combat", "rolls": rolls}, viewer=gm
        )
        order = services.load_table(encounter.pk).state.order
        out.append(
            {
                "pk": encounter.pk,
                "seq": done.seq,
                "order": [
                    {"id": cid, "user": owner.get(cid, GM), "target": targets[cid]} for cid in order
                ],
            }
        )
    return {"sessions": {name: _session(u) for name, u in users.items()}, "tables": out}


def _dice(total: int) -> list[int]:
    """Two d6 summing to `total` (2–12): distinct totals keep the turn order predictable."""
    return [6, total - 6] if total > 6 else [total - 1, 1]


def _user(model: Any, name: str) -> Any:
    user, _ = model.objects.get_or_create(username=name)
    return user


def _session(user: Any) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return str(store.session_key)


def main() -> int:
    """`python -m scripts.bench.world N [--clones | --part I/PARTS]`"""
    tables, options = int(sys.argv[1]), sys.argv[2:]
    if not options and tables >= PARALLEL_FROM:
        print(json.dumps(build_in_parallel(tables, PARTS)))
        return 0
    import django

    # No server listens while the world is built: its commands' publishes need no Redis
    # (they cost a fifth of the build).
    os.environ.pop("REDIS_URL", None)
    os.environ["ALLOW_IN_MEMORY_LAYER"] = "1"
    django.setup()
    if "--clones" in options:
        print(json.dumps(clones(tables)))
    elif "--part" in options:
        part, parts = options[options.index("--part") + 1].split("/")
        print(json.dumps(build(tables, int(part), int(parts))))
    else:
        print(json.dumps(build(tables)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
