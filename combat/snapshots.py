"""Table snapshots: the state at a seq and the recent log, as every page and socket renders it.

A snapshot is immutable and shared by every socket of a process that shows its table: the
append path remembers the head it has just written (`remember`), so the fan-out that follows
renders it without reading the database; another process builds the same head from the entry
the fan-out message carries onto the head before it (`advance`). A load asks for the head's seq
first and reads the whole state only when that seq is not remembered.

The row keeps the whole state only every `HEAD_EVERY` entries (and at an undo or a change of
phase): writing it on every command cost more than the rest of the append. A load reads the
stored state and folds the entries after it (`head_state`).

Beside the head it wrote, the append path remembers the row's fields it reads (`Row`): the next
append in this process decides on that head without reading the row (`written_head`).
"""

from __future__ import annotations

import dataclasses
import json
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from threading import Lock
from typing import Any

from django.db import DEFAULT_DB_ALIAS

from combat.log import Step, fold, undone
from combat.models import Encounter, EncounterEntry
from combat.rules.base import TableView, prompts_of
from combat.rules.registry import get_ruleset

LOG_WINDOW = 60  # log entries a page shows; older ones are in the full log
HEAD_EVERY = 16  # the append path stores the whole state at least every this many entries
CACHE_SIZE = 256


@dataclass(frozen=True)
class LogEntry:
    seq: int
    lines: Sequence[Mapping[str, Any]]
    undo_to: int | None
    undone: bool


# The GM's settings of NPCs outside the log, in `Encounter.npc_policies` by key: a combatant id
# holds its reaction policy; "play:<id>" the policy it plays its own turns with ("gra sama");
# "turn:<id>" the round whose turn of its the GM asked the table to play ("Zagraj turę").
# Combatant ids never hold ":". One flat mapping of text, so a snapshot's settings compare and
# key a cache as they are.
AUTOPLAY = "play:"
THIS_TURN = "turn:"


@dataclass(frozen=True)
class Table:
    """What a page or a socket renders: the state at `seq` and the recent log."""

    pk: int
    campaign_id: int
    name: str
    ruleset: str
    seq: int
    state: Any
    npc_policies: Mapping[str, str]
    log: tuple[LogEntry, ...]

    @cached_property
    def view(self) -> TableView:
        """The ruleset's neutral view of the state, worked out once per snapshot."""
        return get_ruleset(self.ruleset).table_view(self.state)

    @cached_property
    def default_policy(self) -> str:
        """How a GM-run combatant answers its prompts when the GM set nothing for it."""
        prompts = prompts_of(get_ruleset(self.ruleset))
        return prompts.default_policy(self.state) if prompts is not None else "ask"

    def policy_of(self, combatant: str) -> str:
        """The reaction policy in force for a GM-run combatant: its own, or the table's."""
        return self.npc_policies.get(combatant) or self.default_policy

    @cached_property
    def autoplay(self) -> Mapping[str, str]:
        """GM-run combatants that play every turn by themselves -> the policy they play by."""
        return {
            key.removeprefix(AUTOPLAY): policy
            for key, policy in self.npc_policies.items()
            if key.startswith(AUTOPLAY)
        }

    def playing(self, combatant: str) -> str | None:
        """The policy `combatant` plays its turn by now ("gra sama", or "Zagraj turę" for
        this round's turn), None when the GM plays it."""
        if combatant in self.autoplay:
            return self.autoplay[combatant]
        once = self.npc_policies.get(THIS_TURN + combatant, "")
        round_, _sep, policy = once.partition(":")
        return policy if policy and round_ == str(self.view.round) else None


@dataclass(frozen=True)
class Row:
    """The encounter row's fields an append reads, as this process wrote them with the head
    at `seq` (`combat.services`: the next append decides on that head without the row and its
    UPDATE checks the row is still so: `seq` and `guard`)."""

    pk: int
    campaign_id: int
    name: str
    ruleset: str
    seq: int
    state_seq: int
    phase: str
    slot: int
    seed: str
    gm_seed: str
    reminded_for: float | None
    npc_policies: Mapping[str, str]

    @classmethod
    def of(cls, encounter: Encounter) -> Row:
        fields = {f.name: getattr(encounter, f.name) for f in dataclasses.fields(cls)}
        return cls(**{**fields, "npc_policies": dict(encounter.npc_policies or {})})

    def encounter(self) -> Encounter:
        """A model instance of these fields, the others deferred, as `services._lock` reads
        the row (without its JSON states)."""
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        values = {**values, "id": self.pk, "npc_policies": dict(self.npc_policies)}
        names = [f.attname for f in Encounter._meta.concrete_fields if f.attname in values]
        return Encounter.from_db(DEFAULT_DB_ALIAS, names, [values[name] for name in names])

    def guard(self) -> dict[str, Any]:
        """The fields besides `seq` that are written outside the log (the GM's NPC settings,
        a by-post reminder's mark), as the append read them: its UPDATE's condition."""
        return {"npc_policies": dict(self.npc_policies), "reminded_for": self.reminded_for}


