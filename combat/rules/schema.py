"""What a ruleset asks the app to show as forms: equipment lists of a sheet, the GM's settings.

Records only, without naming a game system: a ruleset fills them (Eleora in
`eleora/forms.py`) and the characters app builds its inputs, its validation and the sheet page
from them. Every label is a Polish msgid marked with `gettext_noop` where it is written; the
app translates it when it renders.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ItemType = Literal["text", "int", "bool", "choice"]


@dataclass(frozen=True)
class ItemField:
    """One field of an equipment item, e.g. a weapon's damage.

    `default` None means the field is required. `maximum` is the longest text or the highest
    number (numbers start at 0). `choices` are (key, label msgid) pairs of a "choice" field.
    `badge`, a msgid with `%(n)s`, shows a set value beside the item's name on the sheet page
    instead of in a column of its own ("Przeładowanie: %(n)s"); a set "bool" field shows its
    label there."""

    key: str
    label: str
    type: ItemType
    default: object = None
    maximum: int = 0
    choices: tuple[tuple[str, str], ...] = ()
    badge: str = ""
    minimum: int = 0  # the lowest number allowed (an "int" field)


@dataclass(frozen=True)
class SheetSection:
    """One equipment list of a sheet (the sheet's `key` holds a list of items of `fields`).

    `title`, `add_label` (the editor's add-a-row button) and `empty` (the sheet page when the
    list is empty) are msgids.

    `single` makes it one set of fields instead of a list (a character's hit points, race,
    armour kind…): the sheet's `key` holds ONE dict of `fields`, always present with the
    defaults filled in; the editor shows a plain fieldset (no rows to add or remove, so
    `add_label` and `empty` go unused) and the sheet page a short list of label: value."""

    key: str
    title: str
    add_label: str
    fields: tuple[ItemField, ...]
    empty: str = ""
    single: bool = False


@dataclass(frozen=True)
class Setting:
    """How the GM's form shows one table setting; its type follows the setting's default value.

    `choices` are (key, label msgid) pairs; `parts` label one number input each, for a
    fixed-length list; `optional` lets a number be blank (None, "no limit"); `bounds` limit a
    number; `faces` makes it a set of d6 faces."""

    key: str
    label: str
    help: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    parts: tuple[str, ...] = ()
    optional: bool = False
    bounds: tuple[int, int] = (0, 99)
    faces: bool = False


@dataclass(frozen=True)
class SettingsGroup:
    """Settings shown together under one title (a msgid)."""

    title: str
    settings: tuple[Setting, ...]
