"""Running the live table: check a command, decide it with the ruleset, append, publish.

Every change goes through `_append`: it locks the encounter's row, lets the ruleset decide
against the head state, and inserts entry `seq + 1` (the unique `(encounter, seq)` constraint
is the backstop). Appends to one table queue on that lock, so two browsers or two server
processes never interleave and nothing is appended twice: a command id already in the log
(the unique `(encounter, command_id)` constraint tells) returns its entry instead of a second
one. The fan-out message goes out after commit and names only the table and its new seq; each
process renders the views of the sockets it holds (`combat.fragments`, `combat.consumers`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from threading import Lock
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from characters.models import Campaign, Character, CreatureTemplate
from combat import threads
from combat.hub import group_of
from combat.log import Step, fold, undone
from combat.models import Encounter, EncounterEntry
from combat.rules import Ruleset, RuleViolation, get_ruleset
from combat.rules.base import fill
from combat.rules.dice import RNG

log = logging.getLogger(__name__)

LOG_WINDOW = 60  # log entries a page shows; older ones are in the full log
MAX_AUTO_ANSWERS = 12

_system_rng = random.SystemRandom()


class Refused(Exception):  # noqa: N818 - a refusal shown to the one who asked
    """A command the table will not run; `message` is readable, the log is unchanged."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Viewer:
    """Who looks at (and commands) a table: the GM sees and runs everything."""

    user_id: int
    is_gm: bool

    @property
    def controller(self) -> str:
        return str(self.user_id)


@dataclass(frozen=True)
class LogEntry:
    seq: int
    lines: Sequence[Mapping[str, Any]]
    undo_to: int | None
    undone: bool


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


@dataclass(frozen=True)
class Appended:
    seq: int
    duplicate: bool = False
    head: int | None = None  # the seq after the NPC answers the command set off, if known


# --- reading --------------------------------------------------------------------------------

_cache: OrderedDict[tuple[int, int], Table] = OrderedDict()
_cache_lock = Lock()
CACHE_SIZE = 256


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
    return _remember(_snapshot(encounter, encounter.rules().state_from_dict(encounter.state)))


def _cached_head(pk: int, seq: int, npc_policies: Any) -> Table | None:
    with _cache_lock:
        hit = _cache.get((pk, seq))
    # Another process may have changed the NPC policies at this seq (they are outside the log).
    return hit if hit is not None and hit.npc_policies == (npc_policies or {}) else None


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()


def _remember(table: Table) -> Table:
    with _cache_lock:
        _cache[(table.pk, table.seq)] = table
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return table


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


def _next_snapshot(
    encounter: Encounter, state: Any, previous: Table, lines: Any, undo_to: int | None
) -> Table:
    """The head after appending entry `encounter.seq` to `previous`: the log window moves on
    by one entry without a query; which entries count as undone is recomputed over the
    window, as a load would."""
    lines = json.loads(json.dumps(lines))  # as a load reads them back (lists, not tuples)
    first = encounter.seq - LOG_WINDOW
    rows = [(e.seq, e.lines, e.undo_to) for e in previous.log if e.seq > first]
    return _table(encounter, state, _with_undone([*rows, (encounter.seq, lines, undo_to)]))


def replay_state(encounter: Encounter) -> Any:
    """The state folded from the whole log (for checks: it equals the stored head state)."""
    rows = encounter.entries.order_by("seq").values_list("seq", "events", "undo_to")
    return fold(encounter.rules(), encounter.initial, [Step(s, e, u) for s, e, u in rows])


# --- writing --------------------------------------------------------------------------------


def create_encounter(*, campaign: Campaign, name: str, by: User) -> Encounter:
    """A new table in its setup phase, with the campaign's table settings at this moment."""
    rules = campaign.rules()
    initial = rules.state_to_dict(rules.new_encounter(campaign.settings, []))
    return Encounter.objects.create(
        campaign=campaign,
        name=name,
        ruleset=campaign.ruleset,
        initial=initial,
        state=initial,
        created_by=by,
    )


