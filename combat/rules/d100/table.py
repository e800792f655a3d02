"""d100 at the live table: the neutral `TableView` and the panels its partials
(templates/combat/rulesets/d100/) render, saying what is legal now (each offer probed with
`engine.refusal`) with a ready command (`codec.command_to_dict`) for every button.

Each panel is a frozen record of plain values (`TurnPanel`, `SeatPanel`, `GMPanel`,
`GMSeatPanel`; the prompt's is `prompts.PromptPanel`): all its partial reads of the fight, so
the live table compares it by value and renders it again only when it changed. `LegalAction`s
carry msgid, params and the reason of a refusal; the commands are read-only mappings by the
action's key (`Fields`).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from combat.rules.base import (
    Badge,
    Counter,
    Fields,
    HealthView,
    LegalAction,
    RuleViolation,
    SeatView,
    TableView,
    fill,
    gettext_noop,
    text_param,
)
from combat.rules.d100 import conditions as cond
from combat.rules.d100 import engine
from combat.rules.d100.check import DAMAGE, HIT, injury_penalty
from combat.rules.d100.codec import command_to_dict
from combat.rules.d100.commands import (
    AddCondition,
    Attack,
    Cast,
    Command,
    Damage,
    DecideFallen,
    EndCombat,
    EndTurn,
    ExtendDeadline,
    Fall,
    FreeAction,
    FullAction,
    GMRoll,
    Heal,
    Post,
    ResolveTurn,
    Rest,
    SetOrder,
    SetPace,
    StartCombat,
    Transform,
)
from combat.rules.d100.engine.attack import (
    CLOSE_COMBAT,
    defence_spec,
    reach_refusal,
    reactions,
    require_hands,
)
from combat.rules.d100.engine.common import agility, ignored_injuries, initiative_order, spec
from combat.rules.d100.engine.posts import MAX_TEXT, posting, waiting
from combat.rules.d100.equipment import (
    AttackProfile,
    armour_reduction,
    attack_profile,
)
from combat.rules.d100.falls import GROUND_LABELS
from combat.rules.d100.narrate import (
    POST_DEFENCES,
    WOUND_LEVELS,
    action_parts,
    wound_level,
)
from combat.rules.d100.settings import ATTRIBUTES
from combat.rules.d100.sheet import SPELL_KINDS
from combat.rules.d100.state import GM, Action, Combatant, EncounterState

SETUP = gettext_noop("Przygotowanie")
TURN = gettext_noop("Tura bojowa %(n)s")
ENDED = gettext_noop("Walka zakończona")
MARKS = gettext_noop("Urazy")
PACE_LABELS = {"live": gettext_noop("na żywo"), "post": gettext_noop("przez posty")}
STATUS_LABELS = {
    "nieprzytomny": gettext_noop("nieprzytomny"),
    "martwy": gettext_noop("martwy"),
    "pokonany": gettext_noop("pokonany"),
}
EXTEND_HOURS = (6, 12, 24, 48)
FROM_NOW = (24, 6, 12, 48, 72)  # hours from the server's clock: a deadline set anew
SPELL_KIND_LABELS = dict(SPELL_KINDS)
TRANSFORM_LABELS = {"wampir": gettext_noop("Wampir"), "wilkolak": gettext_noop("Wilkołak")}


# --- the table view ---------------------------------------------------------------------------


def order_of(state: EncounterState) -> tuple[str, ...]:
    """Every combatant in turn order: the state's order (before the fight, the order it will
    start in), then any not in it."""
    order = state.order or initiative_order(state)
    placed = [cid for cid in order if cid in state.combatants]
    return (*placed, *(cid for cid in state.combatants if cid not in placed))


def table_view(state: EncounterState) -> TableView:
    post = state.stage == "running" and state.pace == "post"
    deadline = state.deadline if post else min((p.deadline for p in state.prompts), default=None)
    return TableView(
        stage=state.stage,
        round=turns_played(state) if state.stage == "ended" else state.turn,
        label=_label(state),
        label_params={"n": state.turn},
        seats={cid: _seat(state, state.get(cid)) for cid in order_of(state)},
        order=order_of(state),
        current=state.current if state.stage == "running" else None,
        winner=state.winner,
        marks_label=MARKS,
        acting=posting(state) if post else (),
        waiting=_waiting(state),
        deadline=deadline,
        pace=state.pace,
        remind_at=remind_at(state) if post else None,
    )


def turns_played(state: EncounterState) -> int:
    """The combat turns played: the current one only if anyone did something in it (the turn
    opened after the last one resolved, then the fight ended, is not one played)."""
    acted = state.posts or any(
        c.done or c.full_used or c.free_used or c.resting or c.moved or c.attacked
        for c in state.combatants.values()
    )
    return state.turn if acted else max(0, state.turn - 1)


def _label(state: EncounterState) -> str:
    if state.stage == "setup":
        return SETUP
    if state.stage == "ended":
        return ENDED
    return TURN


def _waiting(state: EncounterState) -> tuple[str, ...]:
    if state.stage != "running":
        return ()
    if state.prompts:
        return tuple(dict.fromkeys(p.actor for p in state.prompts))
    if state.pace == "post":
        return waiting(state)
    return ()


def health(c: Combatant) -> HealthView:
    """PŻ against the maximum, and the wound level by the share left."""
    level = wound_level(c.pz, c.max_pz, c.status)
    return HealthView(
        current=c.pz,
        maximum=c.max_pz,
        level=level,
        level_label=WOUND_LEVELS[level],
        out=c.out,
        dead=c.dead,
        status_label=STATUS_LABELS.get(c.status, ""),
    )


def _seat(state: EncounterState, c: Combatant) -> SeatView:
    counters = []
    if state.stage == "running":
        counters.append(
            Counter("akcja_pelna", gettext_noop("Akcja pełna"), 0 if c.full_used else 1, 1)
        )
    counters.append(Counter("urazy", gettext_noop("Urazy"), c.injuries))
    return SeatView(
        id=c.id,
        name=c.name,
        side=c.side,
        controller=c.controller,
        hidden=c.hidden,
        revealed=c.revealed,
        current=state.stage == "running" and state.current == c.id,
        initiative=agility(state, c),
        health=health(c),
        counters=tuple(counters),
        badges=badges(state, c),
        ready=True,
        marks=(str(c.injuries),) if c.injuries else (),
        removable=frozenset(e.key for e in c.effects),
        position=c.position,
    )


def turns_left(n: int) -> tuple[str, Mapping[str, Any]]:
    """ "1 tura", "2 tury", "5 tur" as a (msgid, params) part."""
    if n == 1:
        return gettext_noop("%(n)s tura"), {"n": n}
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return gettext_noop("%(n)s tury"), {"n": n}
    return gettext_noop("%(n)s tur"), {"n": n}


def _when(state: EncounterState, effect: cond.Effect) -> tuple[str, Mapping[str, Any]]:
    turn = max(state.turn, 1)
    if effect.start > turn:
        return gettext_noop("od tury %(n)s"), {"n": effect.start}
    if effect.until == 0:
        return gettext_noop("do odwołania"), {}
    return turns_left(effect.until - turn + 1)


def _description(state: EncounterState, effect: cond.Effect) -> str:
    spec_ = cond.SPECS.get(effect.key)
    if spec_ is None:
        return ""
    params = {
        "penalty": state.settings.knockdown_penalty,
        "value": effect.value,
        "roll": cond.ROLL_LABELS.get(effect.roll, effect.roll),
        "label": effect.label,
    }
    return fill(spec_.description, params)


def effect_badge(state: EncounterState, effect: cond.Effect) -> Badge:
    """A condition or timed modifier as a badge: "Krwawienie (2 tury)", what it does."""
    spec_ = cond.SPECS.get(effect.key)
    label = spec_.label if spec_ else effect.key
    parts: list[tuple[str, Mapping[str, Any]]] = []
    if effect.key == cond.MODYFIKATOR:
        roll = cond.ROLL_LABELS.get(effect.roll, effect.roll)
        parts.append(
            (gettext_noop("%(value)s do %(roll)s"), {"value": f"{effect.value:+d}", "roll": roll})
        )
    elif effect.key == cond.CZAR and effect.label:
        label = effect.label
    elif effect.key == cond.KRWAWIENIE:
        parts.append((gettext_noop("%(value)s PŻ na turę"), {"value": effect.value}))
    parts.append(_when(state, effect))
    return Badge(
        key=effect.key,
        label=label,
        detail=", ".join(fill(t, p) for t, p in parts),
        description=_description(state, effect),
        detail_parts=tuple(parts),
    )


def badges(state: EncounterState, c: Combatant) -> tuple[Badge, ...]:
    """The conditions acting now or later, then what the seat is doing or is."""
    turn = max(state.turn, 1)
    found = [effect_badge(state, e) for e in c.effects if e.until == 0 or e.until >= turn]
    if c.resting:
        found.append(
            Badge(
                "odpoczynek",
                gettext_noop("Odpoczynek"),
                description=gettext_noop("test Ogłady na koniec tury; przerywa go atak"),
            )
        )
    if c.transformed:
        found.append(Badge("przemiana", TRANSFORM_LABELS.get(c.transformed, c.transformed)))
    if c.summon is not None:
        label = (
            gettext_noop("Wrogi przyzwaniec") if c.summon.hostile else gettext_noop("Przyzwaniec")
        )
        parts: tuple[tuple[str, Mapping[str, Any]], ...] = ()
        if c.summon.until:
            parts = ((gettext_noop("do tury %(n)s"), {"n": c.summon.until}),)
        found.append(
            Badge("przyzwaniec", label, ", ".join(fill(t, p) for t, p in parts), "", parts)
        )
    if c.status == "pokonany":
        found.append(
            Badge(
                "pokonany",
                gettext_noop("Pokonany"),
                description=gettext_noop("0 PŻ: Mistrz Gry decyduje, czy żyje"),
            )
        )
    return tuple(found)


# --- legality ---------------------------------------------------------------------------------


def legal(state: EncounterState, key: str, label: str, command: Command) -> LegalAction:
    """Whether the rules would take `command` now (probed with dice that are thrown away)."""
    refused = engine.refusal(state, command)
    if refused is not None:
        return refused_action(key, label, refused)
    return LegalAction(key, label, True, label_template=label, reason_params=Fields())


def refused_action(key: str, label: str, refused: RuleViolation) -> LegalAction:
    return LegalAction(
        key, label, False, refused.message, label_template=label,
        reason_template=refused.template, reason_params=Fields(refused.params),
    )  # fmt: skip


class Offers:
    """The actions and commands of one panel, built offer by offer."""

    def __init__(self, state: EncounterState) -> None:
        self.state = state
        self.actions: list[LegalAction] = []
        self.commands: dict[str, Any] = {}

    def offer(self, key: str, label: str, command: Command) -> LegalAction:
        action = legal(self.state, key, label, command)
        self.actions.append(action)
        self.commands[key] = command_to_dict(command)
        return action

    def refuse(self, key: str, label: str, refused: RuleViolation, command: Command) -> None:
        self.actions.append(refused_action(key, label, refused))
        self.commands[key] = command_to_dict(command)

    def done(self) -> tuple[tuple[LegalAction, ...], Fields]:
        """The actions offered, and the command of each by its key (read-only)."""
        return tuple(self.actions), Fields(self.commands)


# --- the panels' records ----------------------------------------------------------------------
# Each panel is a frozen record of plain values, all its partial reads of the fight: the live
# table compares it by value, so a change to the state that does not concern it leaves it equal.


@dataclass(frozen=True, slots=True)
class Named:
    """A combatant as the GM's lists name it."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Target:
    """A combatant as a form lists it; an enemy beyond close-combat reach on the map carries
    the reason (`reach_template`/`reach_params`) its close-combat choices are refused for."""

    id: str
    name: str
    side: str
    reach_template: str = ""
    reach_params: Fields = Fields()


