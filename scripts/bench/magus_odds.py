"""Benchmark the Magus odds target of issue #12: exact attack odds ≤ 1 ms for any step up to
40, cold (the first call of a process: the odds cache empty), without Django.

Every pair (attack step, damage step) in 1..40 × 1..40 is timed, for a non-magic weapon (the
×3 cap) and a magic one (no cap: the whole open-ended tail, the slowest case), each call with
the sum cache cleared first (`cold`), best of `repeats` tries per pair (the least disturbed
one: a single call is below the scheduler's noise). A defensive talent's odds (talent_odds,
steps 1..40 against a result of step + 5) are timed the same way. The settings are parsed
once, as the table does when it loads a campaign (the parse is timed on its own).

Run: .venv/bin/python -m scripts.bench.magus_odds [--short]   (prints the JSON result)
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from combat.rules.magus import odds
from combat.rules.magus.damage import Blow, attack_odds, talent_odds
from combat.rules.magus.settings import DEFAULT_SETTINGS, MagusSettings

LIMIT_MS = 1.0
HIGHEST = 40
REPEATS = 5
SHORT_REPEATS = 2
SHORT_STRIDE = 3  # --short: every third step pair
WHAT = (
    "magus odds: attack_odds(attack, 0, defence=attack, Blow(damage, armour=damage//3+2, "
    "shield=2, capped), wound_threshold=10) for every attack × damage step in 1..{highest}, "
    "capped and uncapped, odds cache cleared before each call; best of {repeats} tries per "
    "pair; the figures are the worst pair, the mean and the 99th percentile over pairs"
)


def _cold(call: Callable[[], object], repeats: int) -> float:
    """ms of the fastest of `repeats` calls, each with the odds cache emptied first."""
    best = float("inf")
    for _ in range(repeats):
        odds._SUMS.clear()
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def _warm(call: Callable[[], object], repeats: int) -> float:
    call()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def _attack(
    attack: int, damage: int, capped: bool, settings: MagusSettings
) -> Callable[[], object]:
    blow = Blow(damage_step=damage, armour=damage // 3 + 2, shield=2, capped=capped)
    return lambda: attack_odds(attack, 0, attack, blow, 10, settings)


def _summary(prefix: str, times: Mapping[Any, float]) -> dict[str, Any]:
    ordered = sorted(times.values())
    worst_at = max(times, key=times.__getitem__)
    return {
        f"{prefix}_max_ms": round(ordered[-1], 4),
        f"{prefix}_p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 4),
        f"{prefix}_mean_ms": round(statistics.fmean(ordered), 4),
        f"{prefix}_worst_at": list(worst_at),
    }


def measure(short: bool = False) -> dict[str, Any]:
    """The Magus odds figures as JSON-ready data; `short`: a third of the pairs, 2 tries."""
    repeats = SHORT_REPEATS if short else REPEATS
    stride = SHORT_STRIDE if short else 1
    started = time.perf_counter()
    settings = MagusSettings.from_dict(DEFAULT_SETTINGS.to_dict())
    settings.table  # noqa: B018 - parsed once per table, as the table layer does
    settings_ms = (time.perf_counter() - started) * 1e3
    steps = range(1, HIGHEST + 1, stride)
    results: dict[str, Any] = {}
    for capped in (True, False):
        label = "magus_attack_odds_cold" + ("" if capped else "_uncapped")
        cold = {
            (a, d): _cold(_attack(a, d, capped, settings), repeats) for a in steps for d in steps
        }
        results.update(_summary(label, cold))
    warm = {(a, a): _warm(_attack(a, a, True, settings), repeats) for a in steps}
    results.update(_summary("magus_attack_odds_warm", warm))
    talent = {
        (s,): _cold(lambda s=s: talent_odds(s, 0, s + 5, settings), repeats)  # type: ignore[misc]
        for s in steps
    }
    results.update(_summary("magus_talent_odds_cold", talent))
    worst = max(
        results["magus_attack_odds_cold_max_ms"],
        results["magus_attack_odds_cold_uncapped_max_ms"],
        results["magus_talent_odds_cold_max_ms"],
    )
    results.update(
        {
            "magus_settings_parse_ms": round(settings_ms, 3),
            "magus_pairs": len(steps) ** 2,
            "short": short,
            "python": sys.version.split()[0],
            "what": WHAT.format(highest=HIGHEST, repeats=repeats),
            "targets": {"magus_odds": {"limit_ms": LIMIT_MS, "met": worst <= LIMIT_MS}},
        }
    )
    return results


def main(argv: Sequence[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    print(json.dumps(measure(short="--short" in args), indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
