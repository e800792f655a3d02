"""One language per UI (issue #11, point 9): a combatant's health reads in the page's language,
with the rule term for Nieprzytomność as everywhere else, never "Nieprzytomność unconscious"."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.utils import translation

from combat import fragments, services
from tests.combat.table.helpers import Party, make_party, start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def default_language() -> Iterator[None]:
    yield
    translation.deactivate()


def bandit_row(party: Party, language: str) -> str:
    """The bandit's row in the turn order, as text, as a player sees it (a wound level)."""
    table = services.load_table(party.encounter.pk)
    with translation.override(language):
        html = fragments.render_one(table, party.viewer(party.p1), "table-order")
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    return text[text.index("Bandyta") :]


def hurt(party: Party, *, physical: int = 0, stun: int = 0) -> None:
    command = {
        "type": "edit_health",
        "target": f"c{party.bandit.pk}",
        "damage_physical": physical,
        "damage_stun": stun,
    }
    services.run_command(party.encounter.pk, command, viewer=party.gm_viewer)


def test_an_unconscious_npc_reads_in_one_language() -> None:
    party = make_party()
    start(party)
    hurt(party, stun=11)  # Zdrowie 13 → 2: unconscious, above 0 where an Okaleczenie may kill
    english = bandit_row(party, "en")
    assert "Unconscious" in english  # the rule term, as the English digest names it
    assert "Nieprzytomność" not in english
    assert "unconscious" not in english  # no second, lower-case word beside the term
    assert "nieprzytomny" not in english
    assert "Opponents" in english and "Przeciwnicy" not in english
