"""Atak and tests: who may attack with what, every pool with its reasons, and the damage dealt.

Pure functions of the state; the engine decides when they run. Every dice modifier carries
the rule that caused it so the log and the UI can show why a pool has the size it has.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from combat.rules.base import (
    CONTEXT_SEPARATOR,
    RuleViolation,
    gettext_noop,
    pgettext_noop,
    text_param,
)
from combat.rules.dice import Modifier, PoolRoll, pool_size
from combat.rules.eleora import grid
from combat.rules.eleora.engine import space
from combat.rules.eleora.environment import improvised_modifier
from combat.rules.eleora.odds import przebicia_for, reduction_for
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.sheet import (
    ATTRIBUTE_LABELS,
    PHYSICAL_ATTRIBUTES,
    SKILL_LABELS,
    DamageType,
    Shield,
    Weapon,
    WeaponKind,
    attack_base,
    derive,
)
from combat.rules.eleora.state import UNARMED, Combatant, EncounterState, PendingAttack, Position

MELEE_SPECIALS = frozenset({"odepchniecie", "schwytanie", "powalenie"})
NO_DAMAGE_SPECIALS = frozenset({"odepchniecie", "schwytanie", "oslepienie"})
# The special attacks' names, msgids in a context of their own: Powalenie the attack (Trip)
# is not Powalenie the condition (Prone), nor Oślepienie (Blind) the condition (Blinded).
_ATTACK = "eleora attack" + CONTEXT_SEPARATOR
SPECIAL_MSGIDS = {
    "odepchniecie": _ATTACK + pgettext_noop("eleora attack", "Odepchnięcie"),
    "schwytanie": _ATTACK + pgettext_noop("eleora attack", "Schwytanie"),
    "powalenie": _ATTACK + pgettext_noop("eleora attack", "Powalenie"),
    "oslepienie": _ATTACK + pgettext_noop("eleora attack", "Oślepienie"),
}


@dataclass(frozen=True)
class WeaponProfile:
    """What an attack is made with: the sheet weapon, or bare hands (`UNARMED`)."""

    key: str
    label: str
    kind: WeaponKind
    damage: int
    damage_type: DamageType
    ranged: bool = False
    short: bool = False
    improvised: bool = False


def weapon_profile(attacker: Combatant, key: str, *, thrown: bool = False) -> WeaponProfile:
    """The weapon called `key` on the attacker's sheet; RuleViolation if there is none.

    DEFAULT: a throwable weapon (a stone, a fork) is a ranged attack only when the attacker
    declares a throw (`thrown`); otherwise it strikes in melee like any other weapon.
    """
    if key == UNARMED:
        damage = derive(attacker.sheet).unarmed_damage
        return WeaponProfile(UNARMED, "bez broni", WeaponKind.UNARMED, damage, DamageType.STUN)
    weapon = attacker.weapon(key)
    if weapon is None:
        raise RuleViolation(
            "bron",
            gettext_noop("%(name)s nie ma broni „%(weapon)s”."),
            weapon=key,
            name=attacker.name,
        )
    if thrown and not (weapon.thrown or weapon.ranged):
        raise RuleViolation(
            "rzut",
            gettext_noop("Broni „%(name)s” nie można rzucać."),
            weapon=key,
            name=weapon.name,
        )
    return _profile(weapon, thrown)


def _profile(w: Weapon, thrown: bool) -> WeaponProfile:
    ranged = w.ranged or (w.thrown and thrown)
    return WeaponProfile(
        w.name, w.name, w.kind, w.damage, w.damage_type, ranged, w.short, w.improvised
    )


def is_critical(roll: PoolRoll, settings: TableSettings) -> bool:
    """Krytyczna porażka: no success on a rolled pool (and a 1 showing, if the table says so)."""
    return roll.critical_failure and (not settings.critical_failure_needs_one or 1 in roll.faces)


# --- tests ------------------------------------------------------------------------------------


def test_pool(
    state: EncounterState,
    c: Combatant,
    *,
    attribute: str,
    skill: str | None = None,
    doubled: bool = False,
    heroism: bool = False,
) -> tuple[Modifier, ...]:
    """A test's pool: attribute (+ skill), then darkness, Zmęczenie, Unieruchomienie, Oślepienie."""
    value = c.sheet.attribute(attribute)
    name = ATTRIBUTE_LABELS[attribute]
    mods = [Modifier(value * 2, f"{name} ×2") if doubled else Modifier(value, name)]
    if skill is not None:
        mods.append(Modifier(c.sheet.skill(skill), SKILL_LABELS[skill]))
    mods += penalties(state, c, skill_test=skill is not None)
    if attribute in PHYSICAL_ATTRIBUTES or skill == "percepcja":
        mods += _blinded(state, c, mods, floor=0)
    if heroism:
        mods.append(Modifier(1, "Kostka Heroizmu"))
    return tuple(m for m in mods if m.dice != 0 or m is mods[0])


