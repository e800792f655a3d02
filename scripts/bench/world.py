"""The benchmark's world: a GM and five players at `tables` started encounters.

Run in a subprocess against the benchmark's database (`python -m scripts.bench.world N`):
migrate first, then this prints one JSON line the load processes play from. Every table has
the five players' heroes and three wolves with fixed initiative rolls, so a load process knows
whose turn it is without parsing the page: the heroes in order, then the wolves.
"""

from __future__ import annotations

import json
import sys
from typing import Any

PLAYERS = ("bench-p1", "bench-p2", "bench-p3", "bench-p4", "bench-p5")
GM = "bench-gm"
WOLVES = 3


def build(tables: int) -> dict[str, Any]:
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
    import django

    django.setup()
    print(json.dumps(build(int(sys.argv[1]))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
