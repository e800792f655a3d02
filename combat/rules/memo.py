"""What a ruleset works out from a state, once per state object.

A table's entry is one state object, shared by every viewer's render of it in a process (the
snapshot): the turn panel's legality for an actor, probed button by button, is the same for
the GM's page and the player's, and for the seat panels beside it. `PerState` keeps such
results by the state's identity for the last few states, holding each so its id is not
reused, and never by equality (hashing a whole state would cost more than the probe).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from threading import Lock
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class PerState(Generic[T]):
    """`get(state, key, compute)`: `compute()` once per state object and key."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._states: OrderedDict[int, tuple[Any, dict[Hashable, T]]] = OrderedDict()
        self._lock = Lock()

    def get(self, state: Any, key: Hashable, compute: Callable[[], T]) -> T:
        with self._lock:
            held = self._states.get(id(state))
            if held is not None and held[0] is state and key in held[1]:
                self._states.move_to_end(id(state))
                return held[1][key]
        value = compute()
        with self._lock:
            held = self._states.get(id(state))
            if held is None or held[0] is not state:
                held = self._states[id(state)] = (state, {})
                while len(self._states) > self.size:
                    self._states.popitem(last=False)
            held[1][key] = value
        return value


class _Probe:
    """The dice of a legality probe (its events are dropped): every die shows its lowest."""

    def randint(self, a: int, b: int) -> int:
        return a


E = TypeVar("E", bound=Exception)


class Refusals(Generic[E]):
    """`refusals(state, command)`: why the rules' `decide` would refuse `command` now, or None,
    decided on dice that are thrown away (the panels' buttons and the NPCs' own play ask
    this), once per state and command (every viewer's panel asks of the same state)."""

    def __init__(self, decide: Callable[[Any, Any, Any], object], refused: type[E]) -> None:
        self.decide, self.refused = decide, refused
        self._memo: PerState[E | None] = PerState()

    def __call__(self, state: Any, command: Any) -> E | None:
        try:
            return self._memo.get(state, command, lambda: self._probe(state, command))
        except TypeError:  # a command holding a mapping cannot key the memo
            return self._probe(state, command)

    def _probe(self, state: Any, command: Any) -> E | None:
        try:
            self.decide(state, command, _Probe())
        except self.refused as refused:
            return refused
        return None
