"""Polish by default, English on request: the switch, the catalogue, and the rule terms.

The msgids are the Polish source text, so Polish needs no catalogue; English lives in
locale/en/LC_MESSAGES/django.po (compiled to django.mo by `make messages`).
"""

from __future__ import annotations

import ast
import gettext
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.characters.helpers import make_campaign, make_character, make_sheet, make_weapon

ROOT = Path(__file__).resolve().parents[2]
EN_PO = Path(settings.LOCALE_PATHS[0]) / "en" / "LC_MESSAGES" / "django.po"

# The rule terms Eleora's English digest (shared/rules/eleora.md) keeps in Polish, its skills:
# the English catalogue keeps them as they are. The terms it translates, in its English words.
RULE_TERMS = ["Walka Wręcz", "Broń Lekka", "Broń Ciężka"]
TRANSLATED_RULE_TERMS = {"Pancerz": "Armour", "Zdrowie": "Health", "Parowanie": "Parry"}


@dataclass
class Entry:
    msgid: str = ""
    msgctxt: str | None = None
    msgstrs: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    line: int = 0


def read_po(path: Path) -> list[Entry]:
    """Every live entry of a .po file (header included, obsolete `#~` entries left out)."""
    entries: list[Entry] = []
    entry, key = Entry(), ""
    fields: dict[str, str] = {}

    def flush() -> None:
        nonlocal entry, fields
        if "msgid" in fields:
            entry.msgid = fields["msgid"]
            entry.msgctxt = fields.get("msgctxt")
            entry.msgstrs = [v for k, v in fields.items() if k.startswith("msgstr")]
            entries.append(entry)
        entry, fields = Entry(), {}

    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            flush()
        elif line.startswith("#,"):
            entry.flags.update(flag.strip() for flag in line[2:].split(","))
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            fields[key] += ast.literal_eval(line)
        else:
            key, _, quoted = line.partition(" ")
            assert re.fullmatch(r"msgctxt|msgid|msgid_plural|msgstr(\[\d+\])?", key), line
            fields[key] = ast.literal_eval(quoted)
            entry.line = entry.line or number
    flush()
    return entries


def placeholders(text: str) -> list[str]:
    """Python-format and str.format placeholders and HTML tags: all must survive translation."""
    return sorted(re.findall(r"%\(\w+\)[sdif]|%[sdif]|\{\w*\}|</?[a-zA-Z][\w-]*", text))


def outer_whitespace(text: str) -> tuple[str, str]:
    stripped = text.strip()
    start = text.index(stripped) if stripped else len(text)
    return text[:start], text[start + len(stripped) :]


def messages() -> list[Entry]:
    return [e for e in read_po(EN_PO) if e.msgid]


@pytest.fixture(autouse=True)
def default_language() -> Iterator[None]:
    """A request activates its language for the whole thread; later tests expect the default."""
    yield
    translation.deactivate()


def switch(client: Client, language: str, next_url: str) -> None:
    response = client.post(reverse("set_language"), {"language": language, "next": next_url})
    assert response.status_code == 302
    assert response["Location"] == next_url


@pytest.mark.django_db
def test_it_renders_polish_by_default(client: Client) -> None:
    html = client.get(reverse("login")).content.decode()
    assert '<html lang="pl">' in html
    for text in ["<h1>Zaloguj się</h1>", ">Hasło</label>", "Nie masz konta?", "Przejdź do treści"]:
        assert text in html
    assert "Password" not in html


@pytest.mark.django_db
def test_it_switches_the_same_page_to_english_and_back(client: Client) -> None:
    login = reverse("login")
    switch(client, "en", login)
    html = client.get(login).content.decode()
    assert '<html lang="en">' in html
    for text in ["<h1>Log in</h1>", ">Password</label>", "No account?", "Skip to content"]:
        assert text in html
    for text in ["Zaloguj się", "Hasło", "Nie masz konta?"]:
        assert text not in html

    switch(client, "pl", login)
    html = client.get(login).content.decode()
    assert '<html lang="pl">' in html
    assert ">Hasło</label>" in html


def test_it_has_every_english_message_translated_and_none_fuzzy() -> None:
    entries = read_po(EN_PO)
    header = entries[0]
    assert header.msgid == ""
    assert "Language: en\n" in header.msgstrs[0]
    problems = [
        f"{EN_PO.name}:{e.line}: {e.msgid!r}"
        for e in entries
        if "fuzzy" in e.flags or (e.msgid and not all(s.strip() for s in e.msgstrs))
    ]
    assert not problems, "untranslated or fuzzy:\n" + "\n".join(problems)
    assert len(entries) > 200