def skill_pool(
    state: EncounterState, c: Combatant, skill: str, *, heroism: bool = False
) -> tuple[Modifier, ...]:
    """The pool of a skill test with the attribute the table pairs with that skill."""
    attribute = state.settings.skill_attribute(skill)
    return test_pool(state, c, attribute=attribute, skill=skill, heroism=heroism)


def penalties(
    state: EncounterState,
    c: Combatant,
    *,
    skill_test: bool,
    darkness: bool = True,
    fields: tuple[Position | None, ...] | None = None,
) -> list[Modifier]:
    """Penalties on every test of this character: darkness, Zmęczenie, Unieruchomienie.

    Darkness is the darker of the table's lighting and the map's on `fields` (by default the
    character's own field; an attack passes both ends of the exchange)."""
    mods: list[Modifier] = []
    if darkness:
        where = (c.position,) if fields is None else fields
        mods += [n.modifier for n in space.darkness_notes(state, where)]
    if c.fatigue:
        mods.append(Modifier(-c.fatigue, "Zmęczenie"))
    held = c.stacks("unieruchomienie")
    if held and skill_test:
        mods.append(Modifier(-held, "Unieruchomienie"))
    return mods


def _blinded(
    state: EncounterState, c: Combatant, mods: Iterable[Modifier], *, floor: int
) -> list[Modifier]:
    """Oślepienie: −3 dice, but never taking the pool below `floor` (Obrona: 2)."""
    if not c.has("oslepienie"):
        return []
    before = pool_size(mods)
    cut = min(state.settings.blinded_penalty, max(0, before - floor))
    return [Modifier(-cut, "Oślepienie")] if cut else []


# --- attack -----------------------------------------------------------------------------------


def check_attack(
    state: EncounterState,
    attacker: Combatant,
    target: Combatant,
    profile: WeaponProfile,
    special: str | None,
    *,
    opportunity: bool = False,
) -> None:
    """Refuse an attack the rules do not allow (RuleViolation with the reason)."""
    if target.id == attacker.id:
        raise RuleViolation("cel", gettext_noop("Nie można zaatakować samego siebie."))
    if target.status == "dead":
        raise RuleViolation(
            "cel", gettext_noop("%(name)s nie żyje."), target=target.id, name=target.name
        )
    if profile.key != UNARMED and not attacker.holds(profile.key):
        raise RuleViolation(
            "bron",
            gettext_noop("Broń „%(name)s” nie jest dobyta."),
            weapon=profile.key,
            name=profile.label,
        )
    if special in MELEE_SPECIALS and profile.ranged:
        raise RuleViolation(
            "atak_specjalny",
            gettext_noop("%(special)s to atak wręcz, nie dystansowy."),
            special=text_param(SPECIAL_MSGIDS[special]),
        )
    if profile.ranged:
        _check_ranged(attacker, profile)
        space.require_sight(state, attacker, target)
    elif (
        attacker.position
        and target.position
        and not grid.in_reach(attacker.position, target.position)
    ):
        raise RuleViolation(
            "zasieg",
            gettext_noop("%(name)s jest poza zasięgiem broni białej."),
            name=target.name,
        )
    if not opportunity:
        _check_weapon_use(attacker, profile)


def _check_ranged(attacker: Combatant, profile: WeaponProfile) -> None:
    if attacker.has("oslepienie"):
        raise RuleViolation(
            "widocznosc", gettext_noop("Atak dystansowy wymaga widzenia celu (Oślepienie).")
        )
    if profile.key in attacker.unloaded:
        raise RuleViolation(
            "nienaladowana",
            gettext_noop("Broń „%(name)s” nie jest naładowana: potrzebne Przeładowanie."),
            name=profile.label,
        )


def _check_weapon_use(attacker: Combatant, profile: WeaponProfile) -> None:
    """One Attack action per weapon per turn; bare hands always (each limb is a weapon)."""
    if profile.key == UNARMED:
        return
    used = attacker.weapons_used.count(profile.key)
    # Walka Wręcz weapons (short ones included) may attack twice without penalty.
    allowed = 2 if profile.kind == WeaponKind.UNARMED else 1
    if used >= allowed:
        raise RuleViolation(
            "bron_uzyta",
            gettext_noop("Tą bronią (%(name)s) już atakowano w tej turze: jeden atak na broń."),
            weapon=profile.key,
            name=profile.label,
        )


