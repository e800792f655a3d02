"""The table's regions rendered for one viewer: what the page shows and what a socket pushes.

The table layer renders the ruleset's neutral view (`Table.view`: the phase, the order, seats
with health, counters and badges) through `combat.access.Sight`, which drops what a viewer
may not see before any template sees it: hidden seats and the log lines about them, secret
GM rolls, NPC health numbers (a wound level instead, until the GM reveals them) and other
players' prompts. What only one ruleset shows comes from its partials
(templates/combat/rulesets/<key>/), filled by its `*_panel` methods.

A region's HTML is a pure function of what it reads (its `PARTS` of the viewer's `View`, what
`View.head` names of the table), the language and its *variant* (the audience, GM or player, plus
the viewer's own id only where the region shows their own things: their cards, their prompts,
their turn). So the page is a tree of records (`View.part`, `tree`): each region with that
data, the order's rows and the log's entries as items of their own. `combat.pushes` compares
a socket's new records with those it was sent and renders and sends only what changed; a
first page is the same records rendered whole (`page`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

from combat import clock, roster
from combat.access import Refused, Sight, Viewer, authorise, sight
from combat.pushes import Item, Part, tracks, whole
from combat.rules import battlemap
from combat.rules.base import (
    MapSpec,
    OddsOption,
    Panel,
    PromptView,
    RuleViolation,
    SeatView,
    autoplay_of,
    battle_maps_of,
    is_text,
    odds_of,
    prompts_of,
)
from combat.rules.registry import get_ruleset
from combat.snapshots import LogEntry, Table
from combat.terms import rules_gettext, rules_text, ruleset_terms

REGIONS = (
    "table-status",
    "table-prompts",
    "table-me",
    "table-turn",
    "table-map",
    "table-map-terrain",
    "table-map-tokens",
    "table-order",
    "table-log",
)
GM_REGIONS = ("table-gm", "table-undo")
TEMPLATE = "combat/encounter.html"


def engine_text(template: str, params: Mapping[str, Any] | None, fallback: str = "") -> str:
    """A text the rules made, in the viewer's language and its ruleset's terms
    (`combat.terms.rules_text`): `fallback` (their Polish text) when there is no msgid or the
    translation does not format."""
    return rules_text(template, params, fallback)


@dataclass(frozen=True)
class Row(SeatView):
    """A seat as this viewer's audience sees it (`Sight.seat`), with the GM's NPC policy."""

    numbers: bool = False  # health shown as numbers (own side, revealed, or the GM)
    policy: str = "ask"
    autoplay: str = ""  # the policy a GM-run seat plays every turn by ("" = the GM plays it)

    @property
    def controlled_by_gm(self) -> bool:
        return self.controller is None


@dataclass(frozen=True)
class Line:
    seq: int
    text: str
    kind: str
    rolls: Sequence[Mapping[str, Any]]
    secret: bool
    undone: bool
    quotes: Sequence[Mapping[str, str]] = ()  # the posts the line shows: author, action, text


@dataclass
class PromptCard:
    id: str
    kind: str
    actor: str
    actor_name: str
    label: str
    options: Sequence[tuple[str, str]]
    deadline: float
    mine: bool
    odds: Mapping[str, OddsOption] = field(default_factory=dict)
    answers: dict[str, Any] = field(default_factory=dict)
    panel: Panel = None  # the ruleset's prompt partial


def _option_labels(prompt: PromptView) -> list[tuple[str, str]]:
    """A prompt's (key, label) options with the labels in the viewer's language."""
    labels = {key: engine_text(msgid, params) for key, msgid, params in prompt.option_templates}
    return [(key, labels.get(key, label)) for key, label in prompt.options]


def _autoplay_policies(rules: Any) -> list[tuple[str, str]]:
    """How the ruleset's GM-run seats may play themselves ([] without the capability)."""
    autoplay = autoplay_of(rules)
    return autoplay.autoplay_policies() if autoplay is not None else []


def rows(table: Table, seen: Sight) -> list[Row]:
    """The seats in turn order (then those without a place in it) as this viewer sees them."""
    view = table.view
    result = []
    for cid in view.order:
        seat = seen.seat(view.seats[cid])
        if seat is not None:
            policy, autoplay = table.policy_of(cid), table.autoplay.get(cid, "")
            row = Row(**vars(seat), numbers=seen.numbers(seat), policy=policy, autoplay=autoplay)
            result.append(row)
    return result


