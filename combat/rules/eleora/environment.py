"""Ciemność, Broń Improwizowana and Niszczenie Przedmiotów (objects: armour, damage, fire).

The tables below are data a GM may replace: pass your own mapping where a function takes one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from combat.rules.base import RuleViolation, gettext_noop
from combat.rules.dice import Modifier
from combat.rules.eleora.settings import DEFAULT_SETTINGS, TableSettings
from combat.rules.eleora.sheet import DamageType, Weapon, WeaponKind

Position = tuple[int, int]

# --- Ciemność ---------------------------------------------------------------------------------


class Darkness(StrEnum):
    """Light levels; the three dark ones cost dice on every test."""

    SWIATLO = "swiatlo"
    POLMROK = "polmrok"
    CIEMNOSC = "ciemnosc"
    CALKOWITA_CIEMNOSC = "calkowita_ciemnosc"


_DARKNESS_LABELS = {
    Darkness.POLMROK: "Półmrok",
    Darkness.CIEMNOSC: "Ciemność",
    Darkness.CALKOWITA_CIEMNOSC: "Całkowita Ciemność",
}


def darkness_modifiers(
    level: Darkness, settings: TableSettings = DEFAULT_SETTINGS
) -> tuple[Modifier, ...]:
    """The penalty every test takes at this light level (none in light): −1/−2/−3 by default."""
    if level == Darkness.SWIATLO:
        return ()
    index = list(_DARKNESS_LABELS).index(level)
    return (Modifier(-settings.darkness_penalties[index], _DARKNESS_LABELS[level]),)


# --- Broń Improwizowana -----------------------------------------------------------------------


@dataclass(frozen=True)
class ImprovisedClass:
    """One class of improvised weapon from the document, with its example objects."""

    label: str
    kind: WeaponKind
    damage: int
    thrown: bool = False
    two_handed: bool = False
    examples: tuple[str, ...] = ()


IMPROVISED_CLASSES: Mapping[str, ImprovisedClass] = MappingProxyType(
    {
        # "treated as thrown weapons"; DEFAULT: Walka Wręcz in melee, ranged only when the
        # attacker declares a throw (DeclareAttack.thrown).
        "wrecz": ImprovisedClass(
            "Broń do Walki Wręcz",
            WeaponKind.UNARMED,
            1,
            thrown=True,
            examples=("Kamień", "Widelec", "Łyżka", "Talerz", "Kawałek drewna"),
        ),
        "lekka": ImprovisedClass(
            "Broń Lekka",
            WeaponKind.LIGHT,
            2,
            examples=("Noga od krzesła", "Patelnia", "Pochodnia", "Palcat", "Łom"),
        ),
        "ciezka": ImprovisedClass(
            "Broń Ciężka",
            WeaponKind.HEAVY,
            3,
            two_handed=True,
            examples=("Ławka", "Krzesło", "Belka", "Żerdź", "Grabie"),
        ),
    }
)


def improvised_weapon(
    name: str,
    weapon_class: str,
    *,
    damage_type: DamageType,
    classes: Mapping[str, ImprovisedClass] = IMPROVISED_CLASSES,
) -> Weapon:
    """A sheet Weapon for an object used as a weapon; the GM picks stun or physical damage."""
    try:
        spec = classes[weapon_class]
    except KeyError:
        known = ", ".join(classes)
        raise ValueError(
            f"unknown improvised weapon class {weapon_class!r} (known: {known})"
        ) from None
    return Weapon(
        name=name,
        kind=spec.kind,
        damage=spec.damage,
        damage_type=DamageType(damage_type),
        thrown=spec.thrown,
        improvised=True,
        two_handed=spec.two_handed,
    )


def improvised_modifier(settings: TableSettings = DEFAULT_SETTINGS) -> Modifier:
    """The to-hit penalty for attacking with an object that is not a weapon (−2 by default)."""
    return Modifier(-settings.improvised_penalty, "Broń improwizowana")


# --- Niszczenie Przedmiotów -------------------------------------------------------------------


@dataclass(frozen=True)
class Material:
    """What an object is made of: its Pancerz and whether it can be set on fire."""

    label: str
    armour: int
    flammable: bool = True


MATERIALS: Mapping[str, Material] = MappingProxyType(
    {
        "delikatny": Material("Delikatny lub kruchy", 0),
        "zwykly": Material("Większość przedmiotów", 1),
        "drewniany": Material("Drewniany", 3),
        "zelazny": Material("Żelazny", 5, flammable=False),
        "kamienny": Material("Kamienny", 5, flammable=False),
    }
)
OBJECT_DURABILITY = 10  # every object's Wytrzymałość, its Zdrowie
SELF_SUSTAINING_AFTER = 5  # turns in a row an object must burn to keep burning by itself


@dataclass(frozen=True)
class WorldObject:
    """An object on the map: damage taken so far and the state of its fire."""

    key: str
    material: str
    position: Position = (0, 0)
    durability: int = OBJECT_DURABILITY
    damage: int = 0
    burning_left: int = 0  # turns of fire left (0 = not burning)
    burning_streak: int = 0  # turns burnt in a row
    self_sustaining: bool = False

    @property
    def burning(self) -> bool:
        return self.self_sustaining or self.burning_left > 0

    @property
    def destroyed(self) -> bool:
        return self.damage >= self.durability


@dataclass(frozen=True)
class ObjectHit:
    """An object after a hit: how much got through its armour, and whether it broke."""

    obj: WorldObject
    stopped: int
    dealt: int
    destroyed: bool


def damage_object(
    obj: WorldObject, amount: int, materials: Mapping[str, Material] = MATERIALS
) -> ObjectHit:
    """Damage to an object, reduced by its material's Pancerz (min 0); at 0 durability it breaks."""
    if amount < 0:
        raise ValueError("damage cannot be negative")
    armour = _material(obj, materials).armour
    dealt = max(0, amount - armour)
    hit = replace(obj, damage=min(obj.durability, obj.damage + dealt))
    return ObjectHit(hit, amount - dealt, dealt, hit.destroyed)


