"""The site's `.html` templates are served without the indentation of their source
(`eleora_site.loaders`): the table's page and its pushes carry no layout blanks, a `<pre>`
keeps its text as written, and the page reads as before."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from combat import fragments, services
from combat.services import Viewer
from tests.characters.helpers import client_for
from tests.combat.table.helpers import make_party
from tests.combat.table.test_verify import play_a_fight

pytestmark = pytest.mark.django_db

INDENTED = re.compile(r"\n[ \t]{2,}")  # a line indented as the source lays it out


def outside_pre(html: str) -> str:
    return re.sub(r"<(pre|textarea)\b.*?</\1>", "", html, flags=re.S)


def test_the_table_page_has_no_indented_line() -> None:
    party = make_party()
    html = client_for(party.gm).get(reverse("encounter", args=[party.encounter.pk])).content
    page = html.decode()
    assert 'id="table-turn"' in page and 'id="table-log"' in page
    assert not INDENTED.findall(outside_pre(page))


def test_a_push_has_no_indented_line() -> None:
    party = make_party()
    play_a_fight(party, end=False)
    table = services.load_table(party.encounter.pk)
    for user in (party.gm, party.p1):
        viewer = Viewer(user_id=user.pk, is_gm=user == party.gm)
        html = fragments.render_regions(table, viewer)
        assert 'hx-swap-oob="true"' in html and 'id="table-order"' in html
        assert not INDENTED.findall(outside_pre(html))


def test_a_pre_keeps_its_lines_as_written() -> None:
    party = make_party()
    play_a_fight(party)
    page = client_for(party.p1).get(reverse("encounter_rolls", args=[party.encounter.pk]))
    html = page.content.decode()
    # The algorithm's code on the rolls page: Python, whose indentation is its meaning.
    assert "\n    n = 0\n" in html