def _line(entry: LogEntry, line: Mapping[str, Any], first: int = 1) -> Line:
    """`first`: the number in its entry of the line's first roll (`n`, its permanent link is
    the entry's roll page + `#r<n>`)."""
    text = engine_text(str(line.get("text", "")), line.get("params") or {}, "")
    rolls = [{**roll_texts(roll), "n": first + k} for k, roll in enumerate(line.get("rolls") or ())]
    kind, secret = line.get("kind", ""), bool(line.get("secret"))
    quotes = tuple({**q, "action": _quoted(q.get("action"))} for q in line.get("quotes") or ())
    return Line(entry.seq, text, kind, rolls, secret, entry.undone, quotes)


def _quoted(action: Any) -> str:
    """A quoted post's action (a text param) in the viewer's language."""
    return engine_text(action[0], action[1], action[0]) if is_text(action) else str(action or "")


def roll_texts(roll: Mapping[str, Any]) -> dict[str, Any]:
    """A stored roll with its summary in the viewer's language ("sukcesy: 2", "wynik 37"), as
    the log, the verification pages and the export show it."""
    result = roll.get("result", roll.get("successes", 0))
    params = {**(roll.get("summary_params") or {}), "n": result}
    summary = engine_text(str(roll.get("summary") or ""), params, "")
    label = str(roll.get("label") or "")
    modifiers = [
        (rules_gettext(str(reason)), value) for reason, value in roll.get("modifiers") or ()
    ]
    return {
        **roll,
        "result": result,
        "summary_text": summary or f"→ {result}",
        "label_text": rules_gettext(label),
        "modifier_texts": modifiers,
    }


def roll_numbers(lines: Sequence[Mapping[str, Any]], public: Collection[int]) -> list[int]:
    """The number in the entry of each line's first roll: the rolls of the lines everyone
    sees (`public`: their indexes, by `Sight.everyone`) come first, 1, 2, … in order, then
    those of the lines only the GM sees. A roll has one number on every screen, and no gap
    tells a player of a roll kept from them."""
    first, numbers = 1, [0] * len(lines)
    for everyone in (True, False):
        for i, line in enumerate(lines):
            if (i in public) == everyone:
                numbers[i] = first
                first += len(line.get("rolls") or ())
    return numbers


class LogItem:
    """One log entry as a viewer may see it: the lines of it they may see, newest first."""

    def __init__(self, pk: int, entry: LogEntry, seen: Sight) -> None:
        self.entry = entry
        self.shown = tuple(i for i, line in enumerate(entry.lines) if seen.line(line))
        self.public = tuple(i for i, line in enumerate(entry.lines) if seen.everyone(line))
        # Everything the entry shows: which table, which step, which of its lines, its numbers.
        self.key = (pk, entry.seq, entry.undo_to, entry.undone, self.shown, self.public)

    @property
    def id(self) -> str:
        return f"entry-{self.entry.seq}"

    @cached_property
    def ids(self) -> tuple[str, ...]:
        """The ids of its lines' elements (combat/_log_lines.html)."""
        count = 1 if self.entry.undo_to is not None else len(self.shown)
        return tuple(f"log-{self.entry.seq}-{k}" for k in range(1, count + 1))

    @property
    def visible(self) -> bool:
        return self.entry.undo_to is not None or bool(self.shown)

    @cached_property
    def lines(self) -> list[Line]:
        """Newest first, in the viewer's language."""
        entry = self.entry
        if entry.undo_to is not None:
            text = _("Mistrz Gry cofa starcie do kroku %(seq)d.") % {"seq": entry.undo_to}
            return [Line(entry.seq, text, "gm", (), False, False)]
        first = roll_numbers(entry.lines, self.public)
        return [_line(entry, entry.lines[i], first[i]) for i in reversed(self.shown)]


def log_items(
    table: Table, viewer: Viewer, entries: Sequence[LogEntry] | None = None
) -> list[LogItem]:
    """Newest first (the table's recent log, or `entries`), the entries this viewer sees a
    line of (`Sight.line`)."""
    seen = sight(table.view, viewer)
    items = (
        LogItem(table.pk, entry, seen)
        for entry in reversed(table.log if entries is None else entries)
    )
    return [item for item in items if item.visible]


def log_lines(
    table: Table, viewer: Viewer, entries: Sequence[LogEntry] | None = None
) -> list[Line]:
    """The lines of `log_items`, newest first (the log download)."""
    return [line for item in log_items(table, viewer, entries) for line in item.lines]


