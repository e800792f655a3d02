"""The table's regions rendered for one viewer: what the page shows and what a socket pushes.

Secrets are dropped here, before any template sees them: hidden combatants and the log lines
about them, secret GM rolls, NPC health numbers (a wound level instead, until the GM reveals
them) and other players' prompts never reach a player's context.

A region's HTML is a pure function of the table snapshot, the language and what its viewer may
see, so a push renders it once per process and shares it: keyed by table, language, region and
*variant* (the audience, GM or player, plus the viewer's own id only where the region shows
their own things: their cards, their prompts, their turn). Below regions, order rows and log
entries are remembered by their data (`{% memo %}`), so a push renders only what changed.
"""

from __future__ import annotations

import dataclasses
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from threading import Lock
from typing import Any, Generic, TypeVar

from django.db.models import Q
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from characters.models import Character, CreatureTemplate
from combat import services
from combat.rules import Ruleset, RuleViolation, get_ruleset
from combat.rules.base import Badge, PromptView, fill
from combat.services import LogEntry, Table, Viewer

REGIONS = (
    "table-status",
    "table-prompts",
    "table-me",
    "table-turn",
    "table-order",
    "table-log",
)
GM_REGIONS = ("table-gm",)
TEMPLATE = "combat/encounter.html"

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LRU(Generic[K, V]):
    """A bounded least-recently-used map, safe across threads (pages render in others)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> V:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._data.clear()


# Per table: each region's latest HTML per variant, and the rows and actions behind them.
_regions: LRU[tuple[Any, ...], tuple[Table, str]] = LRU(8192)
_shared: LRU[tuple[Any, ...], tuple[Table, Any]] = LRU(4096)
# Order rows and log entries by their data (`{% memo %}`); a key is never reused for other data.
_memo: LRU[tuple[Any, ...], str] = LRU(65536)


def clear_caches() -> None:
    for cache in (_regions, _shared, _memo, _rosters):
        cache.clear()


def memo(key: tuple[Any, ...], render: Callable[[], str]) -> str:
    """`render()`, or what it gave for the same key before."""
    hit = _memo.get(key)
    return hit if hit is not None else _memo.put(key, render())


def _per_table(table: Table, key: tuple[Any, ...], compute: Callable[[], V]) -> V:
    """`compute()` once per table snapshot (and language) for every socket of this process."""
    full = (table.pk, get_language(), *key)
    hit = _shared.get(full)
    if hit is not None and hit[0] is table:
        value: V = hit[1]
        return value
    value = compute()
    _shared.put(full, (table, value))
    return value


@dataclass(frozen=True)
class Row:
    """One combatant as this viewer's audience (GM or players) may see it; hashable, so a
    rendered order row is remembered by its data."""

    id: str
    name: str
    side: str
    controller: str | None  # whose character: the page marks the viewer's own (CSS)
    current: bool
    initiative: int | None
    actions_left: int
    reactions_left: int
    status: str
    numbers: bool  # health shown as numbers (own side, revealed, or the GM)
    health: int
    max_health: int
    damage_physical: int
    damage_stun: int
    removable: frozenset[str]
    wound_key: str
    wound_label: str
    badges: tuple[Badge, ...]
    hidden: bool
    revealed: bool
    controlled_by_gm: bool
    policy: str
    initiative_rolled: bool
    injuries: tuple[str, ...] = ()


@dataclass(frozen=True)
class Line:
    seq: int
    text: str
    kind: str
    rolls: Sequence[Mapping[str, Any]]
    secret: bool
    undone: bool


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
    odds: Mapping[str, Any] = field(default_factory=dict)
    answers: dict[str, Any] = field(default_factory=dict)
    heroism: bool = False  # a Kostka Heroizmu may go on this answer's roll


def engine_text(template: str, params: Mapping[str, Any] | None, fallback: str = "") -> str:
    """A text the rules made, in the viewer's language: `gettext(template) % params`.

    The rules give a Polish msgid and its values; `fallback` (their Polish text) is shown when
    there is no msgid or the translation does not format."""
    if not template:
        return fallback
    return fill(_(template), params or {}, fallback or template)


def _option_labels(prompt: PromptView) -> list[tuple[str, str]]:
    """A prompt's (key, label) options with the labels in the viewer's language."""
    labels = {key: engine_text(msgid, params) for key, msgid, params in prompt.option_templates}
    return [(key, labels.get(key, label)) for key, label in prompt.options]


def _badge(badge: Badge) -> Badge:
    """A condition badge with its detail ("×2, tury: 3") in the viewer's language."""
    if not badge.detail_parts:
        return badge
    detail = ", ".join(engine_text(template, params) for template, params in badge.detail_parts)
    return dataclasses.replace(badge, detail=detail)


