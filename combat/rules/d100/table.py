"""d100 at the live table: the neutral `TableView` and the plain-dict panels its partials
(templates/combat/rulesets/d100/) render, saying what is legal now (each offer probed with
`engine.refusal`) with a ready command dict (`codec.command_to_dict`) for every button.

Panels (every key documented here; `LegalAction`s carry msgid, params and the reason of a
refusal; a "choice" is {key, label, hit, damage, available, reason, reason_template,
reason_params}: an attack choice of the sheet with its Trafienie and Obrażenia thresholds now):

- `turn_panel(state, actor, visible)`: {"stage", "pace", "turn", "actor" {id, name, side},
  "targets" [{id, name, side}] (visible combatants still fighting, not the actor),
  "enemies" (those of them the actor may attack), "choices" [choice], "spells" [{index,
  name, kind, kind_label, hit, damage, targets [{id, name}] (whom it may be cast at; [] for a
  summoning), self_target (a positive spell: None is oneself)}], "defences" [{key, label,
  threshold}] (the reactions it has now), "actions" [LegalAction], "commands" {key: command
  dict}}. Live, in its turn, actions "atak", "czar" (the first spell it may cast now, with
  its first target), "odpoczynek", "przemiana", "akcja_pelna", "ruch", "przeladowanie",
  "zmiana_broni", "akcja_darmowa", "koniec_tury", and "castable" (whether "czar" is
  available: the cast form shows even when no enemy is left to attack).
  By post also "post": {"mine" (its post: {what ((msgid, params) parts), action (dict),
  defence, defence_label, text, by_gm, at}, or None), "closed", "deadline", "remind_at",
  "text_max", "action_options" [{value (the Action as a dict), json (the same as JSON, the
  value of a data-json option), label_template, label_params, group ("other", "attack",
  "cast"), selected}], "defence_options" [{key, label_template, label_params, selected}]},
  and the actions "wpis" (a player's Post) and "wpis_mg" (the GM's, allowed after the
  deadline), their commands the Post without action (the form adds c.action, c.defence,
  c.text).
- `seat_panel(state, seat, visible)`: a player's own card: {"thresholds" [choice], "defences",
  "armour" (percent), "injury_penalty", "resting", "transformed", "post" (its post in an open
  by-post turn, as "mine"), "pace", "deadline", "closed" (the by-post turn's deadline passed:
  posting is closed until the GM resolves it)}.
- `gm_panel(state)`: {"stage", "pace", "turn", "sides", "actions", "commands", "paces"
  [(key, label)], "start_fields" (the optional fields StartCombat takes: "pace", "deadline"),
  "posts" [{id, name, posted, post (as "mine", or None), panel (once posting closed: the
  seat's turn panel, for the GM's post for it; else None)}] (by post: every seat of the turn,
  `post_seats`), "waiting" (ids), "closed", "deadline", "extend" [{hours, deadline}] (the
  deadline moved on by that many hours), "from_now" [hours] (a deadline that many hours from
  the server's clock: the command's `hours`), "post_turn_hours", "attributes" [(key, label)],
  "combatants" [{id, name}]}; actions "start", "tempo_live", "tempo_post", "rozstrzygnij",
  "termin", "termin_od_teraz", "rzut_mg", "koniec".
- `gm_seat_panel(state, seat)`: {"id", "name", "pz", "max_pz", "injuries", "status",
  "fallen" (waiting for DecideFallen), "conditions" [{key, label}] (removable),
  "condition_choices" [(key, label)], "grounds" [(key, label)], "acrobatics" (its skill),
  "heavy_armour", "max_height" (Akrobatyka's), "position" (index in the order), "can_block",
  "actions", "commands"}; actions "obrazenia", "leczenie", "stan", "upadek", "martwy",
  "nieprzytomny", "wyzej", "nizej", "koniec_tury"; commands also "remove_condition" (add
  c.condition).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

from combat.rules.base import (
    Badge,
    Counter,
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
    can_block,
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
    return LegalAction(key, label, True, label_template=label)


def refused_action(key: str, label: str, refused: RuleViolation) -> LegalAction:
    return LegalAction(
        key, label, False, refused.message, label_template=label,
        reason_template=refused.template, reason_params=refused.params,
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

    def panel(self, **extra: Any) -> dict[str, Any]:
        return {**extra, "actions": self.actions, "commands": self.commands}


# --- what a combatant can do ------------------------------------------------------------------


def _pair(c: Combatant) -> dict[str, str]:
    return {"id": c.id, "name": c.name, "side": c.side}


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


def attack_choices(state: EncounterState, c: Combatant) -> list[dict[str, Any]]:
    """Every attack the sheet makes (weapons, pairs, claws, bare hands) with its thresholds
    now; those Rozbrojenie (or the shield) stops are unavailable, with the reason."""
    found = []
    for key in _choice_keys(c):
        profile = _profile(state, c, key)
        if profile is None or profile.style == "magic":
            continue
        hit, damage = _thresholds(state, c, profile)
        entry: dict[str, Any] = {
            "key": key, "label": profile.label, "hit": hit, "damage": damage, "available": True,
            "reason": "", "reason_template": "", "reason_params": {},
            "close": profile.style in CLOSE_COMBAT,
        }  # fmt: skip
        try:
            require_hands(state, c, profile)
        except RuleViolation as refused:
            entry.update(
                available=False, reason=refused.message, reason_template=refused.template,
                reason_params=refused.params,
            )  # fmt: skip
        found.append(entry)
    return found


def spell_choices(
    state: EncounterState, c: Combatant, visible: frozenset[str]
) -> list[dict[str, Any]]:
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
            whom = [_pair(t) for t in enemies(state, c, visible)]
        elif kind == "negative":
            whom = [_pair(t) for t in seen]
        elif kind == "positive":
            whom = [_pair(c), *(_pair(t) for t in seen)]
        else:
            whom = []
        found.append(
            {
                "index": index, "name": str(spell.get("name", "")), "kind": kind,
                "kind_label": SPELL_KIND_LABELS.get(kind, kind), "hit": hit, "damage": damage,
                "targets": whom, "self_target": kind == "positive",
            }
        )  # fmt: skip
    return found


def defences(state: EncounterState, c: Combatant) -> list[dict[str, Any]]:
    """The reactions `c` has now against a weapon, with their thresholds."""
    found = []
    for key in reactions(state, c):
        test = defence_spec(state, c, key)
        assert test is not None
        label = POST_DEFENCES[key]
        found.append({"key": key, "label": label, "threshold": test.threshold(state)})
    return found


# --- the turn panel ---------------------------------------------------------------------------


def turn_panel(state: EncounterState, actor_id: str, visible: frozenset[str]) -> dict[str, Any]:
    me = state.get(actor_id)
    offers = Offers(state)
    panel: dict[str, Any] = {
        "stage": state.stage,
        "pace": state.pace,
        "turn": state.turn,
        "actor": _pair(me),
        "targets": [_pair(t) for t in targets(state, me, visible)],
        "enemies": [_reach(state, me, t) for t in enemies(state, me, visible)],
        "choices": attack_choices(state, me),
        "spells": spell_choices(state, me, visible),
        "defences": defences(state, me),
        "castable": False,
    }
    # A weapon that reaches past the next field (thrown, ranged): far enemies stay targets.
    panel["reaches_far"] = any(c["available"] and not c["close"] for c in panel["choices"])
    if state.stage == "running" and state.pace == "live":
        _live_offers(state, me, panel, offers)
    elif state.stage == "running":
        panel["post"] = _post_panel(state, me, panel, offers, visible)
    return offers.panel(**panel)


def _reach(state: EncounterState, me: Combatant, target: Combatant) -> dict[str, Any]:
    """An enemy as the attack form lists it; beyond close-combat reach on the map, with the
    reason (`reach_template`/`reach_params`) its close-combat choices are refused for."""
    pair: dict[str, Any] = _pair(target)
    refused = reach_refusal(state, me, target)
    if refused is not None:
        pair.update(reach_template=refused.template, reach_params=refused.params)
    return pair


def _live_offers(
    state: EncounterState, me: Combatant, panel: dict[str, Any], offers: Offers
) -> None:
    """The live turn's full actions, free actions and its end (each probed)."""
    _attack_offer(state, me, panel, offers)
    if me.spells:
        casts = [
            Cast(
                actor=me.id,
                spell=s["index"],
                target=s["targets"][0]["id"] if s["targets"] else None,
            )
            for s in panel["spells"]
        ]
        castable = next((c for c in casts if engine.refusal(state, c) is None), casts[0])
        panel["castable"] = offers.offer("czar", gettext_noop("Czar"), castable).available
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