def prompt_cards(rules: Any, table: Table, viewer: Viewer) -> list[PromptCard]:
    """Open prompts: a player sees their own; the GM sees all (and answers for anyone)."""
    prompts = prompts_of(rules)
    if prompts is None:
        return []
    odds = odds_of(rules)
    state, view = table.state, table.view
    seen = sight(view, viewer)
    cards = []
    for p in prompts.open_prompts(state):
        if not seen.prompt(p, view):
            continue
        seat = view.seats[p.actor]
        found = odds.answer_odds(state, p.id) if odds is not None else None
        card = PromptCard(
            id=p.id,
            kind=p.kind,
            actor=p.actor,
            actor_name=seat.name,
            label=seen.text(p.label_template, p.label_params, p.label),
            options=_option_labels(p),
            deadline=p.deadline,
            mine=viewer.owns(seat.controller) or (viewer.is_gm and seat.controller is None),
            odds={o.key: o for o in found.options} if found is not None else {},
            answers={
                key: rules.command_to_dict(prompts.prompt_command(state, p.id, key))
                for key, _label in p.options
            },
            panel=prompts.prompt_panel(state, p.id),
        )
        cards.append(card)
    cards.sort(key=lambda card: (not card.mine, card.deadline))
    return cards


# What each region's template reads from a View, besides what `View.head` names of the table
# and the neutral view, and viewer, oob, ruleset: a region's record (`View.part`) is made of
# exactly these, so name every value a region's templates (and the partials they include) read.
# The order's and the log's items are records of their own (`View.row_data`, `LogItem.key`);
# the map's regions read only the board (`View.map_data`).
PARTS: dict[str, tuple[str, ...]] = {
    "table-status": ("rows", "current", "waiting"),
    "table-prompts": ("prompts",),
    "table-me": ("mine", "seat_panels"),
    "table-turn": ("current", "my_turn", "acting", "actor", "turn_panels", "together"),
    "table-map": ("board",),
    "table-map-terrain": ("board",),
    "table-map-tokens": ("board",),
    "table-order": ("rows", "policies", "gm_seat_panels", "visibility"),
    "table-log": ("log", "log_empty"),
    "table-gm": ("rows", "sides", "roster", "gm_panel"),
    "table-undo": ("seq",),
}
# Read by a region but not in its record: when the server first showed it (the countdown bar
# of a prompt runs from there), not a reason to render it again.
UNRECORDED = ("server_now",)
LISTS = {
    "table-order": "table-order-list",
    "table-log": "table-log-lines",
    "table-prompts": "table-prompts",
    "table-map-tokens": "map-tokens",
}


