"""Checks and small queries the engine's commands share: who may act, the modifiers of a
test, what a blow does (`harm`), the initiative order."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from combat.rules.base import RNG, Names, RuleViolation, gettext_noop
from combat.rules.d100 import conditions as cond
from combat.rules.d100.check import TestRoll, injury_penalty, roll_test
from combat.rules.d100.equipment import (
    transformation_modifiers,
    transformation_mods,
    weapon_kinds,
)
from combat.rules.d100.events import Harm
from combat.rules.d100.state import Combatant, EncounterState, Status
from combat.rules.vocabulary import combatant

INJURIES = gettext_noop("Urazy")
Modifiers = tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class TestSpec:
    """A test before its roll: what `check.roll_test` takes (the odds use the same)."""

    __test__ = False  # not a pytest class

    label: str
    attribute: str
    base: int
    modifiers: Modifiers = ()

    def roll(self, rng: RNG, state: EncounterState) -> TestRoll:
        return roll_test(
            rng,
            state.settings,
            label=self.label,
            attribute=self.attribute,
            base=self.base,
            modifiers=self.modifiers,
        )

    def threshold(self, state: EncounterState) -> int:
        total = sum(v for _r, v in self.modifiers)
        cap = state.settings.modifier_cap
        return self.base + max(-cap, min(cap, total))


# --- who --------------------------------------------------------------------------------------


def out_refusal(c: Combatant) -> RuleViolation | None:
    if c.dead:
        return RuleViolation("martwy", gettext_noop("%(name)s nie żyje."), name=c.name)
    if c.unconscious:
        return RuleViolation(
            "nieprzytomny", gettext_noop("%(name)s jest nieprzytomny."), name=c.name
        )
    if c.out:
        return RuleViolation("pokonany", gettext_noop("%(name)s jest poza walką."), name=c.name)
    return None


def action_refusal(state: EncounterState, c: Combatant) -> RuleViolation | None:
    """Why `c` may take no action at all now (None: it may): out of the fight, stunned."""
    refusal = out_refusal(c)
    if refusal is None and cond.stunned(c, state.turn):
        refusal = RuleViolation(
            "ogluszony", gettext_noop("%(name)s jest ogłuszony: żadnych akcji."), name=c.name
        )
    return refusal


def require_can_act(state: EncounterState, c: Combatant) -> None:
    refusal = action_refusal(state, c)
    if refusal is not None:
        raise refusal


def require_stage(state: EncounterState, stage: str) -> None:
    if state.stage == stage:
        return
    if state.stage == "ended":
        raise RuleViolation("koniec", gettext_noop("Walka już się skończyła."))
    if state.stage == "setup":
        raise RuleViolation("przed_walka", gettext_noop("Walka jeszcze się nie zaczęła."))
    raise RuleViolation("trwa", gettext_noop("Walka już trwa."))


def require_no_prompt(state: EncounterState) -> None:
    if state.prompts:
        raise RuleViolation(
            "czeka_na_obrone",
            gettext_noop("Najpierw %(name)s musi odpowiedzieć na atak."),
            name=Names.of(state.get(state.prompts[0].actor)),
        )


def require_current(state: EncounterState, me: Combatant) -> None:
    """It is `me`'s turn; else who acts now, as the asking player may see them (`Names`)."""
    if state.current != me.id:
        raise RuleViolation(
            "nie_twoja_tura",
            gettext_noop("Nie twoja tura: teraz działa %(name)s."),
            name=Names.of(state.get(state.current)) if state.current else "–",
            current=state.current or "",
        )


def require_pace(state: EncounterState, pace: str) -> None:
    require_stage(state, "running")
    if state.pace == pace:
        return
    if pace == "live":
        raise RuleViolation(
            "tura_pisana", gettext_noop("Ta tura toczy się w postach: wyślij post z akcją.")
        )
    raise RuleViolation(
        "tura_na_zywo", gettext_noop("Walka toczy się na żywo: posty są tylko w turze pisanej.")
    )


def require_turn(state: EncounterState, actor: str) -> Combatant:
    """Live: the acting combatant, if it is its turn and nothing waits; it may act."""
    require_pace(state, "live")
    me = combatant(state, actor)
    require_current(state, me)
    require_no_prompt(state)
    require_can_act(state, me)
    return me


def require_full(c: Combatant) -> None:
    if c.full_used:
        raise RuleViolation(
            "brak_akcji_pelnej",
            gettext_noop("Brak akcji pełnej: %(name)s wykorzystał(a) już akcję pełną w tej turze."),
            name=c.name,
        )


def require_standing(state: EncounterState, c: Combatant, what: str) -> None:
    """Powalenie allows only attacks and Uniki from the ground."""
    if cond.knocked_down(c, state.turn):
        raise RuleViolation(
            "powalony",
            gettext_noop("%(name)s leży powalony: tylko ataki i Uniki z parteru, nie %(what)s."),
            name=c.name,
            what=what,
        )


