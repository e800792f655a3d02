"""A scripted RNG: the faces a test wants, in order, each checked against the die asked for
(d100 tests, the GM's d6 and d2 of the crit tables)."""

from __future__ import annotations

from collections.abc import Iterable


class Script:
    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)
        self.asked: list[int] = []

    def randint(self, a: int, b: int) -> int:
        assert self.faces, f"no face left for a d{b}"
        face = self.faces.pop(0)
        assert a == 1 and 1 <= face <= b, f"face {face} asked of a d{b}"
        self.asked.append(b)
        return face