class View:
    """One viewer's look at one table; each part is worked out on first use."""

    def __init__(
        self,
        table: Table,
        viewer: Viewer,
        *,
        page: bool = False,
        shared: dict[tuple[Any, ...], Part] | None = None,
    ) -> None:
        self.table, self.viewer, self.view = table, viewer, table.view
        # The records of this table at this seq already worked out for other viewers, by
        # region, variant and language: a viewer of the same variant takes them as they are.
        self.shared = {} if shared is None else shared
        self.page = page  # a page load: the GM's roster read anew
        self.rules = get_ruleset(table.ruleset)
        self.sight = sight(self.view, viewer)
        self.audience = "gm" if viewer.is_gm else "player"

    def context(self, names: Sequence[str], *, oob: bool) -> dict[str, Any]:
        """The template context for these regions."""
        parts = {part: getattr(self, part) for name in names for part in PARTS[name]}
        if "table-prompts" in names:
            parts["server_now"] = self.server_now
        return {**self.base, "oob": oob, **parts}

    @cached_property
    def base(self) -> dict[str, Any]:
        """What every region reads, worked out once per view (the capability checks too)."""
        return {
            "table": self.table,
            "view": self.view,
            "viewer": self.viewer,
            "sight": self.sight,
            "ruleset": self.table.ruleset,
            "partials": f"combat/rulesets/{self.table.ruleset}/",
            "has_prompts": prompts_of(self.rules) is not None,
            "has_odds": odds_of(self.rules) is not None,
            "autoplay_policies": _autoplay_policies(self.rules),
        }

    def variant(self, name: str) -> tuple[Any, ...]:
        """Who else sees exactly this region: the audience, and this viewer's own id where
        the region holds their own things."""
        if name == "table-turn":
            personal = self.viewer.is_gm or self.my_turn or bool(self.acting_for)
        elif name == "table-prompts":
            personal = self.has_prompts
        elif name == "table-me":
            personal = bool(self.mine)
        else:
            personal = False
        return (self.audience, self.viewer.controller if personal else None)

    @cached_property
    def header(self) -> tuple[Any, ...]:
        """What the status region reads of the table and its neutral view besides its parts:
        the stage and round, who acts all at once and is waited on, the deadline."""
        view = self.view
        return (
            self.table.pk, self.table.ruleset, view.stage, view.round, view.label,
            view.label_params, view.winner, view.marks_label, view.acting,
            view.waiting, view.deadline, view.pace,
            self.sight.seen,  # `{% tr %}` words a seat the viewer may not see as hidden
        )  # fmt: skip

    def part(self, name: str) -> Part:
        """The region as a record: what it shows, compared after each entry
        (`combat.pushes`); the order and the log with their items."""
        variant = self.variant(name)
        key = (name, variant, get_language())
        found = self.shared.get(key)
        if found is None:
            found = self.shared[key] = self._part(name, variant)
        return found

    def _part(self, name: str, variant: Any) -> Part:
        if name == "table-order":
            rows = tuple(Item(f"row-{r.id}", (f"row-{r.id}",), self.row_data(r)) for r in self.rows)
            return Part(name, variant, (bool(self.rows),), rows, LISTS[name])
        if name == "table-prompts":
            cards = tuple(Item(f"prompt-{p.id}", (f"prompt-{p.id}",), p) for p in self.prompts)
            return Part(name, variant, (self.head(name),), cards, LISTS[name])
        if name == "table-log":
            entries = tuple(Item(i.id, i.ids, i.key) for i in self.log)
            return Part(name, variant, (self.table.pk, self.log_empty), entries, LISTS[name])
        if name == "table-map-tokens" and self.board is not None and self.board.map is not None:
            b = self.board
            tokens = tuple(
                Item(f"tok-{t.row.id}", (f"tok-{t.row.id}",), token_data(t, b)) for t in b.tokens
            )
            return Part(name, variant, (b.width, b.height), tokens, LISTS[name], "svg")
        if name.startswith("table-map"):
            return Part(name, variant, self.map_data(name))
        if name == "table-undo":
            return Part(name, variant, self.seq)
        data: list[Any] = [self.head(name)]
        for part in PARTS[name]:
            value = getattr(self, part)
            data.append(_roster_content(value) if part == "roster" else value)
        return Part(name, variant, tuple(data))

    def head(self, name: str) -> tuple[Any, ...]:
        """What a region reads of the table besides its parts (the rulesets' panels are
        records holding all their partials read): the turn its stage, round and label; a
        player's cards and the prompts nothing; the GM's panel the stage; the status bar the
        `header`. So an entry that moves the rest leaves them as they were."""
        view, seen = self.view, self.sight.seen
        if name == "table-turn":
            return (view.stage, bool(view.acting), view.round, view.label, view.label_params, seen)
        if name == "table-gm":
            return (view.stage, seen)
        if name in ("table-me", "table-prompts"):
            return (seen,)
        return self.header

    def row_data(self, r: Row) -> tuple[Any, ...]:
        """What an order row shows (`order-row`, combat/_gm_row.html and the ruleset's
        gm_seat partial)."""
        return (
            r, self.view.stage, self.view.acting, self.sight.seen, self.policies,
            self.gm_seat_panels.get(r.id), self.visibility.get(r.id),
        )  # fmt: skip

    def map_data(self, name: str) -> Any:
        """What a map region shows: the controls the map and who is off it, the terrain its
        drawing, the tokens theirs."""
        b = self.board
        if b is None:
            return None
        if name == "table-map-terrain":
            return (b.map, b.darkness)
        if name == "table-map-tokens":
            return (b.map is not None, b.tokens)
        return (b.spec, b.map, b.off_map, b.darkness, self.sight.seen)

    @cached_property
    def seq(self) -> int:
        return self.table.seq

    @cached_property
    def rows(self) -> list[Row]:
        return rows(self.table, self.sight)

    @cached_property
    def mine(self) -> list[Row]:
        return [r for r in self.rows if self.viewer.owns(r.controller)]

    @cached_property
    def current(self) -> Row | None:
        return next((r for r in self.rows if r.current), None)

    @cached_property
    def my_turn(self) -> bool:
        return self.current is not None and self.viewer.owns(self.current.controller)

    @cached_property
    def actor(self) -> Row | None:
        """The seat whose turn it is, when this viewer acts for it (the GM for anyone)."""
        current = self.current
        if self.view.stage != "running" or current is None:
            return None
        return current if self.viewer.is_gm or self.my_turn else None

    @cached_property
    def acting(self) -> bool:
        return self.actor is not None

    @cached_property
    def together(self) -> list[Row]:
        """The seats that act now all at once (a declaration phase) and this viewer acts for:
        a player's own, every one for the GM (who declares for NPCs and absent players)."""
        if self.view.stage != "running" or not self.view.acting:
            return []
        acting = set(self.view.acting)
        return [r for r in self.rows if r.id in acting and self.viewer.owns(r.controller)] + (
            [r for r in self.rows if r.id in acting and not self.viewer.owns(r.controller)]
            if self.viewer.is_gm
            else []
        )

    @cached_property
    def waiting(self) -> list[Row]:
        """The seats the table waits on now, as this viewer may see them."""
        waiting = set(self.view.waiting)
        return [r for r in self.rows if r.id in waiting]

    @cached_property
    def turn_panels(self) -> list[tuple[Row, Panel]]:
        """The ruleset's turn partial for each seat this viewer acts for now: the current one
        in the fight, those acting all at once (declarations), their own before the fight
        (rolling initiative)."""
        seen = self.sight.seen
        return [(r, self.rules.turn_panel(self.table.state, r.id, seen)) for r in self.acting_for]

    @cached_property
    def acting_for(self) -> list[Row]:
        """The seats this viewer acts for now (`turn_panels`)."""
        if self.view.stage == "setup":
            return self.mine
        if self.view.acting:
            return self.together
        return [self.actor] if self.actor is not None else []

    @cached_property
    def has_prompts(self) -> bool:
        """Whether an open prompt shows to this viewer (its prompt cards, `prompts`)."""
        prompts = prompts_of(self.rules)
        if prompts is None:
            return False
        return any(self.sight.prompt(p, self.view) for p in prompts.open_prompts(self.table.state))

    @cached_property
    def seat_panels(self) -> dict[str, Panel]:
        seen = self.sight.seen
        return {r.id: self.rules.seat_panel(self.table.state, r.id, seen) for r in self.mine}

    @cached_property
    def gm_seat_panels(self) -> dict[str, Panel]:
        if not self.viewer.is_gm:
            return {}
        return {r.id: self.rules.gm_seat_panel(self.table.state, r.id) for r in self.rows}

    @cached_property
    def visibility(self) -> dict[str, dict[str, dict[str, Any]]]:
        """The GM's hide/show and reveal/conceal commands for each GM-run seat."""
        if not self.viewer.is_gm:
            return {}
        to_dict, command = self.rules.command_to_dict, self.rules.visibility_command
        return {
            r.id: {
                "hide": to_dict(command(r.id, hidden=not r.hidden)),
                "reveal": to_dict(command(r.id, revealed=not r.revealed)),
            }
            for r in self.rows
            if r.controlled_by_gm
        }

    @cached_property
    def gm_panel(self) -> Panel:
        return self.rules.gm_panel(self.table.state) if self.viewer.is_gm else None

    @cached_property
    def sides(self) -> tuple[str, ...]:
        return tuple(sorted({r.side for r in self.rows}))

    @cached_property
    def prompts(self) -> list[PromptCard]:
        return prompt_cards(self.rules, self.table, self.viewer)

    @cached_property
    def server_now(self) -> float:
        return clock.now()

    @cached_property
    def log(self) -> list[LogItem]:
        """`log_items`, each entry worked out once per audience and language while it stays as
        it is (the same lines, undone or not): after an action only the new entry is."""
        seen, track, pk = self.sight, tracks.of(self.table.pk), self.table.pk
        items = []
        for entry in reversed(self.table.log):

            def current(kept: LogItem, entry: LogEntry = entry) -> bool:
                was = kept.entry
                return was.lines is entry.lines and (was.undone, was.undo_to) == (
                    entry.undone, entry.undo_to
                )  # fmt: skip

            key = ("log", entry.seq, seen.gm, seen.seen, seen.public, get_language())
            item = track.record(key, current, lambda e=entry: LogItem(pk, e, seen))  # type: ignore[misc]
            if item.visible:
                items.append(item)
        return items

    @cached_property
    def token_by_id(self) -> dict[str, Token]:
        return {f"tok-{t.row.id}": t for t in self.board.tokens} if self.board else {}

    @cached_property
    def prompt_by_id(self) -> dict[str, PromptCard]:
        return {f"prompt-{p.id}": p for p in self.prompts}

    @cached_property
    def log_by_id(self) -> dict[str, LogItem]:
        return {item.id: item for item in self.log}

    @cached_property
    def row_by_id(self) -> dict[str, Row]:
        return {f"row-{r.id}": r for r in self.rows}

    @cached_property
    def log_empty(self) -> bool:
        return not self.log

    @cached_property
    def policies(self) -> list[tuple[str, str]]:
        prompts = prompts_of(self.rules)
        return prompts.reaction_policies() if prompts is not None else []

    @cached_property
    def board(self) -> Board | None:
        """The battle map as this viewer sees it (None: the ruleset has none)."""
        maps = battle_maps_of(self.rules)
        if maps is None:
            return None
        return board(self.table, maps.map_spec(), maps.battle_map(self.table.state), self.rows)

    @cached_property
    def roster(self) -> dict[str, Any]:
        """What the GM can still bring to the table: read anew by a page load, by a push as
        `roster.available` says."""
        if not self.viewer.is_gm:
            return {}
        present = set(self.view.seats)
        table = self.table
        return roster.available(table.campaign_id, table.ruleset, present, fresh=self.page)


