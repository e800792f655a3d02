"""Folding an encounter's log: which entries count after undos, and the state they give.

Pure functions over plain data (entries as `(seq, events, undo_to)`), so the fold that the
service appends with is the same one a test replays from scratch.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from combat.rules.base import Ruleset


@dataclass(frozen=True)
class Step:
    """One log entry as the fold sees it."""

    seq: int
    events: Sequence[dict[str, Any]]
    undo_to: int | None = None


@dataclass(frozen=True)
class _Kept:
    """The entries in force as a chain (last first): each seq's chain is kept for later undos."""

    step: Step
    before: _Kept | None


def effective(steps: Iterable[Step]) -> list[Step]:
    """The entries in force: an undo to K puts back exactly what was in force right after
    entry K (so an undo to before an earlier undo brings back what that undo took), then its
    own events, if any (the deadlines it restarted)."""
    after: dict[int, _Kept | None] = {0: None}
    kept: _Kept | None = None
    for step in steps:
        if step.undo_to is None:
            kept = _Kept(step, kept)
        else:
            kept = after.get(step.undo_to)
            if step.events:  # what the undo itself did to what it brought back (deadlines)
                kept = _Kept(step, kept)
        after[step.seq] = kept
    chain: list[Step] = []
    while kept is not None:
        chain.append(kept.step)
        kept = kept.before
    return chain[::-1]


def undone(steps: Iterable[Step]) -> set[int]:
    """Seqs of command entries that an undo took back (shown struck through in the log)."""
    steps = list(steps)
    kept = {s.seq for s in effective(steps)}
    return {s.seq for s in steps if s.undo_to is None and s.seq not in kept}


def fold(rules: Ruleset, initial: dict[str, Any], steps: Iterable[Step]) -> Any:
    """The state after these entries (undos applied), replayed from the initial state."""
    state = rules.state_from_dict(initial)
    events = (rules.event_from_dict(e) for s in effective(steps) for e in s.events)
    return rules.replay(state, events)
