"""Campaign characters and bestiary creatures as combatants: what the GM can bring to a table.

The sides are the table's own: player characters join the party ("druzyna"), NPCs and
creatures its opponents ("przeciwnicy"), unless the GM names another side.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from characters.models import Character, CreatureTemplate
from combat.rules import naming

PARTY, OPPONENTS = "druzyna", "przeciwnicy"
_CREATURE_ID = re.compile(r"t(\d+)-(\w+)")  # as `creature_combatants` names them


_read: dict[tuple[int, str], tuple[list[Any], list[Any]]] = {}


def available(
    campaign_id: int, ruleset: str, present: set[str], *, fresh: bool = True
) -> dict[str, list[Any]]:
    """What the GM can still add: the campaign's characters not at the table (player
    characters first), and the creatures of its bestiary and the shared one of its ruleset.

    The lists change outside the table's log (a new NPC in the campaign): a page load reads
    them (`fresh`); a push reuses what this process read last, until the forced push the GM's
    pages send when they change them (`services.roster_changed`) drops it (`forget`)."""
    key = (campaign_id, ruleset)
    found = None if fresh else _read.get(key)
    if found is None:
        characters = Character.objects.filter(campaign_id=campaign_id)
        creatures = CreatureTemplate.objects.filter(
            Q(campaign_id=campaign_id) | Q(campaign__isnull=True, ruleset=ruleset)
        )
        found = (
            list(characters.order_by("kind", "name").only("name", "kind")),
            list(creatures.order_by("campaign", "name").only("name")),
        )
        if len(_read) > 4096:  # old campaigns' lists: read again when needed
            _read.clear()
        _read[key] = found
    characters_read, creatures_read = found
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
    t: CreatureTemplate,
    count: int,
    taken: set[str],
    side: str | None,
    hidden: bool,
    *,
    ids: set[str],
    tags: Iterable[str] = (),
) -> list[dict[str, Any]]:
    """Numbered on from the highest "Name n" the players have been shown: Wilk 4, Wilk 5…
    Hidden ones get a placeholder, "Wilk ?KX" (`tags` first, where free; then drawn at
    random), and an id of the same tag: neither tells how many came before them (`taken`
    the names and `ids` the ids at the table, both added to)."""
    wanted = iter(tags)
    result = []
    for _n in range(count):
        if hidden:
            name = _placeholder(t.name, taken, wanted)
            tag = naming.tag_of(name) or ""
            seat = _free(f"t{t.pk}-u{tag.lower()}", ids)
        else:
            name = naming.numbered(t.name, taken)
            seat = _free(f"t{t.pk}-{naming.number_in(name, t.name)}", ids)
        taken.add(name)
        ids.add(seat)
        result.append(
            {
                "id": seat,
                "name": name,
                "side": side or OPPONENTS,
                "sheet": {**t.sheet, "name": t.name},
                "controller": None,
                "hidden": hidden,
            }
        )
    return result


def _placeholder(base: str, taken: set[str], wanted: Iterator[str]) -> str:
    """The first tag of `wanted` whose name is free, else a random one (longer as they clash)."""
    for tag in wanted:
        name = naming.placeholder(base, tag)
        if name not in taken:
            return name
    tries = 0
    while True:
        size = 2 + tries // 16
        name = naming.placeholder(
            base, "".join(secrets.choice(naming.TAG_LETTERS) for _ in range(size))
        )
        if name not in taken:
            return name
        tries += 1


def _free(seat: str, ids: set[str]) -> str:
    """`seat`, or with a suffix where that id is taken (a seat that left, a clashing tag)."""
    found, k = seat, 2
    while found in ids:
        found, k = f"{seat}x{k}", k + 1
    return found


@dataclass
class Lineup:
    """Who fights on which side, as campaign characters and bestiary creatures by count."""

    party: list[int] = field(default_factory=list)  # character pks
    foes: list[int] = field(default_factory=list)
    creatures: dict[int, int] = field(default_factory=dict)  # creature pk -> how many


def copy_order(combatant: str, name: str) -> tuple[int, int]:
    """Where a seat comes when a line-up is copied: characters first, then bestiary creatures
    by the number the players know ("Wilk 3": 3), the hidden last."""
    if not _CREATURE_ID.fullmatch(combatant):
        return (0, 0)
    number = re.fullmatch(r".* (\d+)", name)
    return (1, int(number.group(1))) if number else (2, 0)


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
