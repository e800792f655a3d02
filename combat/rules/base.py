"""The ruleset interface the rest of the app talks to, without naming a game system.

A ruleset describes a character sheet (attributes, skills, equipment, derived values) and runs
encounters. `Ruleset` is the kernel every ruleset subclasses (eight methods of its own, defaults
for the rest); `Prompts`, `Odds`, `Simulator` and `Autoplay` are capabilities a ruleset may add
(`prompts_of(rules)` and the like tell whether it has one), and the table shows a capability's
UI only where it exists. The table renders the ruleset-neutral records defined here
(`TableView`, `SeatView`, `RollView`, `OddsView`, …); what only one system shows lives in that
ruleset's partials, filled by its `*_panel` methods.

This module imports nothing of the project at run time but the shared codec: the rulesets
import it, and `registry` lists them.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, replace
from dataclasses import fields as dataclass_fields
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, runtime_checkable

from combat.rules.codec import RulesetCodec, canonical

if TYPE_CHECKING:  # only the protocol's annotations name them: no import at run time
    from combat.rules.schema import SettingsGroup, SheetSection


class RNG(Protocol):
    """What the rules need of a random source; `random.Random(seed)` fits."""

    def randint(self, a: int, b: int) -> int: ...


def gettext_noop(s: str) -> str:
    """Mark a Polish msgid for extraction (makemessages passes --keyword=gettext_noop); no-op.

    Import it under this very name: xgettext finds the strings by the name of the call."""
    return s


def pgettext_noop(context: str, s: str) -> str:
    """Mark a msgid in the message context of one ruleset (its key): a term whose English
    differs there (`makemessages` reads `--keyword=pgettext_noop:1c,2`); no-op, returns `s`.
    The table looks it up in the ruleset's context first (combat/terms.py)."""
    return s


CONTEXT_SEPARATOR = "\x04"  # how gettext catalogues join a msgctxt to its msgid


def fill(template: str, params: Mapping[str, Any], fallback: str | None = None) -> str:
    """`template % params`, robustly: a text without `%` is returned as it is (unrelated
    params or not), and one that does not format (a stray `%`, a missing or mistyped
    placeholder) gives `fallback`, or the template itself without one. A param that is a
    text itself, a `(msgid, params)` pair (`text_param`), is filled in first (in Polish here;
    the table translates it). A msgid in a context of its own ("eleora attack\x04Powalenie",
    as gettext catalogues join them) reads as its Polish part."""
    template = template.rpartition(CONTEXT_SEPARATOR)[2]
    if "%" not in template:
        return template
    values = {
        name: fill(value[0], value[1]) if is_text(value) else value
        for name, value in params.items()
    }
    try:
        return template % values
    except (KeyError, TypeError, ValueError):
        return template if fallback is None else fallback


def text_param(msgid: str, **params: Any) -> tuple[str, dict[str, Any]]:
    """A param that is a text of the rules (a level, a condition's name): its msgid and params,
    so the table shows it in the viewer's language inside the text it fills."""
    return (msgid, params)


class Names(str):
    """A param that names seats ("Ghul", "Ghul, Wilk"): the text, and the (seat id, name) of
    each seat it names, so the table words it for each viewer: one who may not see a seat
    reads „ktoś ukryty” instead of its name (`combat.access.Sight.words`)."""

    seats: tuple[tuple[str, str], ...]
    separator: str

    def __new__(
        cls, text: str = "", seats: Iterable[tuple[str, str]] = (), sep: str = ", "
    ) -> Names:
        self = super().__new__(cls, text)
        self.seats, self.separator = tuple(seats), sep
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Names, (str(self), self.seats, self.separator))

    @classmethod
    def of(cls, *seated: Any, sep: str = ", ") -> Names:
        """The names of these combatants (anything with `.id` and `.name`), once each."""
        seats = tuple(dict.fromkeys((c.id, c.name) for c in seated))
        return cls(sep.join(name for _seat, name in seats), seats, sep)


def fresh_id(rng: Any, prefix: str, n: int) -> str:
    """The id of something a player may answer (a prompt): from the entry's dice where they
    give tokens (`token()`, unguessable and the same when the log is checked again), else the
    n-th (dice a test injected: the order of their faces stays as it was)."""
    token = getattr(rng, "token", None)
    return f"{prefix}{token()}" if callable(token) else f"{prefix}{n}"


