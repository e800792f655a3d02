"""The table socket with channels' WebsocketCommunicator: several users at once, permissions,
hostile input, and many commands at the same moment."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser, User

from characters import services as characters_services
from combat import consumers, fragments, live, protocol, pushes
from combat.models import Encounter
from combat.routing import websocket_urlpatterns
from tests.characters.helpers import make_user
from tests.combat.table.helpers import Party, make_party, start

pytestmark = [pytest.mark.django_db(transaction=True)]

app = URLRouter(websocket_urlpatterns)


async def open_socket(party: Party, user: User | AnonymousUser) -> WebsocketCommunicator:
    ws = WebsocketCommunicator(app, f"/ws/encounters/{party.encounter.pk}/")
    ws.scope["user"] = user
    connected, _code = await ws.connect()
    assert connected
    return ws


async def receive(ws: WebsocketCommunicator) -> dict[str, Any]:
    return json.loads(await ws.receive_from(timeout=5))


async def receive_until_seq(ws: WebsocketCommunicator, seq: int) -> dict[str, Any]:
    while True:
        message = await receive(ws)
        if message.get("t") == "swap" and message.get("seq", -1) >= seq:
            return message


async def receive_until(ws: WebsocketCommunicator, predicate: Any) -> dict[str, Any]:
    while True:
        message = await receive(ws)
        if predicate(message):
            return message


async def head(party: Party) -> int:
    return (await Encounter.objects.aget(pk=party.encounter.pk)).seq


async def ready_party(*, started: bool = True) -> Party:
    def build() -> Party:
        party = make_party()
        if started:
            start(party)
        return party

    return await database_sync_to_async(build)()


async def test_it_pushes_the_full_table_on_connect() -> None:
    party = await ready_party()
    ws = await open_socket(party, party.p1)
    snapshot = await receive(ws)
    assert snapshot["t"] == "swap" and snapshot["seq"] == await head(party)
    for region in ("table-status", "table-order", "table-turn", "table-log", "table-prompts"):
        assert f'id="{region}"' in snapshot["html"]
    assert 'id="table-gm"' not in snapshot["html"]
    assert "Radosław" in snapshot["html"]
    await ws.disconnect()


async def test_a_push_carries_its_letters_as_they_are() -> None:
    """Polish letters go as UTF-8 (two bytes each), not as JSON's \\u escapes (six)."""
    party = await ready_party()
    ws = await open_socket(party, party.gm)
    raw = await ws.receive_from(timeout=5)
    assert "Kolejność" in raw and "\\u0" not in raw
    await ws.disconnect()


async def test_it_refuses_strangers_and_anonymous_users() -> None:
    party = await ready_party()
    stranger = await database_sync_to_async(make_user)("obcy")
    for user in (stranger, AnonymousUser()):
        ws = WebsocketCommunicator(app, f"/ws/encounters/{party.encounter.pk}/")
        ws.scope["user"] = user
        connected, code = await ws.connect()
        assert not connected and code == 4403
    ws = WebsocketCommunicator(app, "/ws/encounters/999999/")
    ws.scope["user"] = party.gm
    assert (await ws.connect()) == (False, 4403)


async def test_a_gm_action_reaches_every_socket_rendered_for_its_viewer() -> None:
    party = await ready_party()
    gm, p1, p2 = [await open_socket(party, u) for u in (party.gm, party.p1, party.p2)]
    for ws in (gm, p1, p2):
        await receive(ws)
    command = {"type": "gm_roll", "dice": 4, "label": "Zasadzka w krzakach", "secret": True}
    await gm.send_to(text_data=json.dumps({"type": "command", "id": "r1", "command": command}))
    seq = await head(party)
    gm_view = await receive_until_seq(gm, seq)
    player_views = [await receive_until_seq(ws, seq) for ws in (p1, p2)]
    assert "Zasadzka w krzakach" in gm_view["html"]
    for view in player_views:
        assert view["seq"] == gm_view["seq"]
        assert "Zasadzka w krzakach" not in view["html"]
        assert 'id="table-gm"' not in view["html"]
    for ws in (gm, p1, p2):
        await ws.disconnect()


