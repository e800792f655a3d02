"""The live table runs Pojedynek without naming it: sockets, prompts, the log and the GM's
pages, with none of Eleora's own UI (odds, simulator) since the duel has no such capability.

Written against the table's public behaviour: the socket's messages (`combat.protocol`), the
regions it pushes, and `combat.services`. The duel is registered by the test settings
(`tests/settings.py`).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.urls import reverse

from characters.sheets import clean_sheet
from combat import services
from combat.models import Encounter
from combat.routing import websocket_urlpatterns
from combat.rules.registry import get_ruleset
from scripts.bench.page import Page
from tests.characters.helpers import client_for
from tests.combat.table.duel_table import HERO, DuelTable, duel_sheet, make_duel_table, seat_ids
from tests.duel import RULESET
from tests.duel.model import NO_REACTION, PARRY

pytestmark = [pytest.mark.django_db(transaction=True)]

app = URLRouter(websocket_urlpatterns)

# What only Eleora shows: the odds (a capability the duel lacks), its own forms and terms.
ELEORA_ONLY = (
    "Pokaż szanse",
    'data-kind="preview"',
    "odds-preview",
    "odds-chip",
    "Symulator",
    "Kostka Heroizmu",
    "declare_attack",
    "roll_initiative",
    "gm_roll",
)


@dataclass
class Seat:
    """One socket at the table, and every swap it was pushed."""

    ws: WebsocketCommunicator
    seq: int = -1
    pushed: list[str] = field(default_factory=list)
    regions: Page = field(default_factory=Page)  # as the page shows them

    async def receive(self) -> dict[str, Any]:
        message = json.loads(await self.ws.receive_from(timeout=5))
        if message.get("t") == "swap":
            self.pushed.append(message.get("html") or "")
            self.regions.apply(message.get("html") or "")
            self.seq = max(self.seq, message.get("seq", -1))
        return message

    async def until_seq(self, seq: int) -> None:
        while self.seq < seq:
            await self.receive()

    async def send(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a message; its answer: the swap or ack that names it, or its error."""
        message_id = uuid.uuid4().hex
        await self.ws.send_to(text_data=json.dumps({"type": kind, "id": message_id, **fields}))
        while True:
            answer = await self.receive()
            if answer.get("ack") == message_id:
                return answer
            if answer.get("t") == "error" and answer.get("id") == message_id:
                return answer

    async def command(self, **command: Any) -> dict[str, Any]:
        answer = await self.send("command", command=command, seq=self.seq)
        assert answer.get("t") != "error", answer
        return answer

    def region(self, region: str) -> str:
        """The region as the page shows it after every push."""
        if region not in self.regions:
            raise AssertionError(f"{region} was never pushed")
        return self.regions[region]


async def open_seat(table: DuelTable, user: User) -> Seat:
    ws = WebsocketCommunicator(app, f"/ws/encounters/{table.encounter.pk}/")
    ws.scope["user"] = user
    connected, _code = await ws.connect()
    assert connected
    seat = Seat(ws)
    await seat.receive()  # the whole table, on connect
    return seat


async def state_of(table: DuelTable) -> Any:
    return (await database_sync_to_async(services.load_table)(table.encounter.pk)).state


async def head(table: DuelTable) -> int:
    return (await Encounter.objects.aget(pk=table.encounter.pk)).seq


async def settle(table: DuelTable, *seats: Seat) -> None:
    seq = await head(table)
    for seat in seats:
        await seat.until_seq(seq)


async def ready_table() -> tuple[DuelTable, Seat, Seat]:
    """The GM and the player connected; the GM added the hero and the NPC."""
    table = await database_sync_to_async(make_duel_table)()
    gm, player = await open_seat(table, table.gm), await open_seat(table, table.player)
    answer = await gm.send("add", characters=[table.hero.pk, table.npc.pk])
    assert answer.get("t") != "error", answer
    await settle(table, gm, player)
    return table, gm, player


async def play_turn(table: DuelTable, gm: Seat, player: Seat) -> None:
    """The current fighter attacks the other; the defender answers (the NPC parries, by the
    GM's hand; the hero takes it); then the turn ends, from the seat that plays it."""
    state = await state_of(table)
    hero, npc = seat_ids(state)
    mine = state.current == hero
    attacker, defender = (player, gm) if mine else (gm, player)
    target = npc if mine else hero
    assert 'value="attack"' in attacker.region("table-turn")
    await attacker.command(type="attack", actor=state.current, target=target)
    await settle(table, gm, player)
    state = await state_of(table)
    (prompt,) = RULESET.open_prompts(state)
    assert prompt.actor == target
    assert f'id="prompt-{prompt.id}"' in defender.region("table-prompts")
    threshold = state.combatants[target].parry_threshold
    assert f"k100 ≤ {threshold}" in defender.region("table-prompts")
    answer = RULESET.prompt_command(state, prompt.id, PARRY if target == npc else NO_REACTION)
    await defender.command(**RULESET.command_to_dict(answer))
    await settle(table, gm, player)
    await attacker.command(type="end_turn", actor=state.current)
    await settle(table, gm, player)


