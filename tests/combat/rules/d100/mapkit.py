"""Small hand-drawn battle maps for the d100 tests: '#' wall, 'o' obstacle, '~' difficult
terrain, '.' ground; a capital letter is the token of the combatant whose id is that letter
in lower case (on ground)."""

from __future__ import annotations

from combat.rules.battlemap import Field, Paint, Resize
from combat.rules.d100.commands import EditMap, PlaceCombatant
from tests.combat.rules.d100.engine_kit import Table

TOOLS = {"#": "wall", "o": "obstacle", "~": "difficult"}


def parse(text: str) -> tuple[int, int, dict[str, list[Field]], dict[str, Field]]:
    """Width, height, the painted fields by tool and the tokens by combatant id."""
    rows = [line.split() for line in text.strip().splitlines()]
    width, height = len(rows[0]), len(rows)
    assert all(len(r) == width for r in rows), "every row as wide"
    painted: dict[str, list[Field]] = {}
    tokens: dict[str, Field] = {}
    for y, row in enumerate(rows):
        for x, cell in enumerate(row):
            if cell in TOOLS:
                painted.setdefault(TOOLS[cell], []).append((x, y))
            elif cell.isupper():
                tokens[cell.lower()] = (x, y)
            else:
                assert cell == ".", cell
    return width, height, painted, tokens


def lay(table: Table, text: str) -> None:
    """The GM lays the drawn map on `table` and places its tokens (every step decided)."""
    width, height, painted, tokens = parse(text)
    table.do(EditMap(edit=Resize(width, height)))
    for tool, fields in painted.items():
        table.do(EditMap(edit=Paint(tool, tuple(fields))))  # type: ignore[arg-type]
    for cid, f in tokens.items():
        table.do(PlaceCombatant(target=cid, to=f))
