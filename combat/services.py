"""Running the live table: check a command, decide it with the ruleset, append, publish.

Every change goes through `_append`: it lets the ruleset decide against the head state and
inserts entry `seq + 1`, moving the row on from `seq` in a conditional UPDATE (the unique
`(encounter, seq)` constraint is the backstop). The process that wrote the head (the one
holding the table's sockets) decides on it as it remembers it, the UPDATE's condition the
guard; any other append, and one whose guard failed, locks the row first and queues there. So
two browsers or two server processes never interleave and nothing is appended twice: a command
id already in the log (the unique `(encounter, command_id)` constraint tells) returns its entry
instead of a second one. The fan-out message goes out after commit, through the hook the
live layer registers (`combat.publishing`): it names the table and its new seq and carries the
entry, from which a process holding the head before it builds the new one; each process
renders the views of the sockets it holds (`combat.fragments`, `combat.live`).
"""

from __future__ import annotations

import dataclasses
import random
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from characters.models import Campaign, Character, CreatureTemplate
from combat import clock, posts, publishing, roster, snapshots, verify
from combat.access import GM, Refused, Sight, Viewer, authorise, sight
from combat.log import Step, effective, fold
from combat.models import Encounter, EncounterEntry
from combat.rules import naming
from combat.rules.base import (
    LogLine,
    Ruleset,
    RuleViolation,
    autoplay_of,
    battle_maps_of,
    prompts_of,
)
from combat.rules.battlemap import MAX_PAINT, BattleMap, Look, Paint, Resize
from combat.rules.dice import RNG
from combat.rules.registry import get_ruleset
from combat.snapshots import (
    AUTOPLAY,
    LOG_WINDOW,
    THIS_TURN,
    Table,
    clear_cache,
    full_log,
    load_table,
    replay_state,
)

# Re-exported: the pages, the sockets and the tests reach the table through this module.
__all__ = [
    "LOG_WINDOW",
    "Refused",
    "Table",
    "Viewer",
    "clear_cache",
    "full_log",
    "load_table",
    "replay_state",
]

MAX_AUTO_STEPS = 64  # automatic answers and NPC moves set off by one command, at most
RESUME_MINIMUM = 5.0  # seconds an undo leaves at least on a prompt it brings back


class _SystemDice(random.SystemRandom):
    """The system's random source, for an encounter from before the seeds: its ids (`token`)
    are as unguessable as those the seeded dice give."""

    def token(self) -> str:
        return secrets.token_hex(8)


_system_rng = _SystemDice()


@dataclass(frozen=True)
class Appended:
    seq: int
    duplicate: bool = False
    head: int | None = None  # the seq after the NPC answers the command set off, if known


def create_encounter(*, campaign: Campaign, name: str, by: User) -> Encounter:
    """A new table in its setup phase, with the campaign's table settings at this moment."""
    rules = campaign.rules()
    initial = rules.state_to_dict(rules.new_encounter(campaign.settings, []))
    # Its dice: two secret seeds, committed by their hashes from now on (combat/verify.py).
    seed, gm_seed = verify.new_seed(), verify.new_seed()
    return Encounter.objects.create(
        campaign=campaign,
        name=name,
        ruleset=campaign.ruleset,
        initial=initial,
        state=initial,
        created_by=by,
        seed=seed,
        seed_hash=verify.commitment(seed),
        gm_seed=gm_seed,
        gm_seed_hash=verify.commitment(gm_seed),
    )


def copy_encounter(*, source: Encounter, by: User, name: str) -> Encounter:
    """A new encounter in its setup, with fresh dice, whose log lays `source`'s battle map
    (size, terrain, background, picture), seats its line-up (campaign characters and bestiary
    creatures on their sides, hidden or not) and puts their tokens on the same fields: the
    GM's own services, one entry each. Seats whose character or creature is gone from the
    campaign, and seats of neither kind, are left out. All of it or nothing (one
    transaction); `by` must be the campaign's GM (the view checks)."""
    viewer = Viewer(user_id=by.pk, is_gm=True)
    old = load_table(source.pk)
    with transaction.atomic():
        new = create_encounter(campaign=source.campaign, name=name, by=by)
        seats = _copy_lineup(new, old.view.seats.values(), viewer)
        maps = battle_maps_of(new.rules())
        laid = maps.battle_map(old.state) if maps is not None else None
        if laid is not None:
            _copy_map(new.pk, laid, viewer)
            for seat in old.view.seats.values():
                if seat.position is not None and seat.id in seats:
                    place_token(new.pk, viewer=viewer, seat=seats[seat.id], to=seat.position)
    return new


