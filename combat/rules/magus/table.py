"""Magus at the live table, minimally: the neutral `TableView` and the panels saying what is
legal now, with ready-made command dicts (`codec.command_to_dict`, held as `Fields`) for every
button.

Each panel is a frozen record (`TurnPanel`, `SeatPanel`, `GMPanel`, `GMSeatPanel`; the prompt's
`prompts.PromptPanel`) of plain values, holding all its partial reads of the fight, so the live
table compares it by value. Its fields, as below: a {id, name} is a `Ref` (a target's also
with its side: `Target`), a list a tuple, a {key: ...} mapping `Fields`, a record named in the
field's comment its small frozen record.
- `turn_panel(state, actor, visible)`: {"stage", "phase", "actor": {id, name}, "declared":
  the actor's own declaration as (msgid, params) parts (`narrate.declaration_parts`; the
  template shows each `{% tr %}`, one after another) or (), "actions": [LegalAction],
  "commands": {key: command dict}, "targets": [{id, name, side}], "weapons", "spells"; in the
  declaration phase also "options" (LegalAction of each declarable option), "action_kinds"
  [(key, label)], "current" (the declaration so far, as JSON, or None), "strain" {option:
  Strain}, "paid" (options already paid this round), "sustained_presets" [{key, label, low,
  high}] (the
  seed's sustained actions: Declare(action="sustained", preset=key, rounds=low..high; 0 =
  high), optional test_skill/test_dn/failure_stalls), "deadline" (the reveal's, or None); in
  the act phase "attacks" [{key,
  target, weapon, spell, legal}] naming the "atak:<target>:<means>" actions ("legal" the
  LegalAction: each legal or not against its own target), "attack_target" (the id the
  attack form starts on: the declared target, else the first of another side), "charges" [{key,
  target, weapon, min_m, max_m}] naming the "szarza:<target>:<weapon>" actions of a rider
  (the command's charge_m is min_m, the mount's combat speed; any metres up to max_m are
  legal), "mount" ({id, name} of the actor's mount, or None), "target_items" ({target id:
  [{name, kind ("bron"/"tarcza"/"zbroja"), magic, damaged}]}, only after Przycelowanie: the
  items an Attack's `damage_item` may name), and the actions "zsiadz" (Dismount) or
  "dosiadz:<id>" (MountUp, one per free living mount on its side; "mounts" {id: name} of
  those offered). The "ruch" Move asks the
  metres left (`engine.common.movement_limit`: Bieg ×2, Sprint on top, a mount's speeds).
- `seat_panel(state, seat, visible)`: a player's own card outside its turn: {"stage", "phase",
  "declared", "actions", "commands", "initiative_step", "movement_rate", "sprint_m" (Sprint's
  metres on top of it, not doubled by Bieg), "recovery", "mount", "rider", "mounts"}
  (roll initiative, interrupt with a held action, step in; before the fight "dosiadz:<id>" /
  "zsiadz"; outside a fight, or when unconscious in one: "test_zdrowienia" (with damage),
  "test_zdrowienia_ogluszenie" (with stun damage: heals="stun"), "ocucenie" (unconscious:
  revived=True), "leczenie_rany" (with Wounds, outside a fight)). "recovery" is
  `recovery_info`: {"tests_left", "allowed", "reason" (msgid), "next_at" (game seconds or
  None), "must_test", "unconscious_since", "now" (the game clock)}; "mount"/"rider": {id,
  name} or None.
- `gm_panel(state)`: {"stage", "phase", "actions", "commands", "waiting", "sides", "by_side"
  [(side, its seats' ids in turn order)], "declarations" [(id, name, parts (as "declared"))]
  in turn order, "clock" (game seconds), "surprise"}; actions
  also "zaskoczenie:<side>" (SurpriseTest of that side, before the fight; the form adds dusk,
  darkness, rain, camouflage, sneakers, unaware, base, distances), "czas_minuta",
  "czas_godzina", "czas_noc" (PassTime). "surprise": {"sides": {side: {"members", "met"
  ([{id, name}]), "base" (the lowest Zręczność step met), "brooches" (ids)}}, "darkness" /
  "rain" [(key, label, DN modifier)], "dusk", "camouflage" (their DN modifiers), "tested"
  (sides already tested)}.
- `gm_seat_panel(state, seat)`: {"id", "stage", "phase", "damage", "stun", "wounds", "conditions",
  "condition_choices", "declared" (parts), "sustained", "recovery", "mount", "rider",
  "actions", "commands"}; "sustained" is None or {"note"/"label", "preset", "rounds", "progress",
  "elapsed", "test" ({skill, dn} or None), "failure_stalls", "result" (this round's test:
  True/False/None)}; "actions" the recovery ones as on the seat panel, and in the initiative phase
  "inicjatywa_mg" (RollInitiatives of this seat, while it has to roll); "commands" also
  templates "sustained_test" (success true/false, or none to roll it), "sustained_check"
  (skill, dn, failure_stalls), "mount" (add mount=<id>), "dismount".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from combat.rules.base import (
    Badge,
    Counter,
    Fields,
    HealthView,
    LegalAction,
    SeatView,
    TableView,
    frozen,
    gettext_noop,
)
from combat.rules.magus import conditions as cond
from combat.rules.magus import engine, mounted, surprise
from combat.rules.magus import options as opt
from combat.rules.magus import sustained as sus
from combat.rules.magus.codec import command_to_dict, to_data
from combat.rules.magus.commands import (
    Advance,
    Attack,
    Command,
    Declare,
    Delay,
    Dismount,
    EndCombat,
    EndTurn,
    GetUp,
    HealWound,
    Hold,
    Interrupt,
    MountUp,
    Move,
    PassTime,
    RecoveryTest,
    RollInitiative,
    RollInitiatives,
    SimpleAction,
    StartCombat,
    StepIn,
    SurpriseTest,
    UseAction,
)
from combat.rules.magus.engine import healing
from combat.rules.magus.engine.ambush import sides
from combat.rules.magus.engine.attack import item_of
from combat.rules.magus.engine.common import (
    action_cap,
    actions_taken,
    is_player,
    movement_limit,
    must_declare,
    must_roll,
    sprint_bonus,
)
from combat.rules.magus.engine.space import field_of
from combat.rules.magus.narrate import ACTION_LABELS, Part, declaration_parts
from combat.rules.magus.sheet import STATS
from combat.rules.magus.state import ACTION_KINDS, GM, Combatant, EncounterState
from combat.rules.records import replace

LABELS = {
    "declare": gettext_noop("Deklaracje — runda %(n)s"),
    "initiative": gettext_noop("Inicjatywa — runda %(n)s"),
    "act": gettext_noop("Runda %(n)s"),
}


def table_view(state: EncounterState) -> TableView:
    ids = seat_order(state)
    stage = state.stage
    return TableView(
        stage=stage,
        round=state.round,
        label=_label(state),
        label_params={"n": state.round},
        seats={cid: _seat(state, state.get(cid)) for cid in ids},
        order=ids,
        current=state.current,
        winner=state.winner,
        acting=_acting(state),
        waiting=_waiting(state),
        deadline=state.deadline
        if state.phase in ("declare", "initiative")
        else _prompt_deadline(state),
    )


def seat_order(state: EncounterState) -> tuple[str, ...]:
    """The seats in turn order, then those without a place in it; before the order is set,
    by Initiative."""
    ids = list(state.combatants)
    if state.order:
        ids = [c for c in state.order if c in state.combatants] + [
            c for c in ids if c not in state.order
        ]
    else:
        ids.sort(key=lambda cid: -(state.get(cid).initiative or -(10**6)))
    return tuple(ids)


def _label(state: EncounterState) -> str:
    if state.stage == "setup":
        return gettext_noop("Przygotowanie")
    if state.stage == "ended":
        return gettext_noop("Walka zakończona")
    return LABELS.get(state.phase, gettext_noop("Runda %(n)s"))


def _acting(state: EncounterState) -> tuple[str, ...]:
    """Who acts now all at once: the declarers, the players rolling their own initiative."""
    if state.stage != "running":
        return ()
    if state.phase == "declare":
        return tuple(cid for cid, c in state.combatants.items() if must_declare(state, c))
    if state.phase == "initiative" and state.settings.players_roll_initiative:
        return tuple(
            cid
            for cid, c in state.combatants.items()
            if must_roll(state, c) and is_player(c) and c.initiative is None
        )
    return ()


def _waiting(state: EncounterState) -> tuple[str, ...]:
    if state.stage != "running":
        return ()
    if state.prompts:
        return tuple(dict.fromkeys(p.actor for p in state.prompts))
    if state.phase == "declare":
        return tuple(
            cid for cid, c in state.combatants.items() if must_declare(state, c) and not c.declared
        )
    if state.phase == "initiative":
        return tuple(
            cid
            for cid, c in state.combatants.items()
            if must_roll(state, c) and c.initiative is None
        )
    return ()


def _prompt_deadline(state: EncounterState) -> float | None:
    return min((p.deadline for p in state.prompts), default=None)


STAT_LABELS = dict(STATS)
RATING, DEATH = "prog_przytomnosci", "prog_smierci"  # the sheet's Unconsciousness, Death Ratings


def health(c: Combatant) -> HealthView:
    """Current damage (it counts up) against the Unconsciousness and Death Ratings, as the
    sheet names them; the level those who may not see numbers see."""
    death = c.death_rating
    if c.dead:
        level, label = "martwy", gettext_noop("Martwy")
    elif c.unconscious:
        level, label = "nieprzytomny", gettext_noop("Nieprzytomny")
    elif c.damage == 0 and c.wounds == 0:
        level, label = "bez_ran", gettext_noop("Bez ran")
    else:
        share = c.damage / death if death else 0.0
        if share < 0.25:
            level, label = "drasniety", gettext_noop("Draśnięty")
        elif share < 0.5:
            level, label = "ranny", gettext_noop("Ranny")
        elif share < 0.75:
            level, label = "ciezko_ranny", gettext_noop("Ciężko ranny")
        else:
            level, label = "ledwo_zywy", gettext_noop("Ledwo żywy")
    status = ""
    if c.dead:
        status = gettext_noop("martwy")
    elif c.unconscious:
        status = gettext_noop("nieprzytomny")
    return HealthView(
        current=c.damage,
        maximum=death,
        level=level,
        level_label=label,
        out=c.out,
        dead=c.dead,
        status_label=status,
        label=gettext_noop("Obrażenia"),
        limits=(
            Counter(RATING, STAT_LABELS[RATING], c.unconsciousness_rating),
            Counter(DEATH, STAT_LABELS[DEATH], death),
        ),
    )


def _seat(state: EncounterState, c: Combatant) -> SeatView:
    strain = sum(opt.strain(k, state.settings) for k in c.paid)
    if state.phase == "declare" and strain:
        # Until the reveal the Strain of a declaration stays off the seat (its damage too):
        # another player would learn from it that a costly option was chosen. The player
        # sees it on their own declaration form, the GM in the declarations panel.
        c = replace(c, damage=max(0, c.damage - strain * state.settings.strain_damage))
        strain = 0
    counters = [
        Counter("wyczerpanie", gettext_noop("Wyczerpanie"), strain),
        Counter("rany", gettext_noop("Rany"), c.wounds),
    ]
    if c.stun:
        counters.append(Counter("ogluszenie", gettext_noop("Obrażenia ogłuszające"), c.stun))
    if state.phase == "act":
        counters.append(Counter("akcje", gettext_noop("Akcje"), actions_taken(c), action_cap(c)))
    badges = [cond.badge(k, _rounds_left(state, v)) for k, v in c.conditions.items()]
    if state.phase in ("initiative", "act"):
        badges += [Badge(k, opt.label(k)) for k in c.options]
    if c.holding:
        badges.append(Badge("powstrzymuje", gettext_noop("Powstrzymuje"), c.holding))
    if c.delayed or c.delay_next:
        badges.append(Badge("opoznia", gettext_noop("Opóźnia")))
    badges += [Badge("uszkodzony", gettext_noop("Uszkodzony:"), item) for item in c.damaged_items]
    ready = True
    if state.phase == "declare":
        ready = c.declared or not must_declare(state, c)
    elif state.phase == "initiative":
        ready = c.initiative is not None or not must_roll(state, c)
    return SeatView(
        id=c.id,
        name=c.name,
        side=c.side,
        controller=c.controller,
        hidden=c.hidden,
        revealed=c.revealed,
        current=state.current == c.id,
        initiative=c.initiative,
        health=health(c),
        counters=tuple(counters),
        badges=tuple(badges),
        ready=ready,
        removable=frozenset(c.conditions),
        position=field_of(c) if state.battlemap is not None else None,
    )


def _rounds_left(state: EncounterState, until: int) -> int:
    return max(0, until - state.round + 1) if until else 0


# --- legality ---------------------------------------------------------------------------------


def legal(state: EncounterState, key: str, label: str, command: Command) -> LegalAction:
    """Whether the rules would take `command` now (probed with dice that are thrown away)."""
    refused = engine.refusal(state, command)
    if refused is not None:
        return LegalAction(
            key, label, False, refused.message, label_template=label,
            reason_template=refused.template, reason_params=Fields(refused.params),
        )  # fmt: skip
    return LegalAction(key, label, True, label_template=label, reason_params=Fields())


def _offer(
    state: EncounterState, found: list[LegalAction], commands: dict[str, Any], key: str,
    label: str, command: Command,
) -> None:  # fmt: skip
    found.append(legal(state, key, label, command))
    commands[key] = command_to_dict(command)


# --- the panels' records ----------------------------------------------------------------------
# Each panel is a frozen record of plain values: all its partial reads of the fight, so the
# live table compares it by value and a change to the state that does not concern it leaves it
# equal (and its region unrendered).

Parts = tuple[tuple[str, Fields], ...]  # a declaration's (msgid, params) parts


@dataclass(frozen=True, slots=True)
class Ref:
    """A combatant as a panel names it."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Target:
    """A combatant a form may aim at; its side sorts it among foes or allies."""

    id: str
    name: str
    side: str