def run_command(
    encounter_id: int,
    command: Mapping[str, Any],
    *,
    viewer: Viewer,
    command_id: str | None = None,
    seen_seq: int | None = None,
    rng: RNG | None = None,
    now: float | None = None,
    answer_npcs: bool = True,
) -> Appended:
    """Decide one ruleset command (a dict with "type") for this viewer and append its events;
    then let NPCs with an automatic policy answer any prompt it opened (`answer_npcs`).

    The server's clock replaces any `now` the client sent; the viewer must control the actor.
    """

    def decide(rules: Ruleset, table: Table, moment: float) -> list[Any]:
        parsed = _parse(rules, {**command, "now": moment})
        authorise(rules, table.state, viewer, parsed)
        if seen_seq is not None and seen_seq != table.seq and rules.needs_fresh_state(parsed):
            raise Refused(
                "nieaktualne",
                _("Stan stołu zmienił się w międzyczasie: sprawdź go i spróbuj jeszcze raz."),
            )
        return _decide(rules, table.state, parsed, rng)

    appended = _append(
        encounter_id,
        decide,
        viewer=viewer,
        command_id=command_id,
        summary={"type": command.get("type")},
        now=now,
    )
    if answer_npcs and not appended.duplicate:
        head = answer_automatic_prompts(encounter_id, rng=rng, now=now, seq=appended.seq)
        return dataclasses.replace(appended, head=head)
    return appended


def add_combatants(
    encounter_id: int,
    *,
    viewer: Viewer,
    characters: Sequence[int] = (),
    creatures: Mapping[int, int] | None = None,
    side: str | None = None,
    hidden: bool = False,
    command_id: str | None = None,
) -> Appended:
    """GM: campaign characters and bestiary creatures ×n join; creatures are numbered on."""
    if not viewer.is_gm:
        raise Refused("tylko_mg", _("Tylko Mistrz Gry może to zrobić."))
    encounter = Encounter.objects.select_related("campaign").get(pk=encounter_id)
    chosen = list(Character.objects.filter(campaign=encounter.campaign, pk__in=list(characters)))
    if len(chosen) != len(set(characters)):
        raise Refused("postac", _("Nie ma takiej postaci w tej kampanii."))
    counts = dict(creatures or {})
    templates = {
        t.pk: t
        for t in CreatureTemplate.objects.filter(pk__in=list(counts)).filter(
            ruleset=encounter.ruleset
        )
        if t.campaign_id in (None, encounter.campaign_id)
    }
    if set(counts) - set(templates):
        raise Refused("stwor", _("Nie ma takiego stwora w bestiariuszu."))

    def decide(rules: Ruleset, table: Table, moment: float) -> list[Any]:
        state = table.state
        joining = [_character_dict(c, side, hidden) for c in chosen]
        taken = {c.name for c in state.combatants.values()} | {j["name"] for j in joining}
        for pk, count in counts.items():
            joining += _creature_dicts(templates[pk], count, taken, side, hidden)
        if not joining:
            raise Refused("pusto", _("Wybierz, kto dołącza do starcia."))
        events: list[Any] = []
        for data in joining:
            command = rules.command_from_dict(
                {"type": "join_combat", "combatant": data, "now": moment}
            )
            events += _decide(rules, _evolve_all(rules, state, events), command, None)
        return events

    return _append(
        encounter_id,
        decide,
        viewer=viewer,
        command_id=command_id,
        summary={"type": "add_combatants"},
    )


def undo(
    encounter_id: int, *, viewer: Viewer, to_seq: int, command_id: str | None = None
) -> Appended:
    """GM: take the log back to just after entry `to_seq` (an entry itself; nothing erased)."""
    if not viewer.is_gm:
        raise Refused("tylko_mg", _("Tylko Mistrz Gry może to zrobić."))
    with transaction.atomic():
        encounter = _lock(encounter_id, initial=True)
        duplicate = _duplicate(encounter.pk, command_id)
        if duplicate is not None:
            return duplicate
        if not 0 <= to_seq < encounter.seq:
            raise Refused("cofnij", _("Nie można cofnąć do tego miejsca."))
        rows = encounter.entries.filter(seq__lte=to_seq).values_list("seq", "events", "undo_to")
        state = fold(encounter.rules(), encounter.initial, [Step(s, e, u) for s, e, u in rows])
        summary = {"type": "undo", "lines": []}
        previous = load_table(encounter_id, encounter.seq)
        return _commit(encounter, previous, state, viewer, command_id, [], summary, to_seq)