async def test_hidden_npcs_and_their_numbers_never_reach_a_player() -> None:
    party = await ready_party()
    bandit = f"c{party.bandit.pk}"
    gm = await open_socket(party, party.gm)
    p1 = await open_socket(party, party.p1)
    await receive(gm)
    first = await receive(p1)
    assert "Bandyta" in first["html"]
    assert "/15" not in _row(first["html"], bandit)  # a wound level, not its Zdrowie
    hide = {"type": "set_hidden", "target": bandit, "hidden": True}
    await gm.send_to(text_data=json.dumps({"type": "command", "id": "h1", "command": hide}))
    seq = await head(party)
    assert "Bandyta" in (await receive_until_seq(gm, seq))["html"]
    assert "Bandyta" not in (await receive_until_seq(p1, seq))["html"]
    await gm.disconnect()
    await p1.disconnect()


def _row(html: str, combatant: str) -> str:
    start_at = html.index(f'id="row-{combatant}"')
    return html[start_at : html.index("</li>", start_at)]


@pytest.mark.parametrize(
    "text, error",
    [
        ("not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        (json.dumps({"type": "explode"}), "unknown message type"),
        (json.dumps({"type": "command", "command": {"type": "gm_roll"}}), "needs an id"),
        (json.dumps({"type": "command", "id": "<script>", "command": {}}), "id:"),
        (
            json.dumps({"type": "command", "id": "a", "command": {"type": "nope"}}),
            "unknown command",
        ),
        (
            json.dumps({"type": "command", "id": "a", "command": {"type": "gm_roll", "dice": "x"}}),
            "",
        ),
        (json.dumps({"type": "undo", "id": "a", "to": -1}), "to:"),
        ("x" * (protocol.MAX_BYTES + 1), "larger than"),
        # Hostile shapes (issue #23): none may crash the socket.
        ("[" * 3000 + "]" * 3000, "nested"),
        ('{"type": "sync", "x": ' + "[" * 3000 + "]" * 3000 + "}", "nested"),
        ('{"type": "sync", "x": ' + "[" * 17 + "]" * 17 + "}", "nested"),
        ('{"type": "add", "id": "a", "side": "\\ud800"}', "surrogate"),
        (json.dumps({"type": "add", "id": "a", "characters": ["²"]}), "characters:"),
        (json.dumps({"type": "add", "id": "a", "characters": ["１"]}), "characters:"),
        (json.dumps({"type": "add", "id": "a", "creatures": {"²": 1}}), "creatures:"),
        (json.dumps({"type": "add", "id": "a", "characters": ["9" * 5000]}), "characters:"),
        (json.dumps({"type": "undo", "id": "a\n", "to": 1}), "id:"),
    ],
)
async def test_it_refuses_malformed_messages_to_that_socket_alone(text: str, error: str) -> None:
    party = await ready_party()
    gm = await open_socket(party, party.gm)
    p1 = await open_socket(party, party.p1)
    await receive(gm)
    await receive(p1)
    before = await head(party)
    await p1.send_to(text_data=text)
    reply = await receive(p1)
    assert reply["t"] == "error" and error in reply["message"]
    assert await gm.receive_nothing(timeout=0.2)
    assert await head(party) == before
    await gm.disconnect()
    await p1.disconnect()


@pytest.mark.parametrize(
    "text",
    [
        json.dumps({"type": "command", "id": "m-1", "command": "gm_roll"}),
        json.dumps({"type": "add", "id": "m-1", "characters": ["x"]}),
        json.dumps({"type": "undo", "id": "m-1"}),
        json.dumps({"type": "explode", "id": "m-1"}),
        json.dumps({"type": "add", "id": "m-1", "side": "\u0000"}),
        '{"type": "command", "id": "m-1", "command": ' + "[" * 3000 + "]" * 3000 + "}",
        '{"type": "command", "id": "m-1", "command": {"type": "gm_roll"}',  # cut short
    ],
)
async def test_an_error_for_a_malformed_message_carries_its_id_where_one_was_readable(
    text: str,
) -> None:
    """The page routes an error to the form that sent it by the message's id."""
    party = await ready_party()
    gm = await open_socket(party, party.gm)
    await receive(gm)
    await gm.send_to(text_data=text)
    reply = await receive(gm)
    assert reply["t"] == "error" and reply["id"] == "m-1", reply
    await gm.disconnect()


@pytest.mark.parametrize(
    "path", ["/ws/encounters/-1/", "/ws/encounters/abc/", "/ws/encounters/", "/ws/", "/x/"]
)
async def test_a_socket_path_that_names_no_table_is_refused_not_a_server_error(
    path: str,
) -> None:
    party = await ready_party()
    ws = WebsocketCommunicator(app, path)
    ws.scope["user"] = party.gm
    assert (await ws.connect()) == (False, 4403)


async def test_it_refuses_a_player_commanding_what_is_not_theirs() -> None:
    party = await ready_party()
    p2 = await open_socket(party, party.p2)
    await receive(p2)
    before = await head(party)
    for command in (
        {"type": "end_turn", "actor": f"c{party.hero1.pk}"},
        {"type": "gm_roll", "dice": 3},
        {"type": "set_hidden", "target": f"c{party.hero1.pk}", "hidden": True},
    ):
        await p2.send_to(text_data=json.dumps({"type": "command", "id": "x1", "command": command}))
        assert (await receive(p2))["t"] == "error"
    await p2.send_to(text_data=json.dumps({"type": "undo", "id": "u1", "to": 0}))
    assert (await receive(p2))["t"] == "error"
    assert await head(party) == before
    await p2.disconnect()


async def test_it_closes_a_flooding_socket_and_the_table_stays_as_it_was() -> None:
    party = await ready_party()
    p1 = await open_socket(party, party.p1)
    await receive(p1)
    before = await head(party)
    for _n in range(120):
        await p1.send_to(text_data=json.dumps({"type": "sync"}))
    closed = None
    for _n in range(200):
        message = await p1.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            closed = message
            break
    # A close code daphne's websocket library sends (4000–4999): 1008 died as 1011.
    assert closed is not None and closed["code"] == consumers.CLOSE_FLOOD == 4008
    assert await head(party) == before


class StillClock:
    """The sockets' rate-limit clock, standing still until the test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def flood(ws: WebsocketCommunicator, messages: int) -> list[dict[str, Any]]:
    """Send `messages` up-to-date heartbeats (answered by nothing unless refused); what came
    back: the refusals and, if it came, the close."""
    for _n in range(messages):
        await ws.send_to(text_data=json.dumps({"type": "sync", "seq": 2**31 - 1}))
    got: list[dict[str, Any]] = []
    while not await ws.receive_nothing(timeout=0.3):
        output = await ws.receive_output(timeout=5)
        got.append(output)
        if output["type"] == "websocket.close":
            break
    return got


async def test_flooding_strikes_are_forgiven_with_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket open all evening is not closed for refusals far apart: one strike of the 40
    is forgiven every 30 s; 40 at once still close it."""
    clock = StillClock()
    monkeypatch.setattr(consumers, "seconds", clock)
    party = await ready_party()
    p1 = await open_socket(party, party.p1)
    await receive(p1)
    before = await head(party)
    refused = consumers.STRIKES - 1
    got = await flood(p1, consumers.BURST + refused)
    assert [g["type"] for g in got] == ["websocket.send"] * refused
    clock.now += consumers.STRIKE_DECAY_S * refused  # the evening goes on
    got = await flood(p1, consumers.BURST + refused)
    assert [g["type"] for g in got] == ["websocket.send"] * refused
    got = await flood(p1, consumers.BURST + 2)
    assert got[-1] == {"type": "websocket.close", "code": 4008, "reason": "flood"}
    assert await head(party) == before


async def test_many_simultaneous_commands_from_several_sockets_keep_the_log_consistent() -> None:
    party = await ready_party()
    sockets = [await open_socket(party, party.gm) for _n in range(4)]
    for ws in sockets:
        await receive(ws)
    before = await head(party)
    ids = [f"burst-{n}" for n in range(12)]
    sends = [
        ws.send_to(
            text_data=json.dumps(
                {"type": "command", "id": command_id, "command": {"type": "gm_roll", "dice": 1}}
            )
        )
        for command_id in ids
        for ws in sockets  # each id from every socket: 4 copies, counted once
    ]
    await asyncio.gather(*sends)
    await receive_until_seq(sockets[0], before + len(ids))
    encounter = await Encounter.objects.aget(pk=party.encounter.pk)
    assert encounter.seq == before + len(ids)
    seqs = [s async for s in encounter.entries.order_by("seq").values_list("seq", flat=True)]
    assert seqs == list(range(1, encounter.seq + 1))
    for ws in sockets:
        await ws.disconnect()


async def test_a_player_answers_the_prompt_and_every_socket_sees_the_result() -> None:
    party = await ready_party()
    pk = party.encounter.pk
    gm = await open_socket(party, party.gm)
    p2 = await open_socket(party, party.p2)
    await receive(gm)
    await receive(p2)

    async def command(ws: WebsocketCommunicator, cid: str, body: dict[str, Any]) -> None:
        await ws.send_to(text_data=json.dumps({"type": "command", "id": cid, "command": body}))

    await command(gm, "e1", {"type": "end_turn", "actor": f"c{party.hero1.pk}"})
    await command(gm, "e2", {"type": "end_turn", "actor": f"c{party.hero2.pk}"})
    attack = {
        "type": "declare_attack",
        "actor": f"c{party.bandit.pk}",
        "target": f"c{party.hero2.pk}",
        "weapon": "Szabla",
    }
    await command(gm, "a1", attack)
    prompt_view = await receive_until(p2, lambda m: "data-my-prompt" in m.get("html", ""))
    assert "data-my-prompt" in prompt_view["html"]
    assert "Parowanie" in prompt_view["html"]
    prompt_id = await database_sync_to_async(_prompt_id)(pk)
    answer = {
        "type": "choose_reaction",
        "actor": f"c{party.hero2.pk}",
        "prompt": prompt_id,
        "reactions": ["parowanie"],
    }
    await command(p2, "r1", answer)
    seq = await head(party)
    for ws in (gm, p2):
        view = await receive_until_seq(ws, seq)
        assert "data-my-prompt" not in view["html"]
        assert "Parowanie" in view["html"]  # the log tells the choice
    await gm.disconnect()
    await p2.disconnect()


def _prompt_id(pk: int) -> str:
    from combat import services

    return str(services.load_table(pk).state.prompts[0].id)


async def test_an_npc_policy_change_is_pushed_though_the_log_did_not_move() -> None:
    party = await ready_party()
    gm, other_gm_tab = await open_socket(party, party.gm), await open_socket(party, party.gm)
    await receive(gm)
    await receive(other_gm_tab)
    bandit = f"c{party.bandit.pk}"
    policy = {"type": "policy", "combatant": bandit, "policy": "unik"}
    await gm.send_to(text_data=json.dumps(policy))
    view = await receive_until(other_gm_tab, lambda m: m.get("t") == "swap")
    assert '<option value="unik" selected>' in view["html"]
    await gm.disconnect()
    await other_gm_tab.disconnect()


async def test_an_npc_setting_crossed_by_another_push_still_reaches_the_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The forced push of an NPC's settings, worked out against records that another push to
    the socket replaced before it was delivered, is worked out again and still sent (it was
    dropped: the second try was not forced, and the socket was already at the seq)."""
    party = await ready_party()
    gm = await open_socket(party, party.gm)
    await receive(gm)
    (socket,) = consumers.live.of(party.encounter.pk)
    real = live.render

    def crossed(*args: Any, **kwargs: Any) -> list[live.Rendered]:
        rendered = real(*args, **kwargs)
        if kwargs.get("force"):  # another push reaches the socket before this one does
            socket.sent = dict(socket.sent)
        return rendered

    monkeypatch.setattr(live, "render", crossed)
    bandit, seq = f"c{party.bandit.pk}", await head(party)
    await gm.send_to(
        text_data=json.dumps({"type": "policy", "combatant": bandit, "policy": "unik"})
    )
    view = await receive_until(gm, lambda m: m.get("t") == "swap")
    assert '<option value="unik" selected>' in view["html"]
    assert view["seq"] == seq == await head(party)  # the log did not move
    await gm.disconnect()


async def test_a_player_removed_from_the_campaign_is_cut_off_at_the_next_message() -> None:
    party = await ready_party()
    p2 = await open_socket(party, party.p2)
    await receive(p2)
    await party.campaign.memberships.filter(user=party.p2).adelete()
    command = {"type": "gm_roll", "dice": 1, "label": "x"}
    await p2.send_to(text_data=json.dumps({"type": "command", "id": "c1", "command": command}))
    closed = await p2.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4403}


async def test_a_player_removed_by_the_gm_is_cut_off_at_once_and_others_stay() -> None:
    party = await ready_party()
    p1, p2 = await open_socket(party, party.p1), await open_socket(party, party.p2)
    await receive(p1)
    await receive(p2)
    membership = await party.campaign.memberships.aget(user=party.p2)
    await database_sync_to_async(characters_services.remove_member)(membership=membership)
    closed = await p2.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4403}
    assert await p1.receive_nothing(timeout=0.3)  # p1's socket is untouched
    await p1.disconnect()


async def test_a_heartbeat_costs_no_query_and_answers_a_page_behind_with_everything() -> None:
    party = await ready_party()
    ws = await open_socket(party, party.p1)
    first = await receive(ws)
    await ws.send_to(text_data=json.dumps({"type": "sync", "seq": first["seq"]}))
    assert await ws.receive_nothing(timeout=0.3)  # up to date: nothing to send
    await ws.send_to(text_data=json.dumps({"type": "sync", "seq": first["seq"] - 1}))
    again = await receive(ws)
    assert again["seq"] == first["seq"] and 'id="table-order"' in again["html"]
    await ws.disconnect()


async def test_the_socket_renders_in_the_language_the_page_asked_for() -> None:
    party = await ready_party()
    ws = WebsocketCommunicator(app, f"/ws/encounters/{party.encounter.pk}/?lang=en")
    ws.scope["user"] = party.p1
    assert (await ws.connect())[0]
    html = (await receive(ws))["html"]
    assert "Combat log" in html and "Dziennik walki" not in html
    await ws.disconnect()


def regions_in(html: str) -> set[str]:
    """The regions a push touches: whole, or by their items (`combat.pushes`)."""
    whole = set(re.findall(r'<(?:section|div) id="(table-[a-z-]+)"', html))
    lists = {"table-order-list": "table-order", "table-log-lines": "table-log"}
    whole |= {lists[name] for name in re.findall(r'hx-swap-oob="afterbegin:#([a-z-]+)"', html)}
    items = {"row": "table-order", "log": "table-log"}
    return whole | {items[kind] for kind in re.findall(r'<li [^>]*?\bid="(row|log)-', html)}


ALL_PLAYER_REGIONS = {
    "table-status", "table-prompts", "table-me", "table-turn", "table-map", "table-map-terrain",
    "table-map-tokens", "table-order", "table-log",
}  # fmt: skip


async def test_a_socket_gets_only_the_regions_that_changed_and_always_the_seq() -> None:
    party = await ready_party()
    gm, p1 = await open_socket(party, party.gm), await open_socket(party, party.p1)
    await receive(gm)
    assert regions_in((await receive(p1))["html"]) == ALL_PLAYER_REGIONS
    secret = {"type": "gm_roll", "dice": 2, "label": "Tylko dla MG", "secret": True}
    await gm.send_to(text_data=json.dumps({"type": "command", "id": "s1", "command": secret}))
    unchanged = await receive_until_seq(p1, await head(party))
    assert unchanged["html"] == ""  # nothing the player sees moved: the seq alone
    public = {"type": "gm_roll", "dice": 2, "label": "Dla wszystkich", "secret": False}
    await gm.send_to(text_data=json.dumps({"type": "command", "id": "s2", "command": public}))
    logged = await receive_until_seq(p1, await head(party))
    assert regions_in(logged["html"]) == {"table-log"} and "Dla wszystkich" in logged["html"]
    end_turn = {"type": "end_turn", "actor": f"c{party.hero1.pk}"}
    await p1.send_to(text_data=json.dumps({"type": "command", "id": "e1", "command": end_turn}))
    swaps = []  # its own push carries the ack, or the fan-out came first and the ack after it
    while not swaps or swaps[-1].get("ack") != "e1":
        message = await receive(p1)
        if message["t"] == "swap" or message.get("ack") == "e1":
            swaps.append(message)
    moved = next(m for m in swaps if m["t"] == "swap" and m["seq"] == swaps[-1]["seq"])
    assert {"table-status", "table-turn", "table-order", "table-log"} <= regions_in(moved["html"])
    await gm.disconnect()
    await p1.disconnect()


async def test_a_heartbeat_that_fell_behind_and_a_new_socket_get_every_region() -> None:
    party = await ready_party()
    p1 = await open_socket(party, party.p1)
    first = await receive(p1)
    await p1.send_to(text_data=json.dumps({"type": "sync", "seq": first["seq"] - 1}))
    forced = await receive(p1)
    assert forced["seq"] == first["seq"] and regions_in(forced["html"]) == ALL_PLAYER_REGIONS
    await p1.disconnect()
    again = await open_socket(party, party.p1)
    assert regions_in((await receive(again))["html"]) == ALL_PLAYER_REGIONS
    await again.disconnect()


async def test_one_render_for_every_socket_of_the_process_keeps_each_viewers_secrets() -> None:
    party = await ready_party()
    gm = await open_socket(party, party.gm)
    p1, p2 = await open_socket(party, party.p1), await open_socket(party, party.p2)
    for ws in (gm, p1, p2):
        await receive(ws)

    async def command(cid: str, body: dict[str, Any]) -> None:
        await gm.send_to(text_data=json.dumps({"type": "command", "id": cid, "command": body}))

    await command("e1", {"type": "end_turn", "actor": f"c{party.hero1.pk}"})
    await command("e2", {"type": "end_turn", "actor": f"c{party.hero2.pk}"})
    attack = {
        "type": "declare_attack",
        "actor": f"c{party.bandit.pk}",
        "target": f"c{party.hero2.pk}",
        "weapon": "Szabla",
    }
    await command("a1", attack)
    # The GM's answer and the fan-out race (either may carry the new regions): wait for both.
    seen: list[dict[str, Any]] = []

    def both(m: dict[str, Any]) -> bool:
        seen.append(m)
        return any(x.get("ack") == "a1" for x in seen) and any(
            "Czekamy na" in x.get("html", "") for x in seen
        )

    await receive_until(gm, both)
    answered = next(x for x in seen if "Czekamy na" in x.get("html", ""))
    prompted = await receive_until_seq(p2, answered["seq"])
    bystander = await receive_until_seq(p1, answered["seq"])
    assert "data-my-prompt" in prompted["html"]
    assert "data-my-prompt" not in bystander["html"] and "Parowanie" not in bystander["html"]
    for ws in (gm, p1, p2):
        await ws.disconnect()


async def test_a_second_tab_of_a_viewer_connecting_at_once_is_not_rendered_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A reconnect storm: both tabs of the GM come back together; the page is rendered once
    (while it renders, the second tab opens) and both are sent it."""
    import threading
    import time

    party = await ready_party()
    pk = party.encounter.pk
    renders: list[int] = []
    both_open = threading.Event()
    real = live.render

    def waiting(*args: Any, **kwargs: Any) -> list[live.Rendered]:
        renders.append(len(args[2]))
        deadline = time.monotonic() + 5
        while len(consumers.live.of(pk)) < 2 and time.monotonic() < deadline:
            both_open.wait(0.01)  # the other tab's handshake, on the event loop
        return real(*args, **kwargs)

    monkeypatch.setattr(live, "render", waiting)
    views, pages = (
        counting(monkeypatch, fragments.View, "__init__"),
        counting(monkeypatch, pushes, "changes"),
    )
    first, second = await asyncio.gather(open_socket(party, party.gm), open_socket(party, party.gm))
    one, two = await receive(first), await receive(second)
    # One call of the pool (the tabs' handshakes crossed: one, else the second tab took the
    # page the first call made), one view of the table and one page worked out.
    assert len(renders) == 1 and len(views) == len(pages) == 1
    assert one["seq"] == two["seq"] == await head(party) and one["html"] == two["html"]
    assert 'id="table-gm"' in one["html"]
    for ws in (first, second):
        await ws.disconnect()


def counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[Any]:
    """The calls of `owner.name` from here on (their first arguments)."""
    calls: list[Any] = []
    real = getattr(owner, name)

    def count(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[:1])
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, count)
    return calls


async def test_it_refuses_a_member_removed_or_deactivated_before_reconnecting() -> None:
    party = await ready_party()
    await party.campaign.memberships.filter(user=party.p2).adelete()
    party.p1.is_active = False
    await party.p1.asave(update_fields=["is_active"])
    for user in (party.p2, party.p1):
        ws = WebsocketCommunicator(app, f"/ws/encounters/{party.encounter.pk}/")
        ws.scope["user"] = user
        assert (await ws.connect()) == (False, 4403)
    assert not consumers.live.of(party.encounter.pk)  # nothing opened, nothing to render