def charge_applies(attacker: Combatant, target: Combatant) -> bool:
    """Szarża's dice go to an attack on a character beside the square the charge ended on.

    Any other attack is allowed, without the bonus (and it still uses the charge up).
    """
    end, there = attacker.charge_end, target.position
    return attacker.charge_bonus > 0 and (end is None or there is None or grid.adjacent(end, there))


def attack_modifiers(
    state: EncounterState,
    attacker: Combatant,
    target: Combatant,
    profile: WeaponProfile,
    *,
    special: str | None = None,
    flat: bool = False,
    screened: bool = False,
    heroism: bool = False,
    opportunity: bool = False,
) -> tuple[Modifier, ...]:
    """The attack pool: attribute + weapon skill and every bonus and penalty, with reasons."""
    s = state.settings
    mods = list(attack_base(attacker.sheet, profile.kind, s))
    mods += _aim_modifiers(attacker, target, s)
    if charge_applies(attacker, target) and not opportunity:
        mods.append(Modifier(attacker.charge_bonus, "Szarża"))
    mods += _position_bonus(state, attacker, target, profile)
    mods += _weapon_modifiers(attacker, target, profile, s, opportunity)
    mods += _special_modifiers(target, special, flat, s)
    screen = space.cover(state, attacker, target) if profile.ranged else None
    if screen is not None:
        mods.append(screen.modifier)
    elif profile.ranged and screened:  # the GM's ruling, for what the map does not show
        mods.append(
            Modifier(-s.ranged_cover_penalty, gettext_noop("Cel zasłonięty lub za przeszkodą"))
        )
    if attacker.has("szal"):
        mods.append(Modifier(s.frenzy_attack_bonus, "Szał"))
    mods += penalties(state, attacker, skill_test=True, fields=exchange_fields(attacker, target))
    mods += _blinded(state, attacker, mods, floor=0)
    if heroism:
        mods.append(Modifier(1, "Kostka Heroizmu"))
    return tuple(m for m in mods if m.dice != 0 or m in mods[:2])


def exchange_fields(attacker: Combatant, target: Combatant) -> tuple[Position | None, ...]:
    """The fields whose darkness an Atak and its Obrona take: the darker of the two ends."""
    return (attacker.position, target.position)


def position_notes(
    state: EncounterState,
    attacker: Combatant,
    target: Combatant,
    profile: WeaponProfile,
    *,
    opportunity: bool = False,
) -> list[tuple[str, dict[str, Any]]]:
    """What the map (and a Szarża) adds to an attack, as the odds preview explains it: the
    flank and who makes it, a screen and who or what it is, Osaczenie of the target, the
    darkness of a field, the charge's dice. The same modifiers the attack's pools get."""
    notes: list[tuple[str, dict[str, Any]]] = []
    if charge_applies(attacker, target) and not opportunity:
        notes.append((gettext_noop("Szarża: +%(n)s"), {"n": attacker.charge_bonus}))
    flank = _flank(state, attacker, target, profile)
    if flank.modifier is not None and flank.ally is not None:
        who = next((c.name for c in state.allies_of(attacker.id) if c.position == flank.ally), "")
        text = (
            gettext_noop("Flankowanie pełne z %(who)s: +%(n)s")
            if flank.kind == "pelna"
            else gettext_noop("Pół-flanka z %(who)s: +%(n)s")
        )
        notes.append((text, {"who": who, "n": flank.modifier.dice}))
    screen = space.cover(state, attacker, target) if profile.ranged else None
    if screen is not None:
        notes.append((screen.text, screen.params))
    crowd = _surrounded(state, target)
    if crowd:
        count = sum(
            1
            for e in state.enemies_of(target.id)
            if e.position
            and e.conscious
            and target.position
            and grid.adjacent(e.position, target.position)
        )
        notes.append(
            (
                gettext_noop(
                    "Osaczenie: %(name)s ma obok %(count)s przeciwników, −%(n)s do Obrony"
                ),
                {"name": target.name, "count": count, "n": -crowd[0].dice},
            )
        )
    for n in space.darkness_notes(state, exchange_fields(attacker, target)):
        if n.text:
            notes.append((n.text, n.params))
    return notes