@dataclass(frozen=True, slots=True)
class Choice:
    """An attack the sheet makes (a weapon, a pair, claws, bare hands) with its Trafienie and
    Obrażenia thresholds now; one Rozbrojenie (or the shield) stops is unavailable, with why."""

    key: str
    label: str
    hit: int
    damage: int
    close: bool  # a close-combat attack (needs an adjacent target on the map)
    available: bool = True
    reason: str = ""
    reason_template: str = ""
    reason_params: Fields = Fields()


@dataclass(frozen=True, slots=True)
class Spell:
    """A spell of the sheet with its two thresholds and whom it may be cast at (none for a
    summoning; a positive spell lists the caster first: None is oneself)."""

    index: int
    name: str
    kind: str
    kind_label: str
    hit: int
    damage: int
    targets: tuple[Target, ...]
    self_target: bool


@dataclass(frozen=True, slots=True)
class Defence:
    """A reaction the seat has now against a weapon, with its threshold."""

    key: str
    label: str
    threshold: int


@dataclass(frozen=True, slots=True)
class Label:
    """A condition on a seat the GM may remove: its key and its label (a msgid)."""

    key: str
    label: str


@dataclass(frozen=True, slots=True)
class PostView:
    """A seat's post of the open by-post turn as its panel shows it back: what it does as
    (msgid, params) parts, the Action, the defence it names, its text, by whom and when."""

    what: tuple[tuple[str, Fields], ...]
    action: Fields
    defence: str
    defence_label: str
    text: str
    by_gm: bool
    at: float