def _attack_offer(
    state: EncounterState, me: Combatant, panel: dict[str, Any], offers: Offers
) -> None:
    """Atak on the first enemy and means the rules take now (a far enemy's close-combat
    attack is refused, a nearer one's or a bow's may not be); refused with the first
    enemy's reason when none is taken."""
    pairs = [
        Attack(actor=me.id, target=t["id"], choice=c["key"])
        for t in panel["enemies"]
        for c in panel["choices"]
        if c["available"]
    ]
    if not pairs:
        first = panel["enemies"][0]["id"] if panel["enemies"] else ""
        pairs = [Attack(actor=me.id, target=first)]
    taken = next((a for a in pairs if engine.refusal(state, a) is None), None)
    if taken is not None:
        offers.offer("atak", gettext_noop("Atak"), taken)
    elif not panel["enemies"]:
        refused = RuleViolation("brak_celu", gettext_noop("Nie ma kogo zaatakować."))
        offers.refuse("atak", gettext_noop("Atak"), refused, pairs[0])
    else:
        offers.offer("atak", gettext_noop("Atak"), pairs[0])


UNSEEN = "?"  # a posted action's target its viewer may not see (the GM's post at a hidden one)


def post_view(
    state: EncounterState, cid: str, visible: frozenset[str] | None = None
) -> dict[str, Any] | None:
    """A seat's post of the open by-post turn as its panel shows it back, or None; a target
    outside `visible` (the GM posted at a hidden one) is shown as "?"."""
    post = state.posts.get(cid)
    if post is None:
        return None
    action = post.action
    if visible is not None and action.target and action.target not in visible:
        action = dataclasses.replace(action, target=UNSEEN)
    return {
        "what": action_parts(state, cid, action),
        "action": dataclasses.asdict(action),
        "defence": post.defence,
        "defence_label": POST_DEFENCES.get(post.defence, post.defence),
        "text": post.text,
        "by_gm": post.by_gm,
        "at": post.at,
    }