def _copy_lineup(new: Encounter, seats: Iterable[Any], viewer: Viewer) -> dict[str, str]:
    """Each seat added to `new` as the GM adds it: the characters in their order, then the
    creatures by their number (so Wilk 1 is Wilk 1 again). {old seat id: new seat id}."""
    templates = set(
        CreatureTemplate.objects.filter(ruleset=new.ruleset)
        .filter(Q(campaign=None) | Q(campaign=new.campaign_id))
        .values_list("pk", flat=True)
    )
    characters = set(new.campaign.characters.values_list("pk", flat=True))
    copied: dict[str, str] = {}
    for seat in sorted(seats, key=lambda s: roster.copy_order(s.id, s.name)):
        lineup = roster.lineup_of([(seat.id, roster.PARTY)])
        ids = [pk for pk in lineup.party if pk in characters]
        creatures = {pk: n for pk, n in lineup.creatures.items() if pk in templates}
        if not ids and not creatures:
            continue
        before = set(load_table(new.pk).view.seats)
        tag = naming.tag_of(seat.name)  # a hidden creature keeps its placeholder
        add_combatants(new.pk, viewer=viewer, characters=ids, creatures=creatures,
                       side=seat.side, hidden=seat.hidden, tags=[tag] if tag else [])  # fmt: skip
        (added,) = set(load_table(new.pk).view.seats) - before
        copied[seat.id] = added
    return copied


def _copy_map(encounter_id: int, m: BattleMap, viewer: Viewer) -> None:
    """Lay a map like `m` on a table without one: its size, its look, its painted fields."""
    edit_map(encounter_id, viewer=viewer, edit=Resize(m.width, m.height))
    if (m.background, m.image) != (Look().background, Look().image):
        edit_map(encounter_id, viewer=viewer, edit=Look(m.background, m.image))
    layers = {"wall": m.walls, "obstacle": m.obstacles, "difficult": m.difficult,
              "dark1": m.dark1, "dark2": m.dark2, "dark3": m.dark3}  # fmt: skip
    for tool, fields in layers.items():
        for start in range(0, len(fields), MAX_PAINT):
            paint = Paint(tool, tuple(fields[start : start + MAX_PAINT]))  # type: ignore[arg-type]
            edit_map(encounter_id, viewer=viewer, edit=paint)


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

    def decide(rules: Ruleset, table: Table, moment: float, dice: EntryRolls) -> list[Any]:
        parsed = _parse(rules, {**command, "now": moment})
        authorise(rules, table.view, viewer, parsed)
        if seen_seq is not None and seen_seq != table.seq and rules.needs_fresh_state(parsed):
            raise Refused(
                "nieaktualne",
                _("Stan stołu zmienił się w międzyczasie: sprawdź go i spróbuj jeszcze raz."),
            )
        return dice.decide(table.state, parsed)

    appended = _append(
        encounter_id,
        decide,
        viewer=viewer,
        command_id=command_id,
        summary={"type": command.get("type")},
        now=now,
        rng=rng,
    )
    if answer_npcs and not appended.duplicate:
        head = answer_automatic_prompts(encounter_id, rng=rng, now=now, seq=appended.seq)
        return dataclasses.replace(appended, head=head)
    return appended


def place_token(
    encounter_id: int,
    *,
    viewer: Viewer,
    seat: str,
    to: tuple[int, int] | None,
    command_id: str | None = None,
) -> Appended:
    """GM: a seat's token onto a field of the battle map (None: off it)."""
    return _on_map(
        encounter_id, viewer, command_id, lambda maps, now: maps.place_command(seat, to, now)
    )


def edit_map(
    encounter_id: int, *, viewer: Viewer, edit: Any, command_id: str | None = None
) -> Appended:
    """GM: one `battlemap.Edit` of the table's map."""
    return _on_map(encounter_id, viewer, command_id, lambda maps, now: maps.map_command(edit, now))


def _on_map(
    encounter_id: int, viewer: Viewer, command_id: str | None, build: Callable[[Any, float], Any]
) -> Appended:
    """Run the ruleset's own map command that `build(maps, now)` makes, as any command runs."""
    rules = get_ruleset(load_table(encounter_id).ruleset)
    maps = battle_maps_of(rules)
    if maps is None:
        raise Refused("brak_mapy", _("W tym systemie nie ma mapy."))
    command = rules.command_to_dict(build(maps, clock.now()))
    return run_command(encounter_id, command, viewer=viewer, command_id=command_id)


