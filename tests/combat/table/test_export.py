"""The forum export (issue #13, point 4): a fight, or one turn, as BBCode or Markdown in the
viewer's language, each roll with its permanent link; what a player may not see stays out
unless the GM exports the GM's version."""

from __future__ import annotations

import html
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from characters.models import Character, Profile
from combat import export, fragments, services
from combat.rules.registry import get_ruleset
from combat.templatetags.forum import ZERO_WIDTH, bbcode, markdown
from tests.characters.helpers import PASSWORD, client_for, make_user
from tests.combat.magus_table.helpers import HERO1, SCOUT, make_magus_table
from tests.combat.magus_table.test_round import to_act
from tests.combat.table.helpers import Party, make_hero, make_party, state_of

pytestmark = pytest.mark.django_db

EXPECTED = Path(__file__).parent / "export_expected"
SECRET_ROLL = "Tajny rzut MG"
SPY = "Szpieg"


@pytest.fixture(autouse=True)
def default_language() -> Iterator[None]:
    yield
    translation.deactivate()


def c(character: Character) -> str:
    return f"c{character.pk}"


def act(party: Party, command: dict[str, Any], seed: int = 0) -> None:
    pk = party.encounter.pk
    services.run_command(pk, command, viewer=party.gm_viewer, rng=random.Random(seed))


def play_until(party: Party, round_: int, actor: Character) -> None:
    """End turns until it is `actor`'s turn in round `round_`."""
    while True:
        state = state_of(party.encounter)
        if state.round == round_ and state.current == c(actor):
            return
        act(party, {"type": "end_turn", "actor": state.current})


def attack(party: Party, seed: int) -> None:
    command = {
        "type": "declare_attack",
        "actor": c(party.hero1),
        "target": c(party.bandit),
        "weapon": "Szabla",
    }
    act(party, command, seed)  # the bandit answers by its policy: the attack resolves


def fight(*, names: tuple[str, ...] = ()) -> Party:
    """Radosław, Milena, the bandit and a hidden spy (the GM's), every die scripted: the
    initiative, a secret GM roll, Radosław's attack in round 1; in round 2 an attack the GM
    takes back, and the one made in its place."""
    party = make_party()
    pk = party.encounter.pk
    spy = make_hero(party.campaign, None, SPY, kind=Character.Kind.NPC)
    services.add_combatants(pk, viewer=party.gm_viewer, characters=[spy.pk], hidden=True)
    others = [make_hero(party.campaign, None, name, kind=Character.Kind.NPC) for name in names]
    if others:
        services.add_combatants(pk, viewer=party.gm_viewer, characters=[o.pk for o in others])
    rolls = {
        c(party.hero1): [6, 6],
        c(party.hero2): [4, 4],
        c(spy): [2, 2],
        c(party.bandit): [1, 1],
        **{c(o): [1, 2] for o in others},
    }
    act(party, {"type": "start_combat", "rolls": rolls})
    act(party, {"type": "gm_roll", "dice": 2, "label": SECRET_ROLL, "secret": True}, 1)
    attack(party, 5)
    play_until(party, 2, party.hero1)
    before = party.encounter.entries.count()
    attack(party, 7)
    services.undo(pk, viewer=party.gm_viewer, to_seq=before)
    attack(party, 11)
    return party


def exported(client: Client, party: Party, **query: str) -> str:
    """The export's text as the page's textarea holds it, the encounter's number as PK."""
    url = reverse("encounter_export", args=[party.encounter.pk])
    response = client.get(url, query)
    assert response.status_code == 200, response.content.decode()
    page = response.content.decode()
    found = re.search(r'<textarea id="export-text"[^>]*>(.*?)</textarea>', page, re.S)
    assert found is not None, page
    text = html.unescape(found.group(1))
    return text.replace(f"/encounters/{party.encounter.pk}/", "/encounters/PK/")


def matches_file(text: str, name: str) -> None:
    """The export equals its checked file (EXPORT_WRITE_EXPECTED=1 writes the files anew:
    read them before keeping them)."""
    if os.environ.get("EXPORT_WRITE_EXPECTED"):
        (EXPECTED / name).write_text(text, encoding="utf-8")
    assert text == (EXPECTED / name).read_text(encoding="utf-8"), name