def _action_value(action: Action) -> dict[str, Any]:
    return dataclasses.asdict(action)


def action_options(
    state: EncounterState, me: Combatant, panel: dict[str, Any]
) -> list[dict[str, Any]]:
    """Every structured action the post may carry, as a select's options (the Action dict)."""
    options: list[dict[str, Any]] = []

    def add(action: Action, group: str, label: str, **params: Any) -> None:
        value = _action_value(action)
        options.append(
            {"value": value, "json": json.dumps(value, ensure_ascii=False), "group": group,
             "label_template": label, "label_params": params}
        )  # fmt: skip

    add(Action("none"), "other", gettext_noop("bez akcji pełnej (tylko obrona i opis)"))
    add(Action("rest"), "other", gettext_noop("Odpoczynek (test Ogłady na koniec tury)"))
    if me.transformation:
        add(Action("transform"), "other", gettext_noop("Przemiana"))
    add(Action("full"), "other", gettext_noop("inna akcja pełna (opisz we wpisie)"))
    attack = gettext_noop("atak → %(target)s: %(means)s (Trafienie %(hit)s, Obrażenia %(damage)s)")
    for target in panel["enemies"]:
        for choice in panel["choices"]:
            if not choice["available"]:
                continue
            action = Action("attack", target=target["id"], choice=choice["key"])
            if choice["close"] and target.get("reach_template"):
                add(
                    action,
                    "attack",
                    _FAR,
                    means=text_param(choice["label"]),
                    **target["reach_params"],
                )
                options[-1]["disabled"] = True
                continue
            add(
                action, "attack", attack, target=target["name"], means=text_param(choice["label"]),
                hit=choice["hit"], damage=choice["damage"],
            )  # fmt: skip
    at = gettext_noop("czar %(spell)s → %(target)s (Trafienie %(hit)s, drugi rzut %(damage)s)")
    plain = gettext_noop("czar %(spell)s (Trafienie %(hit)s, drugi rzut %(damage)s)")
    for spell in panel["spells"]:
        numbers = {"spell": spell["name"], "hit": spell["hit"], "damage": spell["damage"]}
        if spell["kind"] == "summon":  # the others need a target: none seen, none offered
            add(Action("cast", spell=spell["index"]), "cast", plain, **numbers)
        for target in spell["targets"]:
            action = Action("cast", target=target["id"], spell=spell["index"])
            add(action, "cast", at, target=target["name"], **numbers)
    mine = state.posts.get(me.id)
    current = _action_value(mine.action) if mine else _action_value(Action("none"))
    for option in options:
        option["selected"] = option["value"] == current
    return options