@dataclass(frozen=True, slots=True)
class AttackChoice:
    """The "atak:<target>:<means>" action: whether it is legal against its own target."""

    key: str
    target: Target
    weapon: str
    spell: str
    legal: LegalAction


@dataclass(frozen=True, slots=True)
class Charge:
    """The "szarza:<target>:<weapon>" action of a rider: any metres from `min_m` to `max_m`."""

    key: str
    target: Target
    weapon: str
    min_m: int
    max_m: int


@dataclass(frozen=True, slots=True)
class TargetItem:
    """An item an aimed attack may damage (`Attack.damage_item`)."""

    name: str
    kind: str  # bron | tarcza | zbroja
    magic: bool
    damaged: bool


@dataclass(frozen=True, slots=True)
class Preset:
    """A seed sustained action (`sustained.PRESETS`) of `low`..`high` rounds."""

    key: str
    label: str
    low: int
    high: int


@dataclass(frozen=True, slots=True)
class Recovery:
    """The recovery clock (`recovery_info`)."""

    tests_left: int
    allowed: bool
    reason: str  # a msgid, "" when allowed
    next_at: float | None  # game seconds; None: not by waiting
    must_test: bool
    unconscious_since: float | None
    now: float  # the game clock


@dataclass(frozen=True, slots=True)
class Check:
    """A sustained action's end-of-round test."""

    skill: str
    dn: int