@dataclass(frozen=True, slots=True)
class ActionOption:
    """A structured action the post form's select offers: the Action (`value`, and the same
    as JSON: the option's value), its group ("other", "attack", "cast") and label."""

    value: Fields
    json: str
    group: str
    label_template: str
    label_params: Fields
    selected: bool = False
    disabled: bool = False  # a close-combat attack at an enemy out of reach


@dataclass(frozen=True, slots=True)
class DefenceOption:
    """A defence the post may name: the best, a reaction it has now, or none ("")."""

    key: str
    label_template: str
    label_params: Fields
    selected: bool = False


@dataclass(frozen=True, slots=True)
class PostForm:
    """The by-post turn's form: its own post (or None), whether posting closed, the deadline
    and the reminder, the text's limit, and the actions and defences it may name."""

    mine: PostView | None
    closed: bool
    deadline: float | None
    remind_at: float | None
    text_max: int
    action_options: tuple[ActionOption, ...]
    defence_options: tuple[DefenceOption, ...]


@dataclass(frozen=True, slots=True)
class TurnPanel:
    """One seat's part of the turn. Live, in its turn: "atak", "czar" (the first spell it may
    cast now, with its first target), "odpoczynek", "przemiana", "akcja_pelna", "ruch",
    "przeladowanie", "zmiana_broni", "akcja_darmowa", "koniec_tury", each with its command
    (`commands`), and `castable`: the cast form shows even with no enemy left to attack. By
    post: `post` and the actions "wpis" (a player's Post) and "wpis_mg" (the GM's, allowed
    after the deadline), their commands the Post without action (the form adds c.action,
    c.defence, c.text). Before the fight: the thresholds (`choices`)."""

    stage: str
    pace: str
    turn: int
    actor: Target
    targets: tuple[Target, ...]  # the visible combatants still fighting, not the actor
    enemies: tuple[Target, ...]  # those of them the actor may attack
    choices: tuple[Choice, ...]
    spells: tuple[Spell, ...]
    defences: tuple[Defence, ...]
    reaches_far: bool  # a weapon reaching past the next field: far enemies stay targets
    castable: bool = False
    post: PostForm | None = None
    actions: tuple[LegalAction, ...] = ()
    commands: Fields = Fields()


