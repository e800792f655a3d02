"""One language at a time (issue 22, point 10): every page and region of each ruleset, played
through a few steps, reads in English with no Polish rule word, and in Polish with no English one.

The words come from the catalogue itself: a word of a msgid that its English translation does
not use is Polish (unless some translation uses it too), and the reverse for English. Polish
diacritics mark a Polish word the catalogue does not know (an unmarked string). What the people
at the table typed (names, notes, descriptions, weapons) is removed first, and the terms each
language keeps from the other are listed here, with the reason.
"""

from __future__ import annotations

import html as html_lib
import random
import re
from collections.abc import Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db.models import Q
from django.test import Client
from django.urls import reverse

from characters.models import Campaign, Character, CreatureTemplate
from combat import services
from combat.models import Encounter
from combat.rules.base import autoplay_of, prompts_of, simulator_of
from combat.rules.battlemap import token_labels
from combat.rules.registry import get_ruleset
from tests.site.test_i18n import messages, read_po

pytestmark = pytest.mark.django_db

EN_PO = Path(settings.LOCALE_PATHS[0]) / "en" / "LC_MESSAGES" / "django.po"
WORD = re.compile(r"[^\W\d_]+")
DIACRITICS = re.compile(r"[ąćęłńóśźżĄĆĘŁŃÓŚŹŻ]")


def words(text: str) -> set[str]:
    return set(WORD.findall(text))


def vocabularies() -> tuple[set[str], set[str]]:
    """(Polish, English): the words a msgid has and its translation drops, less the words
    some translation adds ("a", "do"), and the rule terms the plain entries keep (Eleora's:
    only its pages may show them); and the words translations add that no msgid has."""
    polish: set[str] = set()
    english: set[str] = set()
    source_words: set[str] = set()
    kept: set[str] = set()
    for entry in messages():
        source, target = words(entry.msgid), words(entry.msgstrs[0])
        polish |= source - target
        english |= target - source
        source_words |= source
        if entry.msgctxt is None and entry.msgstrs[0] == entry.msgid:
            kept |= source
    terms = {w for w in kept if w[0].isupper() and not w.isupper()} - NAMES_IN_BOTH
    return (polish - english) | terms, english - source_words


# Kept as they are in both languages: names and words the English catalogue uses as they are.
NAMES_IN_BOTH = {"English", "Enter", "Format", "Import", "Link", "Sprint", "System", "Test", "WebP"}
NAMES_IN_BOTH |= {"Haressdren", "Kobold", "Maluan", "Ruan"}  # d100's peoples


# What a page may show in the other language whatever the ruleset: the game's own name and the
# rulesets' names.
KEPT_IN_ENGLISH = {"Opowieści", "Eleory", "Kroniki", "Fallathanu"}
# Words both languages write the same way.
SHARED = {"forum", "limit", "link", "system", "same"}
KEPT_IN_POLISH = {"encounters", "rolls"}  # the export's links to the rolls (URLs)
# English rule words a Polish msgid may hold (the Magus document writes "Movement Rate"): never
# on a Polish page.
ENGLISH_RULE_WORDS = {"Movement", "Rate", "Block", "Dodge", "Health", "Attack"}
# The terms the English rule digests (shared/rules/*.md) keep in Polish, by ruleset.
RULE_TERMS_KEPT = {
    "eleora": {
        "Siła", "Krzepa", "Zręczność", "Intuicja", "Intelekt", "Charyzma", "Wola",
        "Walka", "Wręcz", "Broń", "Lekka", "Ciężka", "Bieganie", "Pływanie", "Atletyka",
        "Jeździectwo", "Akrobatyka", "Medycyna", "Percepcja", "przebicie", "przebicia",
    },
    "magus": {"Riposta"},
    "d100": {
        "Zwinność", "Zmysły", "Krzepa", "Intelekt", "Wytrzymałość", "Ogłada", "PŻ", "OoP",
    },
}  # fmt: skip


def visible_text(page: str, *, explanations: bool = True) -> str:
    """What a person reads: the text outside tags, scripts, styles, code (the dice check, seeds)
    and the text boxes of forms (what the GM typed), and the titles, labels and placeholders
    that show or are read aloud."""
    page = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", page)
    page = re.sub(r"(?s)<textarea\b[^>]*\bname=.*?</textarea>", " ", page)  # what people type
    page = re.sub(r"(?s)<code\b.*?</code>", " ", page)  # code, seeds and hashes
    if not explanations:  # how the sheet's derived values were computed, apart
        page = re.sub(r'(?s)<span class="why">.*?</span>', " ", page)
    shown = re.findall(r'\b(?:title|aria-label|placeholder|alt)="([^"]*)"', page)
    text = re.sub(r"<[^>]+>", " ", page)
    text = html_lib.unescape(" ".join([text, *shown]))
    return re.sub(r"\b[0-9a-f]{16,}\b", " ", text)  # seeds and their hashes


