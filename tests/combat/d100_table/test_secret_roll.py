"""The GM's secret d100 roll at a d100 table: the GM's tab and page show it with its numbers;
no player's push, page, log page or log download holds it; the GM's open roll everyone sees."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from tests.combat.d100_table.helpers import HERO1, D100Table, head_seq, make_d100_table, open_tab

pytestmark = [pytest.mark.django_db(transaction=True)]

SECRET = "Zasadzka w krzakach"


def pages(t: D100Table, user: Any) -> dict[str, str]:
    """What `user` loads: the table, its whole log, the log's download and the rolls' check."""
    client = Client()
    client.force_login(user)
    urls = {
        "table": t.encounter.get_absolute_url(),
        "log": reverse("encounter-log", args=[t.pk]),
        "json": reverse("encounter-log", args=[t.pk]) + "?format=json",
        "rolls": reverse("encounter_rolls", args=[t.pk]),
    }
    found = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        found[name] = response.content.decode()
    return found


async def test_the_gms_secret_roll_stays_the_gms() -> None:
    def build() -> D100Table:
        t = make_d100_table()
        t.run(t.gm, {"type": "start_combat"})
        return t

    t = await database_sync_to_async(build)()
    gm, p1, p2 = [await open_tab(t, u) for u in (t.gm, t.p1, t.p2)]
    roll = {"type": "gm_roll", "label": SECRET, "threshold": 37, "secret": True}
    await gm.command({**roll, "modifiers": [["Mgła", -5]]})
    seq = await head_seq(t)
    for tab in (p1, p2):
        await tab.until_seq(seq)
    log = gm.region("table-log")
    assert SECRET in log and "próg 32 · OoP" in log and "Mgła" in log
    for tab in (p1, p2):
        assert not [push for push in tab.pushes if SECRET in push or "Mgła" in push]
    for user in (t.p1, t.p2):
        for name, html in (await database_sync_to_async(pages)(t, user)).items():
            assert SECRET not in html and "Mgła" not in html, (user.username, name)
    assert SECRET in (await database_sync_to_async(pages)(t, t.gm))["table"]

    # A roll the GM makes in the open, on a player's Zwinność: everyone reads it.
    hero = await database_sync_to_async(t.seat)(HERO1)
    await gm.command({"type": "gm_roll", "label": "Skok przez rów", "target": hero,
                      "attribute": "zwinnosc"})  # fmt: skip
    seq = await head_seq(t)
    for tab in (p1, p2):
        await tab.until_seq(seq)
        assert "Skok przez rów" in tab.region("table-log")
        assert "próg 60 · OoP" in tab.region("table-log")
        assert SECRET not in tab.region("table-log")
    for tab in (gm, p1, p2):
        await tab.close()