@dataclass(frozen=True, slots=True)
class SeatPanel:
    """A player's own card: its thresholds now, its defences, armour (percent) and the
    penalty of its Urazy; in an open by-post turn its post, the deadline and whether posting
    closed (the deadline passed: closed until the GM resolves the turn)."""

    thresholds: tuple[Choice, ...]
    defences: tuple[Defence, ...]
    armour: int
    injury_penalty: int
    post: PostView | None
    pace: str
    deadline: float | None
    closed: bool


@dataclass(frozen=True, slots=True)
class Extension:
    """The by-post deadline moved on by `hours`."""

    hours: int
    deadline: float


@dataclass(frozen=True, slots=True)
class PostSeat:
    """A seat of the by-post turn (`post_seats`) as the GM reads it: its post, and once
    posting closed its turn panel (`panel`), for the GM's post for it; else None."""

    id: str
    name: str
    posted: bool
    post: PostView | None
    panel: TurnPanel | None


@dataclass(frozen=True, slots=True)
class GMPanel:
    """The GM's controls of the whole fight: actions "start", "tempo_live", "tempo_post",
    "rozstrzygnij", "termin", "termin_od_teraz", "rzut_mg", "koniec" with their commands;
    `start_fields`: the optional fields StartCombat takes; `from_now`: a deadline that many
    hours from the server's clock (the command's `hours`); `waiting`: the seats waited on."""

    stage: str
    pace: str
    turn: int
    sides: tuple[str, ...]
    paces: tuple[tuple[str, str], ...]
    start_fields: tuple[str, ...]
    posts: tuple[PostSeat, ...]
    waiting: tuple[str, ...]
    closed: bool
    deadline: float | None
    extend: tuple[Extension, ...]
    from_now: tuple[int, ...]
    post_turn_hours: int
    attributes: tuple[tuple[str, str], ...]
    combatants: tuple[Named, ...]
    actions: tuple[LegalAction, ...]
    commands: Fields


@dataclass(frozen=True, slots=True)
class GMSeatPanel:
    """The GM's controls of one seat: actions "obrazenia", "leczenie", "stan", "upadek",
    "martwy", "nieprzytomny", "wyzej", "nizej", "koniec_tury" with their commands, and
    "remove_condition" (the form adds c.condition); `fallen`: waiting for DecideFallen;
    `acrobatics` its skill and `max_height` Akrobatyka's, for a fall."""

    id: str
    pz: int
    max_pz: int
    injuries: int
    fallen: bool
    conditions: tuple[Label, ...]  # removable
    condition_choices: tuple[tuple[str, str], ...]
    grounds: tuple[tuple[str, str], ...]
    acrobatics: int
    heavy_armour: bool
    max_height: int
    actions: tuple[LegalAction, ...]
    commands: Fields


# --- what a combatant can do ------------------------------------------------------------------


def _target(c: Combatant) -> Target:
    return Target(c.id, c.name, c.side)


def targets(state: EncounterState, me: Combatant, visible: frozenset[str]) -> list[Combatant]:
    """The combatants `me` sees who still fight, in turn order."""
    return [
        state.get(cid)
        for cid in order_of(state)
        if cid in visible and cid != me.id and not state.get(cid).out
    ]


def enemies(state: EncounterState, me: Combatant, visible: frozenset[str]) -> list[Combatant]:
    """Those `me` may attack: the other sides and summons turned hostile; a hostile summon
    only its caster."""
    if me.summon is not None and me.summon.hostile:
        return [t for t in targets(state, me, visible) if t.id == me.summon.caster]
    return [
        t
        for t in targets(state, me, visible)
        if t.side != me.side or (t.summon is not None and t.summon.hostile)
    ]


def _choice_keys(c: Combatant) -> list[str]:
    if c.summon is not None:
        return ["unarmed"]
    n = len(c.weapons)
    keys = [f"w{i}" for i in range(n)]
    keys += [f"two:{i}:{j}" for i in range(n) for j in range(i + 1, n)]
    return [*keys, "claws", "claws2", "unarmed"]


