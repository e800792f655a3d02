"""Monte-Carlo fights of a Magus encounter on top of `engine.decide/evolve`: "party wins 82%".

Every side plays the plain tactics below: each combatant declares an attack on the most hurt
enemy it can see (with its best weapon, no combat options), the Initiative is rolled, and in
its turn it gets up if knocked down, attacks the most hurt conscious enemy, and ends its turn.
Defenders answer their reaction prompts by the chosen policy. A fight ends when one side (or
none) is left standing, or after `max_rounds` rounds (a draw). Seeded (`SeededRNG`), so a
simulation is reproducible; it runs the real engine, so it plays the real rules.

The tactics (`pick_target`, `best_weapon`, `declaration`, `turn_command`) are shared with
`autoplay`, so a GM-run combatant at the table plays as it does here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from combat.rules.base import RNG, RuleViolation, gettext_noop
from combat.rules.magus import damage as dmg
from combat.rules.magus import engine
from combat.rules.magus import options as opt
from combat.rules.magus import prompts as answers
from combat.rules.magus.commands import (
    Advance,
    Answer,
    Attack,
    Command,
    Declare,
    EndTurn,
    GetUp,
    Move,
    StartCombat,
)
from combat.rules.magus.engine import space
from combat.rules.magus.engine.attack import defence_test
from combat.rules.magus.engine.common import (
    action_cap,
    actions_taken,
    must_declare,
    sides_standing,
)
from combat.rules.magus.sheet import ATTACK_TALENT, Weapon
from combat.rules.magus.state import NO_REACTION, Combatant, EncounterState, Prompt
from combat.rules.seeded import SeededRNG

# How the simulated defenders answer their reaction prompts (key, Polish label).
POLICIES: tuple[tuple[str, str], ...] = (
    ("best", gettext_noop("najlepsza obrona (talent z największą szansą)")),
    ("unik", gettext_noop("zawsze Unik")),
    ("riposta", gettext_noop("zawsze Riposta")),
    ("none", gettext_noop("bez obrony")),
)
# Combat options the tactics may declare with an attack (none: a plain attack).
TACTICS: dict[str, tuple[str, ...]] = {
    "atakuj": (),
    "agresywnie": (opt.AGRESYWNY,),
    "ostroznie": (opt.POSTAWA,),
}
MAX_ROUNDS = 30
UNARMED = Weapon(name="", kind="unarmed")


@dataclass(frozen=True)
class SimulationResult:
    """Win share per side (draws: nobody standing, or the round cap), mean rounds, the mean
    number of each side's combatants still standing at the end, and each combatant's share
    of the fights in which it dropped (unconscious or dead)."""

    runs: int
    wins: Mapping[str, float]
    draws: float
    mean_rounds: float
    survivors: Mapping[str, float] = field(default_factory=dict)
    drops: Mapping[str, float] = field(default_factory=dict)


def simulate(
    settings: Mapping[str, Any] | None,
    combatants: Sequence[Mapping[str, Any]],
    *,
    runs: int,
    seed: int,
    policy: str,
    tactics: str = "atakuj",
    max_rounds: int = MAX_ROUNDS,
) -> SimulationResult:
    """`runs` seeded fights of these combatants (dicts as for `engine.new_encounter`).
    ValueError for an unknown policy or tactics, fewer than one run, or bad combatants."""
    return simulate_state(
        engine.new_encounter(settings, combatants),
        runs=runs,
        seed=seed,
        policy=policy,
        tactics=tactics,
        max_rounds=max_rounds,
    )


def simulate_state(
    initial: EncounterState,
    *,
    runs: int,
    seed: int,
    policy: str,
    tactics: str = "atakuj",
    max_rounds: int = MAX_ROUNDS,
) -> SimulationResult:
    """As `simulate`, from a state (the setup state, or a fight already running)."""
    _check(policy, tactics)
    if runs < 1:
        raise ValueError("at least one run")
    rng = SeededRNG(seed)
    sides = list(dict.fromkeys(c.side for c in initial.combatants.values()))
    winners: Counter[str] = Counter()
    standing: Counter[str] = Counter()
    dropped: Counter[str] = Counter()
    rounds = 0
    for _ in range(runs):
        final = play(initial, rng, policy, tactics=tactics, max_rounds=max_rounds)
        left = sides_standing(final)
        winners[next(iter(left)) if len(left) == 1 else ""] += 1
        rounds += min(final.round, max_rounds)
        for c in final.combatants.values():
            if c.out:
                dropped[c.id] += 1
            else:
                standing[c.side] += 1
    return SimulationResult(
        runs=runs,
        wins={side: winners[side] / runs for side in sides},
        draws=winners[""] / runs,
        mean_rounds=rounds / runs,
        survivors={side: standing[side] / runs for side in sides},
        drops={cid: dropped[cid] / runs for cid in initial.combatants},
    )


def _check(policy: str, tactics: str) -> None:
    if policy not in dict(POLICIES):
        raise ValueError(f"unknown simulation policy: {policy}")
    if tactics not in TACTICS:
        raise ValueError(f"unknown tactics: {tactics}")


def play(
    initial: EncounterState,
    rng: RNG,
    policy: str = "best",
    *,
    tactics: str = "atakuj",
    max_rounds: int = MAX_ROUNDS,
) -> EncounterState:
    """One fight to its end: one side (or none) standing, or `max_rounds` rounds played."""
    _check(policy, tactics)
    state = initial
    if state.stage == "setup":
        state = apply(state, StartCombat(), rng)
    while state.stage == "running" and state.round <= max_rounds:
        if len(sides_standing(state)) <= 1:
            break
        state = apply(state, next_command(state, policy, tactics), rng)
    return state


def apply(state: EncounterState, command: Command, rng: RNG) -> EncounterState:
    """Decide and fold one command. One the rules refuse (the tactics asked too much) is
    replaced by what the GM would do: end the current turn, else move the round on."""
    try:
        events = engine.decide(state, command, rng)
    except RuleViolation:
        fallback: Command = Advance()
        if state.phase == "act" and state.current is not None and not state.prompts:
            fallback = EndTurn(actor=state.current)
        events = engine.decide(state, fallback, rng)
    for event in events:
        state = engine.evolve(state, event)
    return state


def next_command(state: EncounterState, policy: str, tactics: str = "atakuj") -> Command:
    """What happens next: a prompt answered, a declaration, the Initiative rolled (the GM's
    "advance" rolls every missing one), the current combatant's next step."""
    if state.prompts:
        return defence_answer(state, state.prompts[0].id, policy)
    if state.phase == "declare":
        for c in state.combatants.values():
            if must_declare(state, c) and not c.declared:
                return declaration(state, c.id, tactics)
    if state.phase == "act" and state.current is not None:
        return turn_command(state, state.current)
    return Advance()


