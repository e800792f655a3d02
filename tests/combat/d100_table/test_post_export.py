"""A by-post turn in the forum export (issue 22, point 11): each post of the turn is its own
quoted paragraph with its author, as a forum reader expects ([quote="Author"]…[/quote] in
BBCode, a "> " blockquote naming the author in Markdown), in the players' and the GM's
versions alike; the table's log shows each post on its own too."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.combat.d100_table.helpers import (
    BANDIT,
    HERO1,
    HERO2,
    WOLF,
    D100Table,
    Dice,
    make_d100_table,
)
from tests.combat.d100_table.test_by_post import attack, by_post, post

pytestmark = [pytest.mark.django_db(transaction=True)]

RADEK_SAYS = "Radosław tnie szablą [b]zbója[/b]."
MILENA_SAYS = "Milena łapie oddech.\nI patrzy na wilka."


def resolved_turn() -> D100Table:
    """Turn 1 by post: Radosław attacks the bandit, Milena rests, each with a text; resolved."""
    t = make_d100_table()
    by_post(t)
    post(t, t.p1, HERO1, attack(t, BANDIT), "unik", RADEK_SAYS)
    rest = {"kind": "rest", "target": None}
    post(t, t.p2, HERO2, rest, "", MILENA_SAYS)
    t.run(t.gm, {"type": "resolve_turn"}, Dice(20, 45, 70, 48, 90))
    return t


def exported(t: D100Table, user: object, **query: str) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("encounter_export", args=[t.pk]), {"turn": "1", **query})
    assert response.status_code == 200, response.content.decode()
    page = response.content.decode()
    found = re.search(r'<textarea id="export-text"[^>]*>(.*?)</textarea>', page, re.S)
    assert found is not None
    return html.unescape(found.group(1))


def test_each_post_is_its_own_bbcode_quote_with_its_author() -> None:
    t = resolved_turn()
    for user, version in ((t.p1, "player"), (t.gm, "player"), (t.gm, "gm")):
        text = exported(t, user, format="bbcode", version=version)
        assert "Wpisy tury 1: " not in text, text  # no longer one squeezed line
        radek = re.search(r'\[quote="Radosław"\](.*?)\[/quote\]', text, re.S)
        milena = re.search(r'\[quote="Milena"\](.*?)\[/quote\]', text, re.S)
        assert radek is not None and milena is not None, text
        assert "atak → Zbój (Szabla); obrona: Unik" in radek.group(1)
        assert "Radosław tnie szablą [\u200bb\u200b]zbója" in radek.group(1)  # escaped
        assert "Milena łapie oddech.\nI patrzy na wilka." in milena.group(1)
        assert "Odpoczynek" in milena.group(1) and "Radosław" not in milena.group(1)
        assert text.index('[quote="Radosław"]') < text.index('[quote="Milena"]')


def test_each_post_is_its_own_markdown_blockquote_naming_its_author() -> None:
    t = resolved_turn()
    text = exported(t, t.p2, format="markdown")
    quotes = re.findall(r"(?:^>.*\n)+", text, re.M)
    assert len(quotes) == 2, text
    radek, milena = quotes
    assert radek.startswith("> **Radosław**") and milena.startswith("> **Milena**"), quotes
    assert "atak → Zbój (Szabla); obrona: Unik" in radek
    assert "Radosław tnie szablą \\[b\\]zbója" in radek
    assert "> Milena łapie oddech.  \n> I patrzy na wilka." in milena, milena
    assert WOLF not in radek


def test_the_tables_log_shows_each_post_on_its_own() -> None:
    t = resolved_turn()
    log = t.html(t.p1, "table-log")
    quotes = re.findall(r'<blockquote class="log-post"[^>]*>(.*?)</blockquote>', log, re.S)
    assert len(quotes) == 2, log
    assert "Radosław" in quotes[0] and "Milena" in quotes[1]


def test_the_log_download_keeps_each_post() -> None:
    t = resolved_turn()
    client = Client()
    client.force_login(t.p2)
    url = reverse("encounter-log", args=[t.pk])
    lines = client.get(url, {"format": "json"}).json()["lines"]
    (revealed,) = [line for line in lines if line["text"] == "Wpisy tury 1:"]
    authors = [quote["author"] for quote in revealed["quotes"]]
    assert authors == [HERO1, HERO2], revealed
    assert revealed["quotes"][0]["text"] == RADEK_SAYS


def test_a_quoted_posts_action_reads_in_the_viewers_language() -> None:
    t = resolved_turn()
    client = Client()
    client.force_login(t.p2)
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    page = client.get(reverse("encounter_export", args=[t.pk]), {"turn": "1", "format": "markdown"})
    text = html.unescape(page.content.decode())
    milena = re.search(r"> \*\*Milena\*\*.*?(?=\n[^>]|\Z)", text, re.S)
    assert milena is not None, text
    assert "Rest; defense: no defense" in milena.group(0), milena.group(0)
    assert "Odpoczynek" not in milena.group(0) and "obrona" not in milena.group(0)
