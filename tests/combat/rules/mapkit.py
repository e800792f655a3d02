"""Small hand-drawn square battle maps for rules tests.

    m, at = drawn('''
    . . # .
    a ~ . w
    ''')

One character per field, spaces between fields optional: '#' wall, 'o' obstacle, '~' difficult
terrain, '1' '2' '3' darkness levels (Półmrok, Ciemność, Całkowita ciemność), '.' bare ground;
any other letter is a token, whose field `at` gives by that letter (the field is ground).
"""

from __future__ import annotations

from combat.rules import battlemap
from combat.rules.battlemap import BattleMap, Field

TERRAIN = {
    "#": "walls",
    "o": "obstacles",
    "~": "difficult",
    "1": "dark1",
    "2": "dark2",
    "3": "dark3",
}


def drawn(
    picture: str, *, geometry: battlemap.Geometry = "square", metres: int = 1
) -> tuple[BattleMap, dict[str, Field]]:
    rows = [line.replace(" ", "") for line in picture.strip("\n").splitlines() if line.strip()]
    rows = [r.strip() for r in rows]
    width = max(len(r) for r in rows)
    layers: dict[str, list[Field]] = {name: [] for name in TERRAIN.values()}
    tokens: dict[str, Field] = {}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch in TERRAIN:
                layers[TERRAIN[ch]].append((x, y))
            elif ch != ".":
                assert ch not in tokens, f"token {ch!r} drawn twice"
                tokens[ch] = (x, y)
    m = BattleMap(
        geometry=geometry,
        metres=metres,
        width=width,
        height=len(rows),
        **{name: tuple(sorted(fields)) for name, fields in layers.items()},
    )
    return m, tokens
