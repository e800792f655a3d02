"""GM overrides as commands, so every ruling is an event in the log like any other."""

from __future__ import annotations

from combat.rules import battlemap, naming, vocabulary
from combat.rules.base import RuleViolation, gettext_noop
from combat.rules.dice import RNG, Modifier, roll_pool
from combat.rules.eleora import conditions as cond
from combat.rules.eleora import grid
from combat.rules.eleora.commands import (
    AddCondition,
    ApplyDamage,
    DeclareAreaAttack,
    EditHealth,
    EditMap,
    GMRoll,
    Heal,
    JoinCombat,
    OfferOpportunity,
    PlaceCombatant,
    RemoveCondition,
    RevealStats,
    SetEnvironment,
    SetHidden,
)
from combat.rules.eleora.conditions import ConditionInstance
from combat.rules.eleora.engine import space
from combat.rules.eleora.engine.common import (
    ACTIVE_PHASES,
    deadline,
    new_prompt_id,
    reaction_refusal,
    require_active,
)
from combat.rules.eleora.engine.setup import combatant_from_dict
from combat.rules.eleora.events import (
    CombatantChanged,
    CombatantJoined,
    CombatantPlaced,
    ConditionAdded,
    ConditionRemoved,
    EnvironmentChanged,
    Event,
    GMRolled,
    HealthChanged,
    PromptOpened,
)
from combat.rules.eleora.healing import HealthTrack, magic_healing
from combat.rules.eleora.health import split_healing
from combat.rules.eleora.initiative import roll_initiative, supplied_initiative
from combat.rules.eleora.sheet import derive
from combat.rules.eleora.state import EncounterState, Position, Prompt
from combat.rules.records import replace

MAX_GM_DICE = 60


def _non_negative(*values: int) -> None:
    if any(v < 0 for v in values):
        raise RuleViolation("ujemne", gettext_noop("Wartości nie mogą być ujemne."))


def edit_health(state: EncounterState, cmd: EditHealth) -> list[Event]:
    """Set damage taken; the change still passes the unconsciousness and death checks."""
    c = state.get(cmd.target)
    _non_negative(cmd.damage_physical, cmd.damage_stun)
    return [
        HealthChanged(
            combatant=c.id,
            physical=cmd.damage_physical - c.damage_physical,
            stun=cmd.damage_stun - c.damage_stun,
            reason="MG",
        )
    ]


def apply_damage(state: EncounterState, cmd: ApplyDamage) -> list[Event]:
    """Damage from outside an attack; with `reduce`, Pancerz and Wola apply as to a hit."""
    c = state.get(cmd.target)
    _non_negative(cmd.physical, cmd.stun)
    physical, stun = cmd.physical, cmd.stun
    if cmd.reduce:
        d = derive(c.sheet)
        physical, stun = max(0, physical - d.pancerz), max(0, stun - d.odpornosc)
    return [HealthChanged(combatant=c.id, physical=physical, stun=stun, reason=cmd.reason)]


def heal(state: EncounterState, cmd: Heal) -> list[Event]:
    """Healing; by magic only up to the Magiczne Leczenie limit (healing.magic_healing)."""
    c = state.get(cmd.target)
    if cmd.amount <= 0:
        raise RuleViolation("leczenie", gettext_noop("Leczenie musi być dodatnie."))
    if not cmd.magic:
        physical, stun = split_healing(c, cmd.amount)
        return [HealthChanged(combatant=c.id, physical=physical, stun=stun, reason="leczenie")]
    track = HealthTrack(c.max_health, c.damage_physical, c.damage_stun, c.magic_healing)
    result = magic_healing(track, cmd.amount)
    return [
        HealthChanged(
            combatant=c.id,
            physical=result.track.physical - c.damage_physical,
            stun=result.track.stun - c.damage_stun,
            magic=True,
            reason=result.explanation,
        )
    ]


