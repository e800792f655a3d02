"""What a Magus sheet shows beside its numbers: the stats' ranges and the values derived from
the sheet, each with how it was computed ("Broń Biała 3 + Zręczność 6 = stopień 9 (k8+k6)").

The digest's DEFAULT (§8 #5): the defences, the Wound Threshold, the Unconsciousness and Death
Ratings, the recovery tests per day and the Movement Rate are entered on the sheet; the rest is
computed here from the sheet and the table's settings (its step table above all). The ruleset
wires these in as its `attributes`, `skills` and `derived_values`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from combat.rules.base import (
    DerivedValue,
    RuleViolation,
    StatSpec,
    fill,
    gettext_noop,
    is_text,
    text_param,
)
from combat.rules.magus.settings import MagusSettings
from combat.rules.magus.sheet import (
    ATTACK_TALENT,
    ATTRIBUTES,
    STATS,
    TALENTS,
    Armour,
    Sheet,
    Shield,
    Weapon,
)

# Headings of the sheet's stats (the form and the sheet page show each group apart).
TRAITS = gettext_noop("Cechy")
DEFENCES = gettext_noop("Obrony i progi")
TALENTS_GROUP = gettext_noop("Talenty i umiejętności")
STAT_MAX = 99
# Bieg (Running) doubles the Movement Rate for the round.
RUNNING_FACTOR = 2

LABELS = dict((*ATTRIBUTES, *STATS))
TALENT_LABELS = {key: label for key, label, _attribute in TALENTS}
# How an explanation's parts follow each other (msgids, so a language may order them its way).
AND_THEN = gettext_noop("%(first)s; %(then)s")
SPACED = gettext_noop("%(first)s %(then)s")
MODIFIER = gettext_noop("%(value)s (%(reason)s)")
TOTAL = gettext_noop("%(sum)s = %(total)s")
Text = tuple[str, dict[str, Any]]  # a text of the rules: its msgid and params (`text_param`)


def settings_of(settings: Mapping[str, Any] | MagusSettings | None) -> MagusSettings:
    """The validated settings of a table's stored dict (ValueError when they are bad), parsed
    once per distinct dict: a sheet's validation and its page ask for them several times."""
    if isinstance(settings, MagusSettings):
        return settings
    return _parsed(json.dumps(dict(settings or {}), sort_keys=True))


@lru_cache(maxsize=64)
def _parsed(data: str) -> MagusSettings:
    return MagusSettings.from_dict(json.loads(data))


def attribute_specs(settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]:
    """The six attribute steps (step_min–step_max), then the recorded defences, ratings,
    recovery tests and Movement Rate (0–99)."""
    s = settings_of(settings)
    return (
        *(StatSpec(key, label, s.step_min, s.step_max, TRAITS) for key, label in ATTRIBUTES),
        *(StatSpec(key, label, 0, STAT_MAX, DEFENCES) for key, label in STATS),
    )


def skill_specs(settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]:
    """The talents and skills by rank (0–rank_max)."""
    s = settings_of(settings)
    return tuple(StatSpec(key, label, 0, s.rank_max, TALENTS_GROUP) for key, label, _a in TALENTS)


def dice(step: int, settings: MagusSettings) -> str:
    """A step's action dice in Polish notation ("k8+k6"), or why there are none."""
    found = _dice(step, settings)
    return found if isinstance(found, str) else fill(*found)


def _dice(step: int, settings: MagusSettings) -> str | Text:
    """The dice's notation, or the text of why there are none (translated where shown)."""
    if step < 1:
        return text_param(gettext_noop("stopień %(step)d: brak kości"), step=step)
    try:
        return settings.table.dice_for(step).notation("k")
    except RuleViolation:
        return text_param(
            gettext_noop("poza tabelą stopni (1–%(highest)d)"), highest=settings.table.highest
        )


def _step_text(step: int, settings: MagusSettings) -> Text:
    return text_param(
        gettext_noop("stopień %(step)d (%(dice)s)"), step=step, dice=_dice(step, settings)
    )


def _joined(msgid: str, first: Any, *rest: Any) -> Any:
    """The parts one after another, as `msgid` (`AND_THEN`, `SPACED`) puts two together."""
    for part in rest:
        first = text_param(msgid, first=first, then=part)
    return first