@pytest.mark.parametrize(
    ("who", "query", "name"),
    [
        ("gm", {"format": "bbcode", "turn": "all", "version": "gm"}, "fight_gm.bbcode"),
        ("gm", {"format": "markdown", "turn": "all", "version": "gm"}, "fight_gm.md"),
        ("p1", {"format": "bbcode"}, "fight_player.bbcode"),
        ("p1", {"format": "markdown", "turn": "all"}, "fight_player.md"),
        ("p2", {"format": "bbcode", "turn": "1"}, "turn1_player.bbcode"),
        ("gm", {"format": "markdown", "turn": "2", "version": "gm"}, "turn2_gm.md"),
    ],
)
def test_the_export_matches_its_checked_file(who: str, query: dict[str, str], name: str) -> None:
    party = fight()
    matches_file(exported(client_for(getattr(party, who)), party, **query), name)


def test_a_players_export_has_no_hidden_npc_and_no_secret_gm_roll() -> None:
    party = fight()
    for user in (party.p1, party.p2, party.gm):  # the GM's players' version too
        for fmt in ("bbcode", "markdown"):
            text = exported(client_for(user), party, format=fmt, version="player")
            assert SPY not in text and SECRET_ROLL not in text, (user, fmt)
            assert "Radosław" in text and "Atak" in text


def test_the_gms_version_has_the_hidden_npc_and_the_secret_roll() -> None:
    party = fight()
    text = exported(client_for(party.gm), party, format="markdown", version="gm")
    assert f"Do walki dołącza: {SPY}." in text
    assert f"Tura: {SPY}" in text
    assert f"Rzut MG ({SECRET_ROLL})" in text and "_(tajne)_" in text


def test_a_gms_players_version_is_what_a_player_exports() -> None:
    party = fight()
    gm = exported(client_for(party.gm), party, format="bbcode", version="player")
    assert gm == exported(client_for(party.p1), party, format="bbcode")


def test_a_roll_link_is_the_same_in_both_versions_and_opens_the_entrys_rolls() -> None:
    party = fight()
    links = re.compile(r"\[url=(http://testserver/encounters/PK/rolls/(\d+)/#r(\d+))\]")
    player = links.findall(exported(client_for(party.p1), party, format="bbcode"))
    gm = links.findall(exported(client_for(party.gm), party, format="bbcode", version="gm"))
    assert player and set(player) < set(gm)  # the secret roll's link only in the GM's
    for _url, seq, n in gm:
        command = party.encounter.entries.get(seq=int(seq)).command or {}
        rolls = [roll for line in command["lines"] for roll in line["rolls"]]
        assert 1 <= int(n) <= len(rolls)
    pk = party.encounter.pk
    assert reverse("encounter_roll", args=[pk, 1]) == f"/encounters/{pk}/rolls/1/"


def test_an_undone_attack_is_left_out() -> None:
    party = fight()
    text = exported(client_for(party.gm), party, format="markdown", turn="2", version="gm")
    assert text.count("Radosław atakuje: Bandyta (Szabla).") == 1
    undo_to = party.encounter.entries.get(undo_to__isnull=False).undo_to
    assert undo_to is not None
    undone = undo_to + 1
    assert f"/rolls/{undone}/" not in text
    assert "cofa" not in text


def test_one_turns_export_holds_only_that_turn() -> None:
    party = fight()
    client = client_for(party.p1)
    one = exported(client, party, format="markdown", turn="1")
    assert "### Runda 1" in one and "Runda 2" not in one and "Przygotowanie" not in one
    assert "Do walki dołącza" not in one and "Walka się zaczyna!" in one
    two = exported(client, party, format="markdown", turn="2")
    assert "### Runda 2" in two and "### Runda 1" not in two and "Walka się zaczyna!" not in two
    setup = exported(client, party, format="markdown", turn="0")
    assert "### Przygotowanie" in setup and "Do walki dołącza: Radosław." in setup
    assert "Runda" not in setup