def test_it_keeps_placeholders_tags_and_outer_whitespace_in_translations() -> None:
    problems = []
    for e in messages():
        for msgstr in e.msgstrs:
            if placeholders(msgstr) != placeholders(e.msgid):
                problems.append(f"{e.msgid!r}: placeholders differ in {msgstr!r}")
            if outer_whitespace(msgstr) != outer_whitespace(e.msgid):
                problems.append(f"{e.msgid!r}: leading/trailing whitespace differs")
    assert not problems, "\n".join(problems)


def test_it_names_rule_terms_as_the_english_digest_does_in_the_catalogue() -> None:
    translated = {e.msgid: e.msgstrs[0] for e in messages() if e.msgctxt is None}
    for term in RULE_TERMS:
        assert translated[term] == term
    for term, english in TRANSLATED_RULE_TERMS.items():
        assert translated[term] == english
    assert translated["Premia do Obrony"] == "Defense bonus"


def test_it_compiles_the_catalogue_the_app_reads() -> None:
    """django.mo is what Django reads: it must say what django.po says (`make messages`)."""
    with EN_PO.with_suffix(".mo").open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    stale = [
        e.msgid
        for e in messages()
        if (compiled.pgettext(e.msgctxt, e.msgid) if e.msgctxt else compiled.gettext(e.msgid))
        != e.msgstrs[0]
    ]
    assert not stale, "django.mo is out of date for: " + ", ".join(map(repr, stale))


def test_it_has_every_source_string_in_the_catalogue(tmp_path: Path) -> None:
    """makemessages over a copy of the sources finds no string the catalogue lacks."""
    copy = tmp_path / "src"
    ignore = shutil.ignore_patterns(
        ".*", "__pycache__", "*.egg-info", "*.sqlite3*", "media", "staticfiles", "tmp", "docs"
    )
    shutil.copytree(ROOT, copy, ignore=ignore)
    result = subprocess.run(
        # As `make messages`: the rulesets that live in the tests bring no site strings.
        [sys.executable, "manage.py", "makemessages", "-l", "en", "--no-obsolete", "-i", "tests/*"],
        cwd=copy,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    regenerated = read_po(copy / EN_PO.relative_to(ROOT))
    current = {(e.msgctxt, e.msgid) for e in read_po(EN_PO)}
    fresh = {(e.msgctxt, e.msgid) for e in regenerated}
    assert fresh - current == set(), "run `make messages` and translate the new strings"
    assert current - fresh == set(), "run `make messages`: the catalogue has stale strings"


@pytest.mark.django_db
def test_it_names_rule_terms_as_the_english_digest_does_on_an_english_sheet(
    client: Client, django_user_model: type
) -> None:
    gm = django_user_model.objects.create_user(username="mistrz", password="haslo-testowe-123")
    campaign = make_campaign(gm=gm)
    sheet = make_sheet(
        weapons=[make_weapon("Szabla", kind="wrecz", reload_actions=2)],
        armour=[{"name": "Kolczuga", "defence_bonus": 1, "armour_points": 2}],
    )
    character = make_character(campaign, "Radosław", sheet=sheet)
    page = reverse("character-detail", args=[character.pk])
    client.force_login(gm)

    polish = client.get(page).content.decode()
    for text in ["Wartości pochodne", "<dt>Zdrowie</dt>", "Premia do Obrony", "Walka Wręcz"]:
        assert text in polish

    switch(client, "en", page)
    english = client.get(page).content.decode()
    assert '<html lang="en">' in english
    for text in ["Derived values", "Attributes", "Skills", "Weapons", "Defense bonus"]:
        assert text in english
    for text in [  # the digest's English terms, and the attributes and skills it keeps Polish
        "<dt>Health</dt>",
        "<dt>Defense</dt>",
        "<dt>Zręczność</dt>",
        "Walka Wręcz",
        "Reload: 2",
        '<h2 id="armour-h">Armour</h2>',
    ]:
        assert text in english
    for text in ["Wartości pochodne", "Atrybuty", "Premia do Obrony", "Zdrowie", "Pancerz"]:
        assert text not in english