_cache: OrderedDict[tuple[int, int], Table] = OrderedDict()
_rows: dict[int, Row] = {}  # by table: the row this process last wrote, at a cached head
_cache_lock = Lock()


def load_table(pk: int, seq: int | None = None) -> Table:
    """The table at its head; an immutable snapshot shared by every socket of this process.

    `seq` is a hint from a fan-out message: a cached snapshot at that seq needs no query."""
    if seq is not None:
        with _cache_lock:
            hit = _cache.get((pk, seq))
        if hit is not None:
            return hit
    else:  # the head is most likely cached: ask for its seq before reading its whole state
        head = Encounter.objects.filter(pk=pk).values_list("seq", "npc_policies").first()
        if head is not None and (hit := _cached_head(pk, head[0], head[1])) is not None:
            return hit
    encounter = Encounter.objects.get(pk=pk)
    hit = _cached_head(pk, encounter.seq, encounter.npc_policies)
    if hit is not None:
        return hit
    return remember(_snapshot(encounter, head_state(encounter)))


def head_state(encounter: Encounter) -> Any:
    """The state at `encounter.seq`: the stored state (at `state_seq`) with the entries after
    it folded on; from the initial state when an undo among them reaches back past it."""
    rules = encounter.rules()
    state = rules.state_from_dict(encounter.state)
    if encounter.state_seq >= encounter.seq:
        return state
    rows = EncounterEntry.objects.filter(
        encounter_id=encounter.pk, seq__gt=encounter.state_seq, seq__lte=encounter.seq
    )
    tail = list(rows.order_by("seq").values_list("events", "undo_to"))
    if any(undo_to is not None for _events, undo_to in tail):
        return replay_state(encounter)
    return rules.replay(state, (rules.event_from_dict(e) for events, _u in tail for e in events))


def _cached_head(pk: int, seq: int, npc_policies: Any) -> Table | None:
    with _cache_lock:
        hit = _cache.get((pk, seq))
    # Another process may have changed the NPC policies at this seq (they are outside the log).
    return hit if hit is not None and hit.npc_policies == (npc_policies or {}) else None


def forget(pk: int, seq: int) -> None:
    """Drop one remembered snapshot, and the row written with it (something outside the log
    changed at that seq)."""
    with _cache_lock:
        _cache.pop((pk, seq), None)
        _forget_row(pk, seq)


def forget_row(pk: int) -> None:
    """Drop the row remembered for the table (another process moved it on)."""
    with _cache_lock:
        _rows.pop(pk, None)


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()
        _rows.clear()


def remember(table: Table, row: Row | None = None) -> Table:
    """Keep the snapshot; `row`: the row as this process wrote it with this head."""
    with _cache_lock:
        _cache[(table.pk, table.seq)] = table
        known = _rows.get(table.pk)
        # Appends of two threads may remember their heads out of order: the newest stays.
        if row is not None and (known is None or known.seq <= row.seq):
            _rows[table.pk] = row
        while len(_cache) > CACHE_SIZE:
            (pk, seq), _dropped = _cache.popitem(last=False)
            _forget_row(pk, seq)
    return table


def written_head(pk: int) -> tuple[Row, Table] | None:
    """The row this process last wrote for the table and the head it wrote with it, while no
    later head of the table reached this process (a fan-out from another process that moved
    it on) and the head's NPC settings are still the row's. None: read the row."""
    with _cache_lock:
        row = _rows.get(pk)
        if row is None or (pk, row.seq + 1) in _cache:
            return None
        head = _cache.get((pk, row.seq))
    if head is None or head.npc_policies != row.npc_policies:
        return None
    return row, head


def _forget_row(pk: int, seq: int) -> None:
    """Under `_cache_lock`: drop the table's row if it was written at `seq`."""
    row = _rows.get(pk)
    if row is not None and row.seq == seq:
        del _rows[pk]