def add_combatants(
    encounter_id: int,
    *,
    viewer: Viewer,
    characters: Sequence[int] = (),
    creatures: Mapping[int, int] | None = None,
    side: str | None = None,
    hidden: bool = False,
    command_id: str | None = None,
    tags: Sequence[str] = (),
) -> Appended:
    """GM: campaign characters and bestiary creatures ×n join; creatures are numbered on
    among those the players are shown, the hidden named by a placeholder (`tags` first:
    `roster.creature_combatants`)."""
    if not viewer.is_gm:
        raise Refused("tylko_mg", _("Tylko Mistrz Gry może to zrobić."))
    encounter = Encounter.objects.select_related("campaign").get(pk=encounter_id)
    found = Character.objects.filter(campaign=encounter.campaign, pk__in=list(characters))
    # In the order the GM listed them (a database returns them in any order it likes).
    chosen = sorted(found, key=lambda c: list(characters).index(c.pk))
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

    def decide(rules: Ruleset, table: Table, moment: float, dice: EntryRolls) -> list[Any]:
        state = table.state
        joining = [roster.character_combatant(c, side, hidden) for c in chosen]
        names = {seat.name for seat in table.view.seats.values()}
        taken = names | {j["name"] for j in joining}
        ids = set(table.view.seats) | {j["id"] for j in joining}
        for pk, count in counts.items():
            joining += roster.creature_combatants(
                templates[pk], count, taken, side, hidden, ids=ids, tags=tags
            )
        if not joining:
            raise Refused("pusto", _("Wybierz, kto dołącza do starcia."))
        events: list[Any] = []
        for data in joining:
            command = rules.join_command(data, moment)
            # Every join of the entry draws from the one entry's dice, one after another.
            events += dice.decide(_evolve_all(rules, state, events), command)
        return events

    return _append(
        encounter_id,
        decide,
        viewer=viewer,
        command_id=command_id,
        summary={"type": "add_combatants"},
    )


def undo(
    encounter_id: int,
    *,
    viewer: Viewer,
    to_seq: int,
    command_id: str | None = None,
    now: float | None = None,
) -> Appended:
    """GM: take the log back to just after entry `to_seq` (an entry itself; nothing erased).

    The prompts it brings back get the time they had left when the log moved on from them
    (`Ruleset.resume`, in the undo's own entry, so a replay agrees), and nothing is answered
    or played automatically until the next command: the GM undid to change something."""
    if not viewer.is_gm:
        raise Refused("tylko_mg", _("Tylko Mistrz Gry może to zrobić."))
    moment = clock.now() if now is None else now
    with transaction.atomic():
        encounter = _lock(encounter_id, initial=True)
        duplicate = _duplicate(encounter.pk, command_id)
        if duplicate is not None:
            return duplicate
        if not 0 <= to_seq < encounter.seq:
            raise Refused("cofnij", _("Nie można cofnąć do tego miejsca."))
        rules = encounter.rules()
        entries = encounter.entries.filter(seq__lte=to_seq)
        rows = list(entries.values_list("seq", "events", "undo_to", "slot"))
        steps = [Step(s, e, u) for s, e, u, _slot in rows]
        state = fold(rules, encounter.initial, steps)
        _refuse_unending(rules, encounter, state)
        # The dice go back with the entries: the entry redone next draws the same ones.
        encounter.slot = _slot_in_force(steps, {s: slot for s, _e, _u, slot in rows})
        paused_at = _entry_time(encounter.pk, to_seq + 1)
        events = rules.resume(state, paused_at=paused_at, now=moment, minimum=RESUME_MINIMUM)
        state, lines = _fold_with_lines(rules, state, events)
        data = [rules.event_to_dict(e) for e in events]
        summary = {"type": "undo", "lines": lines, "at": moment}
        # "Zagraj turę" asked for a turn the undo may bring back: the GM decides anew. The
        # undo's own push carries the change.
        once = [k for k in encounter.npc_policies or {} if k.startswith(THIS_TURN)]
        if once:
            _store_npc_settings(encounter, dict.fromkeys(once))
        previous = load_table(encounter_id, encounter.seq)
        return _commit(encounter, previous, state, viewer, command_id, data, summary, to_seq)


def _refuse_unending(rules: Ruleset, encounter: Encounter, state: Any) -> None:
    """An ended fight's seed is public (`verify.seed_revealed`): no step may take it back
    before its end, where anyone could foretell its dice."""
    if verify.seed_revealed(encounter) and rules.table_view(state).stage != "ended":
        raise Refused(
            "ziarno_jawne",
            _(
                "Starcie jest zakończone, a jego ziarno kości zostało ujawnione: "
                "nie można cofnąć go sprzed końca."
            ),
        )