def is_text(value: Any) -> bool:
    """A `text_param(...)` param: a (msgid, params) pair (a list once stored as JSON)."""
    return (
        isinstance(value, tuple | list)
        and len(value) == 2
        and isinstance(value[0], str)
        and isinstance(value[1], Mapping)
    )


def frozen(value: Any) -> Any:
    """`value` made hashable and compared by value: a dict becomes `Fields`, a list or a
    tuple a tuple of frozen values; anything else is kept as it is."""
    if isinstance(value, Mapping):
        return value if isinstance(value, Fields) else Fields(value)
    if isinstance(value, list | tuple):
        return tuple(frozen(v) for v in value)
    return value


class Fields(Mapping[str, Any]):
    """A read-only mapping that hashes and compares by value, in its given order: what a
    panel record holds where its partial reads keys (a command's fields, say)."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, Any] | Iterable[tuple[str, Any]] = ()) -> None:
        pairs = items.items() if isinstance(items, Mapping) else items
        self._items = {key: frozen(value) for key, value in pairs}

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(tuple(self._items.items()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and self._items == dict(other.items())

    def __repr__(self) -> str:
        return f"Fields({self._items!r})"


@dataclass(frozen=True)
class StatSpec:
    """One attribute or skill of a sheet: its key, its Polish rule term and its allowed range.

    `group` is the msgid of a heading over the stats shown together; "" leaves them under the
    app's own heading for attributes (or skills)."""

    key: str
    label: str
    minimum: int
    maximum: int
    group: str = ""


@dataclass(frozen=True)
class DerivedValue:
    """A value the rules compute from a sheet, with how it was computed.

    `label` and `explanation` are Polish texts; where one is filled in from values, its
    `*_template` and `*_params` are its msgid and values, for the sheet page to translate."""

    key: str
    label: str
    value: int
    explanation: str
    explanation_template: str = ""
    explanation_params: Mapping[str, Any] = field(default_factory=dict)
    label_template: str = ""
    label_params: Mapping[str, Any] = field(default_factory=dict)

    def labelled(self, template: str, **params: Any) -> DerivedValue:
        """This value under a label filled in from `params` (a name, a talent)."""
        return replace(
            self, label=fill(template, params), label_template=template, label_params=params
        )

    @classmethod
    def explained(
        cls, key: str, label: str, value: int, template: str, **params: Any
    ) -> DerivedValue:
        """A value whose explanation is a msgid filled with `params`."""
        return cls(key, label, value, fill(template, params), template, params)