def regions_of(viewer: Viewer) -> tuple[str, ...]:
    return REGIONS + (GM_REGIONS if viewer.is_gm else ())


def page(table: Table, viewer: Viewer) -> dict[str, Any]:
    """The page's context: its regions (the viewer's records rendered whole) and what the
    page around them reads."""
    view = View(table, viewer, page=True)
    rendered = whole(tree(view), tracks.of(table.pk), get_language(), Render(view))
    shown = {name: mark_safe(html) for name, html in rendered.items()}  # noqa: S308 - rendered
    return {**view.base, "board": view.board, "regions": shown}


def refusal_text(exc: Exception, seen: Sight) -> str:
    """Why a command about to be sent cannot be: a rule's reason in the viewer's language and
    words (`Sight.refused`), or what did not parse."""
    if isinstance(exc, RuleViolation):
        return seen.refused(exc)
    return str(exc)


def render_preview(table: Table, viewer: Viewer, command: Mapping[str, Any]) -> str:
    """The exact odds of a command this viewer is about to send, for their socket only."""
    rules = get_ruleset(table.ruleset)
    odds = odds_of(rules)
    seen = sight(table.view, viewer)
    try:
        if odds is None:
            raise Refused("podglad", _("Ten system nie liczy szans."))
        parsed = rules.command_from_dict({**command, "now": clock.now()})
        authorise(rules, table.view, viewer, parsed)
        found = odds.preview_odds(table.state, parsed)
    except (ValueError, TypeError, RuleViolation) as exc:
        raise Refused("podglad", refusal_text(exc, seen)) from None
    target = table.view.seats.get(found.target or "")
    ctx = {"odds": found, "target": target, "oob": True, "sight": seen}
    return render_to_string(f"{TEMPLATE}#odds-preview", ctx)


