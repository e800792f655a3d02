"""A live d100 round over real sockets (channels' WebsocketCommunicator): the GM and two
players each in their own tab. The GM seats everyone and starts; the first player attacks the
GM's bandit (its policy answers); the wolf attacks Milena, whose player alone gets the prompt,
answers Unik, and every tab shows the same result; the GM undoes the answer, the deadline
passes with nobody answering (the server's timer lands it as no reaction) and an undo opens
the prompt again. The dice are the encounter's own (seeded): what the tabs show is checked
against what the log stored."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async

from combat import services
from combat.rules.base import fill
from combat.rules.d100 import RULESET
from tests.combat.d100_table.helpers import (
    BANDIT,
    HERO1,
    HERO2,
    SCOUT,
    WOLF,
    Clock,
    D100Table,
    Tab,
    head_seq,
    make_d100_table,
    open_tab,
)

pytestmark = [pytest.mark.django_db(transaction=True)]


async def settle(t: D100Table, *tabs: Tab) -> int:
    """Every tab brought to the log's head (the pushes it is sent); the head's seq."""
    seq = await head_seq(t)
    for tab in tabs:
        await tab.until_seq(seq)
    return seq


def last_lines(t: D100Table) -> list[dict[str, Any]]:
    """The lines of the newest log entry."""
    return [dict(line) for line in t.table.log[-1].lines]


def rolls_shown(line: dict[str, Any]) -> list[str]:
    """Each d100 roll of a log line as the log prints its summary."""
    return [fill(r["summary"], r["summary_params"]) for r in line["rolls"] if r["sides"] == 100]


def row(html: str, cid: str) -> str:
    start = html.index(f'id="row-{cid}"')
    return html[start : html.index("</li>", start)]


async def test_a_live_round_reaches_every_tab_as_its_viewer_may_see_it(
    server_clock: Clock,
) -> None:
    t = await database_sync_to_async(make_d100_table)(hidden_scout=True, seated=False)
    gm, p1, p2 = [await open_tab(t, user) for user in (t.gm, t.p1, t.p2)]
    tabs, players = (gm, p1, p2), (p1, p2)
    assert t.wolf is not None and t.scout is not None
    # The GM seats the party, the bandit and a wolf of the bestiary, then the scout, hidden.
    party = [t.hero1.pk, t.hero2.pk, t.bandit.pk]
    await gm.send({"type": "add", "characters": party, "creatures": {str(t.wolf.pk): 1}})
    await settle(t, *tabs)
    await gm.send({"type": "add", "characters": [t.scout.pk], "hidden": True})
    await settle(t, *tabs)
    await database_sync_to_async(t.learn_ids)()
    for name in (HERO1, HERO2, BANDIT, WOLF):
        assert all(name in tab.region("table-order") for tab in tabs), name
    assert SCOUT in gm.region("table-order")

    await gm.command({"type": "start_combat"})
    await settle(t, *tabs)
    assert 'data-my-turn="1-' in p1.region("table-turn")
    assert "Atak lub czar" not in p2.region("table-turn")

    # Radosław attacks the bandit; the bandit's policy ("najlepsza obrona") answers at once.
    bandit, milena, wolf = t.seat(BANDIT), t.seat(HERO2), t.seat(WOLF)
    await p1.command({"type": "attack", "actor": t.seat(HERO1), "target": bandit})
    await settle(t, *tabs)
    (line,) = [x for x in await database_sync_to_async(last_lines)(t) if x["rolls"]]
    assert line["params"]["attacker"] == HERO1 and line["params"]["target"] == BANDIT
    for tab in tabs:
        log = tab.region("table-log")
        assert all(shown in log for shown in rolls_shown(line)), tab.name
    state = await database_sync_to_async(lambda: t.state)()
    pz = state.get(bandit).pz
    level = RULESET.table_view(state).seats[bandit].health.level_label  # Polish: no catalogue
    assert f"{pz}/80" in row(gm.region("table-order"), bandit)
    for tab in players:  # the wound level, not the numbers
        assert f"{pz}/80" not in row(tab.region("table-order"), bandit)
        assert level in row(tab.region("table-order"), bandit)
        assert "/80" not in tab.region("table-log")

    await p1.command({"type": "end_turn", "actor": t.seat(HERO1)})
    await settle(t, *tabs)
    await p2.command({"type": "end_turn", "actor": milena})
    await settle(t, *tabs)

    # The wolf attacks Milena: her player alone is asked, with the options and their odds.
    await gm.command({"type": "attack", "actor": wolf, "target": milena})
    asked = await settle(t, *tabs)
    prompt = p2.region("table-prompts")
    assert 'data-my-prompt="' in prompt
    for label in ("Unik (próg 58)", "Blok (próg 50)", "Bez obrony", "szansa, że cię trafi"):
        assert label in prompt, label
    assert "data-my-prompt" not in p1.region("table-prompts")
    assert "prompt-p" not in p1.region("table-prompts")
    assert "Czekamy na: Milena" in gm.region("table-prompts")
    prompt_id = (await database_sync_to_async(lambda: t.state)()).prompts[0].id

    await p2.command({"type": "defend", "actor": milena, "prompt": prompt_id, "option": "unik"})
    await settle(t, *tabs)
    (line,) = [x for x in await database_sync_to_async(last_lines)(t) if x["rolls"]]
    assert line["params"]["attacker"] == WOLF and fill("%(defence)s", line["params"]) == "Unik"
    assert p1.region("table-log") == p2.region("table-log")  # one audience: one rendering
    for tab in tabs:
        assert "data-my-prompt" not in tab.region("table-prompts")
        assert all(shown in tab.region("table-log") for shown in rolls_shown(line))
    state = await database_sync_to_async(lambda: t.state)()
    left = f"{state.get(milena).pz}/90"
    for tab in tabs:  # a player's character: its PŻ as numbers for everyone
        assert left in row(tab.region("table-order"), milena)
    for tab in players:
        assert "/50" not in row(tab.region("table-order"), wolf)

    # The GM takes the answer back: the prompt is Milena's again. Nobody answers; the clock
    # passes its deadline; the next push sets the server's timer, which lands it.
    await gm.send({"type": "undo", "to": asked})
    undone = await settle(t, *tabs)
    assert 'data-my-prompt="' in p2.region("table-prompts")
    server_clock.move(60)
    await p1.send_text(json.dumps({"type": "sync", "seq": 0}))  # behind: pushed everything
    await p1.receive()
    await p1.until_seq(undone + 1)  # the timer fires 50 ms after the deadline it was set for
    await settle(t, *tabs)
    for tab in tabs:
        assert "brak reakcji w czasie" in tab.region("table-log"), tab.name
        assert "data-my-prompt" not in tab.region("table-prompts")
    # An undo opens the prompt once more.
    await gm.send({"type": "undo", "to": asked})
    await settle(t, *tabs)
    assert 'data-my-prompt="' in p2.region("table-prompts")

    for tab in players:  # never the hidden scout, in any push
        assert not [push for push in tab.pushes if SCOUT in push or t.seat(SCOUT) in push]
    for tab in tabs:
        await tab.close()


async def test_a_player_answering_anothers_prompt_is_refused_on_their_socket_alone() -> None:
    t = await database_sync_to_async(make_d100_table)()
    gm, p1, p2 = [await open_tab(t, user) for user in (t.gm, t.p1, t.p2)]

    def to_wolf() -> str:
        for user, name in ((t.gm, None), (t.p1, HERO1), (t.p2, HERO2)):
            if name is None:
                t.run(user, {"type": "start_combat"})
            else:
                t.run(user, {"type": "end_turn", "actor": t.seat(name)})
        t.run(t.gm, {"type": "attack", "actor": t.seat(WOLF), "target": t.seat(HERO2)})
        return str(t.state.prompts[0].id)

    prompt_id = await database_sync_to_async(to_wolf)()
    before = await settle(t, gm, p1, p2)
    answer = {"type": "defend", "actor": t.seat(HERO2), "prompt": prompt_id, "option": "unik"}
    assert await p1.refused(answer) == "To nie twoja postać."
    assert await p2.ws.receive_nothing(timeout=0.2)
    assert await head_seq(t) == before
    assert await database_sync_to_async(lambda: len(services.load_table(t.pk).state.prompts))()
    for tab in (gm, p1, p2):
        await tab.close()


async def test_the_attack_forms_odds_preview_reaches_the_sender_alone() -> None:
    def build() -> D100Table:
        t = make_d100_table(hidden_scout=True)
        t.run(t.gm, {"type": "start_combat"})
        return t

    t = await database_sync_to_async(build)()
    gm, p1 = await open_tab(t, t.gm), await open_tab(t, t.p1)

    async def preview(command: dict[str, Any]) -> dict[str, Any]:
        await p1.send_text(json.dumps({"type": "preview", "id": "p.1", "command": command}))
        return await p1.receive()

    attack = {"type": "attack", "actor": t.seat(HERO1), "target": t.seat(BANDIT)}
    shown = await preview(attack)
    assert shown["t"] == "swap" and 'id="odds-preview"' in shown["html"]
    for text in ("Zbój", "cel: Unik", "cel: Blok", "cel bez obrony", "60%", "Trafienie 60"):
        assert text in shown["html"], text
    assert await gm.ws.receive_nothing(timeout=0.1)
    hidden = await preview({**attack, "target": t.seat(SCOUT)})
    assert hidden == {
        "t": "error",
        "id": "p.1",
        "message": f"Nie ma takiej postaci: {t.seat(SCOUT)}",
    }
    rest = await preview({"type": "rest", "actor": t.seat(HERO1)})
    assert rest["message"] == "Szanse można policzyć tylko dla ataku albo czaru."
    for tab in (gm, p1):
        await tab.close()
