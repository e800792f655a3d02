"""What every Eleora decider needs: a batch of events folded as it grows, and the gates
(whose turn, actions left, reactions allowed) with refusals a player can read."""

from __future__ import annotations

from dataclasses import dataclass, field

from combat.rules.base import Names, RuleViolation, fresh_id, gettext_noop
from combat.rules.dice import RNG, Modifier, PoolRoll, roll_pool
from combat.rules.eleora import grid
from combat.rules.eleora.attack import is_critical
from combat.rules.eleora.engine.evolve import evolve
from combat.rules.eleora.events import ConditionSpent, Event, TestRolled
from combat.rules.eleora.state import Combatant, EncounterState

ACTIVE_PHASES = ("surprise", "combat")
DEFENSIVE = frozenset({"parowanie", "unik", "ucieczka"})


@dataclass
class Batch:
    """Events of one decision, with the state they lead to (so later checks see earlier ones)."""

    state: EncounterState
    events: list[Event] = field(default_factory=list)

    def add(self, *events: Event) -> Batch:
        for event in events:
            self.state = evolve(self.state, event)
            self.events.append(event)
        return self


def require_active(state: EncounterState) -> None:
    """Refuse anything but setup commands before the fight and after it."""
    if state.phase == "setup":
        raise RuleViolation("przed_walka", gettext_noop("Walka jeszcze się nie zaczęła."))
    if state.phase == "ended":
        raise RuleViolation("po_walce", gettext_noop("Walka już się skończyła."))


def require_action(state: EncounterState, actor_id: str) -> Combatant:
    """The actor, if it may act now: its turn, conscious, not paralysed, an action left."""
    require_active(state)
    c = state.get(actor_id)
    if state.current != actor_id:
        now = state.combatants.get(state.current or "")
        if now is None:
            raise RuleViolation(
                "nie_twoja_tura", gettext_noop("Nie twoja tura."), current=state.current
            )
        raise RuleViolation(
            "nie_twoja_tura",
            gettext_noop("Nie twoja tura: teraz działa %(name)s."),
            current=state.current,
            name=Names.of(now),
        )
    require_conscious(c)
    if c.has("paraliz"):
        raise RuleViolation("paraliz", gettext_noop("Paraliż: brak akcji i reakcji."))
    if c.actions_left <= 0:
        if state.phase == "surprise":
            message = gettext_noop("Brak akcji: w turze zaskoczenia przysługuje jedna akcja.")
        elif state.settings.actions_per_turn == 2:
            message = gettext_noop("Brak akcji: wykorzystano obie akcje w tej turze.")
        else:
            message = gettext_noop("Brak akcji: wykorzystano wszystkie akcje w tej turze.")
        raise RuleViolation("brak_akcji", message, actor=actor_id)
    return c


def require_conscious(c: Combatant) -> None:
    if c.status == "dead":
        raise RuleViolation("martwa", gettext_noop("%(name)s nie żyje."), actor=c.id, name=c.name)
    if c.status == "unconscious":
        raise RuleViolation(
            "nieprzytomna",
            gettext_noop("Postać %(name)s jest nieprzytomna."),
            actor=c.id,
            name=c.name,
        )


def reaction_refusal(c: Combatant, *, defensive: bool = False) -> RuleViolation | None:
    """Why `c` cannot react now (None: it can)."""
    if c.status != "active":
        return RuleViolation(
            "nieprzytomna", gettext_noop("Postać %(name)s jest wyłączona z walki."), name=c.name
        )
    if c.has("paraliz"):
        return RuleViolation("paraliz", gettext_noop("Paraliż: brak akcji i reakcji."))
    if not c.has_acted:
        return RuleViolation(
            "przed_pierwsza_tura",
            gettext_noop(
                "Brak reakcji: reakcje są dostępne od pierwszej tury postaci (lub akcji w turze "
                "zaskoczenia)."
            ),
        )
    if c.reactions_left <= 0:
        return RuleViolation(
            "brak_reakcji", gettext_noop("Brak reakcji: reakcja w tej turze już wykorzystana.")
        )
    if defensive and is_surprised(c):
        return RuleViolation(
            "zaskoczenie",
            gettext_noop("Zaskoczenie: brak reakcji obronnych (Parowanie, Ucieczka, Unik)."),
        )
    return None


def require_reaction(state: EncounterState, actor_id: str, *, defensive: bool = False) -> Combatant:
    require_active(state)
    c = state.get(actor_id)
    refusal = reaction_refusal(c, defensive=defensive)
    if refusal is not None:
        raise refusal
    return c


def is_surprised(c: Combatant) -> bool:
    """Zaskoczenie, or a Rozproszenie token (treated as Surprised against the next attack)."""
    return c.has("zaskoczenie") or c.has("rozproszenie")


def require_no_prompts(state: EncounterState) -> None:
    """While someone must answer a prompt, the acting state stays as it is."""
    if state.prompts:
        names = Names.of(*(state.get(p.actor) for p in state.prompts))
        raise RuleViolation(
            "czekamy_na_reakcje",
            gettext_noop("Czekamy na reakcję: %(names)s."),
            prompts=len(state.prompts),
            names=names,
        )


def require_near(state: EncounterState, actor: Combatant, other: Combatant, what: str) -> None:
    """`other` is the actor itself or on an adjacent square (unknown positions: trusted)."""
    if other.id == actor.id or actor.position is None or other.position is None:
        return
    if not grid.adjacent(actor.position, other.position):
        raise RuleViolation(
            "nie_obok",
            gettext_noop("%(what)s: %(name)s musi być obok."),
            target=other.id,
            what=what,
            name=other.name,
        )


def deadline(state: EncounterState, now: float) -> float:
    return now + state.settings.reaction_timeout_s


def new_id(state: EncounterState, prefix: str) -> str:
    return f"{prefix}{state.next_id}"


def new_prompt_id(state: EncounterState, rng: RNG, offset: int = 0) -> str:
    """A prompt's id, not to be guessed by a player it is not for (`fresh_id`)."""
    return fresh_id(rng, "p", state.next_id + offset)


def roll_test(
    batch: Batch,
    rng: RNG,
    actor: str,
    test: str,
    modifiers: tuple[Modifier, ...],
    difficulty: int | None = None,
) -> PoolRoll:
    """Roll a test, spend a Kostka Heroizmu it used, and log it (critical failures included).

    Krytyczna porażka: a failed test (or one without a difficulty) with zero successes.
    """
    settings = batch.state.settings
    roll = roll_pool(rng, modifiers, settings.success_faces)
    passed = None if difficulty is None else roll.successes >= difficulty
    if any(m.reason == "Kostka Heroizmu" for m in modifiers):
        batch.add(ConditionSpent(combatant=actor, key="inspiracja"))
    batch.add(
        TestRolled(
            actor=actor,
            test=test,
            roll=roll,
            difficulty=difficulty,
            passed=passed,
            # A passed test (difficulty 0) is no Krytyczna porażka, as in grid.py's stumbles.
            critical_failure=is_critical(roll, settings) and passed is not True,
        )
    )
    return roll


def require_heroism(c: Combatant, heroism: bool) -> None:
    if heroism and c.heroism_dice <= 0:
        raise RuleViolation("brak_heroizmu", gettext_noop("Brak Kostek Heroizmu (Inspiracja)."))


def require_difficulty(value: int | None, what: str) -> int:
    if value is None or value < 0:
        raise RuleViolation(
            "trudnosc", gettext_noop("%(what)s: podaj trudność (0 lub więcej)."), what=what
        )
    return value
