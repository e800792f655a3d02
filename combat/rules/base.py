"""The ruleset interface the rest of the app talks to, without naming a game system.

A ruleset describes a character sheet (attributes, skills, derived values) and runs encounters
(see the encounter methods added by each ruleset). Eleora is the first; Magus and d100 plug in
behind the same protocol.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from combat.rules.dice import RNG


def gettext_noop(s: str) -> str:
    """Mark a Polish msgid for extraction (makemessages passes --keyword=gettext_noop); no-op.

    Import it under this very name: xgettext finds the strings by the name of the call."""
    return s


def fill(template: str, params: Mapping[str, Any], fallback: str | None = None) -> str:
    """`template % params`, robustly: a text without `%` is returned as it is (unrelated
    params or not), and one that does not format (a stray `%`, a missing or mistyped
    placeholder) gives `fallback`, or the template itself without one."""
    if "%" not in template:
        return template
    try:
        return template % dict(params)
    except (KeyError, TypeError, ValueError):
        return template if fallback is None else fallback


@dataclass(frozen=True)
class StatSpec:
    """One attribute or skill of a sheet: its key, its Polish rule term and its allowed range."""

    key: str
    label: str
    minimum: int
    maximum: int


@dataclass(frozen=True)
class DerivedValue:
    """A value the rules compute from a sheet, with how it was computed."""

    key: str
    label: str
    value: int
    explanation: str


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
    """A rolled pool ready to show: "Atak: ⚃⚄⚀ → 2 sukcesy (Zręczność 2, Broń Lekka 3)".

    `label` is a Polish msgid (the table layer may translate it); `modifiers` are the pool's
    (reason, dice) pairs in the order the rules built it."""

    label: str
    dice: tuple[int, ...]
    successes: int
    modifiers: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class LogLine:
    """One event told for the table's log, in a language-neutral shape.

    `text` is a Polish msgid with `%(name)s` placeholders; the table layer shows
    `gettext(text) % params`, so `params` already hold display names and numbers. `kind` is a
    short category for styling ("turn", "attack", "roll", "damage", "condition", "gm", …).
    `actors` are the combatants the line mentions: a viewer who may not see one of them must
    not see the line. `secret` lines are for the GM only."""

    text: str
    params: Mapping[str, str | int]
    kind: str
    actors: tuple[str, ...] = ()
    rolls: tuple[RollView, ...] = ()
    secret: bool = False


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
    """What a ruleset's encounter simulator reports: win share per side, draws, mean rounds."""

    @property
    def runs(self) -> int: ...

    @property
    def wins(self) -> Mapping[str, float]: ...

    @property
    def draws(self) -> float: ...

    @property
    def mean_rounds(self) -> float: ...


