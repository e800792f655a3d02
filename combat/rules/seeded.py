"""A small seeded random source for the simulators: the rules package imports no global
`random`, and a seed gives the same fights on any machine and Python."""

from __future__ import annotations

_MASK = (1 << 64) - 1


class SeededRNG:
    """SplitMix64, with the `randint` the rules' `RNG` protocol asks for."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def _next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randint(self, a: int, b: int) -> int:
        """Uniform in a..b inclusive (rejection sampling: no modulo bias)."""
        span = b - a + 1
        if span < 1:
            raise ValueError("empty range")
        limit = (1 << 64) - (1 << 64) % span
        while True:
            x = self._next()
            if x < limit:
                return a + x % span
