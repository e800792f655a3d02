"""Conditions (§6 of the digest) as data: what each does to the defences and to action tests,
whether it stops actions, and how long it lasts.

A combatant keeps its conditions as {key: rounds left}; 0 means "until removed" (Powalony
until Powstanie, Krwotok until an elixir). `ROUND_ONLY` conditions end with the round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from combat.rules.base import Badge, fill, gettext_noop
from combat.rules.magus.settings import MagusSettings

OTOCZONY = "otoczony"
POWALONY = "powalony"
OGLUSZONY = "ogluszony"
ZASKOCZONY = "zaskoczony"
NIEPRZYTOMNY = "nieprzytomny"
KRWOTOK = "krwotok"
ODERWANA = "oderwana_konczyna"
ROUND_ONLY = frozenset({OTOCZONY, ZASKOCZONY})
DEFENCES = ("obrona_fizyczna", "obrona_magiczna", "obrona_spoleczna")


@dataclass(frozen=True)
class Spec:
    key: str
    label: str
    description: str
    no_actions: bool = False


SPECS: dict[str, Spec] = {
    s.key: s
    for s in (
        Spec(OTOCZONY, gettext_noop("Otoczony"), gettext_noop("−2 OF i OM, −2 do testów akcji")),
        Spec(POWALONY, gettext_noop("Powalony"), gettext_noop("−3 OF i OM, −3 do testów akcji")),
        Spec(OGLUSZONY, gettext_noop("Ogłuszony"), gettext_noop("bez akcji"), no_actions=True),
        Spec(
            ZASKOCZONY,
            gettext_noop("Zaskoczony"),
            gettext_noop("bez akcji, −3 do obron, bez tarczy"),
            no_actions=True,
        ),
        Spec(
            NIEPRZYTOMNY,
            gettext_noop("Nieprzytomny"),
            gettext_noop("tylko testy zdrowienia; −3 OF i OM"),
            no_actions=True,
        ),
        Spec(KRWOTOK, gettext_noop("Krwotok"), gettext_noop("2 obrażenia na rundę")),
        Spec(
            ODERWANA,
            gettext_noop("Oderwana kończyna"),
            gettext_noop("obrażenia stopnia 4 na rundę"),
        ),
    )
}


def defence_modifiers(
    conditions: Mapping[str, int], settings: MagusSettings, *, defence: str, out: bool
) -> list[tuple[str, int]]:
    """(reason, value) a defender's conditions add to one of its defences; `out` says it is
    unconscious (by damage or by the condition)."""
    keys = set(conditions)
    physical_or_mystic = defence in ("obrona_fizyczna", "obrona_magiczna")
    found: list[tuple[str, int]] = []
    if OTOCZONY in keys and physical_or_mystic:
        found.append((SPECS[OTOCZONY].label, -settings.harried_penalty))
    if POWALONY in keys and physical_or_mystic:
        found.append((SPECS[POWALONY].label, -settings.knocked_down_penalty))
    if ZASKOCZONY in keys:
        found.append((SPECS[ZASKOCZONY].label, -settings.surprise_defence_penalty))
    if out and physical_or_mystic:
        found.append((SPECS[NIEPRZYTOMNY].label, -settings.unconscious_defence_penalty))
    return found


def badge(key: str, rounds: int) -> Badge:
    spec = SPECS.get(key)
    label = spec.label if spec else key
    parts: tuple[tuple[str, dict[str, int]], ...] = ()
    if rounds:
        parts = ((gettext_noop("rundy: %(n)s"), {"n": rounds}),)
    detail = ", ".join(fill(t, p) for t, p in parts)
    description = spec.description if spec else ""
    return Badge(key, label, detail, description, parts)
