"""Checks and small queries the engine's commands share: who may act, declare, roll, react."""

from __future__ import annotations

from combat.rules.base import Names, RuleViolation, gettext_noop
from combat.rules.magus import conditions as cond
from combat.rules.magus import mounted
from combat.rules.magus import options as opt
from combat.rules.magus.dice import Adjustment
from combat.rules.magus.sheet import DEFENSIVE_TALENTS
from combat.rules.magus.state import GM, Combatant, EncounterState


def combatant(state: EncounterState, combatant_id: str) -> Combatant:
    if combatant_id == GM or combatant_id not in state.combatants:
        raise RuleViolation(
            "postac", gettext_noop("Nie ma takiej postaci: %(id)s."), id=combatant_id
        )
    return state.combatants[combatant_id]


def action_refusal(state: EncounterState, c: Combatant) -> RuleViolation | None:
    """Why `c` may take no action at all now (None: it may): dead, unconscious, stunned,
    surprised in the first round."""
    if c.dead:
        return RuleViolation("martwy", gettext_noop("%(name)s nie żyje."), name=c.name)
    if c.unconscious:
        return RuleViolation(
            "nieprzytomny", gettext_noop("%(name)s jest nieprzytomny."), name=c.name
        )
    if c.has(cond.OGLUSZONY) and state.settings.stunned_no_actions:
        return RuleViolation("ogluszony", gettext_noop("%(name)s jest ogłuszony."), name=c.name)
    if c.has(cond.ZASKOCZONY):
        return RuleViolation(
            "zaskoczony",
            gettext_noop("%(name)s jest zaskoczony: w tej rundzie żadnej akcji."),
            name=c.name,
        )
    return None


def can_act(state: EncounterState, c: Combatant) -> bool:
    return action_refusal(state, c) is None


def require_can_act(state: EncounterState, c: Combatant) -> None:
    refusal = action_refusal(state, c)
    if refusal is not None:
        raise refusal


def must_declare(state: EncounterState, c: Combatant) -> bool:
    """Whether the declaration phase waits for `c` (it may act this round)."""
    return state.stage == "running" and can_act(state, c)


def must_roll(state: EncounterState, c: Combatant) -> bool:
    """Whether `c` makes an Initiative test this round (not one delayed into it, nor a mount
    carrying a rider: it acts on the rider's initiative)."""
    return (
        state.stage == "running"
        and can_act(state, c)
        and not c.delay_next
        and not c.done
        and c.rider is None
    )


def is_player(c: Combatant) -> bool:
    return c.controller is not None


def actions_taken(c: Combatant) -> int:
    """Actions counted by the action cap: the standard one, the simple ones, the movement."""
    return int(c.standard_used) + c.simple_used + (1 if c.moves else 0)


def action_cap(c: Combatant) -> int:
    """All actions of a round are limited by the Zręczność step."""
    return c.dexterity


def require_cap(c: Combatant, more: int = 1) -> None:
    if actions_taken(c) + more > action_cap(c):
        raise RuleViolation(
            "limit_akcji",
            gettext_noop("Limit akcji: %(name)s wykonał już %(done)s z %(cap)s (Zręczność)."),
            name=c.name,
            done=actions_taken(c),
            cap=action_cap(c),
        )


def sprint_bonus(state: EncounterState, c: Combatant) -> int:
    """Sprint (talent): metres per rank on top of the Movement Rate; Bieg does not double them."""
    return state.settings.sprint_metres_per_rank * c.sheet.rank("sprint")


def running(c: Combatant) -> bool:
    """Its movement this round is Bieg: declared, the standard action not spent before it."""
    return opt.BIEG in c.options and not (c.standard_used and not c.moves)


def walking_limit(state: EncounterState, c: Combatant) -> int:
    """The Movement Rate with Sprint: what Ruch dzielony uses up (then Otoczony)."""
    return c.movement_rate + sprint_bonus(state, c)