def _profile(state: EncounterState, c: Combatant, key: str) -> AttackProfile | None:
    try:
        return attack_profile(c.sheet, key, state.settings, transformed=c.transformed)
    except RuleViolation:
        return None


def _thresholds(
    state: EncounterState, c: Combatant, profile: AttackProfile, *, magic: bool = False
) -> tuple[int, int]:
    hit_mods = profile.hit_mods
    if c.summon is not None and c.summon.hit_bonus:
        hit_mods = (*hit_mods, (gettext_noop("Przyzwaniec"), c.summon.hit_bonus))
    hit = spec(state, c, HIT, profile.hit_attr, cond.TRAFIENIE, hit_mods, spell=magic)
    damage = spec(
        state, c, DAMAGE, profile.damage_attr, cond.OBRAZENIA, profile.damage_mods, spell=magic
    )
    return hit.threshold(state), damage.threshold(state)


def attack_choices(state: EncounterState, c: Combatant) -> tuple[Choice, ...]:
    """Every attack the sheet makes (weapons, pairs, claws, bare hands) with its thresholds
    now; those Rozbrojenie (or the shield) stops are unavailable, with the reason."""
    found = []
    for key in _choice_keys(c):
        profile = _profile(state, c, key)
        if profile is None or profile.style == "magic":
            continue
        hit, damage = _thresholds(state, c, profile)
        choice = Choice(key, profile.label, hit, damage, close=profile.style in CLOSE_COMBAT)
        try:
            require_hands(state, c, profile)
        except RuleViolation as refused:
            choice = dataclasses.replace(
                choice, available=False, reason=refused.message,
                reason_template=refused.template, reason_params=Fields(refused.params),
            )  # fmt: skip
        found.append(choice)
    return tuple(found)


def spell_choices(
    state: EncounterState, c: Combatant, visible: frozenset[str]
) -> tuple[Spell, ...]:
    """The sheet's spells with their two thresholds and whom each may be cast at."""
    found = []
    seen = targets(state, c, visible)
    for index, spell in enumerate(c.spells):
        profile = _profile(state, c, f"spell:{index}")
        if profile is None:  # pragma: no cover - a validated sheet's spells all have one
            continue
        hit, damage = _thresholds(state, c, profile, magic=True)
        kind = str(spell.get("kind", ""))
        if kind == "damage":
            whom = [_target(t) for t in enemies(state, c, visible)]
        elif kind == "negative":
            whom = [_target(t) for t in seen]
        elif kind == "positive":
            whom = [_target(c), *(_target(t) for t in seen)]
        else:
            whom = []
        found.append(
            Spell(
                index=index, name=str(spell.get("name", "")), kind=kind,
                kind_label=SPELL_KIND_LABELS.get(kind, kind), hit=hit, damage=damage,
                targets=tuple(whom), self_target=kind == "positive",
            )
        )  # fmt: skip
    return tuple(found)


def defences(state: EncounterState, c: Combatant) -> tuple[Defence, ...]:
    """The reactions `c` has now against a weapon, with their thresholds."""
    found = []
    for key in reactions(state, c):
        test = defence_spec(state, c, key)
        assert test is not None
        found.append(Defence(key, POST_DEFENCES[key], test.threshold(state)))
    return tuple(found)


# --- the turn panel ---------------------------------------------------------------------------


def turn_panel(state: EncounterState, actor_id: str, visible: frozenset[str]) -> TurnPanel:
    me = state.get(actor_id)
    choices = attack_choices(state, me)
    panel = TurnPanel(
        stage=state.stage,
        pace=state.pace,
        turn=state.turn,
        actor=_target(me),
        targets=tuple(_target(t) for t in targets(state, me, visible)),
        enemies=tuple(_reach(state, me, t) for t in enemies(state, me, visible)),
        choices=choices,
        spells=spell_choices(state, me, visible),
        defences=defences(state, me),
        reaches_far=any(c.available and not c.close for c in choices),
    )
    offers = Offers(state)
    if state.stage == "running" and state.pace == "live":
        panel = dataclasses.replace(panel, castable=_live_offers(state, me, panel, offers))
    elif state.stage == "running":
        panel = dataclasses.replace(panel, post=_post_panel(state, me, panel, offers, visible))
    actions, commands = offers.done()
    return dataclasses.replace(panel, actions=actions, commands=commands)


def _reach(state: EncounterState, me: Combatant, target: Combatant) -> Target:
    """An enemy as the attack form lists it; beyond close-combat reach on the map, with the
    reason (`reach_template`/`reach_params`) its close-combat choices are refused for."""
    refused = reach_refusal(state, me, target)
    if refused is None:
        return _target(target)
    return Target(target.id, target.name, target.side, refused.template, Fields(refused.params))