@dataclass(frozen=True, slots=True)
class Sustained:
    """A sustained action under way (`state.Sustained`) and this round's test result."""

    note: str
    label: str
    preset: str
    rounds: int
    progress: int
    elapsed: int
    test: Check | None
    failure_stalls: bool
    result: bool | None


@dataclass(frozen=True, slots=True)
class SurpriseSide:
    """One side's Test zaskoczenia: its members, whom it meets (the sneakers' choice), the
    DN's usual base (the lowest Zręczność step met), brooch wearers' ids."""

    members: tuple[Ref, ...]
    met: tuple[Ref, ...]
    base: int | None
    brooches: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Surprise:
    """The GM's surprise forms: per side (`SurpriseSide`), the conditions' choices with their
    DN modifiers, and the sides already tested."""

    sides: Fields  # side -> SurpriseSide
    darkness: tuple[tuple[str, str, int], ...]  # (key, label, DN modifier)
    rain: tuple[tuple[str, str, int], ...]
    dusk: int
    camouflage: int
    tested: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TurnPanel:
    """One seat's part of the round: its declaration form (declare phase), its Initiative test,
    its actions and their forms in its turn (act phase)."""

    stage: str
    phase: str
    actor: Ref
    declared: Parts
    targets: tuple[Target, ...]  # the others the viewer sees, not dead
    weapons: tuple[str, ...]
    spells: tuple[str, ...]
    actions: tuple[LegalAction, ...]
    commands: Fields  # action key -> command dict
    # the declaration phase
    options: tuple[LegalAction, ...] = ()
    action_kinds: tuple[tuple[str, str], ...] = ()
    current: Fields | None = None  # the declaration so far
    strain: Fields = Fields()  # option -> Strain
    paid: tuple[str, ...] = ()
    sustained_presets: tuple[Preset, ...] = ()
    deadline: float | None = None  # when the declarations are revealed
    # the act phase
    attacks: tuple[AttackChoice, ...] = ()
    attack_target: str = ""
    target_items: Fields = Fields()  # target id -> tuple[TargetItem, ...]
    charges: tuple[Charge, ...] = ()
    mount: Ref | None = None
    mounts: Fields = Fields()  # id -> name of each mount a "dosiadz:<id>" offers