def _refuse_foreign_picture(rules: Ruleset, encounter: Encounter, before: Any, after: Any) -> None:
    """A map picture is a storage path the GM's command names: a new one must be in this
    campaign's own upload folder (`maps/<campaign>/<file>`, where the upload view stores it),
    never another campaign's picture or any other file on the server."""
    maps = battle_maps_of(rules)
    laid = maps.battle_map(after) if maps is not None else None
    if maps is None or laid is None or not laid.image:
        return
    old = maps.battle_map(before)
    if old is not None and old.image == laid.image:
        return
    folder, _slash, name = laid.image.rpartition("/")
    if folder != f"maps/{encounter.campaign_id}" or not name:
        raise Refused("obraz_mapy", _("Obraz mapy musi pochodzić z tej kampanii."))


def _slot_in_force(steps: Sequence[Step], slots: Mapping[int, int | None]) -> int:
    """The slot of the last entry in force after `steps` (0: none drew from a seed)."""
    drawn = (slots.get(step.seq) for step in effective(steps))
    return next((slot for slot in reversed(list(drawn)) if slot is not None), 0)


def _entry_time(encounter_id: int, seq: int) -> float:
    """When entry `seq` was appended: the moment the log moved on from the state before it
    (the clock its command ran with; the row's creation time for entries older than that)."""
    command, created = EncounterEntry.objects.values_list("command", "created").get(
        encounter_id=encounter_id, seq=seq
    )
    at = command.get("at") if isinstance(command, dict) else None
    return float(at) if isinstance(at, int | float) else created.timestamp()


def set_npc_policy(encounter_id: int, *, viewer: Viewer, combatant: str, policy: str) -> None:
    """GM: how an NPC answers its reaction prompts ("ask" = the GM answers by hand)."""
    if not viewer.is_gm:
        raise Refused("tylko_mg", _("Tylko Mistrz Gry może to zrobić."))
    with transaction.atomic():
        encounter = _lock(encounter_id)
        prompts = prompts_of(encounter.rules())
        if prompts is None or policy not in dict(prompts.reaction_policies()):
            raise Refused("polityka", _("Nieznany sposób reagowania."))
        _require_seat(encounter, combatant)
        _save_npc_settings(encounter, {combatant: policy})
    answer_automatic_prompts(encounter_id)


def set_autoplay(encounter_id: int, *, viewer: Viewer, combatant: str, policy: str) -> None:
    """GM: an NPC plays every turn by itself by this policy ("gra sama"; "" = the GM plays
    it). Each of its steps is an ordinary command in the log; marking it in its own turn
    plays that turn at once."""
    if not viewer.is_gm:
        raise Refused("tylko_mg", _("Tylko Mistrz Gry może to zrobić."))
    with transaction.atomic():
        encounter = _lock(encounter_id)
        autoplay = autoplay_of(encounter.rules())
        if autoplay is None or (policy and policy not in dict(autoplay.autoplay_policies())):
            raise Refused("gra_sama", _("Ten system nie gra postaciami sam."))
        _require_seat(encounter, combatant, npc=True)
        _save_npc_settings(encounter, {AUTOPLAY + combatant: policy or None})
    answer_automatic_prompts(encounter_id)


def play_turn(
    encounter_id: int, *, viewer: Viewer, combatant: str, policy: str | None = None
) -> Appended:
    """GM: the table plays this NPC's current turn to its end ("Zagraj turę"), each step an
    ordinary command; when it must wait (a player's prompt) it goes on after the answer."""
    if not viewer.is_gm:
        raise Refused("tylko_mg", _("Tylko Mistrz Gry może to zrobić."))
    with transaction.atomic():
        encounter = _lock(encounter_id)
        autoplay = autoplay_of(encounter.rules())
        if autoplay is None:
            raise Refused("gra_sama", _("Ten system nie gra postaciami sam."))
        policies = dict(autoplay.autoplay_policies())
        chosen = policy or next(iter(policies))
        if chosen not in policies:
            raise Refused("gra_sama", _("Nieznany sposób gry."))
        table = _require_seat(encounter, combatant, npc=True)
        acts_now = table.view.current == combatant or combatant in table.view.acting
        if not acts_now or table.view.stage != "running":
            raise Refused("nie_jego_tura", _("To nie jest tura tej postaci."))
        settings = encounter.npc_policies or {}
        marks = {k: None for k in settings if k.startswith(THIS_TURN)}
        mark = f"{table.view.round}:{chosen}"
        _save_npc_settings(encounter, {**marks, THIS_TURN + combatant: mark})
        start = encounter.seq
    # Waiting for an answer now (nothing played yet) is no refusal: the mark plays on after it.
    head = answer_automatic_prompts(encounter_id)
    return Appended(seq=head if head is not None else start, head=head)