def may_see(viewer: Viewer, combatant: Any) -> bool:
    return viewer.is_gm or not combatant.hidden


def owns(viewer: Viewer, controller: str | None) -> bool:
    """A player character this viewer plays (the GM's NPCs have no controller)."""
    return controller is not None and controller == viewer.controller


def rows(rules: Ruleset, table: Table, viewer: Viewer) -> list[Row]:
    """The combatants in turn order (then those without initiative) as the viewer's audience
    sees them: the same list for every player, so it is computed once per snapshot."""
    state = table.state
    ids = list(state.order) + [c for c in state.combatants if c not in state.order]
    return [
        _row(rules, table, viewer.is_gm, cid)
        for cid in ids
        if may_see(viewer, state.combatants[cid])
    ]


def _gm_rows(rules: Ruleset, table: Table) -> list[Row]:
    gm = Viewer(user_id=0, is_gm=True)
    return _per_table(table, ("rows", "gm"), lambda: rows(rules, table, gm))


def _player_rows(gm_rows: list[Row]) -> list[Row]:
    """The GM's rows as the players see them (the same as `rows` for a player, without
    working out wound levels and badges again): no hidden NPCs, no numbers the GM keeps."""
    result = []
    for r in gm_rows:
        if r.hidden:
            continue
        numbers = r.controller is not None or r.revealed
        result.append(
            dataclasses.replace(
                r,
                numbers=numbers,
                health=r.health if numbers else 0,
                max_health=r.max_health if numbers else 0,
                damage_physical=0,
                damage_stun=0,
                removable=frozenset(),
            )
        )
    return result


def _row(rules: Ruleset, table: Table, gm: bool, cid: str) -> Row:
    state = table.state
    c = state.combatants[cid]
    numbers = gm or c.controller is not None or c.stats_revealed
    wound_key, wound_label = rules.wound_level(state, cid)
    return Row(
        id=cid,
        name=c.name,
        side=c.side,
        controller=c.controller,
        current=state.current == cid,
        initiative=c.initiative,
        actions_left=c.actions_left,
        reactions_left=c.reactions_left,
        status=c.status,
        numbers=numbers,
        health=c.health if numbers else 0,
        max_health=c.max_health if numbers else 0,
        damage_physical=c.damage_physical if gm else 0,
        damage_stun=c.damage_stun if gm else 0,
        removable=frozenset(x.key for x in c.conditions) if gm else frozenset(),
        wound_key=wound_key,
        wound_label=_(wound_label),
        badges=tuple(_badge(b) for b in rules.condition_badges(state, cid)),
        hidden=c.hidden,
        revealed=c.stats_revealed,
        controlled_by_gm=c.controller is None,
        policy=table.npc_policies.get(cid, "ask"),
        initiative_rolled=bool(getattr(c, "setup_roll", ())),
        injuries=tuple(i.label for i in getattr(c, "injuries", ())),
    )


class LogItem:
    """One log entry as a viewer may see it. `key` names exactly what it shows (the entry and
    which of its lines), so its rendering is remembered; the lines are only worked out (and
    translated) when it is rendered."""

    def __init__(self, pk: int, entry: LogEntry, viewer: Viewer, seen: frozenset[str]) -> None:
        self.entry = entry
        self.shown = tuple(
            i
            for i, line in enumerate(entry.lines)
            if viewer.is_gm or not (line.get("secret") or not set(line.get("actors", ())) <= seen)
        )
        self.key = (pk, entry.seq, entry.undo_to, entry.undone, self.shown)

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
        return [_line(entry, entry.lines[i]) for i in reversed(self.shown)]


