"""Benchmark the two rules-engine targets of the benchmark issue, without Django (and, beside
them, the Magus and d100 odds targets: scripts/bench/magus_odds.py, d100_odds.py).

* exact attack odds for 30 vs 30 dice (one contested distribution, and the three defender
  options the prompt card compares) ≤ 1 ms;
* replaying an encounter of 10,000 events ≤ 0.3 s: the log is recorded by actually playing a
  seeded fight through the engine (joins, attacks, reactions, GM edits, undos), stored as the
  table stores it (JSON event lists per entry) and folded back like `services.replay_state`.

Run: .venv/bin/python -m scripts.bench.rules [--short]   (prints the JSON result)
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from combat.log import Step, effective, fold
from combat.rules.base import Ruleset, RuleViolation
from combat.rules.eleora import prompts
from combat.rules.eleora.commands import (
    AddCondition,
    Command,
    EditHealth,
    EndTurn,
    GMRoll,
    Heal,
    JoinCombat,
    PlaceCombatant,
    RemoveCondition,
    ResolveExpired,
    RevealStats,
    SetHidden,
    StartCombat,
)
from combat.rules.eleora.odds import attack_odds
from combat.rules.eleora.sheet import DamageType
from combat.rules.eleora.simulate import Policy, next_command
from combat.rules.eleora.state import GM, Prompt
from combat.rules.odds import _row_float, contest_odds
from combat.rules.registry import get_ruleset
from scripts.bench import d100_odds, magus_odds

ODDS_LIMIT_MS = 1.0
REPLAY_LIMIT_S = 0.3
FULL_EVENTS = 10_000
SHORT_EVENTS = 1_000
SEED = 20_240_601
FACES = frozenset({4, 5, 6})
ODDS_BUDGET_S = 0.2  # wall time per odds figure (best of 5 batches)
REPLAY_REPEATS = 5
SHORT_REPEATS = 2
WHAT = (
    "odds: best-of-5 batch mean per call, warm row cache unless *_cold; "
    "replay: combat.log.fold(rules, initial_dict, steps) over the JSON-decoded entries "
    "(state_from_dict + event_from_dict for every event in force + evolve), best of "
    "{repeats} runs; json_parse_s is json.loads of the stored entries, timed separately"
)


# --- the combatants -------------------------------------------------------------------------


def _attrs(sila: int, krzepa: int, zrec: int, intu: int, wola: int) -> dict[str, int]:
    return {
        "sila": sila,
        "krzepa": krzepa,
        "zrecznosc": zrec,
        "intuicja": intu,
        "intelekt": 1,
        "charyzma": 1,
        "wola": wola,
    }


def _weapon(name: str, kind: str, damage: int, **traits: Any) -> dict[str, Any]:
    return {"name": name, "kind": kind, "damage": damage, **traits}


HERO_SHEETS: tuple[dict[str, Any], ...] = (
    {
        "name": "Radosław",
        "attributes": _attrs(2, 3, 2, 2, 2),
        "skills": {"bron_lekka": 4, "walka_wrecz": 2, "atletyka": 2, "medycyna": 1},
        "weapons": [_weapon("Szabla", "lekka", 2), _weapon("Sztylet", "lekka", 2, short=True)],
        "armour": [{"name": "Kaftan", "defence_bonus": 0, "armour_points": 1}],
    },
    {
        "name": "Milena",
        "attributes": _attrs(1, 2, 3, 3, 2),
        "skills": {"bron_lekka": 3, "bieganie": 2, "medycyna": 2},
        "weapons": [
            _weapon("Łuk", "lekka", 2, ranged=True, two_handed=True, reload_actions=2),
            _weapon("Nóż", "lekka", 2, short=True),
        ],
    },
    {
        "name": "Bożydar",
        "attributes": _attrs(3, 3, 1, 2, 2),
        "skills": {"bron_ciezka": 3, "walka_wrecz": 2},
        "weapons": [_weapon("Topór", "ciezka", 3, two_handed=True)],
        "armour": [{"name": "Kolczuga", "defence_bonus": 1, "armour_points": 2}],
    },
    {
        "name": "Jaga",
        "attributes": _attrs(2, 2, 2, 3, 3),
        "skills": {"bron_lekka": 3, "walka_wrecz": 1},
        "weapons": [_weapon("Kord", "lekka", 2)],
        "shields": [{"name": "Puklerz", "bonus": 2}],
    },
)
WOLF_SHEET: dict[str, Any] = {
    "name": "Wilk",
    "attributes": _attrs(2, 2, 2, 2, 1),
    "skills": {"walka_wrecz": 2, "bieganie": 3, "percepcja": 3},
    "weapons": [_weapon("Ugryzienie", "wrecz", 2)],
}
CONDITIONS = ("krwawienie", "powalenie", "oszolomienie", "odsloniecie", "inspiracja")


def _combatant_dict(
    cid: str, side: str, sheet: dict[str, Any], square: tuple[int, int]
) -> dict[str, Any]:
    """The table layer's join shape (roster.character_combatant): PCs have a controller."""
    return {
        "id": cid,
        "name": f"{sheet['name']} {cid}",
        "side": side,
        "sheet": sheet,
        "controller": "7" if side == "druzyna" else None,
        "position": list(square),
        "hidden": False,
    }