async def test_a_gm_and_a_player_play_two_rounds_of_a_duel() -> None:
    table, gm, player = await ready_table()
    assert get_ruleset("duel") is RULESET
    assert "Rozpocznij pojedynek" in gm.region("table-gm")
    await gm.command(type="start_round")
    await settle(table, gm, player)
    state = await state_of(table)
    hero, npc = seat_ids(state)
    assert state.round == 1 and set(state.order) == {hero, npc}

    for _turn in state.order:
        await play_turn(table, gm, player)

    state = await state_of(table)
    assert state.round == 2 and state.stage == "fight"
    assert state.combatants[npc].damage == 0  # Obrona 10: every parry holds
    hits = await database_sync_to_async(_struck)(table, hero)
    assert len(hits) == 1  # the NPC's one hit: its d6 (and Premia) off the hero's Życie
    assert state.combatants[hero].damage == hits[0]["face"] + hits[0].get("bonus", 0)
    log = player.region("table-log")
    assert log.count(": inicjatywa k20") == 4  # both fighters, in each round
    assert "Runda 2" in player.region("table-status")
    assert "k100" in log and "atak odparty" in log
    assert f"{HERO} obrywa za" in log
    rolled = await database_sync_to_async(_rolled_dice)(table)
    assert rolled >= {20, 100, 6}
    for seat in (gm, player):
        await seat.ws.disconnect()


def _struck(table: DuelTable, target: str) -> list[dict]:
    """The stored hits that landed on `target`, in the log's order."""
    rows = table.encounter.entries.order_by("seq").values_list("events", flat=True)
    return [e for events in rows for e in events if e["type"] == "struck" and e["target"] == target]


def _rolled_dice(table: DuelTable) -> set[int]:
    entries = services.full_log(table.encounter)
    return {roll["sides"] for e in entries for line in e.lines for roll in line.get("rolls", ())}


async def test_a_player_cannot_command_the_npc_nor_run_the_fight() -> None:
    table, gm, player = await ready_table()
    await gm.command(type="start_round")
    await settle(table, gm, player)
    state = await state_of(table)
    hero, npc = seat_ids(state)
    before = await head(table)
    for command in (
        {"type": "end_turn", "actor": npc},
        {"type": "attack", "actor": npc, "target": hero},
        {"type": "end_fight"},
        {"type": "set_life", "target": npc, "life": 0},
    ):
        answer = await player.send("command", command=command)
        assert answer["t"] == "error", command
    assert await head(table) == before
    for seat in (gm, player):
        await seat.ws.disconnect()


async def test_an_unanswered_prompt_lands_when_its_time_runs_out() -> None:
    table, gm, player = await ready_table()
    await gm.command(type="start_round")
    await settle(table, gm, player)
    state = await state_of(table)
    hero, npc = seat_ids(state)
    actor, target = state.current, npc if state.current == hero else hero
    seat = player if actor == hero else gm
    await seat.command(type="attack", actor=actor, target=target)
    state = await state_of(table)
    deadline = RULESET.next_deadline(state)
    assert deadline is not None
    resolved = await database_sync_to_async(services.resolve_expired)(
        table.encounter.pk, now=deadline + 0.1
    )
    assert resolved is not None
    await settle(table, gm, player)
    state = await state_of(table)
    assert state.prompt is None and state.combatants[target].damage >= 1
    assert "Czas minął" in player.region("table-log")
    for s in (gm, player):
        await s.ws.disconnect()


async def test_the_pushed_html_has_none_of_eleoras_own_ui() -> None:
    table, gm, player = await ready_table()
    await gm.command(type="start_round")
    await settle(table, gm, player)
    state = await state_of(table)
    hero, npc = seat_ids(state)
    seat = player if state.current == hero else gm
    target = npc if state.current == hero else hero
    await seat.command(type="attack", actor=state.current, target=target)
    await settle(table, gm, player)
    pushed = "".join(gm.pushed + player.pushed)
    for text in ELEORA_ONLY:
        assert text not in pushed, text
    assert 'data-ws="policy"' in "".join(gm.pushed)  # the duel has prompts: NPC policies
    assert 'data-ws="policy"' not in "".join(player.pushed)
    for s in (gm, player):
        await s.ws.disconnect()


# --- the pages ------------------------------------------------------------------------------


def test_the_encounter_page_renders_the_duels_partials_and_no_odds() -> None:
    table = make_duel_table()
    page = client_for(table.gm).get(reverse("encounter", args=[table.encounter.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Rozpocznij pojedynek" in html
    for text in ELEORA_ONLY:
        assert text not in html, text


def test_a_duel_campaign_offers_no_simulator() -> None:
    table = make_duel_table()
    gm = client_for(table.gm)
    simulator = reverse("simulator", args=[table.campaign.pk])
    assert gm.get(simulator).status_code == 404
    page = gm.get(reverse("campaign-detail", args=[table.campaign.pk])).content.decode()
    assert simulator not in page


def test_the_characters_app_validates_a_duel_sheet_by_its_ruleset() -> None:
    table = make_duel_table()
    rules = table.campaign.rules()
    cleaned = clean_sheet(duel_sheet(4, 6, 12, premia=2), rules=rules, settings=None)
    assert cleaned["attributes"] == {"atak": 4, "obrona": 6, "zycie": 12}
    assert cleaned["bron"] == [{"name": "Miecz", "premia": 2}]
    with pytest.raises(ValidationError, match="zycie"):
        clean_sheet(duel_sheet(zycie=31), rules=rules, settings=None)
    page = client_for(table.player).get(reverse("character-detail", args=[table.hero.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Życie" in html and "Parowanie" in html and "Miecz" in html
    assert "Krzepa" not in html
