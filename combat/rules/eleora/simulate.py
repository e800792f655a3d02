"""Monte-Carlo fights on top of decide/evolve: "3 Wilki vs this party: party wins 82%".

A simple policy plays every side: attack the weakest (or nearest) conscious enemy with the best
usable weapon, step toward it on the map, reload when empty; defenders answer per the policy.
Seeded, so a simulation is reproducible; it uses the real engine, so it plays the real rules.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from combat.rules import battlemap
from combat.rules.base import RuleViolation
from combat.rules.dice import RNG
from combat.rules.eleora import grid
from combat.rules.eleora.commands import (
    ChooseReaction,
    Command,
    DeclareAttack,
    EndTurn,
    Move,
    Reload,
    StartCombat,
)
from combat.rules.eleora.engine import decide, evolve, replay, space
from combat.rules.eleora.events import AttackResolved
from combat.rules.eleora.prompts import Defence, auto_answer, best_weapon
from combat.rules.eleora.sheet import derive
from combat.rules.eleora.state import GM, Combatant, EncounterState, standing_sides
from combat.rules.seeded import SeededRNG

Targeting = Literal["weakest", "nearest"]


@dataclass(frozen=True)
class Policy:
    """How the simulated characters play."""

    defence: Defence = "lepsza"  # "lepsza": Parowanie with a shield bigger than Zręczność
    targeting: Targeting = "weakest"
    opportunity: bool = True  # take every Atak okazyjny offered


@dataclass(frozen=True)
class SimulationResult:
    """Win rate per side (draws when nobody stands or time runs out), mean rounds, the mean
    number of each side's combatants still standing at the end, and each combatant's share
    of fights in which it dropped (unconscious or dead)."""

    runs: int
    wins: Mapping[str, float]
    draws: float
    mean_rounds: float
    survivors: Mapping[str, float] = field(default_factory=dict)
    drops: Mapping[str, float] = field(default_factory=dict)


def simulate(
    initial: EncounterState,
    runs: int,
    seed: int = 0,
    policy: Policy = Policy(),
    max_rounds: int = 30,
    rng: RNG | None = None,
) -> SimulationResult:
    """Play `runs` fights from the setup state and count who is left standing."""
    if runs < 1:
        raise ValueError("at least one run")
    rng = rng or SeededRNG(seed)
    winners: Counter[str] = Counter()
    standing_by_side: Counter[str] = Counter()
    dropped: Counter[str] = Counter()
    rounds = 0
    for _ in range(runs):
        final = play(initial, rng, policy, max_rounds)
        standing = standing_sides(final)
        winners[standing[0] if len(standing) == 1 else ""] += 1
        rounds += final.round
        for c in final.combatants.values():
            if c.status == "active":
                standing_by_side[c.side] += 1
            else:
                dropped[c.id] += 1
    wins = {side: winners[side] / runs for side in initial.sides}
    survivors = {side: standing_by_side[side] / runs for side in initial.sides}
    drops = {cid: dropped[cid] / runs for cid in initial.combatants}
    return SimulationResult(runs, wins, winners[""] / runs, rounds / runs, survivors, drops)


def play(
    initial: EncounterState, rng: RNG, policy: Policy = Policy(), max_rounds: int = 30
) -> EncounterState:
    """One fight to the end (one side standing, or `max_rounds` passed)."""
    state = _apply(initial, StartCombat(), rng) if initial.phase == "setup" else initial
    clock = 0.0
    while state.phase in ("surprise", "combat") and state.round <= max_rounds:
        if len(standing_sides(state)) <= 1:
            break
        clock += 1.0
        state = _apply(state, next_command(state, policy, clock), rng)
    return state


def _apply(state: EncounterState, command: Command, rng: RNG) -> EncounterState:
    try:
        events = decide(state, command, rng)
    except RuleViolation:
        # The policy asked for something the rules refuse: the GM moves the fight on.
        events = decide(state, EndTurn(actor=GM, now=command.now), rng)
    for event in events:
        state = evolve(state, event)
    return state


def next_command(state: EncounterState, policy: Policy, now: float = 0.0) -> Command:
    """What the policy does next: answer the first open prompt, else act for the current one."""
    if state.prompts:
        return auto_answer(state, state.prompts[0], policy.defence, policy.opportunity, now)
    return turn_command(state, policy, now)


def turn_command(state: EncounterState, policy: Policy, now: float = 0.0) -> Command:
    """What the current character does next in its turn: attack the chosen enemy with its
    best weapon (reloading or stepping closer first when it must), else end the turn."""
    current = state.get(state.current or "")
    if current.actions_left <= 0:
        return EndTurn(actor=current.id, now=now)
    target = _pick_target(state, current, policy)
    if target is None:
        return EndTurn(actor=current.id, now=now)
    weapon = best_weapon(current)
    reload = _worth_reloading(current, weapon)
    if reload is not None:
        return Reload(actor=current.id, weapon=reload, now=now)
    thrown = _throws(current, target, weapon)
    if not thrown and not _in_reach(current, target, weapon):
        return _approach(state, current, target, now)
    return DeclareAttack(actor=current.id, target=target.id, weapon=weapon, now=now, thrown=thrown)


def _pick_target(state: EncounterState, me: Combatant, policy: Policy) -> Combatant | None:
    enemies = [e for e in state.enemies_of(me.id) if e.conscious]
    if not enemies:
        return None
    if policy.targeting == "nearest" and me.position is not None:
        here = me.position
        return min(
            enemies,
            key=lambda e: (grid.distance(here, e.position) if e.position else 99, e.health),
        )
    return min(enemies, key=lambda e: (e.health, e.id))


def _worth_reloading(me: Combatant, weapon: str) -> str | None:
    """An unloaded weapon that hits harder than the best one at hand."""
    at_hand = me.weapon(weapon)
    damage = at_hand.damage if at_hand else derive(me.sheet).unarmed_damage
    empty = [w for w in me.sheet.weapons if w.name in me.unloaded and w.damage > damage]
    return max(empty, key=lambda w: w.damage).name if empty else None


def _in_reach(me: Combatant, target: Combatant, weapon: str) -> bool:
    w = me.weapon(weapon)
    if (w is not None and w.ranged) or me.position is None or target.position is None:
        return True
    return grid.in_reach(me.position, target.position)


def _throws(me: Combatant, target: Combatant, weapon: str) -> bool:
    """A throwable weapon is thrown only at a target out of melee reach."""
    w = me.weapon(weapon)
    return w is not None and w.thrown and not w.ranged and not _in_reach(me, target, weapon)


def _approach(state: EncounterState, me: Combatant, target: Combatant, now: float) -> Command:
    """Step straight toward the target over free squares, as far as one Ruch allows."""
    assert me.position is not None and target.position is not None
    allowance = grid.movement_allowance(state.settings, prone=me.has("powalenie"))
    if state.battlemap is not None:
        return _approach_on_map(state, me, target, allowance, now)
    taken = {c.position for c in state.combatants.values() if c.position and c.id != me.id}
    path = [me.position]
    while len(path) <= allowance and not grid.adjacent(path[-1], target.position):
        dx, dy = grid.step_towards(path[-1], target.position)
        square = (path[-1][0] + dx, path[-1][1] + dy)
        if square in taken:
            break
        path.append(square)
    if len(path) == 1 or me.has("unieruchomienie"):
        return EndTurn(actor=me.id, now=now)
    return Move(actor=me.id, path=tuple(path[1:]), now=now)


def _approach_on_map(
    state: EncounterState, me: Combatant, target: Combatant, allowance: int, now: float
) -> Command:
    """On the battle map: the reachable free field nearest the target (walls, obstacles and
    Trudny Teren as the map has them; nobody's field crossed), then the cheapest path to it."""
    assert state.battlemap is not None and me.position is not None
    assert target.position is not None
    m = dataclasses.replace(state.battlemap, difficult=tuple(sorted(space.difficult(state))))
    taken = {c.position for c in state.combatants.values() if c.position and c.id != me.id}
    costs = battlemap.reachable(m, me.position, allowance, closed=taken)
    there = target.position
    goal = min(costs, key=lambda f: (m.distance(f, there), costs[f], f))
    if goal == me.position or me.has("unieruchomienie"):
        return EndTurn(actor=me.id, now=now)
    found = battlemap.route(m, me.position, goal, closed=taken)
    if found is None:
        return EndTurn(actor=me.id, now=now)
    return Move(actor=me.id, path=found.path[1:], now=now)


def hit_rate(state: EncounterState, command: DeclareAttack, trials: int, seed: int = 0) -> float:
    """How often this attack hits, by playing it `trials` times (the defender does not react)."""
    rng = SeededRNG(seed)
    hits = 0
    for _ in range(trials):
        events = decide(state, command, rng)
        resolved = [e for e in events if isinstance(e, AttackResolved)]
        if not resolved:
            events = decide(replay(state, events), ChooseReaction(actor=command.target), rng)
            resolved = [e for e in events if isinstance(e, AttackResolved)]
        hits += resolved[0].hit
    return hits / trials
