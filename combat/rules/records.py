"""A fast `replace` for the engine's frozen state records.

`dataclasses.replace` re-runs `__init__` over every field; the engine replaces a combatant
(30-odd fields) several times per event, and that dominated the simulator's profile. The
records it serves have no `__post_init__` and no `InitVar`, so copying the instance dict and
setting the changed fields gives the same object faster.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def replace(obj: T, **changes: Any) -> T:
    """A copy of the frozen dataclass `obj` with `changes`; unknown field names raise TypeError."""
    current = obj.__dict__
    if not changes.keys() <= current.keys():
        unknown = changes.keys() - current.keys()
        raise TypeError(f"{type(obj).__name__} has no field(s) {', '.join(sorted(unknown))}")
    new = object.__new__(type(obj))
    # One merged dict set as the instance dict (a frozen class refuses plain attribute sets):
    # about half the cost of copying and updating in place, and replaying a log calls this
    # tens of thousands of times.
    object.__setattr__(new, "__dict__", {**current, **changes})
    return new