def _snapshot(encounter: Encounter, state: Any) -> Table:
    # An undo only takes back entries between its target and itself, so the undos that touch
    # the window's entries are in the window too.
    rows = _entry_rows(encounter.pk).filter(seq__gt=encounter.seq - LOG_WINDOW)
    return _table(encounter, state, _log_entries(rows))


def _table(encounter: Encounter, state: Any, log: tuple[LogEntry, ...]) -> Table:
    return Table(
        pk=encounter.pk,
        campaign_id=encounter.campaign_id,
        name=encounter.name,
        ruleset=encounter.ruleset,
        seq=encounter.seq,
        state=state,
        npc_policies=dict(encounter.npc_policies or {}),
        log=log,
    )


def full_log(encounter: Encounter) -> tuple[LogEntry, ...]:
    """Every entry of the encounter's log, oldest first (the log page and its export)."""
    return _log_entries(_entry_rows(encounter.pk))


def _entry_rows(encounter_id: int) -> Any:
    """(seq, command, undo_to) rows: plain tuples, since model instances from the reverse
    manager would each reload their deferred `encounter_id` (a query per row)."""
    rows = EncounterEntry.objects.filter(encounter_id=encounter_id).order_by("seq")
    return rows.values_list("seq", "command", "undo_to")


def _log_entries(rows: Iterable[tuple[int, Any, int | None]]) -> tuple[LogEntry, ...]:
    return _with_undone([(seq, _lines(command), undo_to) for seq, command, undo_to in rows])


def _lines(command: Any) -> list[Any]:
    return command.get("lines", []) if isinstance(command, dict) else []


def _with_undone(rows: Sequence[tuple[int, Any, int | None]]) -> tuple[LogEntry, ...]:
    """Log entries from (seq, lines, undo_to), each marked if an undo in `rows` took it back."""
    taken_back = undone(Step(seq, (), undo_to) for seq, _lines, undo_to in rows)
    return tuple(
        LogEntry(seq=seq, lines=lines, undo_to=undo_to, undone=seq in taken_back)
        for seq, lines, undo_to in rows
    )


def next_snapshot(
    encounter: Encounter, state: Any, previous: Table, lines: Any, undo_to: int | None
) -> Table:
    """The head after appending entry `encounter.seq` to `previous`: the log window moves on
    by one entry without a query; which entries count as undone is recomputed over the
    window, as a load would."""
    lines = json.loads(json.dumps(lines))  # as a load reads them back (lists, not tuples)
    first = encounter.seq - LOG_WINDOW
    rows = [(e.seq, e.lines, e.undo_to) for e in previous.log if e.seq > first]
    return _table(encounter, state, _with_undone([*rows, (encounter.seq, lines, undo_to)]))


def advance(pk: int, seq: int, entry: Mapping[str, Any]) -> Table | None:
    """The head at `seq` built from the remembered head at `seq - 1` and the entry appended
    after it (as `publishing.entry_of` carries it), remembered, without a query. None when
    this process does not hold the head before it, the entry is an undo (its state is a fold
    from further back) or its events are not the table's ruleset's: a load reads that head from
    the database instead."""
    with _cache_lock:
        done, previous = _cache.get((pk, seq)), _cache.get((pk, seq - 1))
    if done is not None:
        return done  # this process appended it, or heard of it already
    if previous is None or entry.get("undo_to") is not None:
        return None
    rules, state = get_ruleset(previous.ruleset), previous.state
    try:
        for event in entry["events"]:  # as the append folded them (`evolve` never mutates)
            state = rules.evolve(state, rules.event_from_dict(event))
    except (KeyError, TypeError, ValueError):  # not this table's entry: never trusted blindly
        return None
    first = seq - LOG_WINDOW
    rows = [(e.seq, e.lines, e.undo_to) for e in previous.log if e.seq > first]
    log = _with_undone([*rows, (seq, json.loads(json.dumps(entry["lines"])), None)])
    policies = dict(entry.get("npc_policies") or {})
    table = dataclasses.replace(previous, seq=seq, state=state, npc_policies=policies, log=log)
    return remember(table)


def replay_state(encounter: Encounter) -> Any:
    """The state folded from the whole log up to `encounter.seq` (for checks: it equals
    `head_state`)."""
    entries = encounter.entries.filter(seq__lte=encounter.seq).order_by("seq")
    rows = entries.values_list("seq", "events", "undo_to")
    return fold(encounter.rules(), encounter.initial, [Step(s, e, u) for s, e, u in rows])
