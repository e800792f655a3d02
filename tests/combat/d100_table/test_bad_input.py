"""Bad input to a d100 table over the socket: malformed commands get a clear error on the
sender's socket alone and change nothing; a player may not post or act for another's
character or the GM's NPCs, set what only the GM sets, name the hidden NPC, or post more text
than the limit."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from tests.combat.d100_table.helpers import (
    BANDIT,
    HERO1,
    HERO2,
    SCOUT,
    WOLF,
    D100Table,
    Tab,
    head_seq,
    make_d100_table,
    open_tab,
)

pytestmark = [pytest.mark.django_db(transaction=True)]


async def table_in(pace: str) -> D100Table:
    def build() -> D100Table:
        t = make_d100_table(hidden_scout=True)
        if pace == "post":
            t.run(t.gm, {"type": "set_pace", "pace": "post"})
        t.run(t.gm, {"type": "start_combat"})
        return t

    return await database_sync_to_async(build)()


async def refused_alone(t: D100Table, sender: Tab, others: list[Tab], command: Any) -> str:
    """The command is refused on the sender's socket; the others hear nothing; the log and
    the state stay as they were. The error's text."""
    before = await head_seq(t)
    state = await database_sync_to_async(lambda: t.state)()
    message = (
        await sender.refused(command)
        if isinstance(command, dict)
        else await _refused_text(sender, command)
    )
    for other in others:
        assert await other.ws.receive_nothing(timeout=0.1)
    assert await head_seq(t) == before
    assert await database_sync_to_async(lambda: t.state)() == state
    return message


async def _refused_text(sender: Tab, text: str) -> str:
    await sender.send_text(text)
    while True:
        answer = await sender.receive()
        if answer.get("t") == "error":
            return str(answer["message"])


def malformed(t: D100Table) -> list[tuple[Any, str]]:
    hero = t.seat(HERO1)
    return [
        ({"type": "attack", "actor": hero}, "Błędne polecenie: command: missing field 'target'"),
        ({"type": "attack", "actor": hero, "target": 5}, "Błędne polecenie: command.target"),
        ({"type": "rest", "actor": hero, "fast": True}, "Błędne polecenie:"),
        ({"type": "defend", "actor": hero, "prompt": []}, "Błędne polecenie: command.prompt"),
        ({"type": "cast", "actor": hero, "spell": "0"}, "Błędne polecenie: command.spell"),
        ({"type": "free_action", "actor": hero, "kind": "taniec"}, "Nieznana akcja darmowa"),
        ({"type": "attack", "actor": hero, "target": t.seat(BANDIT), "choice": "w9"}, "broni"),
        ({"type": "fly", "actor": hero}, "Błędne polecenie:"),
        ("{not json", "Błędna wiadomość: not JSON"),
    ]


async def test_malformed_commands_get_a_clear_error_and_change_nothing() -> None:
    t = await table_in("live")
    gm, p1, p2 = [await open_tab(t, u) for u in (t.gm, t.p1, t.p2)]
    for command, error in malformed(t):
        message = await refused_alone(t, p1, [gm, p2], command)
        assert error in message, (command, message)
    # A self-attack is the rules' refusal, in Polish.
    own = {"type": "attack", "actor": t.seat(HERO1), "target": t.seat(HERO1)}
    assert await refused_alone(t, p1, [gm, p2], own) == "Nie można zaatakować samego siebie."
    for tab in (gm, p1, p2):
        await tab.close()


async def test_a_player_cannot_act_for_another_nor_for_the_gms_npcs() -> None:
    t = await table_in("live")
    gm, p1, p2 = [await open_tab(t, u) for u in (t.gm, t.p1, t.p2)]
    for command, error in [
        ({"type": "end_turn", "actor": t.seat(HERO2)}, "To nie twoja postać."),
        ({"type": "attack", "actor": t.seat(WOLF), "target": t.seat(HERO2)}, "To nie twoja"),
        ({"type": "damage", "target": t.seat(BANDIT), "amount": 5}, "Tylko Mistrz Gry"),
        ({"type": "gm_roll", "threshold": 50, "secret": True}, "Tylko Mistrz Gry"),
        ({"type": "start_combat"}, "Tylko Mistrz Gry"),
        ({"type": "attack", "actor": t.seat(HERO1), "target": t.seat(SCOUT)}, "Nie ma takiej"),
    ]:
        assert error in await refused_alone(t, p1, [gm, p2], command), command
    for tab in (gm, p1, p2):
        await tab.close()


async def test_a_player_cannot_post_for_another_set_by_gm_or_write_past_the_limit() -> None:
    t = await table_in("post")
    gm, p1, p2 = [await open_tab(t, u) for u in (t.gm, t.p1, t.p2)]
    cut = {"kind": "attack", "target": t.seat(BANDIT), "choice": "w0"}
    post = {"type": "post", "actor": t.seat(HERO1), "action": cut, "defence": "unik"}
    for command, error in [
        ({**post, "actor": t.seat(HERO2)}, "To nie twoja postać."),
        ({**post, "actor": t.seat(WOLF)}, "To nie twoja postać."),
        ({**post, "by_gm": True}, "Tylko Mistrz Gry ustala: by_gm."),
        ({**post, "text": "x" * 4001}, "Post: najwyżej 4000 znaków."),
        ({**post, "defence": "parada"}, "Nieznana obrona: parada."),
        ({**post, "action": {"kind": "taniec"}}, "Nieznana akcja: taniec."),
        ({**post, "action": "atak"}, "Błędne polecenie: command.action"),
        ({**post, "action": {**cut, "target": t.seat(SCOUT)}}, "Nie ma takiej postaci"),
        ({"type": "extend_deadline", "deadline": 2e9}, "Tylko Mistrz Gry"),
        ({"type": "resolve_turn"}, "Tylko Mistrz Gry"),
    ]:
        assert error in await refused_alone(t, p1, [gm, p2], command), command
    # The GM's own bad deadline: not a number, or too far to show, is refused too.
    extend = (
        '{"type": "command", "id": "x1", "command": {"type": "extend_deadline", "deadline": %s}}'
    )
    for value in ("NaN", "Infinity", "1e300"):
        message = await refused_alone(t, gm, [p1, p2], extend % value)
        assert "Termin" in message or "termin" in message, (value, message)
    # The limit itself is fine.
    await p1.command({**post, "text": "ż" * 4000})
    assert await database_sync_to_async(lambda: len(t.state.posts[t.seat(HERO1)].text))() == 4000
    for tab in (gm, p1, p2):
        await tab.close()