def set_npc_policy(encounter_id: int, *, viewer: Viewer, combatant: str, policy: str) -> None:
    """GM: how an NPC answers its reaction prompts ("ask" = the GM answers by hand)."""
    if not viewer.is_gm:
        raise Refused("tylko_mg", _("Tylko Mistrz Gry może to zrobić."))
    with transaction.atomic():
        encounter = _lock(encounter_id)
        if policy not in dict(encounter.rules().reaction_policies()):
            raise Refused("polityka", _("Nieznany sposób reagowania."))
        if combatant not in load_table(encounter_id, encounter.seq).state.combatants:
            raise Refused("postac", _("Nie ma takiej postaci w tym starciu."))
        encounter.npc_policies = {**encounter.npc_policies, combatant: policy}
        encounter.save(update_fields=["npc_policies", "updated"])
        seq = encounter.seq

        def changed() -> None:
            # The policies are part of the snapshot: drop this seq's cached copy once the
            # change is visible (not before, or a reload could cache the old one), then push.
            with _cache_lock:
                _cache.pop((encounter_id, seq), None)
            publish(encounter_id, seq, force=True)

        transaction.on_commit(changed, robust=True)
    answer_automatic_prompts(encounter_id)


def resolve_expired(encounter_id: int, *, now: float | None = None) -> Appended | None:
    """Close the prompts whose deadline passed, as "no reaction"; whoever notices first wins.

    The command id is derived from the deadline, so every process and socket that notices the
    same deadline asks for the same entry and it is appended once."""
    moment = time.time() if now is None else now
    table = load_table(encounter_id)
    rules = get_ruleset(table.ruleset)
    deadline = rules.next_deadline(table.state)
    if deadline is None or deadline > moment:
        return None
    command = rules.command_to_dict(rules.expire_command(moment))
    gm = Viewer(user_id=0, is_gm=True)
    return run_command(
        encounter_id, command, viewer=gm, command_id=f"expire-{deadline!r}", now=moment
    )


def answer_automatic_prompts(
    encounter_id: int,
    *,
    rng: RNG | None = None,
    now: float | None = None,
    seq: int | None = None,
) -> int | None:
    """Answer open prompts of NPCs whose policy is automatic, one entry per answer; the seq
    the table is left at (None after MAX_AUTO_ANSWERS answers: it may not be the head).

    `seq`: the entry just appended, whose snapshot is cached (no query on every command)."""
    for _round in range(MAX_AUTO_ANSWERS):
        table = load_table(encounter_id, seq)
        rules = get_ruleset(table.ruleset)
        moment = time.time() if now is None else now
        command = _automatic_answer(rules, table, moment)
        if command is None:
            return table.seq
        try:
            seq = run_command(
                encounter_id,
                rules.command_to_dict(command),
                viewer=Viewer(user_id=0, is_gm=True),
                command_id=f"auto-{table.seq}",
                rng=rng,
                now=moment,
                answer_npcs=False,  # this loop answers the prompts the answer opens
            ).seq
        except Refused:
            return table.seq
    return None


def _automatic_answer(rules: Ruleset, table: Table, moment: float) -> Any | None:
    for prompt in rules.open_prompts(table.state):
        combatant = table.state.combatants[prompt.actor]
        if combatant.controller is not None:
            continue
        policy = table.npc_policies.get(prompt.actor, "ask")
        command = rules.auto_answer(table.state, prompt.id, policy, moment)
        if command is not None:
            return command
    return None


# --- the append path ------------------------------------------------------------------------

Decider = Callable[[Ruleset, "Table", float], list[Any]]