def _require_seat(encounter: Encounter, combatant: str, *, npc: bool = False) -> Table:
    """The table at its head, with `combatant` at it (run by the GM, if `npc`)."""
    table = load_table(encounter.pk, encounter.seq)
    seat = table.view.seats.get(combatant)
    if seat is None:
        raise Refused("postac", _("Nie ma takiej postaci w tym starciu."))
    if npc and seat.controller is not None:
        raise Refused("postac_gracza", _("Tą postacią gra gracz."))
    return table


def _store_npc_settings(encounter: Encounter, changes: Mapping[str, str | None]) -> None:
    """Change the GM's NPC settings (None drops a key) under the row lock."""
    settings = {**(encounter.npc_policies or {}), **changes}
    encounter.npc_policies = {k: v for k, v in settings.items() if v is not None}
    encounter.save(update_fields=["npc_policies", "updated"])


def _save_npc_settings(encounter: Encounter, changes: Mapping[str, str | None]) -> None:
    """`_store_npc_settings`, then after commit drop this seq's cached snapshot and push
    (the settings live outside the log)."""
    _store_npc_settings(encounter, changes)
    pk, seq = encounter.pk, encounter.seq

    def changed() -> None:
        # The settings are part of the snapshot: drop this seq's cached copy once the change
        # is visible (not before, or a reload could cache the old one), then push.
        snapshots.forget(pk, seq)
        publish(pk, seq, force=True)

    transaction.on_commit(changed, robust=True)


def resolve_expired(encounter_id: int, *, now: float | None = None) -> Appended | None:
    """Close the prompts whose deadline passed, as "no reaction"; whoever notices first wins.

    The command id is derived from the deadline, so every process and socket that notices the
    same deadline asks for the same entry and it is appended once."""
    moment = clock.now() if now is None else now
    table = load_table(encounter_id)
    rules = get_ruleset(table.ruleset)
    deadline = rules.next_deadline(table.state)
    if deadline is None or deadline > moment:
        return None
    command = rules.command_to_dict(rules.expire_command(moment))
    return run_command(
        encounter_id, command, viewer=GM, command_id=f"expire-{deadline!r}", now=moment
    )


def answer_automatic_prompts(
    encounter_id: int,
    *,
    rng: RNG | None = None,
    now: float | None = None,
    seq: int | None = None,
) -> int | None:
    """Let the table act for the GM's NPCs, one entry per step: answer their open prompts by
    their policy, and play the turn of one that plays itself (`Table.playing`). The seq the
    table is left at (None after MAX_AUTO_STEPS steps: it may not be the head).

    `seq`: the entry just appended, whose snapshot is cached (no query on every command)."""
    for _round in range(MAX_AUTO_STEPS):
        table = load_table(encounter_id, seq)
        rules = get_ruleset(table.ruleset)
        moment = clock.now() if now is None else now
        command = _automatic_answer(rules, table, moment) or _automatic_move(rules, table, moment)
        if command is None:
            return table.seq
        try:  # this loop answers the prompts the answer opens
            seq = _run_automatic(encounter_id, command, f"auto-{table.seq}", rng, moment)
        except Refused:
            return table.seq
    return None


def _run_automatic(
    encounter_id: int, command: Any, command_id: str, rng: RNG | None, moment: float
) -> int:
    """Append the GM's automatic command as `run_command` appends one, without the trip
    through its dict: the rules built it typed, at `moment`."""

    def decide(rules: Ruleset, table: Table, _moment: float, dice: EntryRolls) -> list[Any]:
        authorise(rules, table.view, GM, command)
        return dice.decide(table.state, command)

    summary = {"type": command.type_key}
    return _append(
        encounter_id, decide, viewer=GM, command_id=command_id, summary=summary, now=moment, rng=rng
    ).seq


def _automatic_answer(rules: Ruleset, table: Table, moment: float) -> Any | None:
    prompts = prompts_of(rules)
    if prompts is None:
        return None
    for prompt in prompts.open_prompts(table.state):
        seat = table.view.seats.get(prompt.actor)
        if seat is None or seat.controller is not None:
            continue
        policy = table.policy_of(prompt.actor)
        command = prompts.auto_answer(table.state, prompt.id, policy, moment)
        if command is not None:
            return command
    return None


