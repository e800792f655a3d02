"""NPCs that play themselves, driven over the table socket: the players' pushes show it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from combat import services
from tests.combat.table.test_consumer import open_socket, ready_party, receive, receive_until

pytestmark = [pytest.mark.django_db(transaction=True)]


async def send(ws: WebsocketCommunicator, body: dict[str, Any]) -> None:
    await ws.send_to(text_data=json.dumps(body))


def _state(pk: int) -> Any:
    return services.load_table(pk).state


async def test_an_npc_marked_to_play_itself_attacks_and_the_player_sees_the_prompt() -> None:
    party = await ready_party()
    pk = party.encounter.pk
    gm, p1 = await open_socket(party, party.gm), await open_socket(party, party.p1)
    await receive(gm)
    await receive(p1)
    bandit = f"c{party.bandit.pk}"
    await send(gm, {"type": "autoplay", "id": "m1", "combatant": bandit, "policy": "najslabszy"})
    marked = await receive_until(
        gm, lambda m: m.get("t") == "swap" and "Gra sama: tak" in m["html"]
    )
    assert 'aria-pressed="true"' in marked["html"]
    for n, hero in enumerate((party.hero1, party.hero2)):
        end = {"type": "end_turn", "actor": f"c{hero.pk}"}
        await send(gm, {"type": "command", "id": f"e{n}", "command": end})
    # The bandit's Atak on the weakest (Radosław) opens p1's prompt without a GM's click.
    pushed = await receive_until(p1, lambda m: "data-my-prompt" in m.get("html", ""))
    assert "Bandyta" in pushed["html"]
    state = await database_sync_to_async(_state)(pk)
    assert state.current == bandit and state.prompts[0].actor == f"c{party.hero1.pk}"
    await gm.disconnect()
    await p1.disconnect()


async def test_the_gm_plays_an_npcs_turn_with_one_message() -> None:
    party = await ready_party()
    pk = party.encounter.pk
    gm = await open_socket(party, party.gm)
    await receive(gm)
    for n, hero in enumerate((party.hero1, party.hero2)):
        end = {"type": "end_turn", "actor": f"c{hero.pk}"}
        await send(gm, {"type": "command", "id": f"e{n}", "command": end})
    bandit = f"c{party.bandit.pk}"
    await receive_until(gm, lambda m: "Zagraj turę" in m.get("html", ""))
    await send(gm, {"type": "play", "id": "play-1", "combatant": bandit})
    await receive_until(gm, lambda m: m.get("ack") == "play-1")
    state = await database_sync_to_async(_state)(pk)
    assert state.prompts and state.attacks  # its Atak waits for the player's answer
    await send(gm, {"type": "play", "combatant": bandit})
    error = await receive_until(gm, lambda m: m.get("t") == "error")
    assert "id" in error["message"]
    await gm.disconnect()