@dataclass(frozen=True, slots=True)
class SeatPanel:
    """A player's own card outside its turn."""

    stage: str
    phase: str
    declared: Parts
    actions: tuple[LegalAction, ...]
    commands: Fields
    initiative_step: int
    movement_rate: int
    sprint_m: int
    recovery: Recovery
    mount: Ref | None
    rider: Ref | None
    mounts: Fields = Fields()  # id -> name of each mount a "dosiadz:<id>" offers


@dataclass(frozen=True, slots=True)
class GMPanel:
    """The GM's round controls, the declarations only the GM sees before the reveal, the
    surprise tests and the game clock."""

    stage: str
    phase: str
    actions: tuple[LegalAction, ...]
    commands: Fields
    waiting: tuple[str, ...]
    sides: tuple[str, ...]
    by_side: tuple[tuple[str, tuple[str, ...]], ...]  # (side, its seats' ids in turn order)
    declarations: tuple[tuple[str, str, Parts], ...]  # (id, name, parts) in turn order
    clock: float
    surprise: Surprise


@dataclass(frozen=True, slots=True)
class GMSeatPanel:
    """The GM's controls of one seat: health, conditions, its declaration, its sustained
    action, mount and rider, recovery offers."""

    id: str
    stage: str
    phase: str
    damage: int
    stun: int
    wounds: int
    conditions: Fields  # key -> the round it lasts until (0: until removed)
    condition_choices: tuple[tuple[str, str], ...]
    declared: Parts
    sustained: Sustained | None
    recovery: Recovery
    mount: Ref | None
    rider: Ref | None
    actions: tuple[LegalAction, ...]
    commands: Fields