# --- recording a fight ----------------------------------------------------------------------


@dataclass
class Recording:
    """A played encounter as the database holds it: the initial snapshot and the entries
    (seq, JSON events, undo_to), plus the head state the table reached while playing."""

    initial: dict[str, Any]
    rows: list[tuple[int, list[dict[str, Any]], int | None]] = field(default_factory=list)
    head: Any = None

    @property
    def stored_events(self) -> int:
        return sum(len(events) for _, events, _ in self.rows)


class Table:
    """A pure stand-in for the live table: decide, fold, append one entry per command.

    Mirrors `services._append` (events stored as `event_to_dict` JSON) and `services.undo`
    (an empty entry with `undo_to`; the head becomes the state right after that entry)."""

    def __init__(self, rules: Ruleset, rng: random.Random) -> None:
        self.rules = rules
        self.rng = rng
        # Turns end by the policy's own Koniec tury, as the recorded fight was made before the
        # table's automatic end of a turn (its default now) existed.
        self.state = rules.new_encounter({"auto_end_turn": False}, [])
        self.recording = Recording(initial=rules.state_to_dict(self.state))
        self.after: list[Any] = [self.state]  # head state right after entry seq (index)
        self.in_force = [0]  # events in force right after entry seq
        self.last_undo = 0
        self.clock = 1_000_000.0
        self.joined = 0

    @property
    def seq(self) -> int:
        return len(self.after) - 1

    def run(self, *commands: Command) -> bool:
        """Decide the commands in turn into one entry (add_combatants joins several so);
        a refusal appends nothing and leaves the head as it was."""
        self.clock += 2.0
        state, events = self.state, []
        try:
            for command in commands:
                decided = self.rules.decide(state, _at(command, self.clock), self.rng)
                for event in decided:
                    state = self.rules.evolve(state, event)
                events += decided
        except RuleViolation:
            return False
        self.state = state
        self._append([self.rules.event_to_dict(e) for e in events], None)
        return True

    def undo(self, entries: int) -> bool:
        """GM: take back the last `entries` entries, never to before an earlier undo entry.

        There the two folds part: services.undo makes the head the fold of entries ≤ K (which
        brings back what the earlier undo took back) while log.effective keeps those dropped,
        so replay_state would not give the stored head."""
        target = max(self.seq - entries, self.last_undo)
        if target >= self.seq:
            return False
        self.state = self.after[target]
        self._append([], target)
        self.last_undo = self.seq
        return True

    def _append(self, events: list[dict[str, Any]], undo_to: int | None) -> None:
        self.recording.rows.append((self.seq + 1, events, undo_to))
        base = self.in_force[-1] if undo_to is None else self.in_force[undo_to]
        self.in_force.append(base + len(events))
        self.after.append(self.state)


def _at(command: Command, now: float) -> Command:
    """The server's clock replaces the command's `now` (as in services.run_command)."""
    return dataclasses.replace(command, now=now)


POLICY = Policy(defence="lepsza", targeting="nearest")
SIDES = ("druzyna", "wilki")


def record(min_events: int, seed: int = SEED) -> Recording:
    """Play one long seeded fight until `min_events` events are in force; the GM heals the
    fallen and sends in reinforcements, so it never runs out of fighters."""
    table = Table(get_ruleset("eleora"), random.Random(seed))
    taken: set[tuple[int, int]] = set()
    party = [_newcomer(table, "druzyna", taken) for _ in HERO_SHEETS]
    wolves = [_newcomer(table, "wilki", taken) for _ in range(5)]
    table.run(*(JoinCombat(combatant=c) for c in party + wolves))
    table.run(StartCombat())
    while table.in_force[-1] < min_events:
        if table.state.phase not in ("surprise", "combat"):
            raise RuntimeError(f"the fight ended at entry {table.seq}")
        _play_one(table)
    # Stored as JSON and read back, as the database hands the rows to replay_state.
    table.recording.rows = [(s, json.loads(json.dumps(e)), u) for s, e, u in table.recording.rows]
    table.recording.head = table.state
    return table.recording


