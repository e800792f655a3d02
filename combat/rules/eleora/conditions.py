"""Przypadłości (conditions) as data: stack limits, durations, when they tick, and stack maths.

A combatant holds a tuple of `ConditionInstance`s. The stack count of a condition is the sum of
its instances' stacks and never exceeds its limit: automatic applications are capped, and the
GM's "add condition" command is refused when the limit is already reached (see the engine).
Durations count the affected character's own turns; `tick` says at which end of that turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from combat.rules.base import gettext_noop
from combat.rules.eleora.settings import TableSettings
from combat.rules.records import replace

Stacking = Literal["stack", "extend", "per_source", "single"]
Tick = Literal["start", "end"]


@dataclass(frozen=True)
class ConditionSpec:
    """How one condition behaves; `limit_setting` names the TableSettings field with its cap."""

    key: str
    label: str
    description: str
    limit: int = 1
    limit_setting: str | None = None
    stacking: Stacking = "single"
    tick: Tick | None = None  # which end of the bearer's own turn counts `remaining` down
    damage_per_tick: int = 0  # per instance, at the start of the bearer's turn; ignores armour
    turns_setting: str | None = None  # default duration (TableSettings field), None = until removed
    default_turns: int | None = None
    derived: bool = False  # computed from the state (status, positions), never stored

    def max_stacks(self, settings: TableSettings) -> int:
        if self.limit_setting is not None:
            return int(getattr(settings, self.limit_setting))
        return self.limit

    def duration(self, settings: TableSettings) -> int | None:
        if self.turns_setting is not None:
            return int(getattr(settings, self.turns_setting))
        return self.default_turns


@dataclass(frozen=True)
class ConditionInstance:
    """One application of a condition on one character."""

    key: str
    stacks: int = 1
    remaining: int | None = None  # own turns left; None = until removed
    source: str | None = None  # combatant id or a label of what caused it
    difficulty: int | None = None  # to break free (Unieruchomienie, mind effects)
    mind: bool = False  # a mind-affecting effect: Wyzwolenie tests doubled Wola
    note: str = ""


SPECS: dict[str, ConditionSpec] = {
    s.key: s
    for s in (
        ConditionSpec(
            "inspiracja",
            gettext_noop("Inspiracja"),
            gettext_noop("Kostka Heroizmu: +1 kość do jednego testu."),
            limit_setting="heroism_max",
            stacking="stack",
        ),
        ConditionSpec(
            "krwawienie",
            gettext_noop("Krwawienie"),
            gettext_noop("1 obrażenie na początku każdej z 3 następnych tur."),
            limit_setting="bleeding_max",
            stacking="stack",
            tick="start",
            damage_per_tick=1,
            turns_setting="bleeding_turns",
        ),
        ConditionSpec(
            "nieprzytomnosc",
            gettext_noop("Nieprzytomność"),
            gettext_noop("Wyłączona z gry; ataki trafiają automatycznie."),
            derived=True,
        ),
        ConditionSpec(
            "odsloniecie",
            gettext_noop("Odsłonięcie"),
            gettext_noop("Znaczniki jak Celowanie, zużywa je pierwszy atak."),
            limit_setting="aim_cap",
            stacking="stack",
        ),
        ConditionSpec(
            "oszolomienie",
            gettext_noop("Oszołomienie"),
            gettext_noop("Jedna akcja w turze; obrażenia ogłuszające stają się fizycznymi."),
            tick="end",
            turns_setting="dazed_turns",
            stacking="single",
        ),
        ConditionSpec(
            "osaczenie",
            gettext_noop("Osaczenie"),
            gettext_noop("Co najmniej 4 sąsiadujących wrogów: −2 do Obrony."),
            derived=True,
        ),
        ConditionSpec(
            "oslepienie",
            gettext_noop("Oślepienie"),
            gettext_noop(
                "−3 kości do testów fizycznych, Percepcji, Ataku i Obrony (Obrona nie mniej niż 2)."
            ),
            tick="end",
            default_turns=1,
            stacking="single",
        ),
        ConditionSpec(
            "paraliz",
            gettext_noop("Paraliż"),
            gettext_noop("Brak akcji i reakcji."),
            tick="end",
        ),
        ConditionSpec(
            "podpalenie",
            gettext_noop("Podpalenie"),
            gettext_noop("1 obrażenie na początku każdej z 3 następnych tur."),
            stacking="extend",
            tick="start",
            damage_per_tick=1,
            turns_setting="burning_turns",
        ),
        ConditionSpec(
            "powalenie",
            gettext_noop("Powalenie"),
            gettext_noop("Traci Zręczność w Obronie; ruch 1 m; wstaje akcją Ruchu."),
        ),
        ConditionSpec(
            "rozproszenie",
            gettext_noop("Rozproszenie"),
            gettext_noop("Przy następnym ataku traktowana jak Zaskoczona."),
        ),
        ConditionSpec(
            "szal",
            gettext_noop("Szał"),
            gettext_noop(
                "+2 do Ataku, −2 do Obrony; pierwsza akcja to Atak (lub Szarża); bez strachu."
            ),
            tick="end",
        ),
        ConditionSpec(
            "unieruchomienie",
            gettext_noop("Unieruchomienie"),
            gettext_noop("−1 do testów umiejętności i Obrony na stos; brak ruchu."),
            limit_setting="immobilized_max",
            stacking="per_source",
        ),
        ConditionSpec(
            "zaskoczenie",
            gettext_noop("Zaskoczenie"),
            gettext_noop("Brak reakcji obronnych (Parowanie, Ucieczka, Unik)."),
            tick="start",
            default_turns=1,
        ),
        ConditionSpec(
            "zmeczenie",
            gettext_noop("Zmęczenie"),
            gettext_noop("−1 kość do wszystkich testów na punkt; przy 5 traci przytomność."),
            limit_setting="fatigue_max",
            stacking="stack",
        ),
        ConditionSpec(
            "efekt_umyslowy",
            gettext_noop("Efekt umysłowy"),
            gettext_noop(
                "Efekt wpływający na umysł (opis w notatce); Wyzwolenie: test podwojonej Woli."
            ),
            tick="end",
        ),
    )
}


def spec(key: str) -> ConditionSpec:
    """The spec of a condition key; KeyError for an unknown key (callers validate first)."""
    return SPECS[key]


def stacks(conditions: tuple[ConditionInstance, ...], key: str) -> int:
    """Total stacks of `key` (0 when absent)."""
    return sum(c.stacks for c in conditions if c.key == key)


def has(conditions: tuple[ConditionInstance, ...], key: str) -> bool:
    return stacks(conditions, key) > 0


def room(conditions: tuple[ConditionInstance, ...], key: str, settings: TableSettings) -> int:
    """How many more stacks of `key` fit under its limit."""
    return max(0, SPECS[key].max_stacks(settings) - stacks(conditions, key))


def add(
    conditions: tuple[ConditionInstance, ...], new: ConditionInstance, settings: TableSettings
) -> tuple[ConditionInstance, ...]:
    """Conditions with `new` applied per its stacking rule, capped at the limit (never above)."""
    s = SPECS[new.key]
    if s.stacking == "extend":
        return _extend(conditions, new)
    if s.stacking == "single":
        return _replace_single(conditions, replace(new, stacks=1))
    fits = min(new.stacks, room(conditions, new.key, settings))
    if s.stacking == "per_source":
        return _add_per_source(conditions, replace(new, stacks=fits))
    if fits <= 0:
        return conditions
    if new.remaining is None and new.source is None and new.key != "krwawienie":
        return _merge_counter(conditions, replace(new, stacks=fits))
    # Krwawienie: each stack is its own instance so each keeps its own countdown.
    return conditions + tuple(replace(new, stacks=1) for _ in range(fits))


def _extend(
    conditions: tuple[ConditionInstance, ...], new: ConditionInstance
) -> tuple[ConditionInstance, ...]:
    old = next((c for c in conditions if c.key == new.key), None)
    if old is None:
        return (*conditions, replace(new, stacks=1))
    if old.remaining is None or new.remaining is None:
        merged = replace(old, remaining=None)
    else:
        merged = replace(old, remaining=old.remaining + new.remaining)
    return tuple(merged if c is old else c for c in conditions)


def _replace_single(
    conditions: tuple[ConditionInstance, ...], new: ConditionInstance
) -> tuple[ConditionInstance, ...]:
    """A non-stacking condition re-applied keeps the longer of the two durations."""
    old = next((c for c in conditions if c.key == new.key), None)
    if old is None:
        return (*conditions, new)
    if old.remaining is None or (new.remaining is not None and old.remaining >= new.remaining):
        return conditions
    return tuple(new if c is old else c for c in conditions)


def _merge_counter(
    conditions: tuple[ConditionInstance, ...], new: ConditionInstance
) -> tuple[ConditionInstance, ...]:
    old = next((c for c in conditions if c.key == new.key), None)
    if old is None:
        return (*conditions, new)
    merged = replace(old, stacks=old.stacks + new.stacks)
    return tuple(merged if c is old else c for c in conditions)


def _add_per_source(
    conditions: tuple[ConditionInstance, ...], new: ConditionInstance
) -> tuple[ConditionInstance, ...]:
    """Unieruchomienie: one instance per source; a new same-source stack resets the difficulty."""
    old = next((c for c in conditions if c.key == new.key and c.source == new.source), None)
    if old is None:
        return (*conditions, new) if new.stacks > 0 else conditions
    merged = replace(old, stacks=old.stacks + new.stacks, difficulty=new.difficulty)
    return tuple(merged if c is old else c for c in conditions)


def remove(
    conditions: tuple[ConditionInstance, ...], key: str, source: str | None = None
) -> tuple[ConditionInstance, ...]:
    """Conditions without `key` (only the instances of `source` when a source is given)."""
    return tuple(
        c for c in conditions if not (c.key == key and (source is None or c.source == source))
    )


def spend(
    conditions: tuple[ConditionInstance, ...], key: str, amount: int = 1
) -> tuple[ConditionInstance, ...]:
    """Remove `amount` stacks of a token-like condition (Inspiracja, Odsłonięcie, Rozproszenie)."""
    result: list[ConditionInstance] = []
    for c in conditions:
        if c.key == key and amount > 0:
            used = min(amount, c.stacks)
            amount -= used
            if c.stacks > used:
                result.append(replace(c, stacks=c.stacks - used))
        else:
            result.append(c)
    return tuple(result)


def count_down(
    conditions: tuple[ConditionInstance, ...], moment: Tick, keys: frozenset[str] | None = None
) -> tuple[ConditionInstance, ...]:
    """Run durations down by one own turn for conditions ticking at `moment`; drop expired."""
    result: list[ConditionInstance] = []
    for c in conditions:
        s = SPECS[c.key]
        if s.tick != moment or c.remaining is None or (keys is not None and c.key not in keys):
            result.append(c)
        elif c.remaining > 1:
            result.append(replace(c, remaining=c.remaining - 1))
    return tuple(result)


def start_of_turn_damage(conditions: tuple[ConditionInstance, ...]) -> dict[str, int]:
    """Damage each damaging condition deals at the start of the bearer's turn, by key."""
    damage: dict[str, int] = {}
    for c in conditions:
        per = SPECS[c.key].damage_per_tick
        if per and SPECS[c.key].tick == "start":
            damage[c.key] = damage.get(c.key, 0) + per * c.stacks
    return damage


def label(key: str) -> str:
    return SPECS[key].label
