"""A fight, or one turn of it, for a forum: BBCode or Markdown in the viewer's language.

The export reads the entries of the log in force (what an undo took back is left out) and
places each line in the turn the table was in right after the event it tells of: the log is
folded again with the ruleset, event by event, and `table_view(state).round` and its label
read there (so a by-post turn resolved in one entry stays in its turn, and the line that opens
the next turn opens it). Lines are filtered with `combat.access.Sight` and put in the viewer's
language exactly as the table's log (`fragments.LogItem`): a player's version shows what every
player sees, the GM's version (the GM's alone) everything. Each roll keeps its permanent link,
the entry's page of rolls + `#r<n>` (`fragments.roll_numbers`: the rolls every player sees
first, so a link is the same in both versions and no gap tells of a secret roll). The text is
rendered by the templates `combat/export/<format>.txt`, which escape every text for their
format (`{% load forum %}`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from combat import fragments
from combat.access import Viewer, sight
from combat.log import Step, effective
from combat.models import Encounter, EncounterEntry
from combat.rules.base import Ruleset
from combat.snapshots import LogEntry, load_table

FORMATS = ("bbcode", "markdown")
VERSIONS = ("player", "gm")
ALL = "all"
# The audience of a GM's player version: sees what every player sees, owns no character.
EVERY_PLAYER = Viewer(user_id=0, is_gm=False)


class BadChoice(Exception):  # noqa: N818 - a refusal shown to the one who asked
    """An export the view will not make: `message` is readable, `status` its HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass(frozen=True)
class Choice:
    """What to export: the format, one turn (its round number) or the whole fight (None),
    and the version (the GM's, or what the players see)."""

    format: str = "bbcode"
    turn: int | None = None
    version: str = "player"

    @property
    def gm(self) -> bool:
        return self.version == "gm"


def parse_choice(query: Mapping[str, str], *, gm: bool) -> Choice:
    """The choice from a GET query (defaults: BBCode, the whole fight, the players' version)."""
    fmt = query.get("format") or FORMATS[0]
    if fmt not in FORMATS:
        raise BadChoice(
            _("Nieznany format eksportu: „%(value)s”. Do wyboru: %(options)s.")
            % {"value": fmt, "options": ", ".join(FORMATS)}
        )
    version = query.get("version") or VERSIONS[0]
    if version not in VERSIONS:
        raise BadChoice(
            _("Nieznana wersja eksportu: „%(value)s”. Do wyboru: %(options)s.")
            % {"value": version, "options": ", ".join(VERSIONS)}
        )
    if version == "gm" and not gm:
        raise BadChoice(_("Wersję Mistrza Gry może wyeksportować tylko Mistrz Gry."), 403)
    turn = query.get("turn") or ALL
    if turn != ALL and not (turn.isascii() and turn.isdigit() and len(turn) <= 6):
        raise BadChoice(
            _("Nieznana tura: „%(value)s”. Podaj numer tury albo „all” (cała walka).")
            % {"value": turn}
        )
    return Choice(format=fmt, turn=None if turn == ALL else int(turn), version=version)


@dataclass(frozen=True)
class Roll:
    label: str
    summary: str
    faces: tuple[tuple[str, str], ...]  # (die, its faces): ("k100", "37"), ("k6", "5 3 6")
    modifiers: tuple[tuple[str, int], ...]  # (reason in the viewer's language, value)
    url: str  # the permanent link


@dataclass(frozen=True)
class Quote:
    """A post the line shows, for its own quoted paragraph: who wrote it, what it does, and
    the player's text."""

    author: str
    action: str
    text: str


@dataclass(frozen=True)
class Line:
    text: str
    kind: str
    secret: bool
    rolls: tuple[Roll, ...]
    quotes: tuple[Quote, ...] = ()


@dataclass(frozen=True)
class Turn:
    round: int
    label: str
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Export:
    """An encounter's turns as one viewer may see them, and the turns there are to pick."""

    title: str
    turns: tuple[Turn, ...]
    rounds: tuple[tuple[int, str], ...]  # every round of the log, with its labels: "A / B"
    rolls_url: str

    def scope(self, turn: int | None) -> str:
        if turn is None:
            return _("Cała walka")
        return dict(self.rounds).get(turn, "")

    def only(self, turn: int | None) -> tuple[Turn, ...]:
        return self.turns if turn is None else tuple(t for t in self.turns if t.round == turn)


@dataclass(frozen=True)
class _Placed:
    """A log entry in force, and the turn (round, label) of each of its lines."""

    entry: LogEntry
    turns: tuple[tuple[int, str], ...]


def _rows(encounter: Encounter) -> list[tuple[int, Any, Any, int | None]]:
    rows = EncounterEntry.objects.filter(encounter_id=encounter.pk).order_by("seq")
    return list(rows.values_list("seq", "command", "events", "undo_to"))


def _turn_of(rules: Ruleset, state: Any) -> tuple[int, str]:
    view = rules.table_view(state)
    return view.round, fragments.engine_text(view.label, view.label_params, view.label)