# --- the battle map ---------------------------------------------------------------------------

FIELD = 40  # drawing units (CSS pixels at zoom 1) across a square, or a hex's height
TERRAIN = (  # (layer, tool, name): what the terrain drawing shades, bottom first
    ("difficult", "difficult", gettext_noop("Trudny teren")),
    ("obstacles", "obstacle", gettext_noop("Przeszkoda")),
    ("walls", "wall", gettext_noop("Ściana")),
)


@dataclass(frozen=True)
class Token:
    """A seat's token where this viewer may see it."""

    row: Row
    x: float
    y: float
    label: str  # the field ("C7")
    initials: str  # unique at the table (battlemap.token_labels)


@dataclass(frozen=True)
class Board:
    """What the map region shows: the map (None until the GM lays one), its terrain drawing
    (shared by every viewer), the tokens this viewer sees and, for the GM, who is off it."""

    spec: MapSpec
    map: battlemap.BattleMap | None
    width: float = 0.0
    height: float = 0.0
    pk: int = 0  # the table's (the map picture's address)
    tokens: tuple[Token, ...] = ()
    off_map: tuple[Row, ...] = ()
    darkness: tuple[tuple[str, str], ...] = ()  # (tool, name) of each darkness level
    size: int = FIELD

    @property
    def terrain(self) -> str:
        """The map's drawing (read only by the terrain region, rendered when it changes)."""
        if self.map is None:
            return ""
        return terrain_svg(self.pk, self.map, self.darkness, self.width, self.height)

    @property
    def radius(self) -> float:
        return FIELD * 0.38

    @property
    def ring(self) -> float:
        return FIELD * 0.47

    @property
    def tools(self) -> list[tuple[str, str]]:
        """The GM's tools: moving tokens, then painting each kind of field."""
        tools = [("move", _("Przesuń"))]
        tools += [(tool, _(name)) for _layer, tool, name in reversed(TERRAIN)]
        if self.darkness:
            tools += [*self.darkness, ("light", _("Światło"))]
        return [*tools, ("erase", _("Gumka"))]