def movement_limit(state: EncounterState, c: Combatant) -> int:
    """How far `c` may move this round: the Movement Rate (×2 with Bieg) plus Sprint, which
    Bieg does not double; a mount: its full speed, its combat speed when it attacks."""
    if c.rider is not None:
        attacks = c.declaration is not None and c.declaration.action in ("attack", "spell")
        return mounted.mount_move_limit(c.sheet, attacks=attacks)
    return c.movement_rate * (2 if running(c) else 1) + sprint_bonus(state, c)


def require_stage(state: EncounterState, stage: str) -> None:
    if state.stage == stage:
        return
    if state.stage == "ended":
        raise RuleViolation("koniec", gettext_noop("Walka już się skończyła."))
    if state.stage == "setup":
        raise RuleViolation("przed_walka", gettext_noop("Walka jeszcze się nie zaczęła."))
    raise RuleViolation("trwa", gettext_noop("Walka już trwa."))


def require_phase(state: EncounterState, phase: str) -> None:
    require_stage(state, "running")
    if state.phase != phase:
        names = {
            "declare": gettext_noop("deklaracje"),
            "initiative": gettext_noop("inicjatywa"),
            "act": gettext_noop("działania"),
        }
        raise RuleViolation(
            "faza",
            gettext_noop("Teraz nie pora na to: trwa faza %(phase)s."),
            phase=names.get(state.phase, state.phase),
        )


def require_no_prompt(state: EncounterState) -> None:
    if state.prompts:
        name = Names.of(state.get(state.prompts[0].actor))
        raise RuleViolation(
            "czeka_na_obrone",
            gettext_noop("Najpierw %(name)s musi odpowiedzieć na atak."),
            name=name,
        )


def require_turn(state: EncounterState, actor: str) -> Combatant:
    """The acting combatant, if it is its turn in the act phase and nothing waits."""
    require_phase(state, "act")
    me = combatant(state, actor)
    if state.current != me.id:
        name = Names.of(state.get(state.current)) if state.current else "–"
        raise RuleViolation(
            "nie_twoja_tura",
            gettext_noop("Nie twoja tura: teraz działa %(name)s."),
            name=name,
            current=state.current or "",
        )
    require_no_prompt(state)
    return me


def state_adjustments(c: Combatant, state: EncounterState) -> list[Adjustment]:
    """What `c`'s state takes off its action tests: Wounds (−1 each after the first),
    Otoczony, Powalony."""
    settings = state.settings
    out: list[Adjustment] = []
    if c.wound_penalty:
        penalty = settings.wound_penalty * c.wound_penalty
        out.append(Adjustment(-penalty, gettext_noop("Rany")))
    for key in (cond.OTOCZONY, cond.POWALONY):
        if c.has(key):
            value = -(
                settings.harried_penalty if key == cond.OTOCZONY else settings.knocked_down_penalty
            )
            out.append(Adjustment(value, cond.SPECS[key].label))
    return out


def dn_raise(c: Combatant, state: EncounterState) -> list[tuple[str, int]]:
    """What raises the DN of all `c`'s tests: a held action (+2), each Zmiana akcji (+2)."""
    out: list[tuple[str, int]] = []
    if c.held:
        out.append((gettext_noop("Powstrzymanie działania"), state.settings.hold_penalty))
    if c.changes:
        out.append((gettext_noop("Zmiana akcji"), state.settings.change_action_penalty * c.changes))
    return out


def reaction_talents(state: EncounterState, c: Combatant) -> tuple[str, ...]:
    """The defensive talents `c` may use against an attack now (conscious, not surprised,
    not stunned, with the talent's rank)."""
    if not can_act(state, c):
        return ()
    return tuple(t for t in DEFENSIVE_TALENTS if c.sheet.rank(t) > 0)


def sides_standing(state: EncounterState) -> set[str]:
    return {c.side for c in state.combatants.values() if not c.out}
