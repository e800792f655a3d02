"""Routes do not map an ambush (issue 23, point 2), at a live table of each ruleset.

A player asking the route onto or through the field of a hidden NPC used to be told „Pole C2
jest zajęte” or „Nie można przejść przez pole…”, and paths bent round hidden enemies: eight
routes a second drew where the hidden creatures stood. Now a route is drawn on the map as the
player sees it, and the move it offers stops where it runs into the hidden one, reveals it and
tells every player so.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User

from characters.models import Character
from combat import fragments, services
from combat.access import Viewer
from combat.rules import battlemap
from combat.rules.battlemap import Resize
from combat.rules.registry import get_ruleset
from tests.combat.d100_table import helpers as d100
from tests.combat.magus_table import helpers as magus
from tests.combat.magus_table.helpers import forms_in
from tests.combat.table.helpers import make_hero, make_party

pytestmark = pytest.mark.django_db(transaction=True)

SCOUT = "Zwiadowca"
HERO = "Radosław"
STOP_LINE = f"{HERO} zatrzymuje się: na drodze stoi {SCOUT}."


@dataclass
class Ambush:
    """A started fight on a map: the player's hero acts and, unknown to the player, the GM's
    hidden scout stands on the hero's straight way to `to`; the move stops on `stop`."""

    pk: int
    gm: User
    player: User
    other: User  # another player, who only reads the log
    hero: str
    scout: str
    to: tuple[int, int]
    way: tuple[tuple[int, int], ...]  # the straight path the player is shown
    stop: tuple[int, int]

    def viewer(self, user: User) -> Viewer:
        return Viewer(user_id=user.pk, is_gm=user == self.gm)

    @property
    def table(self) -> Any:
        return services.load_table(self.pk)

    def lay(self, size: tuple[int, int], tokens: dict[str, tuple[int, int]]) -> None:
        gm = self.viewer(self.gm)
        services.edit_map(self.pk, viewer=gm, edit=Resize(*size))
        for seat, to in tokens.items():
            services.place_token(self.pk, viewer=gm, seat=seat, to=to)


def eleora() -> Ambush:
    party = make_party()
    scout = make_hero(party.campaign, None, SCOUT, kind=Character.Kind.NPC)
    pk, gm = party.encounter.pk, party.gm_viewer
    services.add_combatants(pk, viewer=gm, characters=[scout.pk], hidden=True)
    hero, bandit, other = (f"c{c.pk}" for c in (party.hero1, party.bandit, party.hero2))
    way = ((0, 1), (1, 1), (2, 1), (3, 1))
    a = Ambush(pk, party.gm, party.p1, party.p2, hero, f"c{scout.pk}", (3, 1), way, (1, 1))
    a.lay((8, 3), {hero: (0, 1), a.scout: (2, 1), other: (0, 2), bandit: (7, 0)})
    rolls = {hero: [6, 6], other: [4, 4], bandit: [1, 1], a.scout: [1, 2]}
    services.run_command(pk, {"type": "start_combat", "rolls": rolls}, viewer=gm)
    assert a.table.state.current == hero
    return a


def d100_table() -> Ambush:
    t = d100.make_d100_table(hidden_scout=True)
    way = ((0, 1), (1, 1), (2, 1), (3, 1), (4, 1))
    a = Ambush(t.pk, t.gm, t.p1, t.p2, t.seat(HERO), t.seat(SCOUT), (4, 1), way, (1, 1))
    a.lay(
        (8, 3),
        {
            a.hero: (0, 1),
            a.scout: (2, 1),
            t.seat(d100.HERO2): (0, 2),
            t.seat(d100.WOLF): (7, 0),
            t.seat(d100.BANDIT): (7, 2),
        },
    )
    t.run(t.gm, {"type": "start_combat"})
    assert a.table.state.current == a.hero
    return a