SUSTAINED_PRESETS = tuple(Preset(p.key, p.label, p.low, p.high) for p in sus.PRESETS)
ACTION_KIND_CHOICES = tuple((k, ACTION_LABELS[k]) for k in ACTION_KINDS)
CONDITION_CHOICES = tuple((k, spec.label) for k, spec in cond.SPECS.items())


# --- the panels -------------------------------------------------------------------------------


def turn_panel(state: EncounterState, actor_id: str, visible: frozenset[str]) -> TurnPanel:
    me = state.get(actor_id)
    targets = tuple(
        Target(c.id, c.name, c.side)
        for c in state.combatants.values()
        if c.id in visible and c.id != me.id and not c.dead
    )
    actions: list[LegalAction] = []
    commands: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    if state.phase == "declare":
        _offer(state, actions, commands, "declare", gettext_noop("Deklaruj"), Declare(actor=me.id))
        extra = {
            "options": tuple(_option(state, me, key) for key in opt.DECLARABLE),
            "action_kinds": ACTION_KIND_CHOICES,
            "current": frozen(to_data(me.declaration)) if me.declaration else None,
            "strain": Fields({k: opt.strain(k, state.settings) for k in opt.DECLARABLE}),
            "paid": tuple(me.paid),
            "sustained_presets": SUSTAINED_PRESETS,
            "deadline": state.deadline,
        }
    elif state.phase == "initiative":
        label = gettext_noop("Rzuć na Inicjatywę")
        _offer(state, actions, commands, "inicjatywa", label, RollInitiative(actor=me.id))
    elif state.phase == "act":
        extra = _act_actions(state, me, targets, actions, commands)
    return TurnPanel(
        stage=state.stage,
        phase=state.phase,
        actor=_ref(me),
        declared=_declared(state, me),
        targets=targets,
        weapons=tuple(w.name for w in me.sheet.weapons),
        spells=tuple(s.name for s in me.sheet.spells),
        actions=tuple(actions),
        commands=Fields(commands),
        **extra,
    )


def _option(state: EncounterState, me: Combatant, key: str) -> LegalAction:
    label = opt.label(key)
    if me.knocked_down:
        reason = gettext_noop("Powalona postać nie może używać opcji walki.")
        return LegalAction(
            key, label, False, reason, label_template=label, reason_template=reason,
            reason_params=Fields(),
        )  # fmt: skip
    return LegalAction(key, label, True, label_template=label, reason_params=Fields())


def _act_actions(
    state: EncounterState,
    me: Combatant,
    targets: tuple[Target, ...],
    actions: list[LegalAction],
    commands: dict[str, Any],
) -> dict[str, Any]:
    """The act phase's offers (into `actions`, `commands`) and the turn panel's fields for
    their forms."""
    means = [("", w.name) for w in me.sheet.weapons] + [(s.name, "") for s in me.sheet.spells]
    attacks = []
    for target in targets:
        for spell, weapon in means or [("", "")]:
            key = f"atak:{target.id}:{weapon or spell}"
            attack = Attack(actor=me.id, target=target.id, weapon=weapon, spell=spell)
            _offer(state, actions, commands, key, gettext_noop("Atak"), attack)
            attacks.append(AttackChoice(key, target, weapon, spell, actions[-1]))
    found = {
        "attacks": tuple(attacks),
        "attack_target": _attack_target(state, me, targets),
        "target_items": _target_items(state, me, targets),
        "charges": _charges(state, me, targets, actions, commands),
        "mount": _pair(state, me.mount),
        "mounts": _mounting(state, me, actions, commands),
    }
    left = max(0, movement_limit(state, me) - me.moved)  # Bieg ×2, Sprint on top
    if left:
        _offer(
            state, actions, commands, "ruch", gettext_noop("Ruch"), Move(actor=me.id, metres=left)
        )
    offers: tuple[tuple[str, str, Command], ...] = (
        ("akcja_prosta", gettext_noop("Akcja prosta"), SimpleAction(actor=me.id)),
        ("akcja", gettext_noop("Akcja standardowa (test)"), UseAction(actor=me.id)),
        ("powstanie", opt.label(opt.POWSTANIE), GetUp(actor=me.id)),
        ("powstrzymanie", gettext_noop("Powstrzymanie działania"), Hold(actor=me.id)),
        ("opoznienie", gettext_noop("Opóźnienie"), Delay(actor=me.id)),
        (
            "opoznienie_runda",
            gettext_noop("Opóźnienie do następnej rundy"),
            Delay(actor=me.id, next_round=True),
        ),
        ("koniec_tury", gettext_noop("Koniec tury"), EndTurn(actor=me.id)),
    )
    for key, label, command in offers:
        if isinstance(command, Delay) and me.started:
            continue  # Opóźnienie only before the turn begins: no offer (nor refusal) after
        _offer(state, actions, commands, key, label, command)
    _outside_turn(state, me, actions, commands)
    return found


