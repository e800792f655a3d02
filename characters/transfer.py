"""JSON export and import of characters and bestiaries.

Exports are envelopes, {"format", "version", "ruleset", "characters" | "creatures"}, so a file
says what it holds and for which game system. Imports accept such an envelope, a bare list of
entries or a single entry; every entry is checked (its sheet with the one sheet validator)
before anything is written, and every problem is reported with where it is.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from characters.models import Campaign, Character, CreatureTemplate
from characters.sheets import MAX_NAME, clean_sheet
from combat.protocol import has_nul

VERSION = 1
CHARACTERS_FORMAT = "eleora.characters"
BESTIARY_FORMAT = "eleora.bestiary"
MAX_IMPORT_BYTES = 512 * 1024
MAX_IMPORT_ENTRIES = 100
MAX_LONG_TEXT = 10000


@dataclass(frozen=True)
class CharacterEntry:
    name: str
    kind: str
    notes: str
    sheet: dict[str, Any]


@dataclass(frozen=True)
class CreatureEntry:
    name: str
    description: str
    sheet: dict[str, Any]


def export_characters(campaign: Campaign, characters: Iterable[Character]) -> dict[str, Any]:
    return {
        "format": CHARACTERS_FORMAT,
        "version": VERSION,
        "ruleset": campaign.ruleset,
        "characters": [
            {"name": c.name, "kind": c.kind, "notes": c.notes, "sheet": c.sheet} for c in characters
        ],
    }


def export_bestiary(campaign: Campaign, creatures: Iterable[CreatureTemplate]) -> dict[str, Any]:
    return {
        "format": BESTIARY_FORMAT,
        "version": VERSION,
        "ruleset": campaign.ruleset,
        "creatures": [
            {"name": c.name, "description": c.description, "sheet": c.sheet} for c in creatures
        ],
    }


def read_json(text: str) -> object:
    """Parsed JSON, or one readable error saying where the text stops being JSON."""
    if len(text.encode()) > MAX_IMPORT_BYTES:
        raise ValidationError(
            _("Plik jest za duży: najwyżej %(max)d KB.") % {"max": MAX_IMPORT_BYTES // 1024}
        )
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValidationError(
            _("To nie jest poprawny JSON (wiersz %(line)d, kolumna %(col)d): %(msg)s")
            % {"line": error.lineno, "col": error.colno, "msg": error.msg}
        ) from None
    except RecursionError:
        raise ValidationError(_("JSON jest zbyt głęboko zagnieżdżony.")) from None
    if has_nul(data):  # PostgreSQL stores no NUL in text or JSON
        raise ValidationError(_("Tekst nie może zawierać znaku NUL."))
    return data


def check_characters(data: object, *, campaign: Campaign) -> list[CharacterEntry]:
    """Every character entry validated for this campaign, or ValidationError with all problems."""
    entries, problems = _entries(data, campaign, CHARACTERS_FORMAT, "characters")
    checked = []
    for path, raw in entries:
        name = _name(raw, path, {"name", "kind", "notes", "sheet"}, problems)
        kind = raw.get("kind", Character.Kind.NPC)
        if kind not in Character.Kind.values:
            problems.append(f"{path}.kind: " + _("musi być jednym z: pc, npc"))
        notes = _text(raw.get("notes"), f"{path}.notes", MAX_LONG_TEXT, problems)
        sheet = _sheet(raw.get("sheet"), f"{path} ({name})" if name else path, campaign, problems)
        checked.append(CharacterEntry(name, kind, notes, sheet))
    if problems:
        raise ValidationError(problems)
    return checked


def check_creatures(data: object, *, campaign: Campaign) -> list[CreatureEntry]:
    """Every bestiary entry validated for this campaign, or ValidationError with all problems."""
    entries, problems = _entries(data, campaign, BESTIARY_FORMAT, "creatures")
    checked = []
    for path, raw in entries:
        name = _name(raw, path, {"name", "description", "sheet"}, problems)
        text = _text(raw.get("description"), f"{path}.description", MAX_LONG_TEXT, problems)
        sheet = _sheet(raw.get("sheet"), f"{path} ({name})" if name else path, campaign, problems)
        checked.append(CreatureEntry(name, text, sheet))
    if problems:
        raise ValidationError(problems)
    return checked


def _entries(
    data: object, campaign: Campaign, format_name: str, list_key: str
) -> tuple[list[tuple[str, dict[str, Any]]], list[str]]:
    """Unwrap an envelope, a list or a single entry into (path, entry) pairs."""
    problems: list[str] = []
    if isinstance(data, dict) and list_key in data:
        _check_envelope(data, campaign, format_name, list_key, problems)
        data = data[list_key]
    elif isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        problems.append(_("Oczekiwano obiektu JSON albo listy wpisów."))
        return [], problems
    if not data:
        problems.append(_("Plik nie zawiera żadnego wpisu."))
    if len(data) > MAX_IMPORT_ENTRIES:
        problems.append(_("Najwyżej %(max)d wpisów naraz.") % {"max": MAX_IMPORT_ENTRIES})
        return [], problems
    entries = []
    for index, entry in enumerate(data):
        path = f"{list_key}[{index}]"
        if isinstance(entry, dict):
            entries.append((path, entry))
        else:
            problems.append(f"{path}: " + _("musi być obiektem JSON"))
    return entries, problems


def _check_envelope(
    data: dict[str, Any], campaign: Campaign, format_name: str, list_key: str, problems: list[str]
) -> None:
    for key in sorted(set(data) - {"format", "version", "ruleset", list_key}):
        problems.append(f"{key}: " + _("nieznane pole"))
    if data.get("format", format_name) != format_name:
        problems.append("format: " + _("oczekiwano %(format)s") % {"format": format_name})
    if data.get("version", VERSION) != VERSION:
        problems.append("version: " + _("obsługiwana jest tylko wersja %(v)d") % {"v": VERSION})
    ruleset = data.get("ruleset", campaign.ruleset)
    if ruleset != campaign.ruleset:
        problems.append(
            "ruleset: "
            + _("plik jest dla systemu %(file)s, a kampania używa %(campaign)s")
            % {"file": ruleset, "campaign": campaign.ruleset}
        )


def _name(raw: dict[str, Any], path: str, allowed: set[str], problems: list[str]) -> str:
    for key in sorted(set(raw) - allowed, key=str):
        problems.append(f"{path}.{key}: " + _("nieznane pole"))
    return _text(raw.get("name"), f"{path}.name", MAX_NAME, problems, required=True)


def _sheet(raw: object, label: str, campaign: Campaign, problems: list[str]) -> dict[str, Any]:
    try:
        return clean_sheet(raw, rules=campaign.rules(), settings=campaign.settings)
    except ValidationError as error:
        for message in error.messages:
            # The validator names paths inside the sheet; "sheet: …" is about the sheet itself.
            if message.startswith("sheet: "):
                problems.append(f"{label}.{message}")
            else:
                problems.append(f"{label}.sheet.{message}")
        return {}


def _text(
    value: object, path: str, maximum: int, problems: list[str], *, required: bool = False
) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        problems.append(f"{path}: " + _("musi być tekstem"))
        return ""
    text = value.strip()
    if required and not text:
        problems.append(f"{path}: " + _("nie może być puste"))
    elif len(text) > maximum:
        problems.append(f"{path}: " + _("może mieć najwyżej %(max)d znaków") % {"max": maximum})
    return text
