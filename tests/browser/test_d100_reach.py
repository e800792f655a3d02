"""d100 on a laid map in real browsers (issue 22, point 7): a wolf bit a hero nine fields away.
Close combat needs an adjacent target (the table's setting, on by default): Dobrogost's turn
panel on a desktop and Jaga's on a phone keep the attack disabled and say why, naming the
distance; nobody can strike across the ford.

The encounter is the d100 test campaign's (`d100_server`), on a 12 × 3 map laid by the GM's
own commands: the heroes on the left bank, the bandit nine fields away on the right.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import D100_HIDDEN, D100_NPC, SCREENSHOTS, D100Server, _server_shell
from tests.browser.test_d100 import (
    DOBROGOST,
    JAGA,
    Table,
    end_turn,
    table,  # noqa: F401 - the three browsers' fixture
)

pytestmark = pytest.mark.browser

FORD = "Bród na mapie"
PLACES = {DOBROGOST: (0, 1), JAGA: (0, 2), D100_NPC: (9, 1)}


def seed_far_apart(campaign_id: int) -> None:
    """A new encounter of the campaign, seated, its map laid and its tokens placed."""
    from characters.models import Campaign
    from combat import services

    campaign = Campaign.objects.get(pk=campaign_id)
    gm = services.Viewer(user_id=campaign.gm_id, is_gm=True)
    encounter = services.create_encounter(campaign=campaign, name=FORD, by=campaign.gm)
    seated = campaign.characters.exclude(name=D100_HIDDEN).values_list("pk", flat=True)
    services.add_combatants(encounter.pk, viewer=gm, characters=list(seated))
    commands = [{"type": "edit_map", "edit": {"width": 12, "height": 3}}]
    for cid, c in services.load_table(encounter.pk).state.combatants.items():
        commands.append({"type": "place_combatant", "target": cid, "to": list(PLACES[c.name])})
    for command in commands:
        services.run_command(encounter.pk, command, viewer=gm)
    print(json.dumps({"encounter": encounter.pk}))  # noqa: T201 - the test reads it


def test_melee_across_the_map_is_disabled_with_its_reason_on_desktop_and_phone(
    d100_server: D100Server,
    table: Table,  # noqa: F811 - the GM (desktop), gracz1 (desktop), gracz2 (phone)
) -> None:
    t = table
    code = "from tests.browser.test_d100_reach import seed_far_apart; "
    code += f"seed_far_apart({d100_server.campaign})"
    encounter = _server_shell(d100_server.tmp, code)["encounter"]
    t.open(d100_server.table(encounter))
    t.gm.press(t.gm.page.locator("#table-gm").get_by_role("button", name="Rozpocznij walkę"))
    for seat in t.seats:
        expect(seat.status()).to_contain_text(f"tura: {DOBROGOST}")

    why = f"{D100_NPC} jest poza zasięgiem walki wręcz: 9 m."
    for seat, who in ((t.p1, DOBROGOST), (t.p2, JAGA)):
        if who == JAGA:
            end_turn(t, t.p1, DOBROGOST)
            expect(seat.status()).to_contain_text(f"tura: {JAGA}")
        turn = seat.page.locator("#table-turn")
        attack = turn.locator("li.action-atak")
        expect(attack.get_by_role("button", name="Atak lub czar")).to_be_disabled()
        expect(attack).to_contain_text(why)
        expect(turn.locator("form.d100-attack")).to_have_count(0)
        attack.scroll_into_view_if_needed()
        seat.page.screenshot(path=str(SCREENSHOTS / f"issue22-d100-reach-{seat.user}.png"))
