"""GM-run d100 combatants playing themselves at the table, one ordinary command at a time.

Live, in its turn: attack the weakest enemy it sees (the fewest PŻ) with its best attack (the
weapon, pair, claws or damage spell with the highest expected damage against that enemy's
best reaction, exact odds), then end the turn; on a laid map where close combat needs an
adjacent target, the weakest enemy it can reach, else it walks towards the weakest one first;
with nothing to attack, end the turn. By post: the same walk, then its post of the turn, the
same attack and the "best" defence. A step is checked with
`engine.refusal`, so the table is never asked to run a command the rules refuse; it is None
when the combatant has nothing to do now (not its turn, a prompt open, already posted) and
always for a player's character.
"""

from __future__ import annotations

from combat.rules import battlemap
from combat.rules.base import RuleViolation, gettext_noop
from combat.rules.d100 import engine
from combat.rules.d100.commands import Attack, Cast, Command, EndTurn, Move, Post
from combat.rules.d100.engine import space
from combat.rules.d100.engine.attack import plan
from combat.rules.d100.engine.posts import may_post
from combat.rules.d100.prompts import plan_odds
from combat.rules.d100.state import NO_REACTION, Action, Combatant, EncounterState
from combat.rules.d100.table import attack_choices, enemies

POLICIES: tuple[tuple[str, str], ...] = (
    ("atakuj", gettext_noop("atakuje najsłabszego widocznego wroga")),
    ("czeka", gettext_noop("nie atakuje (kończy turę)")),
)


def next_command(state: EncounterState, actor_id: str, policy: str, now: float) -> Command | None:
    """The next step of `actor_id` by this policy; None when it has nothing to do now or is
    a player's character. ValueError for an unknown policy."""
    if policy not in dict(POLICIES):
        raise ValueError(f"unknown autoplay policy: {policy}")
    me = state.combatants.get(actor_id)
    if me is None or me.controller is not None or state.stage != "running" or state.prompts:
        return None
    if state.pace == "post":
        return _post(state, me, policy, now)
    if state.current != me.id:
        return None
    if not me.full_used and policy == "atakuj":
        attack = best_attack(state, me, now) or approach(state, me, now)
        if attack is not None:
            return attack
    return EndTurn(actor=me.id, now=now)


def _post(state: EncounterState, me: Combatant, policy: str, now: float) -> Command | None:
    if not may_post(state, me) or me.id in state.posts:
        return None
    action = Action("none")
    attack = best_attack(state, me, now) if policy == "atakuj" else None
    if attack is None and policy == "atakuj":
        walk = approach(state, me, now)
        if walk is not None:
            return walk
    if isinstance(attack, Attack):
        action = Action("attack", target=attack.target, choice=attack.choice)
    elif isinstance(attack, Cast):
        action = Action("cast", target=attack.target, spell=attack.spell)
    post = Post(actor=me.id, action=action, defence="best", now=now)
    return post if engine.refusal(state, post) is None else None


def by_weakness(state: EncounterState, me: Combatant) -> list[Combatant]:
    """The enemies, the fewest PŻ first (then the lowest share, then turn order)."""
    found = enemies(state, me, frozenset(state.combatants))
    return sorted(found, key=lambda c: (c.pz, c.pz / max(1, c.max_pz)))


def best_attack(state: EncounterState, me: Combatant, now: float) -> Command | None:
    """Its best attack on the weakest enemy it can attack now (out of reach on the map: the
    next weakest); None when the rules allow it none."""
    for target in by_weakness(state, me):
        attack = _best_attack_on(state, me, target, now)
        if attack is not None:
            return attack
    return None


def approach(state: EncounterState, me: Combatant, now: float) -> Move | None:
    """A walk (Ruch, a free action) towards the weakest enemy on the map: onto a field next to
    it if one is in this turn's reach, else the reachable field nearest to it; None without a
    map or a token, or when no field gets it closer."""
    m = state.battlemap
    target = next((t for t in by_weakness(state, me) if t.position is not None), None)
    if m is None or me.position is None or target is None or target.position is None:
        return None
    goal = target.position
    flat = space.flat(m)
    closed, no_stop = space.closed_fields(state, me), space.pass_fields(state, me)
    budget = space.left(state, me)
    fields = battlemap.reachable(flat, me.position, budget, closed=closed, no_stop=no_stop)
    here = battlemap.distance(space.GEOMETRY, me.position, goal)
    ranked = sorted(
        (battlemap.distance(space.GEOMETRY, f, goal), cost, f) for f, cost in fields.items()
    )
    if not ranked or ranked[0][0] >= here:
        return None
    found = battlemap.route(flat, me.position, ranked[0][2], closed=closed, no_stop=no_stop)
    if found is None:  # pragma: no cover - a reachable field has a route
        return None
    walk = Move(actor=me.id, path=found.path, now=now)
    return walk if engine.refusal(state, walk) is None else None


def _best_attack_on(
    state: EncounterState, me: Combatant, target: Combatant, now: float
) -> Command | None:
    """Its attack (or damage spell) with the highest expected damage on `target`, against
    that enemy's best reaction; None when it has none the rules allow."""
    candidates: list[tuple[float, int, Command]] = []
    options: list[tuple[str, int, Command]] = [
        (c.key, -1, Attack(actor=me.id, target=target.id, choice=c.key, now=now))
        for c in attack_choices(state, me)
        if c.available
    ]
    options += [
        (f"spell:{i}", i, Cast(actor=me.id, spell=i, target=target.id, now=now))
        for i, spell in enumerate(me.spells)
        if spell.get("kind") == "damage"
    ]
    for rank, (choice, spell, command) in enumerate(options):
        try:
            p = plan(state, me, target.id, choice, spell)
        except RuleViolation:
            continue
        expected = min(
            plan_odds(state, p, key).expected_damage for key in (*p.options, NO_REACTION)
        )
        candidates.append((-expected, rank, command))
    for _score, _rank, command in sorted(candidates, key=lambda c: (c[0], c[1])):
        if state.pace == "post" or engine.refusal(state, command) is None:
            return command
    return None