def _explained(key: str, label: str, value: int, text: Any) -> DerivedValue:
    """A value with how it was computed: a text of the rules (its msgid and params, so the
    sheet page shows it in the viewer's language), or a plain text (names and numbers)."""
    if not is_text(text):
        return DerivedValue(key, label, value, str(text))
    template, params = text
    return DerivedValue(key, label, value, fill(template, params), template, params)


def derived_values(
    sheet: Mapping[str, Any], settings: Mapping[str, Any] | MagusSettings | None = None
) -> list[DerivedValue]:
    """Every value the sheet page explains: talent tests, Initiative, each weapon's damage and
    each spell's effect, armour with and without the shield, the recorded defences and ratings,
    recovery and movement."""
    s, read = settings_of(settings), Sheet.from_dict(sheet)
    return [
        *_talent_tests(read, s),
        _initiative(read, s),
        *(_weapon_damage(read, index, weapon, s) for index, weapon in enumerate(read.weapons)),
        *(_spell(read, index, s) for index in range(len(read.spells))),
        *_armour(read, s.shield_raises_penetration),
        *_recorded(read),
        *_recovery(read, s),
        *_movement(read),
    ]


def _talent_tests(sheet: Sheet, s: MagusSettings) -> list[DerivedValue]:
    """The test step of every talent the character has a rank in."""
    values = []
    for key, label, attribute in TALENTS:
        rank = sheet.rank(key)
        if rank <= 0:
            continue
        step = sheet.talent_step(key)
        explained = text_param(
            gettext_noop("%(talent)s %(rank)d + %(attribute)s %(value)d = %(step)s"),
            talent=text_param(label),
            rank=rank,
            attribute=text_param(LABELS[attribute]),
            value=sheet.step(attribute),
            step=_step_text(step, s),
        )
        values.append(
            _explained(f"test-{key}", "", step, explained).labelled(
                gettext_noop("Test: %(talent)s"), talent=text_param(label)
            )
        )
    return values


def _initiative(sheet: Sheet, s: MagusSettings) -> DerivedValue:
    worn: list[Armour | Shield] = [*sheet.armour]
    if sheet.shield is not None:
        worn.append(sheet.shield)
    penalties = [
        text_param(MODIFIER, value=f"− {item.initiative_penalty}", reason=item.name)
        for item in worn
        if item.initiative_penalty
    ]
    dexterity = text_param(gettext_noop("Zręczność %(n)d"), n=sheet.step("zrecznosc"))
    step = sheet.initiative_step
    explained = text_param(
        TOTAL, sum=_joined(SPACED, dexterity, *penalties), total=_step_text(step, s)
    )
    return _explained("inicjatywa", gettext_noop("Inicjatywa"), step, explained)


def _weapon_damage(sheet: Sheet, index: int, weapon: Weapon, s: MagusSettings) -> DerivedValue:
    """Siła + the weapon's step; the ×3 cap of a non-magic weapon; the attack talent's step."""
    step = sheet.damage_step(weapon)
    damage = text_param(
        gettext_noop("Siła %(strength)d + %(weapon)s %(damage)d = %(step)s"),
        strength=sheet.step("sila"),
        weapon=weapon.name,
        damage=weapon.damage,
        step=_step_text(step, s),
    )
    cap = (
        text_param(gettext_noop("broń magiczna: bez górnej granicy obrażeń"))
        if weapon.magic
        else text_param(
            gettext_noop("broń niemagiczna: najwyżej %(step)d × %(times)d = %(max)d"),
            step=step,
            times=s.max_damage_multiplier,
            max=step * s.max_damage_multiplier,
        )
    )
    talent = ATTACK_TALENT.get(weapon.kind, "bron_biala")
    attack = text_param(
        gettext_noop("atak: %(talent)s, %(step)s"),
        talent=text_param(TALENT_LABELS[talent]),
        step=_step_text(sheet.talent_step(talent), s),
    )
    explained = _joined(AND_THEN, damage, cap, attack)
    return _explained(f"obrazenia-{index}", "", step, explained).labelled(
        gettext_noop("Obrażenia: %(weapon)s"), weapon=weapon.name
    )


def _spell(sheet: Sheet, index: int, s: MagusSettings) -> DerivedValue:
    spell = sheet.spells[index]
    casting = sheet.talent_step("rzucanie_czarow")
    explained = text_param(
        gettext_noop("%(effect)s; test Rzucania czarów %(casting)s przeciw: %(defence)s"),
        effect=_step_text(spell.effect_step, s),
        casting=_step_text(casting, s),
        defence=text_param(LABELS.get(spell.defence, spell.defence)),
    )
    return _explained(f"czar-{index}", "", spell.effect_step, explained).labelled(
        gettext_noop("Efekt: %(spell)s"), spell=spell.name
    )