def test_the_export_is_in_english_for_a_user_whose_language_is_english() -> None:
    party = fight()
    Profile.objects.update_or_create(user=party.p1, defaults={"language": "en"})
    client = Client()
    signed_in = client.post(reverse("login"), {"username": "gracz1", "password": PASSWORD})
    assert signed_in.status_code == 302
    text = exported(client, party, format="markdown")
    assert "### Round 1" in text and "### Setup" in text
    assert "Radosław attacks: Bandyta (Szabla)." in text and "The fight begins!" in text
    assert "Runda" not in text and "atakuje" not in text
    page = client.get(reverse("encounter_export", args=[party.encounter.pk])).content.decode()
    assert '<html lang="en"' in page


def test_the_export_escapes_names_for_each_format() -> None:
    party = fight(names=("[b]X[/b]", "*Y*"))
    client = client_for(party.gm)
    text = exported(client, party, format="bbcode", version="gm")
    assert "[b]X[/b]" not in text
    assert f"Do walki dołącza: [{ZERO_WIDTH}b{ZERO_WIDTH}]X[{ZERO_WIDTH}/b{ZERO_WIDTH}]." in text
    text = exported(client, party, format="markdown", version="gm")
    assert "Do walki dołącza: \\*Y\\*." in text and "Do walki dołącza: \\[b\\]X\\[/b\\]." in text


def test_the_filters_neutralise_markup_and_keep_plain_text() -> None:
    assert bbcode("[url=x]a[/url] & <b>") == (
        f"[{ZERO_WIDTH}url=x{ZERO_WIDTH}]a[{ZERO_WIDTH}/url{ZERO_WIDTH}] & <b>"
    )
    assert markdown("a_b *c* `d` [e](f) <g> ~h~ | &amp; \\") == (
        "a\\_b \\*c\\* \\`d\\` \\[e\\](f) \\<g\\> \\~h\\~ \\| \\&amp; \\\\"
    )
    assert markdown("# tytuł\n1. punkt\n- lista\nzwykły. tekst (Szabla)") == (
        "\\# tytuł  \n  1\\. punkt  \n  \\- lista  \n  zwykły. tekst (Szabla)"
    )


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"format": "html"}, "Nieznany format eksportu: „html”. Do wyboru: bbcode, markdown."),
        ({"version": "mg"}, "Nieznana wersja eksportu: „mg”. Do wyboru: player, gm."),
        ({"turn": "pierwsza"}, "Nieznana tura: „pierwsza”."),
        ({"turn": "-1"}, "Nieznana tura: „-1”."),
        ({"turn": "7"}, "W tym starciu nie ma tury 7."),
    ],
)
def test_a_bad_parameter_gets_a_clear_400(query: dict[str, str], message: str) -> None:
    party = fight()
    url = reverse("encounter_export", args=[party.encounter.pk])
    response = client_for(party.gm).get(url, query)
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert message in page and 'id="export-text"' not in page
    assert '<form method="get"' in page  # to choose again


def test_only_the_gm_may_ask_for_the_gms_version() -> None:
    party = fight()
    url = reverse("encounter_export", args=[party.encounter.pk])
    response = client_for(party.p1).get(url, {"version": "gm"})
    assert response.status_code == 403
    page = html.unescape(response.content.decode())
    assert "Wersję Mistrza Gry może wyeksportować tylko Mistrz Gry." in page
    assert SPY not in page and SECRET_ROLL not in page
    assert 'name="version"' not in page  # a player has no version to choose
    gm_page = client_for(party.gm).get(url).content.decode()
    assert 'name="version"' in gm_page


def test_only_members_reach_the_export() -> None:
    party = make_party()
    url = reverse("encounter_export", args=[party.encounter.pk])
    assert client_for(make_user("obcy")).get(url).status_code == 404
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and reverse("login") in anonymous["Location"]