def _newcomer(table: Table, side: str, taken: set[tuple[int, int]]) -> dict[str, Any]:
    """A fresh hero or wolf on a free square of its side's column."""
    table.joined += 1
    taken |= {c.position for c in table.state.combatants.values() if c.position is not None}
    x = 0 if side == "druzyna" else 3
    y = next(y for y in range(100) if (x, y) not in taken)
    taken.add((x, y))
    sheet = HERO_SHEETS[table.joined % len(HERO_SHEETS)] if side == "druzyna" else WOLF_SHEET
    return _combatant_dict(f"{side[0]}{table.joined}", side, sheet, (x, y))


def _play_one(table: Table) -> None:
    """One thing happens at the table: a prompt answered, a GM ruling, an undo, the fallen
    tended, or the current character's next move (the simulator's policy)."""
    state = table.state
    if state.prompts:
        _answer(table, state.prompts[0])
        return
    roll = table.rng.random()
    if roll < 0.05 and _gm_ruling(table):
        return
    if roll < 0.07 and table.undo(table.rng.randint(1, 3)):
        return
    if _tend_the_fallen(table):
        return
    if not table.run(next_command(state, POLICY, table.clock)):
        table.run(EndTurn(actor=GM))


def _answer(table: Table, prompt: Prompt) -> None:
    """A random allowed answer; sometimes nobody answers and the deadline sweep closes it."""
    if table.rng.random() < 0.05:
        table.clock = prompt.deadline
        if table.run(ResolveExpired()):
            return
    options = [key for key, _ in prompts.prompt_options(table.state, prompt)]
    for option in (table.rng.choice(options), prompts.NO_REACTION):
        try:
            command = table.rules.prompt_command(table.state, prompt.id, option, table.clock)
        except RuleViolation:
            continue
        if table.run(command):
            return
    table.clock = prompt.deadline
    if not table.run(ResolveExpired()):
        raise RuntimeError(f"prompt {prompt.id} cannot be closed")


def _tend_the_fallen(table: Table) -> bool:
    """The GM clears the dead off the map, wakes an unconscious character now and then, and
    sends two fresh fighters to a side with nobody standing."""
    state = table.state
    for c in state.combatants.values():
        if c.status == "dead" and c.position is not None:
            return table.run(PlaceCombatant(target=c.id, to=None))
        if c.status == "unconscious" and not c.maiming_pending and table.rng.random() < 0.2:
            return table.run(EditHealth(target=c.id, damage_physical=0, damage_stun=0))
    for side in SIDES:
        if not any(c.conscious for c in state.combatants.values() if c.side == side):
            taken: set[tuple[int, int]] = set()
            joining = [_newcomer(table, side, taken) for _ in range(2)]
            return table.run(*(JoinCombat(combatant=c) for c in joining))
    return False


def _gm_ruling(table: Table) -> bool:
    """A GM edit on someone still alive: healing, damage set by hand, a condition added or
    removed, a secret roll, stats revealed or hidden."""
    rng = table.rng
    living = [c for c in table.state.combatants.values() if c.status != "dead"]
    c = rng.choice(living)
    pick = rng.randrange(7)
    if pick == 0:
        return table.run(Heal(target=c.id, amount=rng.randint(1, 4), magic=rng.random() < 0.3))
    if pick == 1:
        physical = max(0, c.damage_physical - 1)
        return table.run(EditHealth(target=c.id, damage_physical=physical, damage_stun=0))
    if pick == 2:
        return table.run(AddCondition(target=c.id, condition=rng.choice(CONDITIONS)))
    if pick == 3 and c.conditions:
        gone = rng.choice(c.conditions)
        return table.run(RemoveCondition(target=c.id, condition=gone.key, source=gone.source))
    if pick == 4:
        return table.run(GMRoll(dice=rng.randint(1, 12), label="Percepcja"))
    if pick == 5:
        return table.run(RevealStats(target=c.id, revealed=rng.random() < 0.7))
    return table.run(SetHidden(target=c.id, hidden=rng.random() < 0.3))


# --- timing ---------------------------------------------------------------------------------