def _live_offers(state: EncounterState, me: Combatant, panel: TurnPanel, offers: Offers) -> bool:
    """The live turn's full actions, free actions and its end (each probed); whether a spell
    may be cast now (the cast form shows even when no enemy is left to attack)."""
    _attack_offer(state, me, panel, offers)
    castable = False
    if me.spells:
        casts = [
            Cast(actor=me.id, spell=s.index, target=s.targets[0].id if s.targets else None)
            for s in panel.spells
        ]
        cast = next((c for c in casts if engine.refusal(state, c) is None), casts[0])
        castable = offers.offer("czar", gettext_noop("Czar"), cast).available
    offers.offer("odpoczynek", gettext_noop("Odpoczynek"), Rest(actor=me.id))
    if me.transformation:
        label = (
            gettext_noop("Powrót do swojej postaci")
            if me.transformed
            else gettext_noop("Przemiana")
        )
        offers.offer("przemiana", label, Transform(actor=me.id))
    offers.offer("akcja_pelna", gettext_noop("Inna akcja pełna"), FullAction(actor=me.id))
    for key, kind, label in (
        ("ruch", "move", gettext_noop("Ruch")),
        ("przeladowanie", "reload", gettext_noop("Przeładowanie")),
        ("zmiana_broni", "change_weapon", gettext_noop("Zmiana broni")),
        ("akcja_darmowa", "other", gettext_noop("Inna akcja darmowa")),
    ):
        choice = "unarmed" if kind == "change_weapon" else ""
        offers.offer(key, label, FreeAction(actor=me.id, kind=kind, choice=choice))
    offers.offer("koniec_tury", gettext_noop("Zakończ turę"), EndTurn(actor=me.id))
    return castable


def _attack_offer(state: EncounterState, me: Combatant, panel: TurnPanel, offers: Offers) -> None:
    """Atak on the first enemy and means the rules take now (a far enemy's close-combat
    attack is refused, a nearer one's or a bow's may not be); refused with the first
    enemy's reason when none is taken."""
    pairs = [
        Attack(actor=me.id, target=t.id, choice=c.key)
        for t in panel.enemies
        for c in panel.choices
        if c.available
    ]
    if not pairs:
        first = panel.enemies[0].id if panel.enemies else ""
        pairs = [Attack(actor=me.id, target=first)]
    taken = next((a for a in pairs if engine.refusal(state, a) is None), None)
    if taken is not None:
        offers.offer("atak", gettext_noop("Atak"), taken)
    elif not panel.enemies:
        refused = RuleViolation("brak_celu", gettext_noop("Nie ma kogo zaatakować."))
        offers.refuse("atak", gettext_noop("Atak"), refused, pairs[0])
    else:
        offers.offer("atak", gettext_noop("Atak"), pairs[0])


UNSEEN = "?"  # a posted action's target its viewer may not see (the GM's post at a hidden one)


def post_view(
    state: EncounterState, cid: str, visible: frozenset[str] | None = None
) -> PostView | None:
    """A seat's post of the open by-post turn as its panel shows it back, or None; a target
    outside `visible` (the GM posted at a hidden one) is shown as "?"."""
    post = state.posts.get(cid)
    if post is None:
        return None
    action = post.action
    if visible is not None and action.target and action.target not in visible:
        action = dataclasses.replace(action, target=UNSEEN)
    return PostView(
        what=tuple((msgid, Fields(params)) for msgid, params in action_parts(state, cid, action)),
        action=Fields(dataclasses.asdict(action)),
        defence=post.defence,
        defence_label=POST_DEFENCES.get(post.defence, post.defence),
        text=post.text,
        by_gm=post.by_gm,
        at=post.at,
    )


def _action_value(action: Action) -> dict[str, Any]:
    return dataclasses.asdict(action)


def action_options(
    state: EncounterState, me: Combatant, panel: TurnPanel
) -> tuple[ActionOption, ...]:
    """Every structured action the post may carry, as a select's options (the Action dict)."""
    mine = state.posts.get(me.id)
    current = _action_value(mine.action) if mine else _action_value(Action("none"))
    options: list[ActionOption] = []

    def add(
        action: Action, group: str, label: str, params: Mapping[str, Any], disabled: bool = False
    ) -> None:
        value = _action_value(action)
        options.append(
            ActionOption(
                value=Fields(value), json=json.dumps(value, ensure_ascii=False), group=group,
                label_template=label, label_params=Fields(params), selected=value == current,
                disabled=disabled,
            )
        )  # fmt: skip

    add(Action("none"), "other", gettext_noop("bez akcji pełnej (tylko obrona i opis)"), {})
    add(Action("rest"), "other", gettext_noop("Odpoczynek (test Ogłady na koniec tury)"), {})
    if me.transformation:
        add(Action("transform"), "other", gettext_noop("Przemiana"), {})
    add(Action("full"), "other", gettext_noop("inna akcja pełna (opisz we wpisie)"), {})
    attack = gettext_noop("atak → %(target)s: %(means)s (Trafienie %(hit)s, Obrażenia %(damage)s)")
    for target in panel.enemies:
        for choice in panel.choices:
            if not choice.available:
                continue
            action = Action("attack", target=target.id, choice=choice.key)
            if choice.close and target.reach_template:
                means = {"means": text_param(choice.label), **target.reach_params}
                add(action, "attack", _FAR, means, disabled=True)
                continue
            add(
                action, "attack", attack, {"target": target.name, "means": text_param(choice.label),
                "hit": choice.hit, "damage": choice.damage},
            )  # fmt: skip
    at = gettext_noop("czar %(spell)s → %(target)s (Trafienie %(hit)s, drugi rzut %(damage)s)")
    plain = gettext_noop("czar %(spell)s (Trafienie %(hit)s, drugi rzut %(damage)s)")
    for spell in panel.spells:
        numbers = {"spell": spell.name, "hit": spell.hit, "damage": spell.damage}
        if spell.kind == "summon":  # the others need a target: none seen, none offered
            add(Action("cast", spell=spell.index), "cast", plain, numbers)
        for whom in spell.targets:
            action = Action("cast", target=whom.id, spell=spell.index)
            add(action, "cast", at, {"target": whom.name, **numbers})
    return tuple(options)