def placed(encounter: Encounter) -> list[_Placed]:
    """The entries in force, oldest first, each line with its turn.

    An entry takes the table from one turn to another (or leaves it in the same). A line
    belongs to the turn the table is in right after its event, when that is one of the two;
    a line told in between (the fight has begun, its first round not yet) belongs to the turn
    the entry ends in, as do all the lines of an entry that do not match its events (told by
    another version of the rules). Lines are matched to their events by describing each event
    again against the state before it, as the table did when it appended the entry."""
    rules = encounter.rules()
    rows = _rows(encounter)
    lines_of = {
        seq: command.get("lines", []) if isinstance(command, dict) else []
        for seq, command, _e, _u in rows
    }
    state = rules.state_from_dict(encounter.initial)
    after = _turn_of(rules, state)
    result = []
    for step in effective(Step(seq, events, undo_to) for seq, _c, events, undo_to in rows):
        before = after
        stored: Sequence[Mapping[str, Any]] = lines_of[step.seq]
        told: list[tuple[str, tuple[int, str]]] = []
        for data in step.events:
            event = rules.event_from_dict(data)
            line = rules.describe(state, event)
            state = rules.evolve(state, event)
            if line is not None:
                told.append((line.text, _turn_of(rules, state)))
        after = _turn_of(rules, state)
        if [text for text, _turn in told] == [line.get("text") for line in stored]:
            turns = tuple(turn if turn in (before, after) else after for _text, turn in told)
        else:
            turns = (after,) * len(stored)
        entry = LogEntry(seq=step.seq, lines=stored, undo_to=None, undone=False)
        result.append(_Placed(entry, turns))
    return result


def _faces(roll: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The faces by die: k100: 37; k6: 5 3 6 (a roll of mixed dice names each run)."""
    dice = [int(face) for face in roll.get("dice") or ()]
    sides = roll.get("sides", 6)
    each = list(sides) if isinstance(sides, list | tuple) else [sides] * len(dice)
    runs: list[tuple[str, list[int]]] = []
    for face, side in zip(dice, each, strict=False):
        die = _("k%(sides)s") % {"sides": side}
        if runs and runs[-1][0] == die:
            runs[-1][1].append(face)
        else:
            runs.append((die, [face]))
    return tuple((die, " ".join(map(str, faces))) for die, faces in runs)


def _rolls(line: fragments.Line, page: str) -> tuple[Roll, ...]:
    """The line's rolls, each linked to its place (`n` in its entry) on the entry's `page`."""
    return tuple(
        Roll(
            label=roll["label_text"],
            summary=roll["summary_text"],
            faces=_faces(roll),
            modifiers=tuple((reason, int(value)) for reason, value in roll["modifier_texts"]),
            url=f"{page}#r{roll['n']}",
        )
        for roll in line.rolls
    )


def _quotes(line: fragments.Line) -> tuple[Quote, ...]:
    return tuple(
        Quote(str(q.get("author", "")), str(q.get("action", "")), str(q.get("text", "")))
        for q in line.quotes
    )


def build(encounter: Encounter, viewer: Viewer, absolute: Callable[[str], str]) -> Export:
    """The export as `viewer` may see it (the GM's `Viewer` for the GM's version,
    `EVERY_PLAYER` for a GM's players' version); `absolute` makes a path a full URL."""
    seen = sight(load_table(encounter.pk).view, viewer)
    turns: list[tuple[tuple[int, str], list[Line]]] = []
    rounds: dict[int, list[str]] = {}  # the labels each round went through, in order
    for place in placed(encounter):
        entry = place.entry
        for round_, label in place.turns:
            labels = rounds.setdefault(round_, [])
            if label not in labels:
                labels.append(label)
        item = fragments.LogItem(encounter.pk, entry, seen)
        page = absolute(reverse("encounter_roll", args=[encounter.pk, entry.seq]))
        for index, line in zip(item.shown, reversed(item.lines), strict=True):
            turn = place.turns[index]
            rolls = _rolls(line, page)
            shown = Line(line.text, line.kind, line.secret, rolls, _quotes(line))
            if turns and turns[-1][0] == turn:
                turns[-1][1].append(shown)
            else:
                turns.append((turn, [shown]))
    return Export(
        title=encounter.name,
        turns=tuple(Turn(round_, label, tuple(lines)) for (round_, label), lines in turns),
        rounds=tuple((round_, " / ".join(labels)) for round_, labels in rounds.items()),
        rolls_url=absolute(reverse("encounter_rolls", args=[encounter.pk])),
    )


def audience(viewer: Viewer, choice: Choice) -> Viewer:
    """Who the export is for: the GM's version shows all; a players' version what every
    player sees (a player's own: what that player sees at the table)."""
    if choice.gm:
        return viewer
    return EVERY_PLAYER if viewer.is_gm else viewer


def render(export: Export, choice: Choice) -> str:
    """The export's text in its format (the templates escape every text for it)."""
    if choice.turn is not None and choice.turn not in dict(export.rounds):
        raise BadChoice(_("W tym starciu nie ma tury %(n)s.") % {"n": choice.turn})
    context = {
        "title": export.title,
        "scope": export.scope(choice.turn),
        "gm_version": choice.gm,
        "turns": export.only(choice.turn),
        "rolls_url": export.rolls_url,
    }
    text = render_to_string(f"combat/export/{choice.format}.txt", context)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def page(
    encounter: Encounter,
    viewer: Viewer,
    query: Mapping[str, str],
    absolute: Callable[[str], str],
) -> tuple[dict[str, Any], int]:
    """What the export page shows `viewer` for a GET query, and its HTTP status: the choice
    and its text, or (the choice back at its defaults) why there is none."""
    try:
        choice = parse_choice(query, gm=viewer.is_gm)
        built = build(encounter, audience(viewer, choice), absolute)
        return {"choice": choice, "export": built, "text": render(built, choice)}, 200
    except BadChoice as refused:
        choice = Choice()
        built = build(encounter, audience(viewer, choice), absolute)
        return {"choice": choice, "export": built, "error": refused.message}, refused.status