def _attack_target(state: EncounterState, me: Combatant, targets: tuple[Target, ...]) -> str:
    """The target the attack form starts on: the one declared for this round, else the first
    of another side (the form lists them first), else the first; "" with no target."""
    ids = [t.id for t in targets]
    declared = me.declaration.target if me.declaration else None
    if declared in ids:
        return str(declared)
    others = [t.id for t in targets if t.side != me.side]
    return (others or ids or [""])[0]


def _target_items(state: EncounterState, me: Combatant, targets: tuple[Target, ...]) -> Fields:
    """Uszkodzenie broni, tarczy lub zbroi: per target id, the items an aimed attack (after
    Przycelowanie; none offered otherwise) may pick as `Attack.damage_item`."""
    if me.aim <= 0:
        return Fields()
    out: dict[str, tuple[TargetItem, ...]] = {}
    for t in targets:
        target = state.get(t.id)
        names = [w.name for w in target.sheet.weapons if w.kind != "unarmed"]
        names += [s.name for s in target.sheet.shields[:1]] + [a.name for a in target.sheet.armour]
        items = []
        for name in dict.fromkeys(names):
            found = item_of(target, name)
            if found is not None:
                kind, magic = found
                items.append(TargetItem(name, kind, magic, name in target.damaged_items))
        out[t.id] = tuple(items)
    return Fields(out)


def _declared(state: EncounterState, c: Combatant) -> Parts:
    """The declaration's summary as (msgid, params) parts (`narrate.declaration_parts`); ()
    without one."""
    return _parts(declaration_parts(state, c.declaration)) if c.declaration else ()


def _parts(parts: tuple[Part, ...]) -> Parts:
    return tuple((msgid, Fields(params)) for msgid, params in parts)


def _ref(c: Combatant) -> Ref:
    return Ref(c.id, c.name)


def _pair(state: EncounterState, cid: str | None) -> Ref | None:
    c = state.combatants.get(cid or "")
    return _ref(c) if c is not None else None


def _charges(
    state: EncounterState,
    me: Combatant,
    targets: tuple[Target, ...],
    actions: list[LegalAction],
    commands: dict[str, Any],
) -> tuple[Charge, ...]:
    """A rider's Szarża at each target with each close-combat weapon: the command asks the
    mount's combat speed (the least a charge covers); `min_m`/`max_m` bound the distance."""
    steed = state.combatants.get(me.mount or "")
    if steed is None:
        return ()
    low, high = mounted.combat_speed(steed.sheet), mounted.full_speed(steed.sheet)
    found = []
    for target in targets:
        if target.id == steed.id:
            continue
        for w in me.sheet.weapons:
            if w.kind != "melee":
                continue
            key = f"szarza:{target.id}:{w.name}"
            attack = Attack(actor=me.id, target=target.id, weapon=w.name, charge_m=low)
            _offer(state, actions, commands, key, gettext_noop("Szarża"), attack)
            found.append(Charge(key, target, w.name, low, high))
    return tuple(found)


def _mounting(
    state: EncounterState, me: Combatant, actions: list[LegalAction], commands: dict[str, Any]
) -> Fields:
    """Dismount when riding; else mount any free living ally saddled as a mount ("dosiadz:<id>",
    `Sheet.is_mount`): a fellow hero is never offered (`riding.mount_up` refuses it). Returns
    the names of the mounts offered, by id."""
    if me.mount is not None:
        label = gettext_noop("Zsiądź")
        _offer(state, actions, commands, "zsiadz", label, Dismount(actor=me.id))
        return Fields()
    if me.rider is not None:
        return Fields()
    names = {}
    for c in state.combatants.values():
        free = c.rider is None and c.mount is None and not c.out
        if c.side == me.side and c.id != me.id and free and c.sheet.is_mount:
            key, command = f"dosiadz:{c.id}", MountUp(actor=me.id, mount=c.id)
            _offer(state, actions, commands, key, gettext_noop("Dosiądź"), command)
            names[c.id] = c.name
    return Fields(names)