_FAR = gettext_noop("atak: %(means)s — %(name)s jest poza zasięgiem walki wręcz: %(n)s m.")


def defence_options(
    state: EncounterState, me: Combatant, panel: dict[str, Any]
) -> list[dict[str, Any]]:
    """The defences the post may name: the best, each reaction it has now, none."""
    mine = state.posts.get(me.id)
    chosen = mine.defence if mine else "best"
    found: list[dict[str, Any]] = [
        {"key": "best", "label_template": gettext_noop("najlepsza obrona"), "label_params": {}}
    ]
    for d in panel["defences"]:
        found.append(
            {
                "key": d["key"],
                "label_template": gettext_noop("%(defence)s (próg %(threshold)s)"),
                "label_params": {"defence": text_param(d["label"]), "threshold": d["threshold"]},
            }
        )
    found.append({"key": "", "label_template": gettext_noop("bez obrony"), "label_params": {}})
    for option in found:
        option["selected"] = option["key"] == chosen
    return found


def _post_panel(
    state: EncounterState,
    me: Combatant,
    panel: dict[str, Any],
    offers: Offers,
    visible: frozenset[str],
) -> dict[str, Any]:
    mine = state.posts.get(me.id)
    label = gettext_noop("Zmień wpis") if mine else gettext_noop("Wyślij wpis")
    offers.offer("wpis", label, Post(actor=me.id))
    offers.offer("wpis_mg", label, Post(actor=me.id, by_gm=True))
    return {
        "mine": post_view(state, me.id, visible),
        "closed": state.closed,
        "deadline": state.deadline,
        "remind_at": remind_at(state),
        "text_max": MAX_TEXT,
        "action_options": action_options(state, me, panel),
        "defence_options": defence_options(state, me, panel),
    }


def remind_at(state: EncounterState) -> float | None:
    """When the players still awaited get their reminder: post_reminder_hours before the
    deadline (None without a deadline or a reminder)."""
    if state.deadline is None or not state.settings.post_reminder_hours:
        return None
    return state.deadline - state.settings.post_reminder_hours * 3600


# --- a player's own card ----------------------------------------------------------------------


def seat_panel(state: EncounterState, seat_id: str, visible: frozenset[str]) -> dict[str, Any]:
    me = state.get(seat_id)
    open_post = state.stage == "running" and state.pace == "post"
    return {
        "thresholds": attack_choices(state, me),
        "defences": defences(state, me),
        "armour": armour_reduction(me.sheet, state.settings),
        "injury_penalty": injury_penalty(me.injuries, ignored_injuries(state, me), state.settings),
        "resting": me.resting,
        "transformed": TRANSFORM_LABELS.get(me.transformed, me.transformed),
        "post": post_view(state, me.id, visible) if open_post else None,
        "pace": state.pace,
        "deadline": state.deadline if open_post else None,
        "closed": open_post and state.closed,
    }