def magus_table() -> Ambush:
    t = magus.make_magus_table(hidden_scout=True)
    scout = next(cid for cid, c in t.state.combatants.items() if c.name == SCOUT)
    way = ((0, 0), (1, 0), (2, 0), (3, 0))
    a = Ambush(t.encounter.pk, t.gm, t.p1, t.p2, t.seat(t.hero1), scout, (3, 0), way, (1, 0))
    a.lay(
        (8, 3),
        {a.hero: (0, 0), scout: (2, 0), t.seat(t.hero2): (0, 2), t.seat(t.bandit): (7, 2)},
    )
    t.run(t.gm, {"type": "start_combat"})
    t.run(t.p1, {"type": "declare", "actor": a.hero})
    t.run(t.p2, {"type": "declare", "actor": t.seat(t.hero2)})
    for cid, c in t.state.combatants.items():
        if c.controller is None:
            t.run(t.gm, {"type": "declare", "actor": cid})
    for user in (t.p1, t.p2):
        (roll,) = forms_in(t.html(user, "table-turn"), "roll_initiative")
        t.run(user, roll.command())
    (npcs,) = forms_in(t.html(t.gm, "table-gm"), "roll_initiatives")
    t.run(t.gm, npcs.command(), face=3)  # the NPCs roll low: the hero goes first
    assert a.table.state.current == a.hero
    return a


TABLES: dict[str, Callable[[], Ambush]] = {
    "eleora": eleora,
    "d100": d100_table,
    "magus": magus_table,
}


def points(a: Ambush, path: tuple[tuple[int, int], ...]) -> str:
    """The route line's points as the map draws `path`."""
    m = a.table.state.battlemap
    drawn = (battlemap.centre(m.geometry, f, fragments.FIELD) for f in path)
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in drawn)


def confirm(a: Ambush) -> dict[str, Any]:
    """The command the player's route offers (what its confirm button sends)."""
    rules = get_ruleset(a.table.ruleset)
    route = rules.route(a.table.state, a.hero, a.to, "", 0.0, unseen={a.scout})  # type: ignore[attr-defined]
    return dict(route.command)


@pytest.mark.parametrize("ruleset", TABLES)
def test_a_players_route_through_a_hidden_npc_is_drawn_straight_and_names_nothing(
    ruleset: str,
) -> None:
    a = TABLES[ruleset]()
    for to, way in ((a.to, a.way), (a.way[2], a.way[:3])):  # through it, and onto its field
        html = fragments.render_route(a.table, a.viewer(a.player), a.hero, to, "")
        assert f'points="{points(a, way)}"' in html, html  # not bent round it
        assert "is-refused" not in html and "form-error" not in html
        assert 'class="map-confirm"' in html
        assert "disabled" not in html.split('class="map-confirm"')[1].split("</form>")[0]
        assert SCOUT not in html and a.scout not in html
        assert "zaj" not in html and "przejść" not in html  # zajęte, zajmuje, nie można przejść
    gm_html = fragments.render_route(a.table, a.viewer(a.gm), a.hero, a.way[2], "")
    assert "form-error" in gm_html  # the GM sees the field is taken


@pytest.mark.parametrize("ruleset", TABLES)
def test_the_move_stops_before_the_hidden_npc_reveals_it_and_everyone_reads_it(
    ruleset: str,
) -> None:
    a = TABLES[ruleset]()
    services.run_command(a.pk, confirm(a), viewer=a.viewer(a.player))
    table = a.table
    assert table.view.seats[a.hero].position == a.stop
    assert not table.view.seats[a.scout].hidden
    assert table.view.seats[a.scout].position == a.way[2]
    for user in (a.player, a.other, a.gm):
        log = fragments.render_one(table, a.viewer(user), "table-log")
        assert STOP_LINE in log, user.username
    tokens = fragments.render_one(table, a.viewer(a.other), "table-map-tokens")
    assert f'data-seat="{a.scout}"' in tokens  # now on the other player's map too


async def test_over_the_socket_a_route_onto_the_hidden_npc_is_answered_as_an_empty_field() -> None:
    a = await database_sync_to_async(d100_table)()
    tab = await d100.open_tab(_Pk(a.pk), a.player)  # type: ignore[arg-type]  # only its pk
    await tab.ws.send_to(text_data=json.dumps({"type": "route", "actor": a.hero, "to": [2, 1]}))
    answer = json.loads(await tab.ws.receive_from(timeout=5))
    assert answer["t"] == "swap" and "seq" not in answer
    html = answer["html"]
    assert re.search(r'<polyline class="route-line" points="[^"]+"', html)
    assert SCOUT not in html and "zaj" not in html and "form-error" not in html
    await tab.close()


@dataclass
class _Pk:
    pk: int