def aim_bonus(attacker: Combatant, target: Combatant, settings: TableSettings) -> tuple[int, int]:
    """(Celowanie, Odsłonięcie) dice on an attack; together never above the cap of 3."""
    own = min(attacker.aim.get(target.id, 0), settings.aim_cap)
    exposed = min(target.stacks("odsloniecie"), settings.aim_cap - own)
    return own, exposed


def _aim_modifiers(
    attacker: Combatant, target: Combatant, settings: TableSettings
) -> list[Modifier]:
    own, exposed = aim_bonus(attacker, target, settings)
    return [Modifier(own, "Celowanie"), Modifier(exposed, "Odsłonięcie")]


def _position_bonus(
    state: EncounterState, attacker: Combatant, target: Combatant, profile: WeaponProfile
) -> list[Modifier]:
    """Flankowanie from the map (melee only: it needs the attacker beside the target)."""
    flank = _flank(state, attacker, target, profile)
    return [flank.modifier] if flank.modifier else []


def _flank(
    state: EncounterState, attacker: Combatant, target: Combatant, profile: WeaponProfile
) -> grid.Flank:
    if profile.ranged or attacker.position is None or target.position is None:
        return grid.Flank(None, None, None)
    allies = [
        a.position
        for a in state.allies_of(attacker.id)
        if a.position is not None and a.conscious and a.side != target.side
    ]
    return grid.flanking(attacker.position, target.position, allies, state.settings)


def _weapon_modifiers(
    attacker: Combatant,
    target: Combatant,
    profile: WeaponProfile,
    s: TableSettings,
    opportunity: bool,
) -> list[Modifier]:
    mods: list[Modifier] = []
    if profile.improvised:
        mods.append(improvised_modifier(s))
    if profile.key == UNARMED and _armed_in_melee(target):
        mods.append(
            Modifier(-s.unarmed_vs_armed_penalty, gettext_noop("Bez broni przeciw uzbrojonemu"))
        )
    if not opportunity:
        mods += _second_weapon(attacker, profile)
    return mods


def _armed_in_melee(target: Combatant) -> bool:
    """Holding a melee weapon other than a short one (the unarmed-attacker penalty)."""
    return any(
        target.holds(w.name) and not (w.ranged or w.short or w.kind == WeaponKind.UNARMED)
        for w in target.sheet.weapons
    )


def _second_weapon(attacker: Combatant, profile: WeaponProfile) -> list[Modifier]:
    """Walka dwiema broniami: the second weapon −3 heavy, −2 light, −1 short; none wręcz.

    Any other sheet weapon used this turn (a Kastet too) makes a non-Walka-Wręcz one second.
    """
    if profile.kind == WeaponKind.UNARMED:
        return []
    if not any(w not in (UNARMED, profile.key) for w in attacker.weapons_used):
        return []
    if profile.short:
        return [Modifier(-1, gettext_noop("Druga broń (krótka)"))]
    if profile.kind == WeaponKind.HEAVY:
        return [Modifier(-3, gettext_noop("Druga broń (ciężka)"))]
    return [Modifier(-2, gettext_noop("Druga broń (lekka)"))]


def _special_modifiers(
    target: Combatant, special: str | None, flat: bool, s: TableSettings
) -> list[Modifier]:
    mods: list[Modifier] = []
    if special == "oslepienie":
        mods.append(Modifier(-s.blind_attack_penalty, "Oślepienie (atak)"))
    if special == "powalenie":
        krzepa = target.sheet.attribute("krzepa")
        mods.append(Modifier(-krzepa, f"Powalenie: Krzepa celu {krzepa}"))
    if flat:
        mods.append(Modifier(-s.flat_attack_penalty, "Atak Płazem"))
    return mods


# --- defence ----------------------------------------------------------------------------------


def best_shield(c: Combatant, name: str | None = None) -> Shield | None:
    """A held shield whose bonus is unused since the bearer's turn began (named, or the best)."""
    shields = [s for s in c.sheet.shields if c.holds(s.name) and s.name not in c.shields_used]
    if name is not None:
        shields = [s for s in shields if s.name == name]
    return max(shields, key=lambda s: s.bonus, default=None)


def shield_or_one(c: Combatant, name: str | None) -> tuple[int, str | None]:
    """Zasłona/Parowanie: a shield's bonus (once per turn per shield) or +1."""
    shield = best_shield(c, name)
    if shield is None:
        return 1, None
    return shield.bonus, shield.name