def _automatic_move(rules: Ruleset, table: Table, moment: float) -> Any | None:
    """The next step of an NPC that plays itself: the current one's turn, or its part of a
    phase everyone acts in at once (its declaration)."""
    autoplay = autoplay_of(rules)
    view = table.view
    if autoplay is None or view.stage != "running":
        return None
    # A seat acts in its turn, or in a phase all act in at once, or where the table waits on
    # it (a GM-run seat's own initiative roll).
    actors = (view.current,) if view.current is not None else (*view.acting, *view.waiting)
    for actor in dict.fromkeys(actors):
        seat = view.seats.get(actor)
        policy = table.playing(actor)
        if seat is None or seat.controller is not None or policy is None:
            continue
        try:
            command = autoplay.autoplay_command(table.state, actor, policy, moment)
        except ValueError:  # a policy the ruleset no longer knows: the GM plays it
            continue
        if command is not None:
            return command
    return None


# --- the append path ------------------------------------------------------------------------


class EntryRolls:
    """The dice of the entry being appended, for its decider: every ruleset command it
    decides goes through `decide`, which draws from the entry's RNG and records the command
    (the entry stores them, so `combat.verify` can decide them again from the revealed seed).

    The RNG: the one a caller injected (tests; the entry is then not checkable), else
    `EntryDice` of the encounter's seed (a secret GM roll's: the GM's seed) keyed by the
    entry's slot, the one after the slot in force; an encounter from before the seeds rolls
    with the system's random source and takes no slot. Once the fight has ended its seed is
    public: a command that draws a die then is refused (`ziarno_jawne`), whichever seed."""

    def __init__(self, rules: Ruleset, encounter: Encounter, rng: RNG | None, seen: Sight) -> None:
        self.rules = rules
        self.seen = seen  # who asked: a refusal is worded as they may read it
        self.injected = rng
        self.seeds = {False: encounter.seed, True: encounter.gm_seed}
        seeded = rng is None and verify.seeded(encounter)
        self.slot = encounter.slot + 1 if seeded else None
        self.seed_public = seeded and verify.seed_revealed(encounter)
        self.commands: list[dict[str, Any]] = []
        self._dice: dict[bool, verify.EntryDice] = {}

    def rng_for(self, command: Any) -> RNG:
        if self.injected is not None:
            return self.injected
        if self.slot is None:
            return _system_rng
        secret = verify.secret_dice(self.rules, command)
        if secret not in self._dice:
            self._dice[secret] = verify.EntryDice(self.seeds[secret], self.slot)
        return self._dice[secret]

    def decide(self, state: Any, command: Any) -> list[Any]:
        """The command's events (a refusal as `Refused`), decided with the entry's dice."""
        rng = self.rng_for(command)
        events = _decide(self.rules, state, command, rng, self.seen)
        if self.seed_public and any(d.counter for d in self._dice.values()):
            # Anyone could have foretold these dice from the revealed seed.
            raise Refused(
                "ziarno_jawne",
                _(
                    "Starcie jest zakończone, a jego ziarno kości zostało ujawnione: "
                    "w tym starciu nie można już rzucać kośćmi."
                ),
            )
        self.commands.append(self.rules.command_to_dict(command))
        return events

    def record(self) -> dict[str, Any]:
        """What the entry's command JSON keeps of its dice."""
        kept: dict[str, Any] = {"commands": self.commands}
        if self.injected is not None:
            kept["rng"] = verify.INJECTED
        return kept


Decider = Callable[[Ruleset, "Table", float, EntryRolls], list[Any]]