# --- tests ------------------------------------------------------------------------------------


def ignored_injuries(state: EncounterState, c: Combatant) -> int:
    """Transformed Wampiry and Wilkołaki ignore `transform_ignored_injuries` Urazy."""
    return state.settings.transform_ignored_injuries if c.transformed else 0


def state_modifiers(
    state: EncounterState, c: Combatant, attribute: str, roll: str, *, spell: bool = False
) -> list[tuple[str, int]]:
    """Everything `c`'s state adds to a test of `attribute` of kind `roll`: the
    transformation, conditions and timed modifiers, the Urazy."""
    out = list(transformation_modifiers(c.transformed, attribute, state.settings))
    out += cond.condition_modifiers(c, state.turn, roll, state.settings, spell=spell)
    penalty = injury_penalty(c.injuries, ignored_injuries(state, c), state.settings)
    if penalty:
        out.append((INJURIES, -penalty))
    return out


def spec(
    state: EncounterState,
    c: Combatant,
    label: str,
    attribute: str,
    roll: str,
    extra: Iterable[tuple[str, int]] = (),
    *,
    spell: bool = False,
    base: int | None = None,
) -> TestSpec:
    """A test of `c`'s `attribute`: the equipment's `extra` modifiers first, then its state's."""
    mods = (*extra, *state_modifiers(state, c, attribute, roll, spell=spell))
    value = c.attribute(attribute) if base is None else base
    return TestSpec(label, attribute, value, tuple(mods))


# --- health -----------------------------------------------------------------------------------


def zero_status(state: EncounterState, c: Combatant) -> Status:
    """Where a combatant at 0 PŻ ends: a PC unconscious; a summon destroyed; an NPC as
    `npc_at_zero` says ("ask": out of the fight until the GM decides)."""
    if c.summon is not None:
        return "martwy"
    if c.controller is not None:
        return "nieprzytomny"
    return {"unconscious": "nieprzytomny", "dead": "martwy"}.get(
        state.settings.npc_at_zero, "pokonany"
    )  # type: ignore[return-value]


def harm(state: EncounterState, c: Combatant, amount: int, injuries: int = 0) -> Harm:
    """What `amount` PŻ (and `injuries` Urazy) do to `c`: it loses at most what it has; the
    blow that takes it to 0 adds one Uraz and puts it out of the fight."""
    lost = max(0, min(amount, c.pz))
    down: Status = ""
    if c.pz > 0 and lost == c.pz and not c.out:
        injuries += 1
        down = zero_status(state, c)
    return Harm(c.id, lost, injuries, down)


# --- order ------------------------------------------------------------------------------------


def agility(state: EncounterState, c: Combatant, attribute: str = "zwinnosc") -> int:
    return c.attribute(attribute) + transformation_mods(c.transformed, state.settings).get(
        attribute, 0
    )


def initiative_order(state: EncounterState) -> tuple[str, ...]:
    """Descending Zwinność (with Przemiana), ties Zmysły, then name; summons right after
    their caster. A GM order (`order_fixed`) is kept, newcomers after it."""
    own = [c for c in state.combatants.values() if c.summon is None]
    if state.order_fixed:
        placed = [cid for cid in state.order if cid in state.combatants]
        ids = placed + sorted(
            (c.id for c in own if c.id not in placed),
            key=lambda cid: _order_key(state, state.get(cid)),
        )
        ids = [cid for cid in ids if state.get(cid).summon is None]
    else:
        ids = [c.id for c in sorted(own, key=lambda c: _order_key(state, c))]
    out: list[str] = []
    for cid in ids:
        out.append(cid)
        out += [s.id for s in state.combatants.values() if s.summon and s.summon.caster == cid]
    out += [s.id for s in state.combatants.values() if s.summon and s.id not in out]
    return tuple(out)


def _order_key(state: EncounterState, c: Combatant) -> tuple[int, int, str, str]:
    return (-agility(state, c), -agility(state, c, "zmysly"), c.name, c.id)


def default_choice(state: EncounterState, c: Combatant) -> str:
    """The active attack choice: the one set, else claws when transformed, else the first
    weapon that is not a focus, else bare hands."""
    if c.weapon:
        return c.weapon
    if c.transformed:
        return "claws"
    kinds = weapon_kinds(state.settings)
    for i, w in enumerate(c.weapons):
        kind = kinds.get(str(w.get("kind")))
        if kind is not None and kind.style != "magic":
            return f"w{i}"
    return "unarmed"


def in_fight(state: EncounterState) -> list[Combatant]:
    return [c for c in state.combatants.values() if not c.out]