def _append(
    encounter_id: int,
    decide: Decider,
    *,
    viewer: Viewer,
    command_id: str | None,
    summary: dict[str, Any],
    now: float | None = None,
) -> Appended:
    """Decide and append under the row lock. A command id already in the log gets its entry
    back instead of a second one: the unique (encounter, command_id) constraint refuses the
    insert, or, for a command sent again that the rules now refuse (its turn has ended), the
    refusal looks it up. Fresh ids, nearly every command, so cost no query for the check."""
    try:
        with transaction.atomic():
            encounter = _lock(encounter_id)
            rules = encounter.rules()
            table = load_table(encounter_id, encounter.seq)
            moment = time.time() if now is None else now
            try:
                events = decide(rules, table, moment)
            except Refused:
                duplicate = _duplicate(encounter.pk, command_id)
                if duplicate is not None:
                    return duplicate
                raise
            state, lines = _fold_with_lines(rules, table.state, events)
            data = [rules.event_to_dict(e) for e in events]
            command = {**summary, "lines": lines}
            return _commit(encounter, table, state, viewer, command_id, data, command)
    except IntegrityError:
        duplicate = _duplicate(encounter_id, command_id)
        if duplicate is None:
            raise
        return duplicate


def _lock(encounter_id: int, *, initial: bool = False) -> Encounter:
    """The encounter row, locked until the transaction ends: appends to one table queue here
    (SELECT … FOR UPDATE on PostgreSQL; SQLite's IMMEDIATE transactions lock the database).

    Without its JSON state (the cached head has it decoded) and, unless asked, its initial
    state: parsing both cost more than the rest of the query."""
    deferred = ("state",) if initial else ("state", "initial")
    try:
        return Encounter.objects.select_for_update().defer(*deferred).get(pk=encounter_id)
    except Encounter.DoesNotExist:
        raise Refused("brak_starcia", _("Tego starcia już nie ma.")) from None


def _commit(
    encounter: Encounter,
    previous: Table,
    state: Any,
    viewer: Viewer,
    command_id: str | None,
    events: list[dict[str, Any]],
    command: dict[str, Any],
    undo_to: int | None = None,
) -> Appended:
    """Insert entry seq + 1 under the row lock; publish and cache the new head after commit.

    `previous` is the head at `encounter.seq`, which the new snapshot extends."""
    rules = encounter.rules()
    seq = encounter.seq + 1
    state_data = rules.state_to_dict(state)
    moved = Encounter.objects.filter(pk=encounter.pk, seq=encounter.seq).update(
        seq=seq, state=state_data, phase=_phase(state)
    )
    if not moved:  # the lock makes this impossible; the unique (encounter, seq) agrees
        raise RuntimeError(f"encounter {encounter.pk} moved past {encounter.seq} under its lock")
    EncounterEntry.objects.create(
        encounter=encounter,
        seq=seq,
        command_id=command_id,
        command=command,
        events=events,
        undo_to=undo_to,
        user_id=viewer.user_id or None,
    )
    encounter.seq = seq
    encounter.state = state_data
    snapshot = _next_snapshot(encounter, state, previous, command.get("lines", []), undo_to)
    transaction.on_commit(lambda: _remember(snapshot))
    transaction.on_commit(lambda: publish(encounter.pk, seq), robust=True)
    return Appended(seq=seq)


def _duplicate(encounter_id: int, command_id: str | None) -> Appended | None:
    if command_id is None:
        return None
    earlier = EncounterEntry.objects.filter(encounter_id=encounter_id, command_id=command_id)
    seq = next(iter(earlier.order_by().values_list("seq", flat=True)[:1]), None)
    return None if seq is None else Appended(seq=seq, duplicate=True)


def publish(encounter_id: int, seq: int, *, force: bool = False) -> None:
    """Tell every socket of the table (in every process) that the log reached `seq`;
    `force`: something outside the log changed (an NPC policy), render again anyway.

    In the server's sync thread the message is handed to the event loop without waiting for
    Redis: every table of the process renders in that one thread, and waiting held it ~2 ms
    per command (seconds while Redis is down). Elsewhere it is sent before returning."""
    layer = get_channel_layer()
    if layer is None:
        return
    group = group_of(encounter_id)
    message = {"type": "table.changed", "seq": seq, "force": force}
    loop = threads.event_loop() or getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is not None and loop.is_running():
        sent = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
        sent.add_done_callback(_report_failure)
    else:
        async_to_sync(layer.group_send)(group, message)