_FAR = gettext_noop("atak: %(means)s — %(name)s jest poza zasięgiem walki wręcz: %(n)s m.")


def defence_options(
    state: EncounterState, me: Combatant, panel: TurnPanel
) -> tuple[DefenceOption, ...]:
    """The defences the post may name: the best, each reaction it has now, none."""
    mine = state.posts.get(me.id)
    chosen = mine.defence if mine else "best"
    found = [DefenceOption("best", gettext_noop("najlepsza obrona"), Fields())]
    for d in panel.defences:
        params = {"defence": text_param(d.label), "threshold": d.threshold}
        found.append(
            DefenceOption(d.key, gettext_noop("%(defence)s (próg %(threshold)s)"), Fields(params))
        )
    found.append(DefenceOption("", gettext_noop("bez obrony"), Fields()))
    return tuple(dataclasses.replace(o, selected=o.key == chosen) for o in found)


def _post_panel(
    state: EncounterState,
    me: Combatant,
    panel: TurnPanel,
    offers: Offers,
    visible: frozenset[str],
) -> PostForm:
    mine = state.posts.get(me.id)
    label = gettext_noop("Zmień wpis") if mine else gettext_noop("Wyślij wpis")
    offers.offer("wpis", label, Post(actor=me.id))
    offers.offer("wpis_mg", label, Post(actor=me.id, by_gm=True))
    return PostForm(
        mine=post_view(state, me.id, visible),
        closed=state.closed,
        deadline=state.deadline,
        remind_at=remind_at(state),
        text_max=MAX_TEXT,
        action_options=action_options(state, me, panel),
        defence_options=defence_options(state, me, panel),
    )


def remind_at(state: EncounterState) -> float | None:
    """When the players still awaited get their reminder: post_reminder_hours before the
    deadline (None without a deadline or a reminder)."""
    if state.deadline is None or not state.settings.post_reminder_hours:
        return None
    return state.deadline - state.settings.post_reminder_hours * 3600


# --- a player's own card ----------------------------------------------------------------------


def seat_panel(state: EncounterState, seat_id: str, visible: frozenset[str]) -> SeatPanel:
    me = state.get(seat_id)
    open_post = state.stage == "running" and state.pace == "post"
    return SeatPanel(
        thresholds=attack_choices(state, me),
        defences=defences(state, me),
        armour=armour_reduction(me.sheet, state.settings),
        injury_penalty=injury_penalty(me.injuries, ignored_injuries(state, me), state.settings),
        post=post_view(state, me.id, visible) if open_post else None,
        pace=state.pace,
        deadline=state.deadline if open_post else None,
        closed=open_post and state.closed,
    )


# --- the GM -----------------------------------------------------------------------------------

START_FIELDS = tuple(
    f.name for f in dataclasses.fields(StartCombat) if f.name in ("pace", "deadline")
)
CONDITION_CHOICES = tuple((key, cond.SPECS[key].label) for key in cond.GM_CONDITIONS)