class RuleViolation(Exception):  # noqa: N818 - a refusal, named as the rules name it
    """A command the rules refuse; the state is unchanged.

    `message` is the Polish msgid template (marked with `gettext_noop`) with `%(name)s`
    placeholders filled from `params`: `.template` keeps the msgid, `.params` the values (ids
    for code, names and numbers for the text), and `.message` is the Polish text. The table
    layer shows `gettext(template) % params`."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        self.code = code
        self.template = message
        self.params = params
        self.message = fill(message, params)
        super().__init__(self.message)


@dataclass(frozen=True)
class SheetError:
    """One problem found in a sheet: where (dotted path) and what."""

    path: str
    message: str


@dataclass
class SheetErrors(Exception):  # noqa: N818
    errors: list[SheetError] = field(default_factory=list)

    def __str__(self) -> str:
        return "; ".join(f"{e.path}: {e.message}" for e in self.errors)


@dataclass(frozen=True)
class LegalAction:
    """One action or reaction for the UI: whether a character may use it now, and why not.

    `label` is Polish; the table shows `gettext(label_template)`, or `label` as it is when
    there is no msgid. `reason` is the Polish text made of the msgid `reason_template` filled
    from `reason_params` (the table shows `gettext(reason_template) % reason_params`)."""

    key: str
    label: str
    available: bool
    reason: str = ""
    reaction: bool = False
    label_template: str = field(default="", compare=False)
    reason_template: str = field(default="", compare=False)
    reason_params: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class Badge:
    """A condition (or similar marker) on a combatant, ready to show: "Krwawienie ×2 (3 tury)".

    `detail` is the Polish text of `detail_parts` joined by ", "; each part is a (msgid
    template, params) pair, so the table can show `gettext(template) % params` per part."""

    key: str
    label: str
    detail: str = ""
    description: str = ""
    detail_parts: tuple[tuple[str, Mapping[str, Any]], ...] = field(
        default=(), compare=False, hash=False
    )


@dataclass(frozen=True)
class RollView:
    """A roll ready to show, of any die: "Atak: ⚃⚄⚀ → sukcesy: 2 (Zręczność 2, Broń Lekka 3)",
    "Krok 9 (k8+k6): 8+3 → 11", "k100: 37 → OoP 23".

    `label` is a Polish msgid (the table layer may translate it); `dice` every face rolled,
    the rerolls of an open-ended die included; `sides` the die size of them all, or of each
    face in order for a roll of mixed dice (a Magus step: k8+k6); `summary` the msgid that
    tells the result, filled with `{"n": result, **summary_params}` (a d100 test: "próg
    %(threshold)s, OoP %(oop)s"); `modifiers` the (reason, value) pairs in the order the rules
    built the roll."""

    label: str
    dice: tuple[int, ...]
    result: int
    modifiers: tuple[tuple[str, int], ...] = ()
    sides: int | tuple[int, ...] = 6
    summary: str = ""
    summary_params: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class Counter:
    """A labelled number on a seat: "Akcje 2", "Akcje proste 1/3", "Wyczerpanie 2".

    `label` is a Polish msgid; `maximum` None shows the value alone."""

    key: str
    label: str
    value: int
    maximum: int | None = None


@dataclass(frozen=True)
class HealthView:
    """How hurt a combatant is: numbers, and the wound level shown to those who may not see them.

    `level` is the wound level's key, a CSS class `hp-<level>` (the stylesheet colours
    "bez_ran", "drasniety", "ranny", "ciezko_ranny", "ledwo_zywy", "nieprzytomny", "martwy");
    `level_label` its Polish msgid; `status_label` a msgid shown beside it when the combatant
    is out of the fight ("nieprzytomny"), "" otherwise. `label` is the msgid naming what
    `current` counts ("Zdrowie": what is left of `maximum`). A ruleset whose number counts up
    towards its limits (damage against the ratings that knock out and kill) names them in
    `limits`: the number is then shown as "label current" beside each limit, not as a share."""

    current: int
    maximum: int
    level: str
    level_label: str
    out: bool = False
    dead: bool = False
    status_label: str = ""
    label: str = gettext_noop("Zdrowie")
    limits: tuple[Counter, ...] = ()


@dataclass(frozen=True)
class SeatView:
    """One combatant at the table as the GM sees it (the table layer hides from players what
    they may not see: `combat.access`).

    `initiative` is shown as it is (the ruleset's initiative or its equivalent); `ready` says
    it has done what the setup asks of it (rolled its own initiative; True where the setup asks
    nothing); `marks` are lasting results for the summary (Okaleczenia); `removable` the badge
    keys the GM may take off."""

    id: str
    name: str
    side: str
    controller: str | None
    hidden: bool
    revealed: bool
    current: bool
    initiative: int | None
    health: HealthView
    counters: tuple[Counter, ...] = ()
    badges: tuple[Badge, ...] = ()
    ready: bool = False
    marks: tuple[str, ...] = ()
    removable: frozenset[str] = frozenset()
    position: tuple[int, int] | None = None  # the token's field on the battle map


Stage = Literal["setup", "running", "ended"]


@dataclass(frozen=True)
class TableView:
    """The encounter as the table shows it, for any ruleset.

    `stage` is where the fight is; `label` a Polish msgid with `label_params` for the round
    ("Runda %(n)d", "Tura zaskoczenia", "Deklaracje"); `order` every seat id in turn order,
    those without a place in it last; `marks_label` the msgid heading the summary's column of
    `SeatView.marks` ("" when the ruleset has none).

    `acting` are the seats that act now all at once, each in its own browser (a declaration
    phase, the players' own initiative rolls): each gets its turn partial, as `current` does
    in an ordinary turn. `waiting` are the seats the table waits on now (who has not declared
    yet, who must answer), shown to the GM as "czekamy na"; `deadline` (epoch seconds) is when
    the phase ends by itself, shown as a countdown to everyone.

    `pace` is "live" (a countdown of seconds) or "post" (a turn played by post over hours or
    days: its `deadline` is shown as a date in each viewer's time zone, and the players the
    table waits on get an e-mail when the turn opens for them and another at `remind_at`)."""

    stage: Stage
    round: int
    label: str
    seats: Mapping[str, SeatView]
    order: tuple[str, ...]
    current: str | None = None
    winner: str | None = None
    label_params: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    marks_label: str = ""
    acting: tuple[str, ...] = ()
    waiting: tuple[str, ...] = ()
    deadline: float | None = None
    pace: Literal["live", "post"] = "live"
    remind_at: float | None = None


@dataclass(frozen=True)
class Outcome:
    """One result of an option and its probability ("trafia" 0.62); `label` is a msgid."""

    label: str
    probability: float


@dataclass(frozen=True)
class OddsOption:
    """What one choice leads to: its outcomes (the first is the headline one) and the expected
    damage, for an attack preview or a prompt answer; `key` is the prompt option it answers."""

    key: str
    label: str
    outcomes: tuple[Outcome, ...]
    expected_damage: float | None = None

    @property
    def headline(self) -> Outcome | None:
        return self.outcomes[0] if self.outcomes else None


@dataclass(frozen=True)
class OddsView:
    """Exact odds for each option, with notes (msgid, params) that explain them."""

    options: tuple[OddsOption, ...]
    notes: tuple[tuple[str, Mapping[str, Any]], ...] = ()
    target: str | None = None

    def option(self, key: str) -> OddsOption | None:
        return next((o for o in self.options if o.key == key), None)


@dataclass(frozen=True)
class Quote:
    """A player's post a log line quotes: its `author`, the `action` it declares (as the
    rules tell it: a `text_param`, shown in the viewer's language) and the `text` the player
    wrote. A forum export makes each its own quoted paragraph, as a forum reader expects."""

    author: str
    action: tuple[str, Mapping[str, Any]] | str = ""
    text: str = ""


@dataclass(frozen=True)
class LogLine:
    """One event told for the table's log, in a language-neutral shape.

    `text` is a Polish msgid with `%(name)s` placeholders; the table layer shows
    `gettext(text) % params`, so `params` already hold display names and numbers. `kind` is a
    short category for styling ("turn", "attack", "roll", "damage", "condition", "gm", …).
    `actors` are the combatants the line mentions: a viewer who may not see one of them must
    not see the line. `secret` lines are for the GM only. `quotes`: the posts the line shows
    (a by-post turn's reveal), each told on its own below the text."""

    text: str
    params: Mapping[str, str | int]
    kind: str
    actors: tuple[str, ...] = ()
    rolls: tuple[RollView, ...] = ()
    secret: bool = False
    quotes: tuple[Quote, ...] = ()


@dataclass(frozen=True)
class PromptView:
    """An open question to one combatant, ready for the prompt card.

    `options` are (key, Polish label) pairs the rules allow now; the key "" is "no reaction".
    Send the chosen key through `Ruleset.prompt_command`. `attacker` is who attacks in the
    attack this prompt is about; `attack_command` is that attack as a command (for a defender:
    the declared attack, whose odds come from `prompt_odds`, since its pool was fixed at the
    declaration; for an Atak okazyjny: the attack accepting would make).

    `label` and the option labels are Polish text: `label` is the msgid `label_template`
    filled from `label_params`, and `option_templates` are (key, msgid, params) of the
    options in their order; the table shows `gettext(msgid) % params`."""

    id: str
    kind: str
    actor: str
    label: str
    options: tuple[tuple[str, str], ...]
    deadline: float
    attacker: str | None = None
    attack_command: Any | None = None
    label_template: str = field(default="", compare=False)
    label_params: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    option_templates: tuple[tuple[str, str, Mapping[str, Any]], ...] = field(
        default=(), compare=False, hash=False
    )


class SimulationSummary(Protocol):
    """What a ruleset's encounter simulator reports: win share per side, draws, mean rounds,
    survivors per side and each combatant's chance to drop."""

    @property
    def runs(self) -> int: ...

    @property
    def wins(self) -> Mapping[str, float]: ...

    @property
    def draws(self) -> float: ...

    @property
    def mean_rounds(self) -> float: ...

    @property
    def survivors(self) -> Mapping[str, float]:
        """Side → mean number of its combatants still standing at the end."""
        ...

    @property
    def drops(self) -> Mapping[str, float]:
        """Combatant id → share of the fights in which it dropped (unconscious or dead)."""
        ...


# A ruleset's panel: a frozen record (a dataclass of plain immutable values: strings, numbers,
# tuples of small records; never a whole state or combatant) holding all its partial reads of
# the fight, so two panels compare by value (`combat.pushes` re-renders a region only when its
# record changed) and an unrelated change to the state leaves it equal. None: nothing to show.
Panel = Hashable


class Ruleset:
    """The core every ruleset is: subclass it, declare the records, write what is the system's.

    Declare `key`, `label`, the frozen dataclasses of `commands`, `events` and `state` (each
    command and event with its `type_key`) and the table `settings` record (`to_dict()` /
    `from_dict()`, validating itself; None: no settings). The kernel derives from them the JSON
    round trips, the replay, the actor and targets of a command, the GM-judged fields and the
    freshness rule, and builds the GM's shared commands (`join_combat`, `set_hidden`,
    `reveal_stats`, `expire`) by their type keys. Eight methods have no default: `attributes`
    (the sheet), `new_encounter`, `decide`, `evolve`, `describe`, `table_view`, `turn_panel`
    and `gm_panel`. Override any other where the system's document differs.
    """

    key: ClassVar[str]
    label: ClassVar[str]
    commands: ClassVar[tuple[type, ...]] = ()
    events: ClassVar[tuple[type, ...]] = ()
    state: ClassVar[type]
    settings: ClassVar[type | None] = None
    # Commands refused when sent from a view older than the log's head (a double "next").
    fresh_state: ClassVar[frozenset[str]] = frozenset()
    # Per command type: the fields only the GM may set (a player's command setting one is refused).
    gm_judged: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    # The fields of a command that name other combatants (a string or a tuple of them).
    target_fields: ClassVar[tuple[str, ...]] = ("target", "targets")

    # --- what is the system's own ---------------------------------------------------------

    def attributes(self, settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]:
        raise NotImplementedError

    def new_encounter(
        self, settings: Mapping[str, Any] | None, combatants: Sequence[Mapping[str, Any]]
    ) -> Any:
        """The setup-phase state. Combatant dicts: id, name, side, sheet, controller,
        position ([x, y] or None), hidden. ValueError when malformed."""
        raise NotImplementedError

    def decide(self, state: Any, command: Any, rng: RNG) -> list[Any]:
        """Events for a command (pure; dice inside), or RuleViolation with a readable reason."""
        raise NotImplementedError

    def evolve(self, state: Any, event: Any) -> Any:
        """The state after one event; never rolls."""
        raise NotImplementedError

    def describe(self, state: Any, event: Any) -> LogLine | None:
        """The log line for an event, told against the state BEFORE it (None: bookkeeping)."""
        raise NotImplementedError

    def table_view(self, state: Any) -> TableView:
        """The phase, the order and every seat with its numbers, as the GM sees them."""
        raise NotImplementedError

    # Each panel fills the ruleset's partial of the same name under
    # templates/combat/rulesets/<key>/ (turn.html, seat.html, gm_panel.html, gm_seat.html):
    # a `Panel`, the whole of what the partial reads of the fight.
    # `visible` holds the ids of the combatants the viewer may see (a player: not the hidden).

    def turn_panel(self, state: Any, actor_id: str, visible: frozenset[str]) -> Panel:
        """What the acting viewer may do in `actor_id`'s turn (or before the fight)."""
        raise NotImplementedError

    def gm_panel(self, state: Any) -> Panel:
        """The GM's controls of the whole fight (start, end, the GM's own roll)."""
        raise NotImplementedError

    # --- the sheet and the settings: defaults ---------------------------------------------

    def skills(self, settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]:
        return ()

    def derived_values(
        self, sheet: Mapping[str, Any], settings: Mapping[str, Any] | None = None
    ) -> list[DerivedValue]:
        return []

    def sheet_sections(self, settings: Mapping[str, Any] | None = None) -> tuple[SheetSection, ...]:
        """The equipment lists of a sheet: the editor, the validator and the sheet page."""
        return ()

    def settings_groups(self) -> tuple[SettingsGroup, ...]:
        """The GM's table-settings form, grouped (settings left out appear under "Inne")."""
        return ()

    def default_settings(self) -> dict[str, Any]:
        return {} if self.settings is None else dict(self.settings().to_dict())

    def validate_settings(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The settings as stored; ValueError naming what is wrong."""
        if self.settings is None:
            if data:
                raise ValueError(f"unknown settings: {', '.join(sorted(data))}")
            return {}
        return dict(self.settings.from_dict(dict(data)).to_dict())  # type: ignore[attr-defined]

    # --- records: the JSON round trips and the replay -------------------------------------

    @cached_property
    def codec(self) -> RulesetCodec[Any, Any, Any]:
        return RulesetCodec(
            commands={c.type_key: c for c in self.commands},  # type: ignore[attr-defined]
            events={e.type_key: e for e in self.events},  # type: ignore[attr-defined]
            state=self.state,
            records=() if self.settings is None else (self.settings,),
        )

    def command_from_dict(self, data: Mapping[str, Any]) -> Any:
        """Parse a command (has a "type" key); ValueError with a clear message when bad."""
        return self.codec.command_from_dict(data)

    def command_to_dict(self, command: Any) -> dict[str, Any]:
        return self.codec.command_to_dict(command)

    def event_from_dict(self, data: Mapping[str, Any]) -> Any:
        return self.codec.event_from_dict(data)

    def event_to_dict(self, event: Any) -> dict[str, Any]:
        return self.codec.event_to_dict(event)

    def state_to_dict(self, state: Any) -> dict[str, Any]:
        return self.codec.state_to_dict(state)

    def state_from_dict(self, data: Mapping[str, Any]) -> Any:
        return self.codec.state_from_dict(data)

    def replay(self, initial: Any, events: Iterable[Any]) -> Any:
        """Fold events onto the initial state."""
        state = initial
        for event in events:
            state = self.evolve(state, event)
        return state

    # --- who may send a command -----------------------------------------------------------

    def command_actor(self, command: Any) -> str | None:
        """The combatant a command acts for (authorise its controller), None if GM-only."""
        return None if getattr(command, "gm_only", False) else getattr(command, "actor", None)

    def command_targets(self, command: Any) -> tuple[str, ...]:
        """The other combatants a command names (a player may not name one they cannot see)."""
        named: list[str] = []
        for name in self.target_fields:
            value = getattr(command, name, None)
            named += [value] if isinstance(value, str) else list(value or ())
        return tuple(named)

    def gm_judged_fields(self, command: Any) -> list[str]:
        """Names of fields set in this command that only the GM may set (a player's command
        with any of them is refused by the table): those of `gm_judged` given a value other
        than their default (or required ones)."""
        judged = self.gm_judged.get(command.type_key, ())
        if not judged:
            return []
        fields = {f.name: f for f in dataclass_fields(command)}
        return [
            name
            for name in judged
            if fields[name].default is MISSING or getattr(command, name) != fields[name].default
        ]

    def needs_fresh_state(self, command: Any) -> bool:
        """Whether the command must be refused when sent from a view older than the log's head."""
        return command.type_key in self.fresh_state

    # --- the GM's shared commands, found by their type keys -------------------------------

    def command_type(self, type_key: str) -> Any:
        return self.codec.commands[type_key]

    def join_command(self, combatant: Mapping[str, Any], now: float) -> Any:
        """The command that brings one combatant (a dict as for `new_encounter`) into the
        encounter, in any phase."""
        return self.command_type("join_combat")(combatant=canonical(combatant), now=now)

    def visibility_command(
        self, target: str, *, hidden: bool | None = None, revealed: bool | None = None
    ) -> Any:
        """GM: the command that hides a combatant from the players (or shows it), or reveals
        its numbers to them (or hides them again)."""
        if hidden is not None:
            return self.command_type("set_hidden")(target=target, hidden=hidden)
        return self.command_type("reveal_stats")(target=target, revealed=bool(revealed))

    # --- deadlines: none unless the system keeps some -------------------------------------

    def next_deadline(self, state: Any) -> float | None:
        """The earliest deadline waiting in the state (epoch seconds: a prompt, a timer), None
        if nothing waits."""
        return None

    def expire_command(self, now: float) -> Any:
        """The command that resolves everything whose deadline passed at `now`."""
        return self.command_type("expire")(now=now)

    def resume(self, state: Any, *, paused_at: float, now: float, minimum: float) -> list[Any]:
        """Events that restart the deadlines of a state an undo brought back: each gets the
        time it had left at `paused_at` (when the log moved on from this state), at least
        `minimum` seconds, counted from `now` (none when nothing waits). The undo's entry
        holds them, so a replay gives the same deadlines."""
        return []

    # --- the battle map: what `BattleMaps` (its `map_spec` and `route`) reads and sends ----

    def battle_map(self, state: Any) -> Any:
        """The state's map (a `battlemap.BattleMap`), None before the GM draws one."""
        return getattr(state, "battlemap", None)

    def map_command(self, edit: Any, now: float) -> Any:
        """GM: the command that applies one `battlemap.Edit`."""
        return self.command_type("edit_map")(edit=edit, now=now)

    def place_command(self, seat: str, to: tuple[int, int] | None, now: float) -> Any:
        """GM: the command that puts a seat's token on a field (None: off the map)."""
        to = None if to is None else (to[0], to[1])
        return self.command_type("place_combatant")(target=seat, to=to, now=now)

    # --- panels a system may leave out ----------------------------------------------------

    def seat_panel(self, state: Any, seat_id: str, visible: frozenset[str]) -> Panel:
        """Extras on a player's own card (what they may do outside their turn)."""
        return None

    def gm_seat_panel(self, state: Any, seat_id: str) -> Panel:
        """The GM's controls of one seat (its numbers, conditions, initiative)."""
        return None


# --- capabilities: what a ruleset may offer beyond the core -----------------------------------


@runtime_checkable
class Prompts(Protocol):
    """Questions put to one combatant with a deadline (a reaction to an attack), answered by
    its player, the GM, or an automatic policy for a GM-run combatant."""

    def open_prompts(self, state: Any) -> list[PromptView]:
        """Every open prompt with its label and the options its combatant may choose now."""
        ...

    def prompt_command(self, state: Any, prompt_id: str, option: str, now: float = 0.0) -> Any:
        """The command that answers a prompt with one of its PromptView option keys;
        RuleViolation for an option that is not offered."""
        ...

    def prompt_panel(self, state: Any, prompt_id: str) -> Panel:
        """Extras on the prompt card (templates/combat/rulesets/<key>/prompt.html)."""
        ...

    def reaction_policies(self) -> list[tuple[str, str]]:
        """How a GM-run combatant answers its prompts: "ask" (the GM answers) first, then
        the automatic ones."""
        ...

    def default_policy(self, state: Any) -> str:
        """The policy of a GM-run combatant the GM set none for (a table setting, or "ask")."""
        ...

    def auto_answer(self, state: Any, prompt_id: str, policy: str, now: float) -> Any | None:
        """The command an automatic policy gives for an open prompt; None for "ask" (or when
        the prompt is no longer open). ValueError for an unknown policy."""
        ...


@runtime_checkable
class Odds(Protocol):
    """Exact odds before a roll: of an attack being declared, and of each answer to a prompt."""

    def preview_odds(self, state: Any, command: Any) -> OddsView:
        """The odds of a command about to be sent; RuleViolation for one that has none (not an
        attack) or that the rules would refuse."""
        ...

    def answer_odds(self, state: Any, prompt_id: str) -> OddsView | None:
        """The odds of each option of a prompt, by option key (None: the prompt has none)."""
        ...


@runtime_checkable
class Simulator(Protocol):
    """Seeded Monte-Carlo fights of an encounter, for the GM's balancing page."""

    def simulation_policies(self) -> list[tuple[str, str]]:
        """Defence policies the simulator can play (key, Polish label)."""
        ...

    def simulate(
        self,
        settings: Mapping[str, Any] | None,
        combatants: Sequence[Mapping[str, Any]],
        *,
        runs: int,
        seed: int,
        policy: str,
    ) -> SimulationSummary:
        """Monte-Carlo fights of these combatants (as for new_encounter), seeded."""
        ...


@runtime_checkable
class Autoplay(Protocol):
    """GM-run combatants that play their own turn, one ordinary command at a time (each one
    logged and undone like the GM's own)."""

    def autoplay_policies(self) -> list[tuple[str, str]]:
        """How a combatant may play itself (key, Polish label), the default first."""
        ...

    def autoplay_command(self, state: Any, actor_id: str, policy: str, now: float) -> Any | None:
        """The next command of `actor_id`'s turn by this policy, one the rules allow now
        (ending the turn when nothing else is left); None when it is not its turn or it must
        wait (an open prompt). ValueError for an unknown policy."""
        ...


@runtime_checkable
class SecretRolls(Protocol):
    """Commands whose dice are the GM's secret (a roll behind the screen): the table draws
    them from the encounter's second seed, which the GM may keep when the fight ends."""

    def secret_dice(self, command: Any) -> bool: ...


@runtime_checkable
class SheetCheck(Protocol):
    """Rules over a whole sheet that its fields alone do not tell (a shield only beside a
    one-handed weapon): the app's validator asks after each field passed its own checks."""

    def sheet_problems(
        self, sheet: Mapping[str, Any], settings: Mapping[str, Any] | None
    ) -> tuple[tuple[str, str], ...]:
        """(dotted path, Polish msgid) for each problem; () when the sheet is sound."""
        ...


@dataclass(frozen=True)
class MapSpec:
    """The battle map a ruleset plays on: its geometry, metres per field, a new map's size,
    and the msgids naming darkness levels 1–3 (() where the ruleset has no darkness rule)."""

    geometry: Literal["square", "hex"]
    metres: int
    width: int = 20
    height: int = 15
    darkness: tuple[str, ...] = ()


@dataclass(frozen=True)
class RouteView:
    """A move shown before it is confirmed: the path (start first), whether it may be made
    (else `reason`), its cost as a msgid with values ("%(used)d m z %(left)d m"), what it
    brings about (`notes`: an Atak okazyjny it provokes, a charge's bonus), the move modes the
    actor may pick (`modes`: (key, msgid)) with the one shown, and `command`, the ruleset's
    command as a dict, that confirming sends."""

    actor: str
    path: tuple[tuple[int, int], ...]
    allowed: bool
    cost: str = ""
    cost_params: Mapping[str, Any] = field(default_factory=dict)
    reason: str = ""
    reason_params: Mapping[str, Any] = field(default_factory=dict)
    notes: tuple[tuple[str, Mapping[str, Any]], ...] = ()
    modes: tuple[tuple[str, str], ...] = ()
    mode: str = ""
    command: Mapping[str, Any] = field(default_factory=dict)


@runtime_checkable
class BattleMaps(Protocol):
    """A battle map (`combat.rules.battlemap`): the GM lays and paints it, tokens stand on it,
    and moves are previewed on it. The map lives in the ruleset's state, so it is replayed and
    undone with the log; seat positions come in `SeatView.position`."""

    def map_spec(self) -> MapSpec: ...

    def battle_map(self, state: Any) -> Any:
        """The encounter's `BattleMap`, or None while it has none."""

    def map_command(self, edit: Any, now: float) -> Any:
        """The GM's command making a `battlemap.Edit`."""

    def place_command(self, seat: str, to: tuple[int, int] | None, now: float) -> Any:
        """The GM's command putting a seat's token on a field (None: off the map)."""

    def route(
        self,
        state: Any,
        actor: str,
        to: tuple[int, int],
        mode: str,
        now: float,
        *,
        unseen: Iterable[str] = (),
    ) -> RouteView:
        """The move of `actor` to `to` in `mode` ("" for the first the actor may use);
        RuleViolation when there is nothing to show (no map, no token). `unseen`: the seats
        the asker cannot see, whose tokens neither block nor bend the path nor are named: the
        route is drawn as if their fields were empty (the move itself stops where it meets
        one, as the rules say)."""


def prompts_of(rules: object) -> Prompts | None:
    """`rules` as a ruleset with reaction prompts, or None without them."""
    return rules if isinstance(rules, Prompts) else None


def odds_of(rules: object) -> Odds | None:
    """`rules` as a ruleset with exact odds, or None without them."""
    return rules if isinstance(rules, Odds) else None


def secret_rolls_of(rules: object) -> SecretRolls | None:
    """`rules` as a ruleset with secret GM rolls, or None without them."""
    return rules if isinstance(rules, SecretRolls) else None


def sheet_check_of(rules: object) -> SheetCheck | None:
    """`rules` as a ruleset with whole-sheet rules, or None without them."""
    return rules if isinstance(rules, SheetCheck) else None


def battle_maps_of(rules: object) -> BattleMaps | None:
    """`rules` as a ruleset with a battle map, or None without one."""
    return rules if isinstance(rules, BattleMaps) else None


def simulator_of(rules: object) -> Simulator | None:
    """`rules` as a ruleset with an encounter simulator, or None without one."""
    return rules if isinstance(rules, Simulator) else None


def autoplay_of(rules: object) -> Autoplay | None:
    """`rules` as a ruleset whose GM-run combatants can play their own turns, or None."""
    return rules if isinstance(rules, Autoplay) else None