class Ruleset(Protocol):
    key: str
    label: str

    def attributes(self, settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]: ...

    def skills(self, settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]: ...

    def default_settings(self) -> dict[str, Any]: ...

    def validate_settings(self, data: Mapping[str, Any]) -> dict[str, Any]: ...

    def derived_values(
        self, sheet: Mapping[str, Any], settings: Mapping[str, Any] | None = None
    ) -> list[DerivedValue]: ...

    # --- encounters -------------------------------------------------------------------------
    # State, commands and events are the ruleset's own frozen dataclasses; the table layer
    # handles them only through these methods (and stores their JSON dicts).

    def new_encounter(
        self, settings: Mapping[str, Any] | None, combatants: Sequence[Mapping[str, Any]]
    ) -> Any:
        """The setup-phase state. Combatant dicts: id, name, side, sheet, controller,
        position ([x, y] or None), hidden. ValueError when malformed."""
        ...

    def decide(self, state: Any, command: Any, rng: RNG) -> list[Any]:
        """Events for a command (pure; dice inside), or RuleViolation with a readable reason."""
        ...

    def evolve(self, state: Any, event: Any) -> Any:
        """The state after one event; never rolls."""
        ...

    def replay(self, initial: Any, events: Iterable[Any]) -> Any:
        """Fold events onto the initial state."""
        ...

    def command_from_dict(self, data: Mapping[str, Any]) -> Any:
        """Parse a command (has a "type" key); ValueError with a clear message when bad."""
        ...

    def command_to_dict(self, command: Any) -> dict[str, Any]: ...

    def event_from_dict(self, data: Mapping[str, Any]) -> Any: ...

    def event_to_dict(self, event: Any) -> dict[str, Any]: ...

    def state_to_dict(self, state: Any) -> dict[str, Any]: ...

    def state_from_dict(self, data: Mapping[str, Any]) -> Any: ...

    def command_actor(self, command: Any) -> str | None:
        """The combatant a command acts for (authorise its controller), None if GM-only."""
        ...

    def legal_actions(self, state: Any, actor_id: str) -> list[LegalAction]: ...

    def condition_badges(self, state: Any, combatant_id: str) -> list[Badge]:
        """Conditions to show on a combatant, derived ones (e.g. unconscious) included."""
        ...

    def attack_odds(self, state: Any, command: Any) -> Any:
        """Exact odds of a declared attack per defender option (for the UI)."""
        ...

    def next_deadline(self, state: Any) -> float | None:
        """The earliest open prompt deadline (epoch seconds), None if nothing waits."""
        ...

    def expire_command(self, now: float) -> Any:
        """The command that resolves every prompt expired at `now` as "no reaction"."""
        ...

    def gm_judged_fields(self, command: Any) -> list[str]:
        """Names of fields set in this command that only the GM may set (a player's command
        with any of them is refused by the table)."""
        ...

    def needs_fresh_state(self, command: Any) -> bool:
        """Whether the command must be refused when sent from a view older than the log's head."""
        ...

    def condition_choices(self) -> list[tuple[str, str]]:
        """Conditions the GM may add by hand: (key, label)."""
        ...

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

    def is_secret(self, event: Any) -> bool:
        """Whether only the GM may see this event (e.g. a secret GM roll)."""
        ...

    # --- the live table -----------------------------------------------------------------------

    def describe(self, state: Any, event: Any) -> LogLine | None:
        """The log line for an event, told against the state BEFORE it (None: bookkeeping)."""
        ...

    def wound_level(self, state: Any, combatant_id: str) -> tuple[str, str]:
        """(key, Polish label) of how hurt a combatant looks, for viewers who may not see
        its numbers."""
        ...

    def initiative_action(self, state: Any, combatant_id: str) -> LegalAction:
        """Whether this combatant may still roll its own initiative before the fight."""
        ...

    def reaction_policies(self) -> list[tuple[str, str]]:
        """How a GM-run combatant answers its prompts: "ask" (the GM answers) first, then
        the automatic ones (the simulation policies)."""
        ...

    def auto_answer(self, state: Any, prompt_id: str, policy: str, now: float) -> Any | None:
        """The command an automatic policy gives for an open prompt; None for "ask" (or when
        the prompt is no longer open). ValueError for an unknown policy."""
        ...

    def open_prompts(self, state: Any) -> list[PromptView]:
        """Every open prompt with its label and the options its combatant may choose now."""
        ...

    def prompt_command(self, state: Any, prompt_id: str, option: str, now: float = 0.0) -> Any:
        """The command that answers a prompt with one of its PromptView option keys;
        RuleViolation for an option that is not offered."""
        ...

    def prompt_odds(self, state: Any, prompt_id: str) -> Any | None:
        """Exact odds of the pending attack behind a prompt for each option its defender
        has (None for a prompt without an attack, e.g. Ucieczka)."""
        ...


_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    _REGISTRY[ruleset.key] = ruleset
    return ruleset


def get_ruleset(key: str) -> Ruleset:
    _load_builtin()
    try:
        return _REGISTRY[key]
    except KeyError:
        raise LookupError(f"unknown ruleset: {key}") from None


def ruleset_choices() -> list[tuple[str, str]]:
    _load_builtin()
    return [(r.key, r.label) for r in _REGISTRY.values()]


def _load_builtin() -> None:
    if not _REGISTRY:
        from combat.rules import eleora  # noqa: F401  (registers itself)