def defence_answer(state: EncounterState, prompt_id: str, policy: str, now: float = 0.0) -> Answer:
    """The defender's answer: "best" the talent most likely to reach the attack's result
    (by the exact odds, as `prompts.auto_answer` chooses), "unik"/"riposta" that talent
    whenever it is offered, "none" no reaction."""
    prompt = state.prompt(prompt_id)
    assert prompt is not None, prompt_id
    offered = [key for key, _, _ in answers.option_templates(state, prompt) if key]
    option = policy if policy in offered else NO_REACTION
    if policy == "best":
        option = likeliest(state, prompt, offered)
    return Answer(actor=prompt.actor, prompt=prompt.id, option=option, now=now)


def likeliest(state: EncounterState, prompt: Prompt, offered: Sequence[str]) -> str:
    """The offered talent with the highest chance to reach the attack's result (the first
    of equals; no reaction when none has any). Only the chances: `prompts.answer_odds` also
    works out the expected damage, which the choice does not need."""
    defender = state.get(prompt.actor)
    choice, best = NO_REACTION, 0.0
    for key in offered:
        step, reasons, needed = defence_test(state, defender, key, prompt.strike.total)
        p = dmg.talent_odds(step, sum(a.value for a in reasons), needed, state.settings)
        if p > best:
            choice, best = key, p
    return choice