def time_replay(recording: Recording, repeats: int) -> tuple[float, Any]:
    """Best wall time of `services.replay_state` minus the query: Steps from the rows, then
    `fold` (state_from_dict, event_from_dict for every event in force, evolve)."""
    rules = get_ruleset("eleora")
    best, state = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        state = fold(rules, recording.initial, [Step(s, e, u) for s, e, u in recording.rows])
        best = min(best, time.perf_counter() - start)
    return best, state


def time_json_parse(recording: Recording, repeats: int) -> float:
    """What the database driver adds before the fold: json.loads of every entry's events."""
    stored = [json.dumps(events) for _, events, _ in recording.rows]
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for text in stored:
            json.loads(text)
        best = min(best, time.perf_counter() - start)
    return best


def per_call_ms(call: Callable[[], object], budget_s: float, *, cold: bool = False) -> float:
    """Best of 5 batches, each long enough to dwarf the timer's resolution; ms per call.
    `cold` clears the binomial row cache before every call (the first odds of a process)."""
    reps = 1
    while _batch(call, reps, cold) < budget_s / 5:
        reps *= 2
    return min(_batch(call, reps, cold) for _ in range(5)) / reps * 1e3


def _batch(call: Callable[[], object], reps: int, cold: bool) -> float:
    start = time.perf_counter()
    for _ in range(reps):
        if cold:
            _row_float.cache_clear()
        call()
    return time.perf_counter() - start


def three_options(attack: int, defence: int) -> None:
    """The prompt card's odds: brak = Obrona, Parowanie +1, Unik +2."""
    pools = {"brak": defence, "parowanie": defence + 1, "unik": defence + 2}
    attack_odds(attack, pools, 2, DamageType.PHYSICAL, 1)


def measure_odds(budget_s: float) -> dict[str, float]:
    return {
        "odds_30v30_ms": per_call_ms(lambda: contest_odds(30, 30, FACES), budget_s),
        "odds_30v30_three_options_ms": per_call_ms(lambda: three_options(30, 30), budget_s),
        "odds_30v30_three_options_cold_ms": per_call_ms(
            lambda: three_options(30, 30), budget_s, cold=True
        ),
    }


# --- the report -----------------------------------------------------------------------------


def measure(short: bool = False) -> dict[str, Any]:
    """Both targets as JSON-ready data; `short`: a 1,000-event log and quick odds (CI smoke)."""
    repeats = SHORT_REPEATS if short else REPLAY_REPEATS
    odds = measure_odds(ODDS_BUDGET_S / 10 if short else ODDS_BUDGET_S)
    started = time.perf_counter()
    recording = record(SHORT_EVENTS if short else FULL_EVENTS)
    recorded_s = time.perf_counter() - started
    replay_s, replayed = time_replay(recording, repeats)
    worst_odds = max(odds.values())  # cold caches included: the first card of a process
    head = recording.head
    magus = magus_odds.measure(short)
    d100 = d100_odds.measure(short)
    return {
        **{key: round(value, 4) for key, value in odds.items()},
        **{key: value for key, value in magus.items() if key.startswith("magus_")},
        **{key: value for key, value in d100.items() if key.startswith("d100_")},
        "replay_events": _events_in_force(recording),
        "replay_stored_events": recording.stored_events,
        "replay_entries": len(recording.rows),
        "replay_undos": sum(1 for _, _, undo_to in recording.rows if undo_to is not None),
        "replay_combatants": len(head.combatants),
        "replay_rounds": head.round,
        "replay_s": round(replay_s, 4),
        "json_parse_s": round(time_json_parse(recording, repeats), 4),
        "record_s": round(recorded_s, 3),
        "replay_matches": replayed == head,
        "short": short,
        "python": sys.version.split()[0],
        "what": WHAT.format(repeats=repeats),
        "targets": {
            "odds": {"limit_ms": ODDS_LIMIT_MS, "met": worst_odds <= ODDS_LIMIT_MS},
            "replay": {"limit_s": REPLAY_LIMIT_S, "met": replay_s <= REPLAY_LIMIT_S},
            "magus_odds": magus["targets"]["magus_odds"],
            "d100_odds": d100["targets"]["d100_odds"],
        },
    }


def _events_in_force(recording: Recording) -> int:
    """Events the fold decodes and applies (an undo's dropped entries are skipped)."""
    steps = [Step(s, e, u) for s, e, u in recording.rows]
    return sum(len(step.events) for step in effective(steps))


def main(argv: Sequence[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    print(json.dumps(measure(short="--short" in args), indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
