"""Hand-drawn hex maps for the Magus map tests.

    A . # .
     . ~ o B

One row a line, one hex a symbol; odd rows (pointy-top, odd-r) may be indented by a space to
show their half-hex shift. `#` wall, `o` obstacle, `~` difficult terrain, `.` ground; any
other letter is a token standing on ground (its key in `Drawn.tokens`).
"""

from __future__ import annotations

from dataclasses import dataclass

from combat.rules.battlemap import BattleMap, Field, Paint, Resize
from combat.rules.magus.commands import EditMap, PlaceCombatant
from tests.combat.rules.magus.engine_kit import Table

TERRAIN = {"#": "wall", "o": "obstacle", "~": "difficult"}


@dataclass(frozen=True)
class Drawn:
    width: int
    height: int
    layers: dict[str, tuple[Field, ...]]
    tokens: dict[str, Field]

    @property
    def map(self) -> BattleMap:
        layer = {"wall": "walls", "obstacle": "obstacles", "difficult": "difficult"}
        return BattleMap(
            geometry="hex", metres=2, width=self.width, height=self.height,
            **{layer[k]: tuple(sorted(v)) for k, v in self.layers.items()},  # type: ignore[arg-type]
        )  # fmt: skip


def drawn(text: str) -> Drawn:
    rows = [line.split() for line in text.strip("\n").splitlines() if line.strip()]
    width = max(len(r) for r in rows)
    layers: dict[str, list[Field]] = {}
    tokens: dict[str, Field] = {}
    for y, row in enumerate(rows):
        for x, symbol in enumerate(row):
            if symbol in TERRAIN:
                layers.setdefault(TERRAIN[symbol], []).append((x, y))
            elif symbol != ".":
                tokens[symbol] = (x, y)
    return Drawn(width, len(rows), {k: tuple(v) for k, v in layers.items()}, tokens)


def lay(table: Table, text: str, who: dict[str, str] | None = None) -> Drawn:
    """Lay the drawn map on the table through the GM's commands; `who` maps token letters to
    combatant ids (default: the letter lowered)."""
    d = drawn(text)
    table.do(EditMap(edit=Resize(d.width, d.height)))
    for tool, fields in d.layers.items():
        table.do(EditMap(edit=Paint(tool, fields)))  # type: ignore[arg-type]
    for letter, f in d.tokens.items():
        cid = (who or {}).get(letter, letter.lower())
        table.do(PlaceCombatant(target=cid, to=f))
    return d
