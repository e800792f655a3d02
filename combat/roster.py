"""Campaign characters and bestiary creatures as combatants: what the GM can bring to a table.

The sides are the table's own: player characters join the party ("druzyna"), NPCs and
creatures its opponents ("przeciwnicy"), unless the GM names another side.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from characters.models import Character, CreatureTemplate

PARTY, OPPONENTS = "druzyna", "przeciwnicy"
_CREATURE_ID = re.compile(r"t(\d+)-(\d+)")  # as `creature_combatants` numbers them


FRESH_FOR = 10.0  # seconds a push may show the roster a page load or an earlier push read
_read: dict[tuple[int, str], tuple[float, list[Any], list[Any]]] = {}


def available(
    campaign_id: int, ruleset: str, present: set[str], *, fresh: bool = True
) -> dict[str, list[Any]]:
    """What the GM can still add: the campaign's characters not at the table (player
    characters first), and the creatures of its bestiary and the shared one of its ruleset.

    The lists change outside the table's log (a new NPC in the campaign): a page load reads
    them (`fresh`); a push reuses what this process read in the last `FRESH_FOR` seconds, and
    the forced push the GM's pages send when they change them (`services.roster_changed`)
    drops that first (`forget`)."""
    key, now = (campaign_id, ruleset), time.monotonic()
    found = None if fresh else _read.get(key)
    if found is None or now - found[0] > FRESH_FOR:
        characters = Character.objects.filter(campaign_id=campaign_id)
        creatures = CreatureTemplate.objects.filter(
            Q(campaign_id=campaign_id) | Q(campaign__isnull=True, ruleset=ruleset)
        )
        found = (
            now,
            list(characters.order_by("kind", "name").only("name", "kind")),
            list(creatures.order_by("campaign", "name").only("name")),
        )
        if len(_read) > 4096:  # old campaigns' lists: read again when needed
            _read.clear()
        _read[key] = found
    _, characters_read, creatures_read = found
    return {
        "roster_characters": [c for c in characters_read if f"c{c.pk}" not in present],
        "roster_creatures": list(creatures_read),
    }


def forget() -> None:
    """The next push reads every roster anew."""
    _read.clear()


def character_combatant(c: Character, side: str | None, hidden: bool) -> dict[str, Any]:
    return {
        "id": f"c{c.pk}",
        "name": c.name,
        "side": side or (OPPONENTS if c.is_npc else PARTY),
        "sheet": c.sheet_data(),
        "controller": None if c.is_npc or c.owner_id is None else str(c.owner_id),
        "hidden": hidden and c.is_npc,
    }


def creature_combatants(
    t: CreatureTemplate, count: int, taken: set[str], side: str | None, hidden: bool
) -> list[dict[str, Any]]:
    """Numbered on from the highest "Name n" already at the table: Wilk 4, Wilk 5…"""
    used = [int(n) for n in (x.removeprefix(f"{t.name} ") for x in taken) if n.isdigit()]
    start = max(used, default=0) + 1
    result = []
    for n in range(start, start + count):
        name = f"{t.name} {n}"
        taken.add(name)
        result.append(
            {
                "id": f"t{t.pk}-{n}",
                "name": name,
                "side": side or OPPONENTS,
                "sheet": {**t.sheet, "name": t.name},
                "controller": None,
                "hidden": hidden,
            }
        )
    return result


@dataclass
class Lineup:
    """Who fights on which side, as campaign characters and bestiary creatures by count."""

    party: list[int] = field(default_factory=list)  # character pks
    foes: list[int] = field(default_factory=list)
    creatures: dict[int, int] = field(default_factory=dict)  # creature pk -> how many


def creature_number(combatant: str) -> int:
    """A bestiary creature's number at its table ("Wilk 3": 3); 0 for any other seat."""
    match = _CREATURE_ID.fullmatch(combatant)
    return int(match.group(2)) if match else 0


def lineup_of(seats: Iterable[tuple[str, str]]) -> Lineup:
    """A table's (combatant id, side) pairs as a lineup: the party's side against the rest."""
    lineup = Lineup()
    for combatant, side in seats:
        if combatant.startswith("c") and combatant[1:].isdigit():
            (lineup.party if side == PARTY else lineup.foes).append(int(combatant[1:]))
        elif match := _CREATURE_ID.fullmatch(combatant):
            pk = int(match.group(1))
            lineup.creatures[pk] = lineup.creatures.get(pk, 0) + 1
    return lineup