def defence_modifiers(
    state: EncounterState, target: Combatant, attack: PendingAttack
) -> tuple[Modifier, ...]:
    """The Obrona pool against one attack, with the chosen reactions and every penalty."""
    s = state.settings
    sheet = target.sheet
    zr = sheet.attribute("zrecznosc")
    mods = [
        Modifier(0 if target.has("powalenie") else zr, "Zręczność"),
        Modifier(sheet.attribute("intuicja"), "Intuicja"),
        Modifier(
            sum(a.defence_bonus for a in sheet.armour), gettext_noop("Pancerz (premia do Obrony)")
        ),
    ]
    if target.has("powalenie") and zr:
        mods.append(Modifier(0, gettext_noop("Powalenie: bez Zręczności")))
    if target.guard_bonus:
        mods.append(Modifier(target.guard_bonus, "Zasłona"))
    if "parowanie" in attack.reactions:
        mods.append(Modifier(attack.parry_bonus or 1, "Parowanie"))
    if "unik" in attack.reactions:
        mods.append(Modifier(unik_dice(target, s), "Unik"))
    if target.has("szal"):
        mods.append(Modifier(-s.frenzy_defence_penalty, "Szał"))
    mods += _surrounded(state, target)
    attacker = state.combatants.get(attack.attacker)
    fields = exchange_fields(attacker, target) if attacker is not None else None
    mods += penalties(state, target, skill_test=True, darkness=s.darkness_on_defence, fields=fields)
    mods += _blinded(state, target, mods, floor=blinded_floor(target, s))
    if attack.defence_heroism:
        mods.append(Modifier(1, "Kostka Heroizmu"))
    return tuple(m for m in mods if m.dice != 0 or m in mods[:3])


def unik_dice(c: Combatant, settings: TableSettings) -> int:
    """Unik: dice equal to Zręczność; none while Obalony (`prone_loses_unik`)."""
    if c.has("powalenie") and settings.prone_loses_unik:
        return 0
    return c.sheet.attribute("zrecznosc")


def blinded_floor(c: Combatant, settings: TableSettings) -> int:
    """The Obrona an Oślepiony defender keeps: 2, or 0 for a GM-run one if only players keep it."""
    if settings.blinded_floor_players_only and c.controller is None:
        return 0
    return settings.blinded_defence_floor


def _surrounded(state: EncounterState, target: Combatant) -> list[Modifier]:
    if target.position is None:
        return []
    enemies = [e.position for e in state.enemies_of(target.id) if e.position and e.conscious]
    penalty = grid.osaczenie(target.position, enemies, state.settings)
    return [penalty] if penalty else []


# --- outcome ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """Hit or miss, przebicia, and damage before and after Pancerz/Wola."""

    hit: bool
    przebicia: int
    damage_type: str
    damage: int
    reduction: int
    physical: int
    stun: int
    bleed: bool


def damage_base(
    attack: PendingAttack, attacker: Combatant, target: Combatant
) -> tuple[int, DamageType]:
    """A hit's damage before przebicia and its type (Powalenie: przebicia only, as stun)."""
    if attack.special == "powalenie":
        base, kind = 0, DamageType.STUN
    else:
        profile = weapon_profile(attacker, attack.weapon)
        base = profile.damage
        kind = DamageType.STUN if attack.flat and not attack.ranged else profile.damage_type
    if kind == DamageType.STUN and target.has("oszolomienie"):
        kind = DamageType.PHYSICAL  # stun dealt to an Oszołomiony character is physical
    return base, kind


def outcome(
    settings: TableSettings,
    attack: PendingAttack,
    attacker: Combatant,
    target: Combatant,
    attack_roll: PoolRoll,
    defence_roll: PoolRoll | None,
) -> Outcome:
    """Compare the rolls (ties per settings) and work out the damage the target takes."""
    defence = defence_roll.successes if defence_roll else 0
    margin = attack_roll.successes - defence
    hit = attack.auto_hit or margin > 0 or (margin == 0 and settings.tie_goes_to == "attacker")
    przebicia = przebicia_for(margin, settings.przebicia_mode) if hit else 0
    bleed = not (attack.flat and attack.ranged)
    if not hit or attack.special in NO_DAMAGE_SPECIALS:
        return Outcome(hit, przebicia, "", 0, 0, 0, 0, bleed)
    base, kind = damage_base(attack, attacker, target)
    raw = base + przebicia
    d = derive(target.sheet)
    reduction = min(raw, reduction_for(kind, d.pancerz, d.odpornosc))
    taken = raw - reduction
    physical, stun = (taken, 0) if kind == DamageType.PHYSICAL else (0, taken)
    return Outcome(hit, przebicia, str(kind), raw, reduction, physical, stun, bleed)