# --- the GM -----------------------------------------------------------------------------------


def gm_panel(state: EncounterState) -> dict[str, Any]:
    offers = Offers(state)
    offers.offer("start", gettext_noop("Rozpocznij walkę"), StartCombat())
    offers.offer("tempo_live", gettext_noop("Tempo: na żywo"), SetPace(pace="live"))
    offers.offer("tempo_post", gettext_noop("Tempo: przez posty"), SetPace(pace="post"))
    post = state.stage == "running" and state.pace == "post"
    extend = []
    if post:
        offers.offer("rozstrzygnij", gettext_noop("Rozstrzygnij turę teraz"), ResolveTurn())
        base = state.deadline or 0.0
        offers.offer("termin", gettext_noop("Przesuń termin"), ExtendDeadline(deadline=base + 3600))
        extend = [{"hours": h, "deadline": base + h * 3600} for h in EXTEND_HOURS]
        offers.offer(
            "termin_od_teraz", gettext_noop("Ustaw termin"), ExtendDeadline(hours=FROM_NOW[0])
        )
    offers.offer("rzut_mg", gettext_noop("Rzuć"), GMRoll())
    offers.offer("koniec", gettext_noop("Zakończ walkę"), EndCombat())
    start_fields = [
        f.name for f in dataclasses.fields(StartCombat) if f.name in ("pace", "deadline")
    ]
    return offers.panel(
        stage=state.stage,
        pace=state.pace,
        turn=state.turn,
        sides=sorted({c.side for c in state.combatants.values()}),
        paces=list(PACE_LABELS.items()),
        start_fields=start_fields,
        posts=_posts(state) if post else [],
        waiting=list(_waiting(state)),
        closed=state.closed,
        deadline=state.deadline if post else None,
        extend=extend,
        from_now=list(FROM_NOW) if post else [],
        post_turn_hours=state.settings.post_turn_hours,
        attributes=list(ATTRIBUTES),
        combatants=[{"id": c.id, "name": c.name} for c in state.combatants.values()],
    )


def post_seats(state: EncounterState) -> list[str]:
    """The seats of the by-post turn, open or closed: in the fight and not done, or posted."""
    return [
        cid
        for cid in order_of(state)
        if cid in state.posts or not (state.get(cid).out or state.get(cid).done)
    ]


def _posts(state: EncounterState) -> list[dict[str, Any]]:
    """Every seat of the by-post turn with its post (the GM reads them all); once posting
    closed, the GM's own post form for each (`panel`: its turn panel), the absent ones'
    first to fill."""
    out = []
    everyone = frozenset(state.combatants)
    for cid in post_seats(state):
        c = state.get(cid)
        view = post_view(state, cid)
        out.append(
            {
                "id": cid, "name": c.name, "posted": view is not None, "post": view,
                "panel": turn_panel(state, cid, everyone) if state.closed else None,
            }
        )  # fmt: skip
    return out


def gm_seat_panel(state: EncounterState, seat_id: str) -> dict[str, Any]:
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
    return offers.panel(
        id=c.id,
        name=c.name,
        pz=c.pz,
        max_pz=c.max_pz,
        injuries=c.injuries,
        status=c.status,
        fallen=c.status == "pokonany",
        conditions=[
            {"key": key, "label": cond.SPECS[key].label if key in cond.SPECS else key}
            for key in sorted(current)
        ],
        condition_choices=[(key, cond.SPECS[key].label) for key in cond.GM_CONDITIONS],
        grounds=list(GROUND_LABELS.items()),
        acrobatics=c.skill("akrobatyka"),
        heavy_armour=c.sheet.get("armour") == "heavy",
        max_height=state.settings.acrobatics_max_height,
        position=at,
        can_block=can_block(c.sheet, state.settings),
    )


__all__ = [
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