def recovery_info(state: EncounterState, c: Combatant) -> Recovery:
    """The recovery clock as the card shows it: tests left, whether a test is allowed now and
    why (a msgid), when it will be (game seconds, None: not by waiting), must-test."""
    allowed, reason = healing.availability(state, c)
    return Recovery(
        tests_left=c.recovery.tests_left,
        allowed=allowed,
        reason=reason,
        next_at=healing.next_at(state, c),
        must_test=c.recovery.must_test,
        unconscious_since=c.recovery.unconscious_since,
        now=state.time_s,
    )


def _recovery_offers(
    state: EncounterState, c: Combatant, actions: list[LegalAction], commands: dict[str, Any]
) -> None:
    """Test zdrowienia (damage; stun when it has stun damage), reviving an unconscious one,
    healing a Wound after a night's rest. During a fight only an unconscious one may test."""
    if c.dead or (state.stage == "running" and not c.unconscious):
        return
    if c.damage:
        label = gettext_noop("Test zdrowienia")
        _offer(state, actions, commands, "test_zdrowienia", label, RecoveryTest(actor=c.id))
    if c.stun:
        label = gettext_noop("Test zdrowienia (ogłuszenie)")
        command = RecoveryTest(actor=c.id, heals="stun")
        _offer(state, actions, commands, "test_zdrowienia_ogluszenie", label, command)
    if c.unconscious:
        command = RecoveryTest(actor=c.id, revived=True)
        _offer(state, actions, commands, "ocucenie", gettext_noop("Ocucenie"), command)
    if c.wounds and state.stage != "running":
        label = gettext_noop("Leczenie Rany")
        _offer(state, actions, commands, "leczenie_rany", label, HealWound(actor=c.id))


def _outside_turn(
    state: EncounterState, me: Combatant, actions: list[LegalAction], commands: dict[str, Any]
) -> None:
    if me.holding:
        label = gettext_noop("Działaj teraz (powstrzymane)")
        _offer(state, actions, commands, "przerwij", label, Interrupt(actor=me.id))
    if me.delayed:
        label = gettext_noop("Wejdź teraz (opóźnione)")
        _offer(state, actions, commands, "wejdz", label, StepIn(actor=me.id))


def seat_panel(state: EncounterState, seat_id: str, visible: frozenset[str]) -> SeatPanel:
    me = state.get(seat_id)
    actions: list[LegalAction] = []
    commands: dict[str, Any] = {}
    mounts = Fields()
    if state.phase == "initiative" and must_roll(state, me) and me.initiative is None:
        label = gettext_noop("Rzuć na Inicjatywę")
        _offer(state, actions, commands, "inicjatywa", label, RollInitiative(actor=me.id))
    if state.phase == "act" and state.current != me.id:
        _outside_turn(state, me, actions, commands)
    if state.stage == "setup":
        mounts = _mounting(state, me, actions, commands)
    _recovery_offers(state, me, actions, commands)
    return SeatPanel(
        stage=state.stage,
        phase=state.phase,
        declared=_declared(state, me),
        actions=tuple(actions),
        commands=Fields(commands),
        initiative_step=me.sheet.initiative_step,
        movement_rate=me.movement_rate,
        sprint_m=sprint_bonus(state, me),
        recovery=recovery_info(state, me),
        mount=_pair(state, me.mount),
        rider=_pair(state, me.rider),
        mounts=mounts,
    )