def add_condition(state: EncounterState, cmd: AddCondition) -> list[Event]:
    """Add a condition; a stack beyond its limit is refused, never stored."""
    c = state.get(cmd.target)
    spec = cond.SPECS.get(cmd.condition)
    if spec is None or spec.derived:
        raise RuleViolation(
            "przypadlosc",
            gettext_noop("Nieznana przypadłość: %(condition)s."),
            condition=cmd.condition,
        )
    if cmd.stacks < 1 or (cmd.turns is not None and cmd.turns < 1):
        raise RuleViolation("przypadlosc", gettext_noop("Liczba stosów i tur musi być dodatnia."))
    limit = spec.max_stacks(state.settings)
    if spec.stacking in ("stack", "per_source") and c.stacks(spec.key) + cmd.stacks > limit:
        raise RuleViolation(
            "limit_stosow",
            gettext_noop("%(condition)s: najwyżej %(limit)s (ma już %(stacks)s)."),
            limit=limit,
            condition=spec.label,
            stacks=c.stacks(spec.key),
        )
    turns = cmd.turns if cmd.turns is not None else spec.duration(state.settings)
    instance = ConditionInstance(
        spec.key,
        stacks=cmd.stacks,
        remaining=turns,
        source=cmd.source,
        difficulty=cmd.difficulty,
        mind=cmd.mind,
        note=cmd.note,
    )
    return [ConditionAdded(combatant=c.id, condition=instance)]


def remove_condition(state: EncounterState, cmd: RemoveCondition) -> list[Event]:
    c = state.get(cmd.target)
    present = any(x.key == cmd.condition and cmd.source in (None, x.source) for x in c.conditions)
    if not present:
        raise RuleViolation(
            "przypadlosc", gettext_noop("%(name)s nie ma tej przypadłości."), name=c.name
        )
    return [ConditionRemoved(combatant=c.id, key=cmd.condition, source=cmd.source)]


def set_hidden(state: EncounterState, cmd: SetHidden) -> list[Event]:
    target = state.get(cmd.target).id
    name = None if cmd.hidden else naming.shown_at(state.combatants, target)
    return [CombatantChanged(combatant=target, hidden=cmd.hidden, name=name)]


def reveal_stats(state: EncounterState, cmd: RevealStats) -> list[Event]:
    return [CombatantChanged(combatant=state.get(cmd.target).id, stats_revealed=cmd.revealed)]


def gm_roll(state: EncounterState, cmd: GMRoll, rng: RNG) -> list[Event]:
    """Any pool the GM rolls; a secret one is shown to the GM only."""
    if not 0 <= cmd.dice <= MAX_GM_DICE:
        raise RuleViolation("pula", gettext_noop("Pula od 0 do %(most)s kości."), most=MAX_GM_DICE)
    label = cmd.label or "Rzut MG"
    roll = roll_pool(rng, (Modifier(cmd.dice, label),), state.settings.success_faces)
    return [GMRolled(label=label, roll=roll, secret=cmd.secret)]


def place_combatant(state: EncounterState, cmd: PlaceCombatant) -> list[Event]:
    """The GM sets a token (any phase, no action): with a map, on it and on a free field that
    is neither a wall nor an obstacle."""
    c = state.get(cmd.target)
    if cmd.to is not None:
        if state.battlemap is not None:
            space.check_field(state.battlemap, cmd.to)
        taken = [o for o in state.combatants.values() if o.position == cmd.to and o.id != c.id]
        if taken:
            raise RuleViolation(
                "zajete",
                gettext_noop("Pole %(square)s zajmuje %(name)s."),
                square=space.field_label(state, cmd.to),
                name=taken[0].name,
            )
    return [CombatantPlaced(combatant=c.id, to=cmd.to)]


def edit_map(state: EncounterState, cmd: EditMap) -> list[Event]:
    """The GM's edit of the battle map, checked against where the tokens stand."""
    return vocabulary.edit_map(state.battlemap, cmd, space.occupied(state))


def set_environment(state: EncounterState, cmd: SetEnvironment) -> list[Event]:
    return [EnvironmentChanged(darkness=cmd.darkness, difficult_terrain=cmd.difficult_terrain)]


def offer_opportunity(state: EncounterState, cmd: OfferOpportunity, rng: RNG) -> list[Event]:
    """The GM rules an Atak okazyjny is due (when the map cannot tell reach)."""
    require_active(state)
    attacker, target = state.get(cmd.attacker), state.get(cmd.target)
    if attacker.side == target.side or attacker.id == target.id:
        raise RuleViolation(
            "atak_okazyjny", gettext_noop("Atak okazyjny przysługuje przeciw wrogowi.")
        )
    refusal = reaction_refusal(attacker)
    if refusal is not None:
        raise refusal
    prompt = opportunity_prompt(state, attacker.id, target.id, cmd.trigger, cmd.now, rng)
    return [PromptOpened(prompt=prompt)]


def opportunity_prompt(
    state: EncounterState, attacker: str, target: str, trigger: str, now: float, rng: RNG
) -> Prompt:
    return Prompt(
        id=new_prompt_id(state, rng),
        kind="atak_okazyjny",
        actor=attacker,
        options=("atak_okazyjny",),
        deadline=deadline(state, now),
        target=target,
        trigger=trigger,
    )


