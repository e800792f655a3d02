"""What every ruleset's log is built from: a line from a msgid, a combatant's shown name.

Each ruleset's `narrate.describe` looks the event's type up in its `NARRATORS` (one small
function per event type) unless the type is in its `SILENT` set (bookkeeping, no line).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from combat.rules.base import LogLine, RollView

if TYPE_CHECKING:
    from combat.rules.vocabulary import Table

Narrator = Callable[[Any, Any], LogLine | None]  # (state before the event, event) -> its line


def name_of(state: Table[Any], combatant_id: str | None) -> str:
    """The display name (the id itself for someone the state does not know)."""
    c = state.combatants.get(combatant_id or "")
    return c.name if c is not None else str(combatant_id)


def line(
    text: str,
    kind: str,
    actors: Iterable[str | None] = (),
    params: Mapping[str, Any] = {},  # noqa: B006 - read only
    /,
    *,
    rolls: Iterable[RollView] = (),
    secret: bool = False,
    **more: Any,
) -> LogLine:
    """A line of msgid `text` with `params` and `more`; `actors` lose blanks and repeats."""
    return LogLine(
        text=text,
        params={**params, **more},
        kind=kind,
        actors=tuple(dict.fromkeys(a for a in actors if a)),
        rolls=tuple(rolls),
        secret=secret,
    )