def _append(
    encounter_id: int,
    decide: Decider,
    *,
    viewer: Viewer,
    command_id: str | None,
    summary: dict[str, Any],
    now: float | None = None,
    rng: RNG | None = None,
) -> Appended:
    """Decide against the head and append entry seq + 1. A command id already in the log gets
    its entry back instead of a second one: the unique (encounter, command_id) constraint
    refuses the insert, or, for a command sent again that the rules now refuse (its turn has
    ended), the refusal looks it up. Fresh ids, nearly every command, so cost no query for the
    check.

    Where this process wrote the head (`snapshots.written_head`: it holds the table's sockets),
    it decides on that head without reading the row; the UPDATE that moves the row on from
    that seq, nothing outside the log changed (`Row.guard`), and the unique (encounter, seq)
    are the guard. When they fail, or the rules refuse (decided on a head perhaps behind),
    another process may have moved the table on: the append is decided once more, under the
    row lock. The decider gets the entry's dice (`EntryRolls`; `rng` a caller injected, else
    the encounter's seeds at the entry's slot)."""

    def attempt(written: tuple[snapshots.Row, Table] | None) -> Appended:
        try:
            with transaction.atomic():
                return _decide_and_commit(
                    encounter_id, decide, written, viewer, command_id, summary, now, rng
                )
        except IntegrityError:
            duplicate = _duplicate(encounter_id, command_id)
            if duplicate is not None:
                return duplicate
            if written is not None:
                raise _Moved(f"encounter {encounter_id} moved on") from None
            raise

    written = snapshots.written_head(encounter_id)
    if written is not None:
        try:
            return attempt(written)
        except _Moved:
            snapshots.forget_row(encounter_id)
    return attempt(None)


class _Moved(RuntimeError):
    """The encounter's row is no longer as the append read it: another process moved it on."""


def _decide_and_commit(
    encounter_id: int,
    decide: Decider,
    written: tuple[snapshots.Row, Table] | None,
    viewer: Viewer,
    command_id: str | None,
    summary: dict[str, Any],
    now: float | None,
    rng: RNG | None,
) -> Appended:
    """One try of `_append`, in its transaction: on the head this process `written`, else
    under the row lock."""
    if written is None:
        encounter = _lock(encounter_id)
        table = load_table(encounter_id, encounter.seq)
    else:
        encounter, table = written[0].encounter(), written[1]
    rules = encounter.rules()
    moment = clock.now() if now is None else now
    dice = EntryRolls(rules, encounter, rng, sight(table.view, viewer))
    try:
        events = decide(rules, table, moment, dice)
        state, lines = _fold_with_lines(rules, table.state, events)
        _refuse_foreign_picture(rules, encounter, table.state, state)
        if encounter.phase == Encounter.Phase.ENDED:
            _refuse_unending(rules, encounter, state)
    except Refused:
        if written is not None:
            raise _Moved(f"encounter {encounter_id} moved on") from None
        duplicate = _duplicate(encounter.pk, command_id)
        if duplicate is not None:
            return duplicate
        raise
    data = [rules.event_to_dict(e) for e in events]
    command = {**summary, "lines": lines, "at": moment, **dice.record()}
    if dice.slot is not None:
        encounter.slot = dice.slot
    guard = written[0].guard() if written is not None else None
    return _commit(
        encounter, table, state, viewer, command_id, data, command, slot=dice.slot, guard=guard
    )


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
    *,
    slot: int | None = None,
    guard: Mapping[str, Any] | None = None,
) -> Appended:
    """Insert entry seq + 1 under the row lock, or where the row is still at `encounter.seq`
    with the `guard` fields as given (`_Moved` if not); publish and cache the new head and
    its row after commit. The row keeps the whole state every `snapshots.HEAD_EVERY` entries,
    at an undo and when the phase changes; a load folds the entries after it.

    `previous` is the head at `encounter.seq`, which the new snapshot extends; `slot` the
    entry's dice (`EntryRolls`), and `encounter.slot` the slot in force after it."""
    rules = encounter.rules()
    before, seq = encounter.seq, encounter.seq + 1
    encounter.seq = seq
    lines = command.get("lines", [])
    snapshot = snapshots.next_snapshot(encounter, state, previous, lines, undo_to)
    phase = _phase(snapshot.view.stage)
    head: dict[str, Any] = {}  # the whole state, only now and then (`snapshots.head_state`)
    if (
        seq - encounter.state_seq >= snapshots.HEAD_EVERY
        or undo_to is not None
        or phase != encounter.phase
    ):
        head = {"state": rules.state_to_dict(state), "state_seq": seq}
        encounter.state, encounter.state_seq = head["state"], seq
    at = command.get("at")
    # When the new head is due (a deadline, a by-post reminder): any process sweeps it then.
    due = posts.head_fields(
        rules,
        state,
        snapshot.view,
        previous.view,
        reminded_for=encounter.reminded_for,
        now=float(at) if isinstance(at, int | float) else clock.now(),
    )
    moved = Encounter.objects.filter(pk=encounter.pk, seq=before, **(guard or {})).update(
        seq=seq, phase=phase, slot=encounter.slot, **head, **due
    )
    if not moved:  # under the lock impossible; the unique (encounter, seq) agrees
        raise _Moved(f"encounter {encounter.pk} moved past {before}")
    encounter.phase, encounter.reminded_for = phase, due["reminded_for"]
    row = snapshots.Row.of(encounter)
    EncounterEntry.objects.create(
        encounter=encounter,
        seq=seq,
        command_id=command_id,
        command=command,
        events=events,
        undo_to=undo_to,
        slot=slot,
        user_id=viewer.user_id or None,
    )
    entry = publishing.entry_of(events, snapshot.log[-1].lines, undo_to, snapshot.npc_policies)
    transaction.on_commit(lambda: snapshots.remember(snapshot, row))
    transaction.on_commit(lambda: publish(encounter.pk, seq, entry=entry), robust=True)
    posts.queue_mails(encounter.pk, previous.view, snapshot.view)
    return Appended(seq=seq)


