"""What a d100 sheet shows beside its numbers: the stats' ranges and the thresholds derived from
the sheet, each with how it was computed ("Zwinność 40 + Broń mała/szermiercza +5 = 45").

Every threshold is attribute + the equipment's modifiers (their total capped at
±`modifier_cap`): the hit and damage tests of each weapon, bare hands, claws and spell; Unik,
Blok, Odporność, the defence against mind magic and Odpoczynek; the armour's damage reduction;
and, for a character who can transform, the changed attributes and claws. The sheet is read
leniently (a missing value reads as 0): the app validates it with `sheet.validate_sheet`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
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
from combat.rules.d100.armour import CHANGE_IN_COMBAT
from combat.rules.d100.check import capped
from combat.rules.d100.equipment import (
    ARMOUR_LABELS,
    ATTRIBUTE_LABELS,
    SHIELD_LABEL,
    TRANSFORMATION_LABELS,
    AttackProfile,
    armour_reduction,
    attack_profile,
    can_block,
    dodge_penalties,
    label_of,
    shield_allowed,
    transformation_modifiers,
    transformation_mods,
    weapon_kinds,
)
from combat.rules.d100.settings import ATTRIBUTES, SKILLS, D100Settings, settings_of

ATTRIBUTES_GROUP = gettext_noop("Atrybuty")
SKILLS_GROUP = gettext_noop("Umiejętności")
Modifiers = tuple[tuple[str, int], ...]
Text = tuple[str, dict[str, Any]]  # a text of the rules: its msgid and params (`text_param`)
# How an explanation's parts follow each other (msgids, so a language may order them its way).
AND_THEN = gettext_noop("%(first)s; %(then)s")
SPACED = gettext_noop("%(first)s %(then)s")
PLUS = gettext_noop("%(first)s + %(then)s")
MODIFIER = gettext_noop("%(value)s (%(reason)s)")
TOTAL = gettext_noop("%(sum)s = %(total)s")
PERCENT = gettext_noop("%(item)s %(percent)s%%")
WITH_KIND = gettext_noop("%(name)s (%(kind)s)")  # "Krzepa (Wilkołak)", "Pazury (Wampir)"


def attribute_specs(
    settings: Mapping[str, Any] | D100Settings | None = None,
) -> tuple[StatSpec, ...]:
    """The six attributes, 0..attribute_max (the percent chance of their tests)."""
    s = settings_of(settings)
    return tuple(
        StatSpec(key, label, 0, s.attribute_max, ATTRIBUTES_GROUP) for key, label in ATTRIBUTES
    )


def skill_specs(settings: Mapping[str, Any] | D100Settings | None = None) -> tuple[StatSpec, ...]:
    """Akrobatyka and Medycyna, 0..attribute_max."""
    s = settings_of(settings)
    return tuple(StatSpec(key, label, 0, s.attribute_max, SKILLS_GROUP) for key, label in SKILLS)


def _value(sheet: Mapping[str, Any], attribute: str) -> int:
    raw = dict(sheet.get("attributes") or {}).get(attribute, 0)
    return raw if isinstance(raw, int) and not isinstance(raw, bool) else 0


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def _joined(msgid: str, first: Any, *rest: Any) -> Any:
    """The parts one after another, as `msgid` (`AND_THEN`, `SPACED`, `PLUS`) puts two
    together."""
    for part in rest:
        first = text_param(msgid, first=first, then=part)
    return first


def _modifier(reason: str, value: int) -> Text:
    """ "+5 (Broń mała/szermiercza)": the reason a term of the rules (or a GM's kind, data)."""
    return text_param(MODIFIER, value=_signed(value), reason=text_param(reason))


def _explained(key: str, label: str, value: int, text: Any) -> DerivedValue:
    """A value with how it was computed: a text of the rules (its msgid and params, so the
    sheet page shows it in the viewer's language), or a plain text."""
    if not is_text(text):
        return DerivedValue(key, label, value, str(text))
    template, params = text
    return DerivedValue(key, label, value, fill(template, params), template, params)


def threshold(
    sheet: Mapping[str, Any], attribute: str, mods: Modifiers, s: D100Settings
) -> tuple[int, Text]:
    """attribute + the capped modifiers, and the sum written out (a text of the rules)."""
    base = _value(sheet, attribute)
    modifier = capped(mods, s)
    parts: list[Any] = [_joined(SPACED, text_param(ATTRIBUTE_LABELS[attribute]), base)]
    parts += [_modifier(reason, value) for reason, value in mods]
    if modifier != sum(value for _reason, value in mods):
        cap = gettext_noop("(modyfikatory najwyżej ±%(cap)s)")
        parts.append(text_param(cap, cap=s.modifier_cap))
    return base + modifier, text_param(TOTAL, sum=_joined(SPACED, *parts), total=base + modifier)


def _pair(
    sheet: Mapping[str, Any],
    key: str,
    name: Text,
    profile: AttackProfile,
    s: D100Settings,
    effect: bool = False,
) -> list[DerivedValue]:
    """The hit and the damage (or, for an effect or summoning spell, the effect) test; `name`
    the attack's (a term of the rules, or a name as `text_param(name)`)."""
    hit, hit_text = threshold(sheet, profile.hit_attr, profile.hit_mods, s)
    damage, damage_text = threshold(sheet, profile.damage_attr, profile.damage_mods, s)
    deals = gettext_noop("%(sum)s; sukces zadaje OoP × %(times)s")
    return [
        _explained(f"trafienie-{key}", "", hit, hit_text).labelled(
            gettext_noop("Trafienie: %(name)s"), name=name
        ),
        _explained(
            f"obrazenia-{key}",
            "",
            damage,
            damage_text
            if effect
            else text_param(deals, sum=damage_text, times=s.damage_multiplier),
        ).labelled(
            gettext_noop("Efekt: %(name)s") if effect else gettext_noop("Obrażenia: %(name)s"),
            name=name,
        ),
    ]


def derived_values(
    sheet: Mapping[str, Any], settings: Mapping[str, Any] | D100Settings | None = None
) -> list[DerivedValue]:
    """Every value the sheet page explains (see the module docstring)."""
    s = settings_of(settings)
    return [
        *_attacks(sheet, s, ""),
        *_defences(sheet, s),
        _armour(sheet, s),
        DerivedValue(
            "pz",
            gettext_noop("PŻ"),
            int(sheet.get("pz") or 0),
            gettext_noop("z karty; przy 0 PŻ postać nie walczy (ostatni cios zadaje Uraz)"),
        ),
        *_transformation(sheet, s),
    ]


def _attacks(sheet: Mapping[str, Any], s: D100Settings, transformed: str) -> list[DerivedValue]:
    """Each weapon (not a focus), bare hands, the race's claws and each spell."""
    kinds = weapon_kinds(s)
    values: list[DerivedValue] = []
    for index, weapon in enumerate(sheet.get("weapons") or ()):
        kind = kinds.get(str(weapon.get("kind")))
        if kind is None or kind.style == "magic":
            continue
        profile = attack_profile(sheet, f"w{index}", s)
        values += _pair(sheet, f"w{index}", text_param(profile.label), profile, s)
    unarmed = attack_profile(sheet, "unarmed", s)
    values += _pair(sheet, "unarmed", text_param(unarmed.label), unarmed, s)
    try:
        claws = attack_profile(sheet, "claws", s, transformed=transformed)
    except RuleViolation:
        pass
    else:
        values += _pair(sheet, "claws", text_param(claws.label), claws, s)
    for index, spell in enumerate(sheet.get("spells") or ()):
        profile = attack_profile(sheet, f"spell:{index}", s)
        name, effect = str(spell.get("name", "")), spell.get("kind", "damage") != "damage"
        values += _pair(sheet, f"spell{index}", text_param(name), profile, s, effect)
    return values


def _defences(sheet: Mapping[str, Any], s: D100Settings) -> list[DerivedValue]:
    dodge, dodge_text = threshold(sheet, "zwinnosc", dodge_penalties(sheet, s), s)
    block, block_text = threshold(sheet, s.block_attribute, (), s)
    if not can_block(sheet, s):
        block, block_text = 0, text_param(gettext_noop("Blok wymaga broni albo tarczy"))
    resistance, resistance_text = threshold(sheet, "wytrzymalosc", (), s)
    if s.resistance_roll:
        takes_off = gettext_noop("sukces odejmuje OoP × %(times)s obrażeń")
        resistance_text = _joined(
            AND_THEN, resistance_text, text_param(takes_off, times=s.damage_multiplier)
        )
    mind, mind_text = threshold(sheet, s.mind_attribute, (), s)
    rest, rest_text = threshold(sheet, "oglada", (), s)
    heals = gettext_noop(
        "akcja pełna; sukces leczy OoP × %(times)s PŻ, gdy nikt nie zaatakował w tej turze"
    )
    rest_text = _joined(AND_THEN, rest_text, text_param(heals, times=s.rest_multiplier))
    return [
        _explained("unik", gettext_noop("Unik"), dodge, dodge_text),
        _explained("blok", gettext_noop("Blok"), block, block_text),
        _explained("odpornosc", gettext_noop("Odporność"), resistance, resistance_text),
        _explained("obrona_umyslu", gettext_noop("Obrona przed magią umysłu"), mind, mind_text),
        _explained("odpoczynek", gettext_noop("Odpoczynek"), rest, rest_text),
    ]


def _armour(sheet: Mapping[str, Any], s: D100Settings) -> DerivedValue:
    parts = []
    key = str(sheet.get("armour") or "")
    if key in s.armour_rows:
        armour = text_param(label_of(ARMOUR_LABELS, key))
        parts.append(text_param(PERCENT, item=armour, percent=s.armour_rows[key].reduction))
    if shield_allowed(sheet, s):
        parts.append(text_param(PERCENT, item=text_param(SHIELD_LABEL), percent=s.shield[0]))
    text = _joined(PLUS, *parts) if parts else text_param(gettext_noop("bez zbroi i tarczy"))
    return _explained(
        "pancerz",
        gettext_noop("Redukcja obrażeń (%)"),
        armour_reduction(sheet, s),
        _joined(AND_THEN, text, text_param(CHANGE_IN_COMBAT)),
    )


def _transformation(sheet: Mapping[str, Any], s: D100Settings) -> list[DerivedValue]:
    """While transformed: the changed attributes, the claws and the ignored Urazy."""
    kind = str(sheet.get("transformation") or "")
    if kind not in s.transformation_rows:
        return []
    label = text_param(label_of(TRANSFORMATION_LABELS, kind))
    values = []
    for attribute, mod in transformation_mods(kind, s).items():
        base, term = _value(sheet, attribute), text_param(ATTRIBUTE_LABELS[attribute])
        changed = _joined(
            SPACED, term, base, text_param(MODIFIER, value=_signed(mod), reason=label)
        )
        values.append(
            _explained(
                f"przemiana-{attribute}",
                "",
                base + mod,
                text_param(TOTAL, sum=changed, total=base + mod),
            ).labelled(WITH_KIND, name=term, kind=label)
        )
    claws = attack_profile(sheet, "claws", s, transformed=kind)
    claws = replace(
        claws,
        hit_mods=claws.hit_mods + transformation_modifiers(kind, claws.hit_attr, s),
        damage_mods=claws.damage_mods + transformation_modifiers(kind, claws.damage_attr, s),
    )
    name = text_param(WITH_KIND, name=text_param(claws.label), kind=label)
    values += _pair(sheet, f"claws-{kind}", name, claws, s)
    values.append(
        DerivedValue(
            "przemiana-urazy",
            "",
            s.transform_ignored_injuries,
            gettext_noop("po przemianie, do końca walki: dopiero kolejny Uraz ma skutki"),
        ).labelled(gettext_noop("Ignorowane Urazy (%(kind)s)"), kind=label)
    )
    return values


__all__ = ["attribute_specs", "derived_values", "skill_specs", "threshold"]