def typed_texts() -> list[str]:
    """What the people at the table typed (names, descriptions, notes, sheet items, logins)
    and the invitation codes, drawn at random."""
    found: list[str] = []
    for campaign in Campaign.objects.all():
        found += [campaign.name, campaign.description, campaign.invite_code]
    for model in (Character, CreatureTemplate):
        for obj in model.objects.all():
            found += [obj.name, getattr(obj, "notes", ""), getattr(obj, "description", "")]
            found += [*token_labels([obj.name]), *_sheet_names(obj.sheet)]
    found += list(Encounter.objects.values_list("name", flat=True))
    found += ["mistrz", "gracz1", "gracz2"]
    return sorted({t for t in found if t}, key=len, reverse=True)


def _sheet_names(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "name" and isinstance(item, str):
                yield item
            elif key == "skills" and isinstance(item, dict):
                yield from (k for k in item if not k.islower() or not k.isascii())
            else:
                yield from _sheet_names(item)
    elif isinstance(value, list):
        for item in value:
            yield from _sheet_names(item)


def gm_viewer(encounter: Encounter) -> services.Viewer:
    return services.Viewer(user_id=encounter.campaign.gm_id, is_gm=True)


def step(encounter: Encounter) -> bool:
    """One move of the fight as the GM makes it for anyone: answer an open prompt, else let the
    seat that acts play itself. False when nothing is left to do."""
    table = services.load_table(encounter.pk)
    rules = get_ruleset(table.ruleset)
    prompts, autoplay = prompts_of(rules), autoplay_of(rules)
    command = None
    for prompt in prompts.open_prompts(table.state) if prompts else ():
        command = prompts.auto_answer(table.state, prompt.id, "ask", 0.0) or (
            prompts.prompt_command(table.state, prompt.id, prompt.options[0][0])
        )
        break
    view = table.view
    actors = (view.current,) if view.current is not None else (*view.acting, *view.waiting)
    for actor in actors if command is None and autoplay else ():
        policy = autoplay.autoplay_policies()[0][0]
        command = autoplay.autoplay_command(table.state, actor, policy, 0.0)
        if command is not None:
            break
    if command is None:
        return False
    services.run_command(
        encounter.pk,
        rules.command_to_dict(command),
        viewer=gm_viewer(encounter),
        rng=random.Random(table.seq),  # the same fight every run
    )
    return True


def client_for(username: str, language: str) -> Client:
    from django.contrib.auth.models import User

    client = Client()
    client.force_login(User.objects.get(username=username))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def campaign_pages(campaign: Campaign) -> list[tuple[str, str]]:
    """(who, url) of every page of a campaign outside its tables."""
    pc = campaign.characters.filter(kind=Character.Kind.PC, owner__username="gracz1").first()
    npc = campaign.characters.filter(kind=Character.Kind.NPC).first()
    pages = [
        ("mistrz", reverse("campaign-detail", args=[campaign.pk])),
        ("gracz1", reverse("campaign-detail", args=[campaign.pk])),
        ("mistrz", reverse("campaign-settings", args=[campaign.pk])),
        ("mistrz", reverse("encounter-list", args=[campaign.pk])),
    ]
    if simulator_of(campaign.rules()) is not None:
        pages += [("mistrz", reverse("simulator", args=[campaign.pk]))]
    if pc is not None:
        pages += [("gracz1", reverse("character-detail", args=[pc.pk]))]
        pages += [("gracz1", reverse("character-edit", args=[pc.pk]))]
    if npc is not None:
        pages += [("mistrz", reverse("character-detail", args=[npc.pk]))]
    return pages  # the bestiary's pages: test_a_sheet_explains_its_derived_values_in_one_language


def table_pages(encounter: Encounter) -> list[tuple[str, str]]:
    """(who, url) of the table, its log, its rolls and its export, for the GM and a player."""
    pk = encounter.pk
    pages = []
    for who in ("mistrz", "gracz1"):
        pages += [
            (who, reverse("encounter", args=[pk])),
            (who, reverse("encounter-log", args=[pk])),
            (who, reverse("encounter_rolls", args=[pk])),
            (who, reverse("encounter_export", args=[pk])),
            (who, reverse("encounter_export", args=[pk]) + "?format=markdown"),
        ]
    pages += [("mistrz", reverse("encounter_export", args=[pk]) + "?version=gm")]
    return pages


def play(encounter: Encounter, steps: int) -> None:
    """Start the fight if it is still being set up, then make up to `steps` moves in it."""
    if services.load_table(encounter.pk).view.stage == "setup":
        start = {"type": "start_combat"}
        services.run_command(encounter.pk, start, viewer=gm_viewer(encounter), rng=random.Random(0))
    for _ in range(steps):
        if not step(encounter):
            return


def mixed_words(
    page: str, language: str, ruleset: str, typed: list[str], *, explanations: bool = False
) -> set[str]:
    """The words of the other language on a page in `language`: for English, Polish words of
    the catalogue or with Polish letters; for Polish, English words of the catalogue. What
    people typed and the terms the ruleset's English books keep are left out."""
    text = visible_text(page, explanations=explanations)
    for typed_text in typed:
        text = text.replace(typed_text, " ")
    polish, english = VOCABULARIES
    found = {w for w in words(text) if len(w) > 1}
    if language == "en":
        suspect = {w for w in found if w in polish or DIACRITICS.search(w)}
        return suspect - SHARED - KEPT_IN_ENGLISH - RULE_TERMS_KEPT[ruleset] - kept_terms(ruleset)
    return (found & (english | ENGLISH_RULE_WORDS)) - SHARED - KEPT_IN_POLISH


def kept_terms(ruleset: str) -> set[str]:
    """Polish words the English catalogue itself writes for this ruleset, in its own context's
    entries (Eleora's attributes and skills). The plain entries name every term a digest
    translates in English (issue 22 overrides issue #11): no page may show another Polish word."""
    kept = set()
    for entry in read_po(EN_PO):
        if entry.msgid and entry.msgctxt == ruleset:
            kept |= words(entry.msgstrs[0])
    return kept


VOCABULARIES = vocabularies()


@pytest.fixture
def demo() -> None:
    call_command("seed_demo", stdout=StringIO())


@pytest.mark.parametrize("ruleset", ["eleora", "magus", "d100"])
def test_every_page_of_a_ruleset_reads_in_one_language(demo: None, ruleset: str) -> None:
    """The campaign's pages, then each table before its fight, and again a few moves in (its
    log, rolls and exports too), for the GM and a player, in English and in Polish."""
    campaign = Campaign.objects.get(ruleset=ruleset)
    clients = {
        (who, language): client_for(who, language)
        for who in ("mistrz", "gracz1")
        for language in ("en", "pl")
    }
    problems: dict[tuple[str, str], set[str]] = {}

    def sweep(pages: list[tuple[str, str]]) -> None:
        typed = typed_texts()
        for who, url in pages:
            for language in ("en", "pl"):
                response = clients[who, language].get(url)
                assert response.status_code == 200, (url, who, response.status_code)
                for word in mixed_words(response.content.decode(), language, ruleset, typed):
                    problems.setdefault((language, word), set()).add(f"{who} {url}")

    sweep(campaign_pages(campaign))
    for encounter in campaign.encounters.all():
        sweep(table_pages(encounter))
        play(encounter, steps=8)
        sweep(table_pages(encounter))
    report = [f"{lang} {word!r}: {sorted(where)[:3]}" for (lang, word), where in problems.items()]
    assert not report, "words of the other language:\n" + "\n".join(sorted(report))


@pytest.mark.parametrize("ruleset", ["eleora", "magus", "d100"])
def test_a_sheet_explains_its_derived_values_in_one_language(demo: None, ruleset: str) -> None:
    """How each derived value of a character's sheet, and of each creature of the campaign's
    bestiary, was computed ("Zręczność 5 + Broń Biała 3"), in English and in Polish."""
    campaign = Campaign.objects.get(ruleset=ruleset)
    typed = typed_texts()
    problems = set()
    creatures = CreatureTemplate.objects.filter(
        Q(campaign=campaign) | Q(campaign=None, ruleset=ruleset)
    )
    urls = [reverse("character-detail", args=[c.pk]) for c in campaign.characters.all()]
    urls += [reverse("creature-detail", args=[campaign.pk, c.pk]) for c in creatures]
    for url in urls:
        for language in ("en", "pl"):
            page = client_for("mistrz", language).get(url).content.decode()
            found = mixed_words(page, language, ruleset, typed, explanations=True)
            problems |= {(language, word) for word in found}
    assert not problems, sorted(problems)