def _line(entry: LogEntry, line: Mapping[str, Any]) -> Line:
    params = dict(line.get("params") or {})
    try:
        text = _(line["text"]) % params
    except (KeyError, TypeError, ValueError):
        text = str(line.get("text", ""))
    rolls = line.get("rolls") or ()
    kind, secret = line.get("kind", ""), bool(line.get("secret"))
    return Line(entry.seq, text, kind, rolls, secret, entry.undone)


class LogChunk:
    """Up to LOG_CHUNK consecutive log entries (aligned on their seq, so a chunk stays the
    same while the log grows): a push re-renders the chunk with the new entry and the one
    the window trims, and takes the others as they were rendered."""

    def __init__(self, table: Table, viewer: Viewer, entries: list[LogEntry]) -> None:
        self.table, self.viewer, self.entries = table, viewer, entries
        steps = tuple((e.seq, e.undo_to, e.undone) for e in entries)
        # A player's lines depend on who they see now; the GM sees every line.
        self.key = (table.pk, steps, None if viewer.is_gm else _seen(table))

    @cached_property
    def items(self) -> list[LogItem]:
        return log_items(self.table, self.viewer, self.entries[::-1])


LOG_CHUNK = 8


def log_chunks(table: Table, viewer: Viewer) -> list[LogChunk]:
    """The table's recent log in chunks, newest first (each chunk's entries newest first)."""
    chunks: dict[int, list[LogEntry]] = {}
    for entry in reversed(table.log):
        chunks.setdefault((entry.seq - 1) // LOG_CHUNK, []).append(entry)
    return [LogChunk(table, viewer, entries) for entries in chunks.values()]


def _seen(table: Table) -> frozenset[str]:
    """Who a player sees now: not the hidden, nor one an undo took out of the fight (a line
    about them would give them away)."""
    return frozenset(cid for cid, c in table.state.combatants.items() if not c.hidden)


def log_items(
    table: Table, viewer: Viewer, entries: Sequence[LogEntry] | None = None
) -> list[LogItem]:
    """Newest first (the table's recent log, or `entries`), the entries this viewer sees a
    line of: secret lines only for the GM; lines about hidden combatants only for the GM too
    (their names would give them away)."""
    seen = _seen(table)
    items = (
        LogItem(table.pk, entry, viewer, seen)
        for entry in reversed(table.log if entries is None else entries)
    )
    return [item for item in items if item.visible]


def log_lines(
    table: Table, viewer: Viewer, entries: Sequence[LogEntry] | None = None
) -> list[Line]:
    """The lines of `log_items`, newest first (the log download)."""
    return [line for item in log_items(table, viewer, entries) for line in item.lines]


def prompt_cards(rules: Ruleset, table: Table, viewer: Viewer) -> list[PromptCard]:
    """Open prompts: a player sees their own; the GM sees all (and answers for anyone)."""
    state = table.state
    cards = []
    for p in _visible_prompts(rules, table, viewer):
        c = state.combatants[p.actor]
        mine = owns(viewer, c.controller)
        card = PromptCard(
            id=p.id,
            kind=p.kind,
            actor=p.actor,
            actor_name=c.name,
            label=engine_text(p.label_template, p.label_params, p.label),
            options=_option_labels(p),
            deadline=p.deadline,
            mine=mine or (viewer.is_gm and c.controller is None),
            odds=_odds_by_option(rules.prompt_odds(state, p.id)),
            answers={
                key: rules.command_to_dict(rules.prompt_command(state, p.id, key))
                for key, _label in p.options
            },
            # The rules check the die on answering; the card only offers it to its holder.
            heroism=getattr(c, "heroism_dice", 0) > 0,
        )
        cards.append(card)
    cards.sort(key=lambda card: (not card.mine, card.deadline))
    return cards


def _visible_prompts(rules: Ruleset, table: Table, viewer: Viewer) -> list[PromptView]:
    combatants = table.state.combatants
    return [
        p
        for p in rules.open_prompts(table.state)
        if viewer.is_gm or owns(viewer, combatants[p.actor].controller)
    ]


def _action_key(action: Any) -> tuple[Any, ...]:
    """Everything of a legal action that a template shows (its hash leaves the msgid out)."""
    params = tuple(sorted((k, repr(v)) for k, v in action.reason_params.items()))
    return (
        *(action.key, action.label, action.available, action.reason, action.reaction),
        *(action.label_template, action.reason_template, params),
    )


def _odds_by_option(odds: Any) -> dict[str, Any]:
    """Odds per prompt option key; "no reaction" is the option key "" (odds key "brak")."""
    if odds is None:
        return {}
    options = dict(odds.options)
    if "brak" in options:
        options[""] = options["brak"]
    return options


FREE_REACTIONS = ("przepuszczenie", "upuszczenie", "wyzwolenie")

# What each region's template reads from a View, besides table, state, viewer, oob, ruleset.
PARTS: dict[str, tuple[str, ...]] = {
    "table-status": ("rows", "current"),
    "table-prompts": ("prompts", "server_now"),
    "table-me": ("mine", "free_reactions", "rows", "me_keys"),
    "table-turn": (
        *("current", "my_turn", "acting", "actions", "action_keys", "actor", "targets", "mine"),
    ),
    "table-order": ("rows", "policies", "condition_choices"),
    "table-log": ("log", "log_empty"),
    "table-gm": ("rows", "sides", "roster_characters", "roster_creatures", "roster_key"),
}


class View:
    """One viewer's look at one table. Each part is worked out on first use, and the parts
    that are the same for a whole audience once per snapshot, so a push whose regions come
    from the shared cache computes nothing it does not render."""

    def __init__(self, table: Table, viewer: Viewer, *, fresh: bool = False) -> None:
        self.table, self.viewer, self.state = table, viewer, table.state
        self.rules = get_ruleset(table.ruleset)
        self.audience = "gm" if viewer.is_gm else "player"
        self.fresh = fresh  # a page load: read what lives outside the log (the roster) anew

    def context(self, names: Sequence[str], *, oob: bool) -> dict[str, Any]:
        """The template context for these regions."""
        base = {"table": self.table, "state": self.state, "viewer": self.viewer}
        parts = {part: getattr(self, part) for name in names for part in PARTS[name]}
        return {**base, **parts, "oob": oob, "ruleset": self.table.ruleset}

    def variant(self, name: str) -> tuple[Any, ...]:
        """Who else sees exactly this region: the audience, and this viewer's own id where
        the region holds their own things."""
        if name == "table-turn":
            personal = self.viewer.is_gm or self.my_turn or self.state.phase == "setup"
        elif name == "table-prompts":
            personal = bool(_visible_prompts(self.rules, self.table, self.viewer))
        elif name == "table-me":
            controllers = (c.controller for c in self.state.combatants.values())
            personal = any(owns(self.viewer, c) for c in controllers)
        else:
            personal = False
        return (self.audience, self.viewer.controller if personal else None)

    def content(self, name: str) -> tuple[Any, ...] | None:
        """All that a region shows besides its variant, where that is short to name: a push
        then reuses the region as long as it is the same, across seqs. None: the region is
        named by the table snapshot instead (one rendering per seq)."""
        state = self.state
        if name == "table-status" and state.phase != "ended":
            current = self.current
            who = (current.name, current.controller) if current else None
            return (state.phase, state.round, len(self.rows), who)
        if name == "table-turn" and self.variant(name)[1] is None and not self.acting:
            return (state.phase, self.current.name if self.current else None)
        if name == "table-prompts" and not _visible_prompts(self.rules, self.table, self.viewer):
            return ()
        if name == "table-me":
            return (state.phase, *(self.me_keys[r.id] for r in self.mine))
        return None

    @cached_property
    def rows(self) -> list[Row]:
        if self.viewer.is_gm:
            return _gm_rows(self.rules, self.table)
        return _per_table(
            self.table, ("rows", "player"), lambda: _player_rows(_gm_rows(self.rules, self.table))
        )

    @cached_property
    def mine(self) -> list[Row]:
        return [r for r in self.rows if owns(self.viewer, r.controller)]

    @cached_property
    def current(self) -> Row | None:
        return next((r for r in self.rows if r.current), None)

    @cached_property
    def my_turn(self) -> bool:
        return self.current is not None and owns(self.viewer, self.current.controller)

    @cached_property
    def actor(self) -> Any:
        return self.state.combatants.get(self.state.current) if self.state.current else None

    @cached_property
    def acting(self) -> bool:
        return self.actor is not None and (
            self.viewer.is_gm or owns(self.viewer, self.actor.controller)
        )

    @cached_property
    def actions(self) -> list[Any]:
        if not self.acting:
            return []
        cid = self.state.current
        return _per_table(
            self.table, ("actions", cid), lambda: self.rules.legal_actions(self.state, cid)
        )

    @cached_property
    def targets(self) -> list[Row]:
        return [r for r in self.rows if self.actor is not None and r.id != self.actor.id]

    @cached_property
    def free_reactions(self) -> dict[str, list[Any]]:
        """Reactions a player may use outside a prompt, per own character, when allowed now."""
        if getattr(self.state, "phase", "") not in ("combat", "surprise"):
            return {}
        return {
            r.id: [
                a
                for a in self.rules.legal_actions(self.state, r.id)
                if a.reaction and a.key in FREE_REACTIONS
            ]
            for r in self.mine
        }

    @cached_property
    def me_keys(self) -> dict[str, tuple[Any, ...]]:
        """What each of my cards shows: the row, the phase, its free reactions and (for
        Przepuszczenie) the names of the others, so a card is remembered by it."""
        others = tuple((r.id, r.name, r.side) for r in self.rows)
        return {
            r.id: (
                r,
                self.state.phase,
                self.table.ruleset,
                tuple(_action_key(a) for a in self.free_reactions.get(r.id, ())),
                others,
            )
            for r in self.mine
        }

    @cached_property
    def action_keys(self) -> dict[str, tuple[Any, ...]]:
        """What each action of the turn panel shows: the action, the actor's side, weapons,
        shields and what is left to use, and the targets, so an action is remembered by it."""
        actor = self.actor
        if actor is None:
            return {}
        sheet = actor.sheet
        about = (
            actor.id,
            actor.side,
            getattr(actor, "heroism_dice", 0),
            tuple(sorted(getattr(actor, "unloaded", ()))),
            tuple((w.name, w.damage) for w in getattr(sheet, "weapons", ())),
            tuple((s.name, s.bonus) for s in getattr(sheet, "shields", ())),
            getattr(sheet, "movement", None),
            tuple((t.id, t.name, t.side, t.status) for t in self.targets),
        )
        return {a.key: (self.table.ruleset, _action_key(a), about) for a in self.actions}

    @cached_property
    def sides(self) -> tuple[str, ...]:
        return tuple(sorted({r.side for r in self.rows}))

    @cached_property
    def prompts(self) -> list[PromptCard]:
        return prompt_cards(self.rules, self.table, self.viewer)

    @cached_property
    def server_now(self) -> float:
        return time.time()

    @cached_property
    def log(self) -> list[LogChunk]:
        return log_chunks(self.table, self.viewer)

    @cached_property
    def log_empty(self) -> bool:
        """Whether this viewer sees no line at all (from the newest entry: usually at once)."""
        seen = _seen(self.table)
        entries = reversed(self.table.log)
        return not any(LogItem(0, e, self.viewer, seen).visible for e in entries)

    @cached_property
    def policies(self) -> list[tuple[str, str]]:
        return self.rules.reaction_policies()

    @cached_property
    def condition_choices(self) -> list[tuple[str, str]]:
        return self.rules.condition_choices() if self.viewer.is_gm else []

    @cached_property
    def roster(self) -> dict[str, Any]:
        return _roster(self.table, fresh=self.fresh) if self.viewer.is_gm else {}

    @property
    def roster_characters(self) -> list[Character]:
        return list(self.roster.get("roster_characters", []))

    @property
    def roster_creatures(self) -> list[CreatureTemplate]:
        return list(self.roster.get("roster_creatures", []))

    @cached_property
    def roster_key(self) -> tuple[Any, ...]:
        """What the GM's add form shows of the roster, so the form is remembered by it."""
        characters = tuple((c.pk, c.name, c.is_npc) for c in self.roster_characters)
        return (characters, tuple((t.pk, t.name) for t in self.roster_creatures))


def regions_of(viewer: Viewer) -> tuple[str, ...]:
    return REGIONS + (GM_REGIONS if viewer.is_gm else ())


def context(table: Table, viewer: Viewer, *, oob: bool) -> dict[str, Any]:
    """Everything the whole page shows this viewer (a page load: nothing shared, all fresh)."""
    return View(table, viewer, fresh=True).context(regions_of(viewer), oob=oob)


ROSTER_TTL_S = 10.0  # how old the GM's roster in a push may be; a page load reads it fresh
_rosters: LRU[tuple[int, str], tuple[float, list[Character], list[CreatureTemplate]]] = LRU(1024)


def _roster(table: Table, *, fresh: bool) -> dict[str, Any]:
    """What the GM can still bring to the table: campaign characters not in it, creatures.

    The campaign's lists change outside the table's log, so a push cannot know when; reading
    them on every push cost two queries per action, so a push reuses them for a few seconds."""
    key = (table.campaign_id, table.ruleset)
    hit = None if fresh else _rosters.get(key)
    if hit is None or time.monotonic() - hit[0] > ROSTER_TTL_S:
        characters = Character.objects.filter(campaign_id=table.campaign_id)
        creatures = CreatureTemplate.objects.filter(
            Q(campaign_id=table.campaign_id) | Q(campaign__isnull=True, ruleset=table.ruleset)
        )
        hit = _rosters.put(
            key,
            (
                time.monotonic(),
                list(characters.order_by("kind", "name").only("name", "kind")),
                list(creatures.order_by("campaign", "name").only("name")),
            ),
        )
    present = set(table.state.combatants)
    return {
        "roster_characters": [c for c in hit[1] if f"c{c.pk}" not in present],
        "roster_creatures": hit[2],
    }


def render_preview(table: Table, viewer: Viewer, command: Mapping[str, Any]) -> str:
    """The exact odds of an attack this viewer is about to declare, for their socket only."""
    rules = get_ruleset(table.ruleset)
    try:
        parsed = rules.command_from_dict({**command, "now": time.time()})
        if not isinstance(getattr(parsed, "target", None), str) or not hasattr(parsed, "weapon"):
            raise services.Refused("podglad", _("Szanse można policzyć tylko dla ataku."))
        services.authorise(rules, table.state, viewer, parsed)
        odds = rules.attack_odds(table.state, parsed)
    except (ValueError, TypeError, RuleViolation) as exc:
        if isinstance(exc, RuleViolation):
            message = engine_text(exc.template, exc.params, exc.message)
        else:
            message = str(exc)
        raise services.Refused("podglad", message) from None
    target = table.state.combatants.get(getattr(parsed, "target", ""))
    ctx = {"odds": odds, "target": target, "oob": True}
    return render_to_string(f"{TEMPLATE}#odds-preview", ctx)


def render_region(view: View, name: str) -> str:
    """One region marked for an out-of-band swap by its id, rendered once per table snapshot
    (or per content, `View.content`), language and variant in this process and shared by every
    socket that sees that variant."""
    content = view.content(name)
    key = (view.table.pk, get_language(), name, view.variant(name), content)
    hit = _regions.get(key)
    # Without a content key only the same snapshot (its NPC policies included) will do.
    if hit is not None and (content is not None or hit[0] is view.table):
        return hit[1]
    html = render_to_string(f"{TEMPLATE}#{name}", view.context((name,), oob=True))
    _regions.put(key, (view.table, html))
    return html


def regions(table: Table, viewer: Viewer) -> dict[str, str]:
    """Every region for this viewer by its id, each marked for an out-of-band swap."""
    view = View(table, viewer)
    return {name: render_region(view, name) for name in regions_of(viewer)}


def render_regions(table: Table, viewer: Viewer) -> str:
    return "".join(regions(table, viewer).values())


def render_one(table: Table, viewer: Viewer, name: str) -> str:
    return render_region(View(table, viewer), name)
