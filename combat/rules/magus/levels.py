"""Success levels of an action test against a Difficulty Number (Stopień trudności, DN).

DEFAULT thresholds of the digest (ED4-style, editable): Average ≥ DN, Good ≥ DN+5, Excellent
≥ DN+10, Extraordinary ≥ DN+15, Poor < DN, Pathetic = the Rule of One. Successes are counted
from Average = 1 (Good 2, Excellent 3, Extraordinary 4; a failure 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from combat.rules.base import gettext_noop


@dataclass(frozen=True)
class Level:
    """One success level: its key, its Polish label (a msgid) and the successes it counts."""

    key: str
    label: str
    successes: int

    @property
    def success(self) -> bool:
        return self.successes > 0


PATHETIC = Level("pathetic", gettext_noop("Żałosna porażka"), 0)
POOR = Level("poor", gettext_noop("Porażka"), 0)
AVERAGE = Level("average", gettext_noop("Przeciętny sukces"), 1)
GOOD = Level("good", gettext_noop("Duży sukces"), 2)
EXCELLENT = Level("excellent", gettext_noop("Ogromny sukces"), 3)
EXTRAORDINARY = Level("extraordinary", gettext_noop("Nadzwyczajny sukces"), 4)
LEVELS = (PATHETIC, POOR, AVERAGE, GOOD, EXCELLENT, EXTRAORDINARY)


@dataclass(frozen=True)
class Thresholds:
    """How far above the DN a result must reach for Good, Excellent and Extraordinary."""

    good: int = 5
    excellent: int = 10
    extraordinary: int = 15

    def __post_init__(self) -> None:
        values = (self.good, self.excellent, self.extraordinary)
        if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
            raise ValueError(f"progi poziomów sukcesu muszą być liczbami całkowitymi, są {values}")
        if not 0 < self.good < self.excellent < self.extraordinary:
            raise ValueError(
                "progi poziomów sukcesu muszą rosnąć: 0 < Duży < Ogromny < Nadzwyczajny,"
                f" są {values}"
            )

    def to_dict(self) -> dict[str, int]:
        return {"good": self.good, "excellent": self.excellent, "extraordinary": self.extraordinary}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Thresholds:
        """The thresholds of a table setting; ValueError for unknown keys or bad values."""
        unknown = sorted(set(data) - {"good", "excellent", "extraordinary"})
        if unknown:
            raise ValueError(f"nieznane progi poziomów sukcesu: {unknown}")
        return cls(**data)  # type: ignore[arg-type]  # __post_init__ checks the values


DEFAULT_THRESHOLDS = Thresholds()


def success_level(
    total: int, dn: int, rule_of_one: bool, thresholds: Thresholds = DEFAULT_THRESHOLDS
) -> Level:
    """The level a result reaches against a DN; the Rule of One is Pathetic whatever the total."""
    if rule_of_one:
        return PATHETIC
    margin = total - dn
    if margin >= thresholds.extraordinary:
        return EXTRAORDINARY
    if margin >= thresholds.excellent:
        return EXCELLENT
    if margin >= thresholds.good:
        return GOOD
    return AVERAGE if margin >= 0 else POOR