def _duplicate(encounter_id: int, command_id: str | None) -> Appended | None:
    if command_id is None:
        return None
    earlier = EncounterEntry.objects.filter(encounter_id=encounter_id, command_id=command_id)
    seq = next(iter(earlier.order_by().values_list("seq", flat=True)[:1]), None)
    return None if seq is None else Appended(seq=seq, duplicate=True)


def publish(
    encounter_id: int,
    seq: int,
    *,
    entry: Mapping[str, Any] | None = None,
    force: bool = False,
    roster: bool = False,
) -> None:
    """Tell every socket of the table (in every process) that the log reached `seq`, with the
    `entry` appended (`publishing.entry_of`); `force`: something outside the log changed (an
    NPC policy; `roster`: the campaign's characters or creatures), render again anyway. Call
    after commit."""
    publishing.table_changed(encounter_id, seq, entry=entry, force=force, roster=roster)


def _fold_with_lines(
    rules: Ruleset, state: Any, events: list[Any]
) -> tuple[Any, list[dict[str, Any]]]:
    """The state after the events, and a log line for each (described against the state
    before it, so names and numbers read as they were at that moment)."""
    lines = []
    for event in events:
        line = rules.describe(state, event)
        if line is not None:
            lines.append(_line_record(line))
        state = rules.evolve(state, event)
    return state, lines


def _line_record(line: LogLine) -> dict[str, Any]:
    """A log line as the entry stores it; a line quoting no post stores no `quotes` (the
    entries stay as small as before posts were quoted)."""
    record = dataclasses.asdict(line)
    if not record["quotes"]:
        del record["quotes"]
    return record


def _evolve_all(rules: Ruleset, state: Any, events: list[Any]) -> Any:
    for event in events:
        state = rules.evolve(state, event)
    return state


def _phase(stage: str) -> str:
    if stage == "ended":
        return Encounter.Phase.ENDED
    return Encounter.Phase.SETUP if stage == "setup" else Encounter.Phase.ACTIVE


def _parse(rules: Ruleset, data: Mapping[str, Any]) -> Any:
    try:
        return rules.command_from_dict(data)
    except (ValueError, TypeError) as exc:
        raise Refused("schemat", _("Błędne polecenie: %(detail)s") % {"detail": exc}) from None


def _decide(
    rules: Ruleset,
    state: Any,
    command: Any,
    rng: RNG | None,
    seen: Sight,
) -> list[Any]:
    try:
        return rules.decide(state, command, rng or _system_rng)
    except RuleViolation as refusal:
        # The rules give a Polish msgid and its values: shown in the viewer's language and
        # words (a seat they may not see is „ktoś ukryty”), or as the rules said it when the
        # translation does not format.
        raise Refused(refusal.code, seen.refused(refusal)) from None


def cut_off(*, campaign_id: int, user_id: int) -> None:
    """Tell the campaign's open tables that this user left: their sockets check and close."""
    for pk in Encounter.objects.filter(campaign_id=campaign_id).values_list("pk", flat=True):
        publishing.access_changed(pk, user_id)


def roster_changed(*, campaign_id: int | None, ruleset: str = "") -> None:
    """A character or creature of the campaign was created, renamed or removed outside any
    table: its open tables render again (the GM's add list is read on every render). A shared
    creature (`campaign_id` None) reaches the open tables of its `ruleset`. Call after commit.
    This process reads the rosters anew at once; the others when the forced push reaches them."""
    roster.forget()
    tables = Encounter.objects.exclude(phase=Encounter.Phase.ENDED)
    if campaign_id is None:
        tables = tables.filter(ruleset=ruleset)
    else:
        tables = tables.filter(campaign_id=campaign_id)
    for pk, seq in tables.values_list("pk", "seq"):
        publish(pk, seq, roster=True)