def gm_panel(state: EncounterState) -> GMPanel:
    offers = Offers(state)
    offers.offer("start", gettext_noop("Rozpocznij walkę"), StartCombat())
    offers.offer("tempo_live", gettext_noop("Tempo: na żywo"), SetPace(pace="live"))
    offers.offer("tempo_post", gettext_noop("Tempo: przez posty"), SetPace(pace="post"))
    post = state.stage == "running" and state.pace == "post"
    extend: tuple[Extension, ...] = ()
    if post:
        offers.offer("rozstrzygnij", gettext_noop("Rozstrzygnij turę teraz"), ResolveTurn())
        base = state.deadline or 0.0
        offers.offer("termin", gettext_noop("Przesuń termin"), ExtendDeadline(deadline=base + 3600))
        extend = tuple(Extension(h, base + h * 3600) for h in EXTEND_HOURS)
        offers.offer(
            "termin_od_teraz", gettext_noop("Ustaw termin"), ExtendDeadline(hours=FROM_NOW[0])
        )
    offers.offer("rzut_mg", gettext_noop("Rzuć"), GMRoll())
    offers.offer("koniec", gettext_noop("Zakończ walkę"), EndCombat())
    actions, commands = offers.done()
    return GMPanel(
        stage=state.stage,
        pace=state.pace,
        turn=state.turn,
        sides=tuple(sorted({c.side for c in state.combatants.values()})),
        paces=tuple(PACE_LABELS.items()),
        start_fields=START_FIELDS,
        posts=_posts(state) if post else (),
        waiting=_waiting(state),
        closed=state.closed,
        deadline=state.deadline if post else None,
        extend=extend,
        from_now=FROM_NOW if post else (),
        post_turn_hours=state.settings.post_turn_hours,
        attributes=ATTRIBUTES,
        combatants=tuple(Named(c.id, c.name) for c in state.combatants.values()),
        actions=actions,
        commands=commands,
    )


def post_seats(state: EncounterState) -> list[str]:
    """The seats of the by-post turn, open or closed: in the fight and not done, or posted."""
    return [
        cid
        for cid in order_of(state)
        if cid in state.posts or not (state.get(cid).out or state.get(cid).done)
    ]


def _posts(state: EncounterState) -> tuple[PostSeat, ...]:
    """Every seat of the by-post turn with its post (the GM reads them all); once posting
    closed, the GM's own post form for each (`panel`: its turn panel), the absent ones'
    first to fill."""
    out = []
    everyone = frozenset(state.combatants)
    for cid in post_seats(state):
        view = post_view(state, cid)
        panel = turn_panel(state, cid, everyone) if state.closed else None
        out.append(PostSeat(cid, state.get(cid).name, view is not None, view, panel))
    return tuple(out)


def gm_seat_panel(state: EncounterState, seat_id: str) -> GMSeatPanel:
    c = state.get(seat_id)
    offers = Offers(state)
    offers.offer("obrazenia", gettext_noop("Zadaj obrażenia"), Damage(target=c.id))
    offers.offer("leczenie", gettext_noop("Ulecz"), Heal(target=c.id))
    offers.offer(
        "stan", gettext_noop("Dodaj stan"), AddCondition(target=c.id, condition=cond.OGLUSZENIE)
    )
    offers.offer("upadek", gettext_noop("Upadek"), Fall(target=c.id, height=2))
    if c.status == "pokonany":
        offers.offer("martwy", gettext_noop("Ginie"), DecideFallen(target=c.id, outcome="martwy"))
        offers.offer(
            "nieprzytomny",
            gettext_noop("Żyje, nieprzytomny"),
            DecideFallen(target=c.id, outcome="nieprzytomny"),
        )
    order = list(order_of(state))
    at = order.index(c.id)
    if at > 0:
        moved = order[: at - 1] + [c.id, order[at - 1]] + order[at + 1 :]
        offers.offer("wyzej", gettext_noop("Wyżej w kolejności"), SetOrder(order=tuple(moved)))
    if at < len(order) - 1:
        moved = order[:at] + [order[at + 1], c.id] + order[at + 2 :]
        offers.offer("nizej", gettext_noop("Niżej w kolejności"), SetOrder(order=tuple(moved)))
    if state.stage == "running" and state.current == c.id:
        offers.offer("koniec_tury", gettext_noop("Zakończ jego turę"), EndTurn(actor=c.id))
    offers.commands["remove_condition"] = {"type": "remove_condition", "actor": GM, "target": c.id}
    turn = max(state.turn, 1)
    current = {e.key for e in c.effects if e.until == 0 or e.until >= turn}
    actions, commands = offers.done()
    return GMSeatPanel(
        id=c.id,
        pz=c.pz,
        max_pz=c.max_pz,
        injuries=c.injuries,
        fallen=c.status == "pokonany",
        conditions=tuple(
            Label(key, cond.SPECS[key].label if key in cond.SPECS else key)
            for key in sorted(current)
        ),
        condition_choices=CONDITION_CHOICES,
        grounds=tuple(GROUND_LABELS.items()),
        acrobatics=c.skill("akrobatyka"),
        heavy_armour=c.sheet.get("armour") == "heavy",
        max_height=state.settings.acrobatics_max_height,
        actions=actions,
        commands=commands,
    )


__all__ = [
    "ActionOption",
    "Choice",
    "Defence",
    "DefenceOption",
    "GMPanel",
    "GMSeatPanel",
    "Label",
    "Named",
    "PostForm",
    "PostSeat",
    "PostView",
    "SeatPanel",
    "Spell",
    "Target",
    "TurnPanel",
    "attack_choices",
    "badges",
    "defences",
    "gm_panel",
    "gm_seat_panel",
    "health",
    "legal",
    "order_of",
    "seat_panel",
    "spell_choices",
    "table_view",
    "turn_panel",
]