def test_the_page_offers_the_choice_the_text_and_a_copy_button() -> None:
    party = fight()
    client = client_for(party.gm)
    url = reverse("encounter_export", args=[party.encounter.pk])
    page = client.get(url, {"format": "markdown", "turn": "2"}).content.decode()
    assert '<form method="get"' in page and 'name="format"' in page and 'name="turn"' in page
    assert '<option value="2" selected>Runda 2</option>' in page
    assert '<option value="markdown" selected>Markdown</option>' in page
    assert 'id="export-text"' in page and "readonly" in page
    assert 'data-copy="export-text"' in page and "Skopiowano" in page
    assert "js/export.js" in page
    table = client.get(reverse("encounter", args=[party.encounter.pk])).content.decode()
    assert f'href="{url}"' in table and "Eksport na forum" in table


def test_an_empty_encounter_exports_its_title_alone() -> None:
    party = make_party(with_combatants=False)
    text = exported(client_for(party.gm), party, format="bbcode")
    assert text.startswith("[b]Zasadzka[/b] — Cała walka\n")
    assert "Nic do pokazania." in text


def test_the_export_holds_the_lines_of_the_tables_log_the_viewer_sees() -> None:
    party = fight()
    table = services.load_table(party.encounter.pk)
    entries = services.full_log(party.encounter)
    in_force = [e for e in entries if not e.undone and e.undo_to is None]
    assert len(in_force) < len(entries)  # the undone attack and the undo itself
    for user, version in ((party.p1, "player"), (party.gm, "gm")):
        viewer = party.viewer(user)
        logged = [line.text for line in reversed(fragments.log_lines(table, viewer, in_force))]
        choice = export.Choice(version=version)
        built = export.build(party.encounter, export.audience(viewer, choice), str)
        assert [line.text for turn in built.turns for line in turn.lines] == logged


def test_lines_that_no_longer_match_their_events_go_to_the_turn_their_entry_ends_in() -> None:
    party = fight()
    start = party.encounter.entries.get(command__type="start_combat")
    command = dict(start.command or {})
    command["lines"][0]["text"] = "Inny tekst: %(name)s"
    start.command = command
    start.save(update_fields=["command"])
    built = export.build(party.encounter, party.gm_viewer, str)
    setup, first = built.turns[0], built.turns[1]
    assert setup.label == "Przygotowanie" and len(setup.lines) == 4  # the joins alone
    assert first.label == "Runda 1" and "Inicjatywa" in first.lines[1].text


def test_a_magus_fight_exports_by_the_same_code() -> None:
    """Another ruleset: its turns, its rolls (faces of its dice), its hidden NPC kept out."""
    t = make_magus_table(hidden_scout=True)
    to_act(t)
    hero, bandit = t.seat(t.hero1), t.seat(t.bandit)
    t.run(t.p1, {"type": "attack", "actor": hero, "target": bandit, "weapon": "Miecz"})
    (prompt,) = t.state.prompts
    rules = get_ruleset(t.table.ruleset)
    answer = rules.prompt_command(t.state, prompt.id, "")  # type: ignore[attr-defined]
    t.run(t.gm, rules.command_to_dict(answer))  # no defence
    url = reverse("encounter_export", args=[t.encounter.pk])
    page = client_for(t.p1).get(url, {"format": "markdown"}).content.decode()
    text = html.unescape(page.split('id="export-text"', 1)[1])
    assert f"{HERO1}" in text and SCOUT not in text
    assert re.search(r"- \[[^\]]+\]\(http://testserver/encounters/\d+/rolls/\d+/#r1\): ", text)
    gm = client_for(t.gm).get(url, {"format": "bbcode", "version": "gm"}).content.decode()
    assert SCOUT in html.unescape(gm)
    # Round 1 went through three phases: one turn to pick, all three in its export.
    round_1 = "Deklaracje — runda 1 / Inicjatywa — runda 1 / Runda 1"
    assert f'<option value="1">{round_1}</option>' in gm
    one = client_for(t.gm).get(url, {"format": "markdown", "turn": "1"}).content.decode()
    headings = re.findall(r"^### (.+)$", html.unescape(one), re.M)
    assert headings == ["Deklaracje — runda 1", "Inicjatywa — runda 1", "Runda 1"]
    assert f"**Na przełęczy** — {round_1}" in html.unescape(one)