def ignite(
    obj: WorldObject,
    settings: TableSettings = DEFAULT_SETTINGS,
    materials: Mapping[str, Material] = MATERIALS,
) -> WorldObject:
    """Set an object on fire: burns `burning_turns`; again while burning extends it (DEFAULT)."""
    if not _material(obj, materials).flammable:
        raise RuleViolation(
            "niepalny",
            gettext_noop("%(object)s: przedmiotów żelaznych i kamiennych nie można podpalić."),
            object=obj.key,
        )
    return replace(obj, burning_left=obj.burning_left + settings.burning_turns)


@dataclass(frozen=True)
class FireTick:
    """One turn of fire: every object after it, and what changed."""

    objects: tuple[WorldObject, ...]
    now_self_sustaining: tuple[str, ...]
    ignited: tuple[str, ...]
    went_out: tuple[str, ...]


def fire_tick(
    objects: Iterable[WorldObject],
    settings: TableSettings = DEFAULT_SETTINGS,
    materials: Mapping[str, Material] = MATERIALS,
    *,
    self_sustaining_after: int = SELF_SUSTAINING_AFTER,
) -> FireTick:
    """A turn passes: fires burn on or go out; 5 turns in a row sustain themselves and spread.

    DEFAULT: an object's fire lasts like Podpalenie (`burning_turns`) unless fed; a
    self-sustaining fire feeds (keeps alight, or ignites) every flammable object on an adjacent
    or the same square, so a fed neighbour reaches its own 5 turns and spreads in turn.
    """
    before = tuple(objects)
    burnt = [_burn(o, self_sustaining_after) for o in before]
    sources = [o.position for o in burnt if o.self_sustaining]
    result: list[WorldObject] = []
    ignited: list[str] = []
    for obj in burnt:
        if _fed(obj, sources, materials):
            if not obj.burning:
                ignited.append(obj.key)
            obj = replace(obj, burning_left=max(obj.burning_left, settings.burning_turns))
        result.append(obj)
    pairs = list(zip(before, result, strict=True))
    return FireTick(
        objects=tuple(result),
        now_self_sustaining=tuple(
            a.key for b, a in pairs if a.self_sustaining and not b.self_sustaining
        ),
        ignited=tuple(ignited),
        went_out=tuple(a.key for b, a in pairs if b.burning and not a.burning),
    )


def _burn(obj: WorldObject, threshold: int) -> WorldObject:
    if not obj.burning:
        return obj
    streak = obj.burning_streak + 1
    left = max(0, obj.burning_left - 1)
    sustaining = obj.self_sustaining or streak >= threshold
    if not sustaining and left == 0:
        return replace(obj, burning_left=0, burning_streak=0)
    return replace(obj, burning_left=left, burning_streak=streak, self_sustaining=sustaining)


def _fed(obj: WorldObject, sources: list[Position], materials: Mapping[str, Material]) -> bool:
    """Whether a self-sustaining fire next to `obj` keeps it burning (or lights it)."""
    if obj.self_sustaining or obj.destroyed or not _material(obj, materials).flammable:
        return False
    return any(max(abs(obj.position[0] - x), abs(obj.position[1] - y)) <= 1 for x, y in sources)


def _material(obj: WorldObject, materials: Mapping[str, Material]) -> Material:
    try:
        return materials[obj.material]
    except KeyError:
        raise ValueError(f"{obj.key}: unknown material {obj.material!r}") from None