def _report_failure(sent: Future[None]) -> None:
    if not sent.cancelled() and sent.exception() is not None:
        log.error("publishing to a table failed", exc_info=sent.exception())


def _fold_with_lines(
    rules: Ruleset, state: Any, events: list[Any]
) -> tuple[Any, list[dict[str, Any]]]:
    """The state after the events, and a log line for each (described against the state
    before it, so names and numbers read as they were at that moment)."""
    lines = []
    for event in events:
        line = rules.describe(state, event)
        if line is not None:
            lines.append(dataclasses.asdict(line))
        state = rules.evolve(state, event)
    return state, lines


def _evolve_all(rules: Ruleset, state: Any, events: list[Any]) -> Any:
    for event in events:
        state = rules.evolve(state, event)
    return state


def _phase(state: Any) -> str:
    phase = getattr(state, "phase", "setup")
    if phase == "ended":
        return Encounter.Phase.ENDED
    return Encounter.Phase.SETUP if phase == "setup" else Encounter.Phase.ACTIVE


def _parse(rules: Ruleset, data: Mapping[str, Any]) -> Any:
    try:
        return rules.command_from_dict(data)
    except (ValueError, TypeError) as exc:
        raise Refused("schemat", _("Błędne polecenie: %(detail)s") % {"detail": exc}) from None


def _decide(rules: Ruleset, state: Any, command: Any, rng: RNG | None) -> list[Any]:
    try:
        return rules.decide(state, command, rng or _system_rng)
    except RuleViolation as refusal:
        # The rules give a Polish msgid and its values: shown in the viewer's language, or as
        # the rules said it when the translation does not format.
        message = refusal.message
        if refusal.template:
            message = fill(_(refusal.template), refusal.params, refusal.message)
        raise Refused(refusal.code, message) from None


def authorise(rules: Ruleset, state: Any, viewer: Viewer, command: Any) -> None:
    """The GM commands everyone; a player only the characters they control, within the rules,
    and never a value only the GM judges (a difficulty, a fall)."""
    if viewer.is_gm:
        return
    actor = rules.command_actor(command)
    if actor is None:
        raise Refused("tylko_mg", _("Tylko Mistrz Gry może to zrobić."))
    combatant = state.combatants.get(actor)
    if combatant is None or combatant.controller != viewer.controller:
        raise Refused("nie_twoja", _("To nie twoja postać."))
    target = getattr(command, "target", None)
    if isinstance(target, str) and not _seen_by_players(state, target):
        # As for an id that does not exist: a player may not probe for hidden combatants.
        raise Refused("postac", _("Nie ma takiej postaci: %(id)s") % {"id": target})
    judged = rules.gm_judged_fields(command)
    if judged:
        raise Refused(
            "ocena_mg",
            _("Tylko Mistrz Gry ustala: %(fields)s.") % {"fields": ", ".join(judged)},
        )


def _seen_by_players(state: Any, cid: str) -> bool:
    combatant = state.combatants.get(cid)
    return combatant is not None and not combatant.hidden


def _character_dict(c: Character, side: str | None, hidden: bool) -> dict[str, Any]:
    return {
        "id": f"c{c.pk}",
        "name": c.name,
        "side": side or ("przeciwnicy" if c.is_npc else "druzyna"),
        "sheet": c.sheet_data(),
        "controller": None if c.is_npc or c.owner_id is None else str(c.owner_id),
        "hidden": hidden and c.is_npc,
    }


def _creature_dicts(
    t: CreatureTemplate, count: int, taken: set[str], side: str | None, hidden: bool
) -> list[dict[str, Any]]:
    """Numbered on from the highest "Name n" already at the table: Wilk 4, Wilk 5…"""
    used = [int(n) for n in (x.removeprefix(f"{t.name} ") for x in taken) if n.isdigit()]
    start = max(used, default=0) + 1
    result = []
    for n in range(start, start + count):
        name = f"{t.name} {n}"
        taken.add(name)
        result.append(
            {
                "id": f"t{t.pk}-{n}",
                "name": name,
                "side": side or "przeciwnicy",
                "sheet": {**t.sheet, "name": t.name},
                "controller": None,
                "hidden": hidden,
            }
        )
    return result
