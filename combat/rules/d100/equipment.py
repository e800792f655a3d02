"""Weapons, claws, foci, armour and shields: the modifier table of digest §2 as data and its use.

The table itself is the GM-editable `settings.weapons` (and `armours`, `shield`, `races`,
`transformations`); this module turns a sheet and an attack choice into the attributes and
modifiers of the hit and damage tests (`attack_profile`), and a sheet into its armour's damage
reduction, Unik penalties and whether it can Blok. Transformation attribute mods are not part
of a profile: add `transformation_modifiers` to every test of a transformed character.

Attack choices: "w<i>" weapon i of the sheet; "two:<i>:<j>" two weapons at once; "claws",
"claws2" (both hands); "unarmed"; "spell:<i>" (with the sheet's first focus) or
"spell:<i>:<j>" (weapon j as the focus).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from combat.rules.base import RuleViolation, gettext_noop
from combat.rules.d100.settings import ATTRIBUTES, D100Settings

Modifiers = tuple[tuple[str, int], ...]


class StyleAttributes(NamedTuple):
    hit: str
    damage: str
    defence: str


# Digest §2 table: thrown (and unarmed) use the melee row.
ATTACK_ATTRIBUTES: dict[str, StyleAttributes] = {
    "melee": StyleAttributes("zwinnosc", "krzepa", "wytrzymalosc"),
    "thrown": StyleAttributes("zwinnosc", "krzepa", "wytrzymalosc"),
    "unarmed": StyleAttributes("zwinnosc", "krzepa", "wytrzymalosc"),
    "ranged": StyleAttributes("zmysly", "zwinnosc", "wytrzymalosc"),
    "magic": StyleAttributes("zmysly", "intelekt", "wytrzymalosc"),
}
ATTRIBUTE_LABELS = dict(ATTRIBUTES)

WEAPON_LABELS = {
    "unarmed": gettext_noop("Walka wręcz"),
    "small": gettext_noop("Broń mała/szermiercza"),
    "traditional": gettext_noop("Broń tradycyjna"),
    "heavy": gettext_noop("Broń ciężka"),
    "bow": gettext_noop("Łuk"),
    "crossbow": gettext_noop("Kusza, muszkiet"),
    "pistol": gettext_noop("Pistolet"),
    "thrown_light": gettext_noop("Broń miotana lekka"),
    "thrown_heavy": gettext_noop("Broń miotana ciężka"),
    "wand": gettext_noop("Różdżka"),
    "staff": gettext_noop("Laska, berło"),
    "quarterstaff": gettext_noop("Kostur"),
}
ARMOUR_LABELS = {
    "light": gettext_noop("Lekka zbroja"),
    "heavy": gettext_noop("Ciężka zbroja"),
}
SHIELD_LABEL = gettext_noop("Tarcza")
RACE_LABELS = {
    "czlowiek": gettext_noop("Człowiek"),
    "ruan": gettext_noop("Ruan"),
    "maluan": gettext_noop("Maluan"),
    "kobold": gettext_noop("Kobold"),
    "jaszczur": gettext_noop("Jaszczur"),
    "haressdren": gettext_noop("Haressdren"),
    "inna": gettext_noop("Inna rasa"),
}
TRANSFORMATION_LABELS = {
    "wampir": gettext_noop("Wampir"),
    "wilkolak": gettext_noop("Wilkołak"),
}
CLAWS = gettext_noop("Pazury")
CLAWS_BOTH = gettext_noop("Pazury (obie dłonie)")
TWO_WEAPONS = gettext_noop("Walka dwiema broniami")
TWO_PISTOLS = gettext_noop("Walka dwoma pistoletami")


@dataclass(frozen=True)
class WeaponKind:
    """One row of the weapons table; `shield`: a shield may be carried with it."""

    key: str
    label: str  # msgid (a kind the GM added: its key)
    style: str  # melee | thrown | ranged | magic | unarmed
    hit_attr: str
    hit_mod: int
    damage_attr: str
    damage_mod: int
    two_handed: bool
    small: bool
    shield: bool = False


@dataclass(frozen=True)
class AttackProfile:
    """What an attack tests: the hit and damage attributes with the equipment's modifiers.

    `label` is a msgid for claws and bare hands, else the weapon's or spell's name (data);
    `uses_weapon`: a weapon (or focus) is in hand, so Rozbrojenie stops this attack."""

    style: str
    hit_attr: str
    hit_mods: Modifiers
    damage_attr: str
    damage_mods: Modifiers
    label: str
    uses_weapon: bool
    spell: int | None = None  # the spell's index of a "spell:…" choice
    weapons: tuple[int, ...] = ()  # the sheet's weapons (and focus) it uses


def label_of(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, key)


def weapon_kinds(settings: D100Settings) -> dict[str, WeaponKind]:
    """Every weapon kind of the table, with its attributes by style."""
    kinds = {}
    for key, row in settings.weapon_rows.items():
        attributes = ATTACK_ATTRIBUTES[row.style]
        kinds[key] = WeaponKind(
            key=key,
            label=label_of(WEAPON_LABELS, key),
            style=row.style,
            hit_attr=attributes.hit,
            hit_mod=row.hit_mod,
            damage_attr=attributes.damage,
            damage_mod=row.damage_mod,
            two_handed=row.two_handed,
            small=row.small,
            shield=row.shield,
        )
    return kinds


def _mods(*pairs: tuple[str, int]) -> Modifiers:
    """The pairs that change anything (a +0 is not shown)."""
    return tuple(pair for pair in pairs if pair[1])


def _weapons(sheet: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(sheet.get("weapons", ()))


def _weapon_at(sheet: Mapping[str, Any], text: str, kinds: dict[str, WeaponKind]) -> WeaponKind:
    weapons = _weapons(sheet)
    if not text.isdigit() or int(text) >= len(weapons):
        raise RuleViolation("no_weapon", gettext_noop("Nie ma takiej broni: %(n)s"), n=text)
    kind = kinds.get(str(weapons[int(text)].get("kind")))
    if kind is None:
        raise RuleViolation(
            "unknown_weapon_kind",
            gettext_noop("Nieznany rodzaj broni: %(kind)s"),
            kind=str(weapons[int(text)].get("kind")),
        )
    return kind


def _name(sheet: Mapping[str, Any], index: int, fallback: str) -> str:
    return str(_weapons(sheet)[index].get("name") or fallback)


def attack_profile(
    sheet: Mapping[str, Any], choice: str, settings: D100Settings, *, transformed: str = ""
) -> AttackProfile:
    """The profile of an attack `choice` (see the module docstring); RuleViolation when the
    sheet cannot make it (no such weapon, two weapons without a small one, no claws, …)."""
    kinds = weapon_kinds(settings)
    kind, _sep, rest = choice.partition(":")
    if choice.startswith("w") and choice[1:].isdigit():
        return _single(sheet, int(choice[1:]), _weapon_at(sheet, choice[1:], kinds))
    if kind == "two" and rest.count(":") == 1:
        first, second = rest.split(":")
        return _two(sheet, first, second, kinds, settings)
    if choice in ("claws", "claws2"):
        return _claws(sheet, choice == "claws2", kinds, settings, transformed)
    if choice == "unarmed":
        unarmed = kinds["unarmed"]
        return AttackProfile(
            unarmed.style,
            unarmed.hit_attr,
            _mods((unarmed.label, unarmed.hit_mod)),
            unarmed.damage_attr,
            _mods((unarmed.label, unarmed.damage_mod)),
            unarmed.label,
            False,
        )
    if kind == "spell":
        return _spell(sheet, rest, kinds)
    raise RuleViolation(
        "bad_attack", gettext_noop("Nieznany rodzaj ataku: %(choice)s"), choice=choice
    )


def _single(sheet: Mapping[str, Any], index: int, kind: WeaponKind) -> AttackProfile:
    if kind.style == "magic":
        raise RuleViolation(
            "focus_not_weapon",
            gettext_noop("%(weapon)s wzmacnia czary: atakuj czarem"),
            weapon=_name(sheet, index, kind.label),
        )
    return AttackProfile(
        kind.style,
        kind.hit_attr,
        _mods((kind.label, kind.hit_mod)),
        kind.damage_attr,
        _mods((kind.label, kind.damage_mod)),
        _name(sheet, index, kind.label),
        kind.style != "unarmed",
        weapons=(index,),
    )


def _two(
    sheet: Mapping[str, Any],
    first: str,
    second: str,
    kinds: dict[str, WeaponKind],
    settings: D100Settings,
) -> AttackProfile:
    """Two weapons, one roll: the damage mods add up and only the pair's hit penalty applies
    (§8 #17); two melee weapons need a small one, two pistols are the ranged pair."""
    a, b = _weapon_at(sheet, first, kinds), _weapon_at(sheet, second, kinds)
    if first == second:
        raise RuleViolation("same_weapon", gettext_noop("Dwie bronie to dwie różne bronie"))
    if a.two_handed or b.two_handed:
        raise RuleViolation(
            "two_handed_pair",
            gettext_noop("Broni dwuręcznej nie używa się w walce dwiema broniami"),
        )
    label = f"{_name(sheet, int(first), a.label)} + {_name(sheet, int(second), b.label)}"
    damage = ((a.label, a.damage_mod), (b.label, b.damage_mod))
    if a.style == b.style == "ranged" and a.small and b.small:
        hit = (TWO_PISTOLS, -settings.two_pistol_penalty)
    elif a.style == b.style == "melee":
        if not (a.small or b.small):
            raise RuleViolation(
                "two_weapons_need_small",
                gettext_noop("Walka dwiema broniami: przynajmniej jedna musi być mała"),
            )
        hit = (TWO_WEAPONS, -settings.two_weapon_penalty)
    else:
        raise RuleViolation(
            "two_weapons_kinds",
            gettext_noop("Dwie bronie: obie do walki w zwarciu albo dwa pistolety"),
        )
    return AttackProfile(
        a.style,
        a.hit_attr,
        _mods(hit),
        a.damage_attr,
        _mods(*damage),
        label,
        True,
        weapons=(int(first), int(second)),
    )


def _claws(
    sheet: Mapping[str, Any],
    both: bool,
    kinds: dict[str, WeaponKind],
    settings: D100Settings,
    transformed: str,
) -> AttackProfile:
    """Claws of a transformed Wampir/Wilkołak or of a clawed race: as a small weapon, or the
    race's own mods; both hands as two weapons (the damage twice, only the pair's −10)."""
    small = kinds["small"]
    race = settings.race_rows.get(str(sheet.get("race", "")))
    if transformed or (race is not None and race.as_small):
        hit_mod, damage_mod = small.hit_mod, small.damage_mod
    elif race is not None:
        hit_mod, damage_mod = race.hit_mod, race.damage_mod
    else:
        raise RuleViolation("no_claws", gettext_noop("Ta postać nie ma pazurów"))
    label = CLAWS_BOTH if both else CLAWS
    if both:
        hit = _mods((TWO_WEAPONS, -settings.two_weapon_penalty))
        damage = _mods((CLAWS, damage_mod), (CLAWS, damage_mod))
    else:
        hit, damage = _mods((CLAWS, hit_mod)), _mods((CLAWS, damage_mod))
    return AttackProfile("melee", small.hit_attr, hit, small.damage_attr, damage, label, False)


def _spell(sheet: Mapping[str, Any], rest: str, kinds: dict[str, WeaponKind]) -> AttackProfile:
    """A combat spell: Zmysły to hit, Intelekt for damage or effect, and the focus's mods."""
    spell_text, _sep, focus_text = rest.partition(":")
    spells = list(sheet.get("spells", ()))
    if not spell_text.isdigit() or int(spell_text) >= len(spells):
        raise RuleViolation("no_spell", gettext_noop("Nie ma takiego czaru: %(n)s"), n=spell_text)
    focus: int | None = None
    if focus_text:
        if _weapon_at(sheet, focus_text, kinds).style != "magic":
            raise RuleViolation(
                "not_a_focus",
                gettext_noop("%(weapon)s nie jest różdżką, laską ani kosturem"),
                weapon=_name(sheet, int(focus_text), focus_text),
            )
        focus = int(focus_text)
    else:
        focus = next(
            (
                i
                for i, w in enumerate(_weapons(sheet))
                if (k := kinds.get(str(w.get("kind")))) and k.style == "magic"
            ),
            None,
        )
    magic = ATTACK_ATTRIBUTES["magic"]
    hit: Modifiers = ()
    damage: Modifiers = ()
    if focus is not None:
        kind = kinds[str(_weapons(sheet)[focus]["kind"])]
        hit, damage = _mods((kind.label, kind.hit_mod)), _mods((kind.label, kind.damage_mod))
    return AttackProfile(
        "magic",
        magic.hit,
        hit,
        magic.damage,
        damage,
        str(spells[int(spell_text)].get("name", "")),
        focus is not None,
        spell=int(spell_text),
        weapons=() if focus is None else (focus,),
    )


def _sheet_kinds(sheet: Mapping[str, Any], settings: D100Settings) -> list[WeaponKind]:
    kinds = weapon_kinds(settings)
    return [kinds[k] for w in _weapons(sheet) if (k := str(w.get("kind"))) in kinds]


def shield_allowed(sheet: Mapping[str, Any], settings: D100Settings) -> bool:
    """A shield is carried only with a small or traditional weapon (the table's `shield` flag):
    the sheet has one and no weapons, or a weapon that allows it."""
    if not sheet.get("shield"):
        return False
    kinds = _sheet_kinds(sheet, settings)
    return not kinds or any(kind.shield for kind in kinds)


def _armour_row(sheet: Mapping[str, Any], settings: D100Settings) -> tuple[str, int, int] | None:
    key = str(sheet.get("armour") or "")
    row = settings.armour_rows.get(key)
    if row is None:
        return None
    return label_of(ARMOUR_LABELS, key), row.reduction, row.dodge_mod


def armour_reduction(sheet: Mapping[str, Any], settings: D100Settings) -> int:
    """The percent of damage the armour and the shield take off, added up (§8 #9)."""
    total = 0
    armour = _armour_row(sheet, settings)
    if armour is not None:
        total += armour[1]
    if shield_allowed(sheet, settings):
        total += settings.shield[0]
    return min(100, total)


def dodge_penalties(sheet: Mapping[str, Any], settings: D100Settings) -> Modifiers:
    """The armour's and the shield's modifiers to Unik (light −10, heavy −20, shield −10)."""
    armour = _armour_row(sheet, settings)
    pairs = [] if armour is None else [(armour[0], armour[2])]
    if shield_allowed(sheet, settings):
        pairs.append((SHIELD_LABEL, settings.shield[1]))
    return _mods(*pairs)


def can_block(sheet: Mapping[str, Any], settings: D100Settings, *, disarmed: bool = False) -> bool:
    """Blok needs a weapon (not bare hands) or a shield (§8 #6); a disarmed character keeps
    only the shield."""
    if shield_allowed(sheet, settings):
        return True
    if disarmed:
        return False
    return any(kind.style != "unarmed" for kind in _sheet_kinds(sheet, settings))


def transformation_mods(kind: str, settings: D100Settings) -> dict[str, int]:
    """Attribute → modifier while transformed ("" or an unknown kind: none)."""
    return dict(settings.transformation_rows.get(kind, {}))


def transformation_modifiers(kind: str, attribute: str, settings: D100Settings) -> Modifiers:
    """The transformation's modifier of one attribute as a test's (reason, value) pair."""
    value = transformation_mods(kind, settings).get(attribute, 0)
    return _mods((label_of(TRANSFORMATION_LABELS, kind), value))


__all__ = [
    "ATTACK_ATTRIBUTES",
    "AttackProfile",
    "StyleAttributes",
    "WeaponKind",
    "armour_reduction",
    "attack_profile",
    "can_block",
    "dodge_penalties",
    "shield_allowed",
    "transformation_mods",
    "transformation_modifiers",
    "weapon_kinds",
]