def gm_panel(state: EncounterState) -> GMPanel:
    actions: list[LegalAction] = []
    commands: dict[str, Any] = {}
    _offer(state, actions, commands, "start", gettext_noop("Rozpocznij walkę"), StartCombat())
    advance = {
        "declare": gettext_noop("Odkryj deklaracje"),
        "initiative": gettext_noop("Rzuć brakujące Inicjatywy"),
        "act": gettext_noop("Zakończ rundę"),
    }.get(state.phase, gettext_noop("Dalej"))
    _offer(state, actions, commands, "dalej", advance, Advance())
    if state.phase == "initiative":
        label = gettext_noop("Rzuć Inicjatywę BN")
        _offer(state, actions, commands, "inicjatywa_bn", label, RollInitiatives())
    _offer(state, actions, commands, "koniec", gettext_noop("Zakończ walkę"), EndCombat())
    side_names = sorted({c.side for c in state.combatants.values()})
    if state.stage == "setup":
        for side in side_names:
            label = gettext_noop("Test zaskoczenia: %(side)s")
            test = SurpriseTest(side=side)
            _offer(state, actions, commands, f"zaskoczenie:{side}", label, test)
    for key, label, command in TIME_OFFERS:
        _offer(state, actions, commands, key, label, command)
    order = [state.get(cid) for cid in seat_order(state)]
    return GMPanel(
        stage=state.stage,
        phase=state.phase,
        actions=tuple(actions),
        commands=Fields(commands),
        waiting=_waiting(state),
        sides=tuple(side_names),
        by_side=tuple((s, tuple(c.id for c in order if c.side == s)) for s in side_names),
        declarations=tuple(
            (c.id, c.name, _parts(declaration_parts(state, c.declaration)))
            for c in order
            if c.declaration is not None
        ),
        clock=state.time_s,
        surprise=_surprise_panel(state, side_names),
    )


TIME_OFFERS: tuple[tuple[str, str, Command], ...] = (
    ("czas_minuta", gettext_noop("Mija minuta"), PassTime(seconds=healing.MINUTE)),
    ("czas_godzina", gettext_noop("Mija godzina"), PassTime(seconds=healing.HOUR)),
    ("czas_noc", gettext_noop("Całonocny odpoczynek"), PassTime(night=True)),
)


def _surprise_panel(state: EncounterState, side_names: list[str]) -> Surprise:
    """What the GM's surprise form needs: per side its members, those it meets (the sneakers'
    choice), the DN's usual base (the lowest Zręczność step met), brooch wearers; the
    conditions' choices with their DN modifiers; the sides already tested."""
    settings = state.settings
    per_side = {}
    for side in side_names:
        watchers, met = sides(state, side)
        per_side[side] = SurpriseSide(
            members=tuple(_ref(c) for c in watchers),
            met=tuple(_ref(c) for c in met),
            base=min((c.dexterity for c in met), default=None),
            brooches=tuple(c.id for c in watchers if c.sheet.has_item("brosza_ostrzezenia")),
        )
    return Surprise(
        sides=Fields(per_side),
        darkness=tuple(
            (key, label, ([0, *settings.surprise_darkness])[i])
            for i, (key, label) in enumerate(surprise.DARKNESS)
        ),
        rain=tuple(
            (key, label, ([0, *settings.surprise_rain])[i])
            for i, (key, label) in enumerate(surprise.RAIN)
        ),
        dusk=settings.surprise_dusk,
        camouflage=settings.surprise_camouflage,
        tested=tuple(state.surprise_sides),
    )


def _sustained_view(c: Combatant) -> Sustained | None:
    s = c.sustained
    if s is None:
        return None
    return Sustained(
        note=s.label,
        label=s.label,
        preset=s.preset,
        rounds=s.rounds,
        progress=s.progress,
        elapsed=s.elapsed,
        test=None if s.test is None else Check(s.test.skill, s.test.dn),
        failure_stalls=s.failure_stalls,
        result=c.sustained_result,
    )


def gm_seat_panel(state: EncounterState, seat_id: str) -> GMSeatPanel:
    c = state.get(seat_id)
    actions: list[LegalAction] = []
    commands: dict[str, Any] = {}
    if state.phase == "initiative" and must_roll(state, c) and c.initiative is None:
        label = gettext_noop("Rzuć na Inicjatywę")
        roll = RollInitiatives(targets=(c.id,))
        _offer(state, actions, commands, "inicjatywa_mg", label, roll)
    _recovery_offers(state, c, actions, commands)
    return GMSeatPanel(
        id=c.id,
        stage=state.stage,
        phase=state.phase,
        damage=c.damage,
        stun=c.stun,
        wounds=c.wounds,
        conditions=Fields(c.conditions),
        condition_choices=CONDITION_CHOICES,
        declared=_declared(state, c),
        sustained=_sustained_view(c),
        recovery=recovery_info(state, c),
        mount=_pair(state, c.mount),
        rider=_pair(state, c.rider),
        actions=tuple(actions),
        commands=Fields(
            {
                **commands,
                "edit_health": {"type": "edit_health", "actor": GM, "target": c.id},
                "add_condition": {"type": "add_condition", "actor": GM, "target": c.id},
                "remove_condition": {"type": "remove_condition", "actor": GM, "target": c.id},
                "sustained_test": {"type": "sustained_test", "actor": GM, "target": c.id},
                "sustained_check": {"type": "sustained_check", "actor": GM, "target": c.id},
                "mount": {"type": "mount", "actor": c.id},
                "dismount": {"type": "dismount", "actor": c.id},
            }
        ),
    )