def _sum_text(parts: list[tuple[str, int]]) -> str | Text:
    """The armour pieces' names and points added up, or the text that there are none."""
    if not parts:
        return text_param(gettext_noop("bez pancerza"))
    return " + ".join(f"{name} {value}" for name, value in parts)


def _armour(sheet: Sheet, raises: bool) -> list[DerivedValue]:
    """Physical and mystic armour, and each with the (first) shield when there is one (which
    raises the Excellent threshold of armour penetration when `raises`)."""
    shield = sheet.shield
    values = []
    for key, label, with_label, total, of_item in (
        (
            "pancerz_fizyczny",
            gettext_noop("Pancerz fizyczny"),
            gettext_noop("Pancerz fizyczny z tarczą"),
            sheet.physical_armour,
            _physical,
        ),
        (
            "pancerz_duchowy",
            gettext_noop("Pancerz duchowy"),
            gettext_noop("Pancerz duchowy z tarczą"),
            sheet.mystic_armour,
            _mystic,
        ),
    ):
        parts = [(a.name, of_item(a)) for a in sheet.armour if of_item(a)]
        values.append(_explained(key, label, total, _sum_text(parts)))
        if shield is not None:
            explained: Any = _sum_text([*parts, (shield.name, of_item(shield))])
            if raises and of_item(shield):
                penetration = gettext_noop("przebicie wymaga Ogromnego sukcesu o %(n)d wyżej")
                explained = _joined(AND_THEN, explained, text_param(penetration, n=of_item(shield)))
            values.append(
                _explained(f"{key}_z_tarcza", with_label, total + of_item(shield), explained)
            )
    return values


def _physical(item: Armour | Shield) -> int:
    return item.physical


def _mystic(item: Armour | Shield) -> int:
    return item.mystic


RECORDED = {
    "obrona_fizyczna": gettext_noop("z karty; przeciw niej atakuje się bronią"),
    "obrona_magiczna": gettext_noop("z karty; przeciw niej rzuca się czary"),
    "obrona_spoleczna": gettext_noop("z karty; przeciw niej idą testy społeczne"),
    "prog_ran": gettext_noop(
        "z karty; rana, gdy obrażenia jednego ataku (po pancerzu) go przekroczą"
    ),
    "prog_przytomnosci": gettext_noop("z karty; tyle obrażeń i postać traci przytomność"),
    "prog_smierci": gettext_noop("z karty; tyle obrażeń i postać ginie"),
}


def _recorded(sheet: Sheet) -> list[DerivedValue]:
    return [DerivedValue(key, LABELS[key], sheet.stat(key), why) for key, why in RECORDED.items()]


def _recovery(sheet: Sheet, s: MagusSettings) -> list[DerivedValue]:
    toughness = sheet.step("zywotnosc")
    return [
        DerivedValue(
            "testy_zdrowienia",
            LABELS["testy_zdrowienia"],
            sheet.stat("testy_zdrowienia"),
            gettext_noop("z karty; przy jednym teście dziennie: tylko po nocnym odpoczynku"),
        ),
        _explained(
            "stopien_zdrowienia",
            gettext_noop("Test zdrowienia"),
            toughness,
            text_param(
                gettext_noop("Żywotność %(n)d = %(step)s; wynik co najmniej 1"),
                n=toughness,
                step=_step_text(toughness, s),
            ),
        ),
    ]


def _movement(sheet: Sheet) -> list[DerivedValue]:
    rate = sheet.stat("ruch")
    return [
        DerivedValue(
            "ruch",
            LABELS["ruch"],
            rate,
            gettext_noop("z karty; metry na rundę (pole = 2 m), raz na rundę"),
        ),
        DerivedValue(
            "ruch_pelny",
            LABELS["ruch_pelny"],
            sheet.stat("ruch_pelny"),
            gettext_noop("z karty; szarżujący wierzchowiec biegnie najwyżej tyle"),
        ),
        _explained(
            "bieg",
            gettext_noop("Bieg (m)"),
            rate * RUNNING_FACTOR,
            text_param(
                gettext_noop("Szybkość ruchu %(n)d × %(times)d; zużywa akcję standardową"),
                n=rate,
                times=RUNNING_FACTOR,
            ),
        ),
    ]


__all__ = ["attribute_specs", "derived_values", "dice", "settings_of", "skill_specs"]