def token_data(t: Token, b: Board) -> tuple[Any, ...]:
    """What a token shows (combat/_map_tokens.html#map-token): not the rest of its seat's row."""
    r = t.row
    return (
        r.id, r.name, r.side, r.current, r.hidden, r.health.out, r.controller, r.position,
        t.x, t.y, t.label, t.initials, b.radius, b.ring,
    )  # fmt: skip


def board(table: Table, spec: MapSpec, m: battlemap.BattleMap | None, rows: list[Row]) -> Board:
    darkness = tuple(
        (f"dark{i}", rules_gettext(name)) for i, name in enumerate(spec.darkness[:3], 1)
    )
    if m is None:
        return Board(spec, None, darkness=darkness)
    width, height = battlemap.extent(m, FIELD)
    # Labelled among every seat this viewer sees, placed or not: placing one changes no other's.
    labels = battlemap.token_labels(r.name for r in rows)
    tokens = tuple(
        Token(
            r,
            *battlemap.centre(m.geometry, r.position, FIELD),
            battlemap.label(r.position),
            initials,
        )  # fmt: skip
        for r, initials in zip(rows, labels, strict=True)
        if r.position is not None
    )
    off_map = tuple(r for r in rows if r.position is None)
    return Board(spec, m, width, height, table.pk, tokens, off_map, darkness)


def terrain_svg(
    pk: int, m: battlemap.BattleMap, darkness: Sequence[tuple[str, str]], w: float, h: float
) -> str:
    """The map's drawing from the terrain alone: a token moving does not touch it (its region
    is a record of the map alone). Only fields that differ from bare ground are drawn."""

    def fields(cells: Sequence[battlemap.Field]) -> list[tuple[float, float, str]]:
        return [(*battlemap.centre(m.geometry, f, FIELD), battlemap.label(f)) for f in cells]

    layers = [(cls, _(name), fields(getattr(m, layer))) for layer, cls, name in TERRAIN]
    names = dict(darkness)
    for level in (1, 2, 3):
        cells = getattr(m, f"dark{level}")
        if cells:
            name = names.get(f"dark{level}", _("Ciemność"))
            layers.append((f"dark{level}", name, fields(cells)))
    image = ""
    if m.image:
        image = f"{reverse('encounter_map_image', args=[pk])}?v={m.version}"
    ctx = {
        "m": m, "w": w, "h": h, "size": FIELD, "image": image,
        "layers": [layer for layer in layers if layer[2]],
        "hex": battlemap.hex_points(0, 0, FIELD), "half": FIELD / 2,
        "tile_w": battlemap.HEX_W * FIELD / 2, "tile_h": 1.5 * FIELD, "tile_path": _hex_tile(),
    }  # fmt: skip
    return render_to_string("combat/_map_terrain.html", ctx)


def _hex_tile() -> str:
    """The grid lines of one tile of pointy-topped odd-r hexes (two rows, one hex wide)."""
    w, r = battlemap.HEX_W * FIELD / 2, FIELD / 2
    return (f"M{w / 2:.2f} 0L{w:.2f} {r / 2:.2f}V{1.5 * r:.2f}L{w / 2:.2f} {2 * r:.2f}"
            f"L0 {1.5 * r:.2f}V{r / 2:.2f}ZM{w / 2:.2f} {2 * r:.2f}V{3 * r:.2f}")  # fmt: skip