def declare_area_attack(state: EncounterState, cmd: DeclareAreaAttack, rng: RNG) -> list[Event]:
    """An area attack: everyone covered who may still use a defensive reaction gets Ucieczka."""
    require_active(state)
    events: list[Event] = []
    opened = 0
    covered = (*cmd.targets, *_standing_on(state, (*cmd.fields, *_around(state, cmd))))
    if not covered:
        raise RuleViolation("pusty_obszar", gettext_noop("Atak obszarowy nikogo nie obejmuje."))
    for cid in dict.fromkeys(covered):
        c = state.get(cid)
        if reaction_refusal(c, defensive=True) is not None:
            continue
        prompt = Prompt(
            id=new_prompt_id(state, rng, opened),
            kind="ucieczka",
            actor=c.id,
            options=("ucieczka",),
            deadline=deadline(state, cmd.now),
            trigger=cmd.label or "atak obszarowy",
        )
        opened += 1
        events.append(PromptOpened(prompt=prompt))
    return events


MAX_AREA_RADIUS = 20  # metres: the biggest blast the form offers and the engine takes


def _around(state: EncounterState, cmd: DeclareAreaAttack) -> tuple[Position, ...]:
    """The fields within `radius` metres of the character `around` stands on."""
    if not cmd.around:
        return ()
    centre = state.get(cmd.around)
    m = state.battlemap
    if m is None or centre.position is None:
        raise RuleViolation(
            "obszar_bez_mapy",
            gettext_noop("%(name)s nie stoi na mapie: wskaż objętych ręcznie."),
            name=centre.name,
        )
    if not 0 <= cmd.radius <= MAX_AREA_RADIUS:
        raise RuleViolation("promien", gettext_noop("Promień od 0 do %(n)s m."), n=MAX_AREA_RADIUS)
    reach = cmd.radius // m.metres
    cx, cy = centre.position
    return tuple(
        (x, y)
        for x in range(max(0, cx - reach), min(m.width, cx + reach + 1))
        for y in range(max(0, cy - reach), min(m.height, cy + reach + 1))
        if m.distance(centre.position, (x, y)) <= reach
    )


def _standing_on(state: EncounterState, fields: tuple[Position, ...]) -> list[str]:
    """Who stands on the area's fields (on the map; off-map fields are refused)."""
    if not fields:
        return []
    m = state.battlemap
    if m is None:
        raise RuleViolation(
            "brak_mapy", gettext_noop("Pola ataku obszarowego można wskazać tylko na mapie.")
        )
    for f in fields:
        if not m.inside(f):
            raise RuleViolation(
                "poza_mapa",
                gettext_noop("Pole %(field)s jest poza mapą."),
                field=battlemap.label(f),
            )
    area = frozenset(fields)
    return [c.id for c in state.combatants.values() if c.position in area and c.status != "dead"]


def in_reach(state: EncounterState, a: str, b: str) -> bool:
    """Both on the map and adjacent (melee reach)."""
    pa, pb = state.get(a).position, state.get(b).position
    return pa is not None and pb is not None and grid.in_reach(pa, pb)


def join_combat(state: EncounterState, cmd: JoinCombat, rng: RNG) -> list[Event]:
    """A combatant joins; mid-fight with its initiative (it reacts only after its first turn)."""
    try:
        c = combatant_from_dict(cmd.combatant)
    except ValueError as exc:
        # The Polish message only; the technical (English) detail goes to the params.
        raise RuleViolation(
            "postac", gettext_noop("Błędne dane postaci."), detail=str(exc)
        ) from None
    if c.id in state.combatants:
        raise RuleViolation(
            "postac", gettext_noop("Postać o id „%(id)s” już jest w walce."), id=c.id
        )
    if c.position is not None and any(o.position == c.position for o in state.combatants.values()):
        raise RuleViolation(
            "zajete", gettext_noop("Pole %(square)s jest zajęte."), square=str(c.position)
        )
    if state.phase in ACTIVE_PHASES:
        intuicja = c.sheet.attribute("intuicja")
        try:
            roll = (
                roll_initiative(rng, c.id, intuicja)
                if cmd.roll is None
                else supplied_initiative(c.id, cmd.roll, intuicja)
            )
        except ValueError:
            raise RuleViolation(
                "inicjatywa", gettext_noop("Inicjatywa to dwie kości k6 (1–6).")
            ) from None
        c = replace(c, initiative=roll.total, initiative_roll=roll.faces)
    return [CombatantJoined(combatant=c, supplied=cmd.roll is not None)]
