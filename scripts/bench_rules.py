"""Time the exact attack odds the UI asks for: one attack against all three defender options.

Run: .venv/bin/python scripts/bench_rules.py   (prints µs per call; exits 0)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from combat.rules.eleora.odds import attack_odds  # noqa: E402
from combat.rules.eleora.sheet import DamageType  # noqa: E402
from combat.rules.odds import _row_float, contest_odds  # noqa: E402

SIZES = (1, 2, 5, 10, 15, 20, 25, 30)
FACES = frozenset({4, 5, 6})
BUDGET_S = 0.05  # wall time spent per cell


def per_call_us(call: object, *, cold: bool = False) -> float:
    """Best of 5 batches, each long enough to dwarf timer resolution; µs per call."""
    assert callable(call)
    reps = 1
    while True:
        start = time.perf_counter()
        for _ in range(reps):
            if cold:
                _row_float.cache_clear()
            call()
        if time.perf_counter() - start > BUDGET_S / 5:
            break
        reps *= 2
    best = min(_batch(call, reps, cold) for _ in range(5))
    return best / reps * 1e6


def _batch(call: object, reps: int, cold: bool) -> float:
    assert callable(call)
    start = time.perf_counter()
    for _ in range(reps):
        if cold:
            _row_float.cache_clear()
        call()
    return time.perf_counter() - start


def three_options(attack: int, defence: int) -> None:
    # brak = Obrona, parowanie = +1, unik = +2 (a Zręczność 2 defender).
    pools = {"brak": defence, "parowanie": defence + 1, "unik": defence + 2}
    attack_odds(attack, pools, 2, DamageType.PHYSICAL, 1)


def main() -> int:
    print("attack_odds, 3 defender options (Obrona d, d+1, d+2), µs per call, warm row cache")
    print("atk\\def " + "".join(f"{d:>8}" for d in SIZES))
    for a in SIZES:
        cells = "".join(f"{per_call_us(lambda a=a, d=d: three_options(a, d)):8.0f}" for d in SIZES)
        print(f"{a:>7} {cells}")
    worst = per_call_us(lambda: three_options(30, 30))
    cold = per_call_us(lambda: three_options(30, 30), cold=True)
    single = per_call_us(lambda: contest_odds(30, 30, FACES))
    print(f"\n30 v 30, all three options: {worst:.0f} µs warm, {cold:.0f} µs with cold caches")
    print(f"30 v 30, one contested distribution (odds.contest_odds): {single:.0f} µs")
    print("budget: 1000 µs per contested distribution:", "OK" if single < 1000 else "TOO SLOW")
    return 0


if __name__ == "__main__":
    sys.exit(main())