def render_route(
    table: Table, viewer: Viewer, actor: str, to: battlemap.Field | None, mode: str
) -> str:
    """A token's move to `to`, drawn and explained for the asking socket only: the path, its
    cost, why it may not be made, the modes, and the form that confirms it."""
    rules = get_ruleset(table.ruleset)
    maps = battle_maps_of(rules)
    found, error, m = None, "", None
    seen = sight(table.view, viewer)
    try:
        if maps is None or to is None:
            raise Refused("brak_mapy", _("W tym systemie nie ma mapy."))
        m = maps.battle_map(table.state)
        if m is None:
            raise Refused("brak_mapy", _("To starcie nie ma mapy."))
        if not m.inside(to):
            raise Refused("poza_mapa", _("Pole %(field)s jest poza mapą.") % {
                "field": battlemap.label(to)})  # fmt: skip
        seat = table.view.seats.get(actor)
        if seat is None or seen.seat(seat) is None:
            raise Refused("postac", _("Nie ma takiej postaci: %(id)s") % {"id": actor})
        if not (viewer.is_gm or viewer.owns(seat.controller)):
            raise Refused("nie_twoja", _("To nie twoja postać."))
        unseen = frozenset(table.view.seats) - seen.seen  # drawn as empty fields
        found = maps.route(table.state, actor, to, mode, clock.now(), unseen=unseen)
        if found.command:
            parsed = rules.command_from_dict({**found.command, "now": clock.now()})
            authorise(rules, table.view, viewer, parsed)
    except Refused as refusal:
        found, error = None, refusal.message
    except (ValueError, TypeError, RuleViolation) as exc:
        found, error = None, refusal_text(exc, seen)
    ctx: dict[str, Any] = {"route": found, "error": error, "oob": True, "w": 0, "h": 0}
    ctx["sight"] = seen
    if m is not None:
        ctx["w"], ctx["h"] = battlemap.extent(m, FIELD)
    if found is not None and m is not None and to is not None:
        points = [battlemap.centre(m.geometry, f, FIELD) for f in found.path]
        ctx.update(
            points=" ".join(f"{x:.1f},{y:.1f}" for x, y in points),
            end=points[-1],
            steps=points[1:-1],
            seat=table.view.seats[actor],
            start=found.path[0],  # where the token stood: map.js drops the route once it moves
            field=battlemap.label(to),
            to=list(to),
            r=FIELD * 0.12,
            r2=FIELD * 0.24,
        )
    return render_to_string("combat/_map.html#map-route-answer", ctx)


def _roster_content(roster: Mapping[str, Any]) -> dict[str, Any]:
    """What the GM's add list prints of the roster's characters and creatures (model
    instances compare by their key alone: a renamed one would look the same)."""
    return {
        group: [(type(o).__name__, o.pk, o.name, getattr(o, "kind", None)) for o in objects]
        for group, objects in roster.items()
    }


class Render:
    """One viewer's records as HTML (`combat.pushes.Renderer`)."""

    def __init__(self, view: View) -> None:
        self.view = view

    def region(self, part: Part, items: str) -> str:
        view = self.view
        ctx = view.context((part.id,), oob=True)
        ctx["items"] = mark_safe(items)  # noqa: S308 - the items' own rendered, escaped HTML
        with ruleset_terms(view.table.ruleset):
            return render_to_string(f"{TEMPLATE}#{part.id}", ctx)

    def item(self, part: Part, item: Item, *, swap: bool) -> str:
        view = self.view
        with ruleset_terms(view.table.ruleset):
            if part.id == "table-order":
                row = view.row_by_id[item.id]
                ctx = {**view.context(("table-order",), oob=True), "r": row, "swap": swap}
                return render_to_string(f"{TEMPLATE}#order-row", ctx)
            if part.id == "table-map-tokens":
                token = view.token_by_id[item.id]
                ctx = {**view.context((part.id,), oob=True), "t": token, "swap": swap}
                return render_to_string("combat/_map_tokens.html#map-token", ctx)
            if part.id == "table-prompts":
                card = view.prompt_by_id[item.id]
                ctx = {**view.context(("table-prompts",), oob=True), "p": card, "swap": swap}
                return render_to_string(f"{TEMPLATE}#prompt-card", ctx)
            entry = view.log_by_id[item.id]
            ctx = {**view.base, "lines": entry.lines, "swap": swap}
            return render_to_string("combat/_log_lines.html", ctx)


def tree(view: View) -> list[Part]:
    """The viewer's page as records, in page order."""
    return [view.part(name) for name in regions_of(view.viewer)]


def clear_caches() -> None:
    """Forget every table's rendered records (tests that change templates or settings)."""
    tracks.clear()


def regions(table: Table, viewer: Viewer) -> dict[str, str]:
    """Every region for this viewer by its id, whole, each marked for an out-of-band swap."""
    view = View(table, viewer)
    return whole(tree(view), tracks.of(table.pk), get_language(), Render(view))


def render_regions(table: Table, viewer: Viewer) -> str:
    return "".join(regions(table, viewer).values())


def render_one(table: Table, viewer: Viewer, name: str) -> str:
    view = View(table, viewer)
    return whole([view.part(name)], tracks.of(table.pk), get_language(), Render(view))[name]