# --- the tactics (shared with autoplay) -------------------------------------------------------


def hurt(c: Combatant) -> float:
    """How near to dropping: damage (stun included) as a share of the Unconsciousness Rating."""
    return (c.damage + c.stun) / max(1, c.unconsciousness_rating)


def pick_target(state: EncounterState, me: Combatant) -> Combatant | None:
    """The most hurt conscious enemy (then the most Wounds, then the first listed); the ones
    the table shows (not hidden) first, the hidden only when no other is left."""
    enemies = [c for c in state.combatants.values() if c.side != me.side and not c.out]
    seen = [c for c in enemies if not c.hidden] or enemies
    if not seen:
        return None
    ids = list(state.combatants)
    return min(seen, key=lambda c: (-hurt(c), -c.wounds, ids.index(c.id)))


def weapon_score(me: Combatant, weapon: Weapon) -> int:
    """The attack step and the damage step together: the weapon that hits more, harder."""
    talent = ATTACK_TALENT.get(weapon.kind, "walka_wrecz")
    return me.sheet.talent_step(talent) + me.sheet.damage_step(weapon)


def best_weapon(me: Combatant) -> str:
    """The name of the weapon with the best attack and damage steps ("": bare hands); a
    disarmed combatant fights with what is left (natural weapons, bare hands)."""
    usable = [w for w in me.sheet.weapons if not me.disarmed or w.kind == "unarmed"]
    chosen = max([UNARMED, *usable], key=lambda w: weapon_score(me, w))
    return chosen.name


def declaration(
    state: EncounterState, actor_id: str, tactics: str = "atakuj", now: float = 0.0
) -> Declare:
    """The round's declaration: an attack with the best weapon on the most hurt enemy, with
    the tactics' combat options where the rules allow them and their Strain cannot knock it
    out; nothing to declare ("none") with no enemy standing."""
    me = state.get(actor_id)
    target = pick_target(state, me)
    if target is None:
        return Declare(actor=me.id, action="none", now=now)
    weapon = best_weapon(me)
    chosen = _options(state, me, weapon, TACTICS[tactics])
    return Declare(
        actor=me.id, action="attack", weapon=weapon, target=target.id, options=chosen, now=now
    )


def _options(
    state: EncounterState, me: Combatant, weapon: str, wanted: tuple[str, ...]
) -> tuple[str, ...]:
    settings = state.settings
    cost = sum(opt.strain_damage(opt.strain(k, settings), settings) for k in wanted)
    rating = me.unconsciousness_rating
    if rating and me.damage + me.stun + cost >= rating:
        return ()
    try:
        return opt.check_options(
            wanted,
            sheet=me.sheet,
            action="attack",
            weapon=weapon,
            ground=0,
            knocked_down=me.knocked_down,
            settings=settings,
        )
    except RuleViolation:
        return ()


def turn_command(state: EncounterState, actor_id: str, now: float = 0.0) -> Command:
    """The next step of `actor_id`'s turn: get up first if knocked down, attack the most hurt
    conscious enemy with the declared (else the best) weapon, then end the turn. On the
    battle map, a melee fighter out of reach first walks as close as its movement takes it."""
    me = state.get(actor_id)
    room = actions_taken(me) < action_cap(me)
    if me.knocked_down and not me.started and room:
        return GetUp(actor=me.id, now=now)
    target = pick_target(state, me)
    if target is None or me.standard_used or not room:
        return EndTurn(actor=me.id, now=now)
    declared = me.declaration.weapon if me.declaration else ""
    weapon = declared if me.weapon(declared) is not None else best_weapon(me)
    if me.disarmed and (me.weapon(weapon) or UNARMED).kind != "unarmed":
        weapon = best_weapon(me)
    closer = space.towards(state, me, target, me.weapon(weapon) or UNARMED)
    if closer:
        return Move(actor=me.id, path=closer, now=now)
    return Attack(actor=me.id, target=target.id, weapon=weapon, now=now)
