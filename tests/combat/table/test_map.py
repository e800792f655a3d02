"""The battle map at the live table, ruleset-blind: the `table-map` region, the socket's
"route" and "place" messages, the GM's map edits and the map picture upload, played with the
tests' duel ruleset (a square map, a walk of 6 fields or a run of 12)."""

from __future__ import annotations

import io
import json
import random
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation
from PIL import Image

from combat import fragments, live, protocol, services
from combat.access import Viewer
from combat.rules.battlemap import Paint, Resize
from scripts.bench.page import Page, normal
from tests.characters.helpers import client_for, make_campaign
from tests.combat.table.duel_table import DuelTable, make_duel_table, seat_ids
from tests.combat.table.test_pushes import Socket as _Socket
from tests.duel import RULESET
from tests.duel.test_duel_table import Seat, head, open_seat, settle, state_of

pytestmark = [pytest.mark.django_db(transaction=True)]

TERRAIN_RE = re.compile(r'<svg id="map-terrain".*?</svg>', re.S)
TOKENS_RE = re.compile(r'<svg id="map-tokens".*?</svg>', re.S)


def gm_of(table: DuelTable) -> Viewer:
    return Viewer(user_id=table.gm.pk, is_gm=True)


def player_of(table: DuelTable) -> Viewer:
    return Viewer(user_id=table.player.pk, is_gm=False)


def mapped_table(*, hidden_npc: bool = False) -> tuple[DuelTable, str, str]:
    """A duel with a 12×8 map, a wall at C1–C3, the hero on A1 and the NPC on F1."""
    table = make_duel_table()
    gm = gm_of(table)
    services.add_combatants(table.encounter.pk, viewer=gm, characters=[table.hero.pk, table.npc.pk])
    hero, npc = seat_ids(services.load_table(table.encounter.pk).state)
    services.edit_map(table.encounter.pk, viewer=gm, edit=Resize(12, 8))
    services.edit_map(table.encounter.pk, viewer=gm, edit=Paint("wall", ((2, 0), (2, 1), (2, 2))))
    services.place_token(table.encounter.pk, viewer=gm, seat=hero, to=(0, 0))
    services.place_token(table.encounter.pk, viewer=gm, seat=npc, to=(5, 0))
    if hidden_npc:
        command = RULESET.command_to_dict(RULESET.visibility_command(npc, hidden=True))
        services.run_command(table.encounter.pk, command, viewer=gm)
    return table, hero, npc


MAP_REGIONS = ("table-map", "table-map-terrain", "table-map-tokens")


def region(table: DuelTable, viewer: Viewer) -> str:
    """The map's three regions as a push sends them (controls, terrain, tokens)."""
    loaded = services.load_table(table.encounter.pk)
    return "".join(fragments.render_one(loaded, viewer, name) for name in MAP_REGIONS)


def start_with(table: DuelTable, first: str) -> None:
    """Start the fight with `first` acting first (injected dice tried until it is)."""
    pk = table.encounter.pk
    for attempt in range(50):
        rng = random.Random(attempt)
        services.run_command(pk, {"type": "start_round"}, viewer=gm_of(table), rng=rng)
        if services.load_table(pk).state.current == first:
            return
        services.undo(pk, viewer=gm_of(table), to_seq=services.load_table(pk).seq - 1)
    raise AssertionError("initiative never came out right")


# --- the region -------------------------------------------------------------------------------


def test_it_offers_the_gm_a_new_map_and_tells_players_there_is_none() -> None:
    table = make_duel_table()
    gm_page = client_for(table.gm).get(table.encounter.get_absolute_url()).content.decode()
    player_page = client_for(table.player).get(table.encounter.get_absolute_url()).content.decode()
    assert 'id="table-map"' in gm_page and "Utwórz mapę" in gm_page
    assert 'value="12"' in gm_page and 'value="8"' in gm_page  # the ruleset's map_spec()
    assert "Brak mapy" in player_page and "Utwórz mapę" not in player_page
    assert "js/map.js" in player_page


def test_it_shows_nothing_without_the_capability(monkeypatch: pytest.MonkeyPatch) -> None:
    table, _hero, _npc = mapped_table()
    monkeypatch.setattr(fragments, "battle_maps_of", lambda rules: None)
    html = region(table, gm_of(table))
    assert 'id="table-map"' in html and "<svg" not in html
    page = client_for(table.gm).get(table.encounter.get_absolute_url()).content.decode()
    assert re.search(r'<section id="map-card"[^>]* hidden', page)


def test_it_draws_the_map_and_the_tokens_for_gm_and_player() -> None:
    table, hero, npc = mapped_table()
    for viewer in (gm_of(table), player_of(table)):
        html = region(table, viewer)
        assert '<svg id="map-terrain"' in html and '<svg id="map-tokens"' in html
        assert '<svg id="map-route"' not in html  # the route stays put across pushes
        assert html.count("<use ") == 3 and "C1: Ściana" in html  # only the painted fields
        assert f'data-seat="{hero}"' in html and f'data-seat="{npc}"' in html
        assert f'data-controller="{table.player.pk}"' in html
    assert 'data-tool="wall"' in region(table, gm_of(table))
    assert 'data-tool="wall"' not in region(table, player_of(table))


def test_a_hidden_seat_has_no_token_for_players_and_a_dashed_one_for_the_gm() -> None:
    table, _hero, npc = mapped_table(hidden_npc=True)
    assert f'data-seat="{npc}"' not in region(table, player_of(table))
    gm_html = region(table, gm_of(table))
    assert f'data-seat="{npc}"' in gm_html and "is-hidden" in gm_html


def test_the_terrain_drawing_is_unchanged_when_a_token_moves() -> None:
    table, hero, _npc = mapped_table()
    before = region(table, player_of(table))
    services.place_token(table.encounter.pk, viewer=gm_of(table), seat=hero, to=(0, 5))
    fragments.clear_caches()  # drawn anew, not remembered: the bytes still agree
    after = region(table, player_of(table))
    assert TERRAIN_RE.search(before)[0] == TERRAIN_RE.search(after)[0]  # type: ignore[index]
    assert TOKENS_RE.search(before)[0] != TOKENS_RE.search(after)[0]  # type: ignore[index]
    services.edit_map(table.encounter.pk, viewer=gm_of(table), edit=Paint("difficult", ((4, 4),)))
    painted = region(table, player_of(table))
    assert TERRAIN_RE.search(painted)[0] != TERRAIN_RE.search(after)[0]  # type: ignore[index]


def test_a_big_map_stays_small() -> None:
    """60×60 with a painted border, a room and 20 tokens: the pushed region's bytes."""
    table = make_duel_table()
    gm = gm_of(table)
    pk = table.encounter.pk
    services.edit_map(pk, viewer=gm, edit=Resize(60, 60))
    border = tuple(
        {(c, r) for c in range(60) for r in (0, 59)} | {(c, r) for r in range(60) for c in (0, 59)}
    )
    services.edit_map(pk, viewer=gm, edit=Paint("wall", tuple(sorted(border))[:600]))
    services.edit_map(
        pk,
        viewer=gm,
        edit=Paint("dark2", tuple((c, r) for c in range(10, 30) for r in range(10, 30))),
    )
    creatures = {services_wolf(): 20}
    services.add_combatants(pk, viewer=gm, creatures=creatures)
    for i, cid in enumerate(services.load_table(pk).view.seats):
        services.place_token(pk, viewer=gm, seat=cid, to=(2 + i * 2, 5))
    html = region(table, player_of(table))
    terrain, tokens = TERRAIN_RE.search(html)[0], TOKENS_RE.search(html)[0]  # type: ignore[index]
    print(f"\n60×60 map: region {len(html.encode())} B, terrain {len(terrain.encode())} B, "
          f"tokens {len(tokens.encode())} B")  # fmt: skip
    assert tokens.count("map-token ") == 20
    assert len(html.encode()) < 200_000


def services_wolf() -> int:
    from characters.models import CreatureTemplate

    return CreatureTemplate.objects.filter(ruleset="duel").values_list("pk", flat=True).first() or (
        _duel_creature()
    )


def _duel_creature() -> int:
    from characters.models import CreatureTemplate

    sheet = {"attributes": {"atak": 3, "obrona": 2, "zycie": 8}, "skills": {}, "bron": []}
    return CreatureTemplate.objects.create(name="Szczur", ruleset="duel", sheet=sheet).pk


# --- the socket -------------------------------------------------------------------------------


async def mapped_seats(*, hidden_npc: bool = False) -> tuple[DuelTable, str, str, Seat, Seat]:
    table, hero, npc = await database_sync_to_async(mapped_table)(hidden_npc=hidden_npc)
    gm, player = await open_seat(table, table.gm), await open_seat(table, table.player)
    return table, hero, npc, gm, player


async def ask(seat: Seat, **message: Any) -> dict[str, Any]:
    """Send a message without an id; its one answer (a swap without a seq, or an error)."""
    await seat.ws.send_to(text_data=json.dumps(message))
    return json.loads(await seat.ws.receive_from(timeout=5))


async def test_a_route_is_answered_to_the_asking_socket_alone() -> None:
    table, hero, _npc, gm, player = await mapped_seats()
    answer = await ask(player, type="route", actor=hero, to=[3, 3])
    assert answer["t"] == "swap" and "seq" not in answer
    html = answer["html"]
    assert '<svg id="map-route"' in html and "<polyline" in html and 'id="map-route-panel"' in html
    assert "D4" in html  # the panel names where to
    assert 'data-ws="command"' in html and 'name="c.type" value="move"' in html
    assert 'data-route-mode="run"' in html  # the other mode re-asks the route
    assert await gm.ws.receive_nothing(timeout=0.3)
    assert await player.ws.receive_nothing(timeout=0.1)
    await gm.ws.disconnect()
    await player.ws.disconnect()


async def test_a_confirmed_route_moves_the_token_and_the_terrain_is_not_sent_again() -> None:
    table, hero, _npc, gm, player = await mapped_seats()
    await database_sync_to_async(start_with)(table, hero)
    await settle(table, gm, player)
    answer = await ask(player, type="route", actor=hero, to=[0, 4])
    assert "disabled" not in answer["html"].split('class="map-confirm"')[1].split("</form>")[0]
    command = await database_sync_to_async(_route_command)(table, hero, (0, 4))
    pushed_before = len(player.pushed)
    await player.command(**command)
    await settle(table, gm, player)
    assert (await state_of(table)).combatants[hero].position == (0, 4)
    frames = "".join(player.pushed[pushed_before:])
    assert 'data-field="0,4"' in frames
    assert '<svg id="map-terrain"' not in frames  # a move pushes the tokens, not the terrain
    # … and of the tokens only those that changed, each read as SVG: not the layer whole.
    token = f'<svg xmlns="http://www.w3.org/2000/svg"><g id="tok-{hero}" hx-swap-oob="true"'
    assert token in frames
    assert 'id="table-map-tokens"' not in frames
    terrains = {found[0] for html in player.pushed if (found := TERRAIN_RE.search(html))}
    assert len(terrains) == 1  # the first push's terrain, once
    await gm.ws.disconnect()
    await player.ws.disconnect()


def _route_command(table: DuelTable, actor: str, to: tuple[int, int]) -> dict[str, Any]:
    state = services.load_table(table.encounter.pk).state
    return dict(RULESET.route(state, actor, to, "", 0.0).command)


async def test_a_player_may_not_ask_the_route_of_a_seat_not_theirs() -> None:
    table, _hero, npc, gm, player = await mapped_seats()
    answer = await ask(player, type="route", actor=npc, to=[6, 0])
    assert answer["t"] == "swap" and "To nie twoja postać." in answer["html"]
    assert "<polyline" not in answer["html"] and 'data-ws="command"' not in answer["html"]
    gm_answer = await ask(gm, type="route", actor=npc, to=[6, 1])
    assert "<polyline" in gm_answer["html"]
    await gm.ws.disconnect()
    await player.ws.disconnect()


async def test_a_hidden_seat_never_reaches_a_player_socket() -> None:
    table, hero, npc, gm, player = await mapped_seats(hidden_npc=True)
    answer = await ask(player, type="route", actor=npc, to=[6, 0])
    assert "Nie ma takiej postaci" in answer["html"]
    await gm.send("place", seat=npc, to=[7, 7])
    await gm.send("place", seat=hero, to=[1, 1])
    await settle(table, gm, player)
    assert (await state_of(table)).combatants[npc].position == (7, 7)
    assert player.pushed and all(npc not in html for html in player.pushed)
    assert f'data-seat="{npc}"' in gm.region("table-map-tokens")
    await gm.ws.disconnect()
    await player.ws.disconnect()


@pytest.mark.parametrize(
    "message",
    [
        {"type": "route", "actor": "x", "to": [1, "a"]},
        {"type": "route", "actor": "x", "to": [1, 2, 3]},
        {"type": "route", "actor": "x", "to": [60, 0]},
        {"type": "route", "actor": "x", "to": [-1, 0]},
        {"type": "route", "actor": "x", "to": [True, 0]},
        {"type": "route", "actor": "no such!", "to": [1, 1]},
        {"type": "route", "actor": "x", "to": [1, 1], "mode": "Bieg!"},
        {"type": "place", "seat": "x", "to": [1, 1]},  # no id
    ],
)
def test_the_protocol_refuses_bad_map_messages(message: dict[str, Any]) -> None:
    with pytest.raises(protocol.BadMessage):
        protocol.parse(json.dumps(message))


def test_the_protocol_reads_map_messages() -> None:
    route = protocol.parse(
        json.dumps({"type": "route", "actor": "c1", "to": [3, 59], "mode": "run"})
    )
    assert (route.combatant, route.at, route.mode) == ("c1", (3, 59), "run")
    place = protocol.parse(json.dumps({"type": "place", "id": "p1", "seat": "c1", "to": None}))
    assert (place.combatant, place.at) == ("c1", None)


async def test_bad_route_messages_give_an_error_and_change_nothing() -> None:
    table, hero, _npc, gm, player = await mapped_seats()
    seq = await head(table)
    for bad in ([1, "a"], [99, 0]):
        answer = await ask(player, type="route", actor=hero, to=bad)
        assert answer["t"] == "error" and "Błędna wiadomość" in answer["message"]
    off_map = await ask(player, type="route", actor=hero, to=[40, 0])  # within 60, off this map
    assert "poza mapą" in off_map["html"]
    unknown = await ask(player, type="route", actor="c999999", to=[1, 1])
    assert "Nie ma takiej postaci" in unknown["html"]
    assert await head(table) == seq
    await gm.ws.disconnect()
    await player.ws.disconnect()


async def test_a_player_may_not_edit_the_map_nor_place_tokens() -> None:
    table, hero, _npc, gm, player = await mapped_seats()
    seq = await head(table)
    edit = {"type": "edit_map", "actor": "gm", "edit": {"tool": "wall", "fields": [[5, 5]]}}
    answer = await player.send("command", command=edit)
    assert answer["t"] == "error" and "Tylko Mistrz Gry" in answer["message"]
    answer = await player.send("place", seat=hero, to=[4, 4])
    assert answer["t"] == "error" and "Tylko Mistrz Gry" in answer["message"]
    assert await head(table) == seq
    ok = await gm.send("command", command=edit)
    assert ok.get("t") != "error"
    await settle(table, gm, player)
    assert (5, 5) in (await state_of(table)).battlemap.walls
    assert "F6: Ściana" in player.region("table-map-terrain")
    await gm.ws.disconnect()
    await player.ws.disconnect()


# --- the map picture --------------------------------------------------------------------------


def png(size: tuple[int, int] = (64, 48)) -> SimpleUploadedFile:
    buffer = io.BytesIO()
    Image.new("RGB", size, (120, 90, 40)).save(buffer, format="PNG")
    return SimpleUploadedFile("mapa.png", buffer.getvalue(), content_type="image/png")


@pytest.fixture
def media(settings: Any, tmp_path: Any) -> Any:
    settings.MEDIA_ROOT = str(tmp_path)
    return tmp_path


def stored(media: Any) -> list[str]:
    return sorted(str(p.relative_to(media)) for p in media.rglob("*") if p.is_file())


def test_the_gm_uploads_a_map_picture_and_members_see_it(media: Any) -> None:
    table, _hero, _npc = mapped_table()
    url = reverse("encounter_map_image", args=[table.encounter.pk])
    response = client_for(table.gm).post(url, {"image": png()}, headers={"HX-Request": "true"})
    assert response.status_code == 200 and "Obraz mapy zapisany." in response.content.decode()
    (path,) = stored(media)
    assert path.startswith(f"maps/{table.campaign.pk}/") and path.endswith(".png")
    m = services.load_table(table.encounter.pk).state.battlemap
    assert m.image == path
    assert f'<image href="{url}?v={m.version}"' in region(table, player_of(table))
    picture = client_for(table.player).get(url)
    assert picture.status_code == 200 and picture["Content-Type"] == "image/png"


@pytest.mark.parametrize(
    ("upload", "error"),
    [
        (SimpleUploadedFile("mapa.png", b"not a picture"), "To nie jest obraz"),
        (SimpleUploadedFile("mapa.png", b"\x89PNG" + b"0" * (2 * 1024 * 1024)), "najwyżej 2 MB"),
    ],
)  # fmt: skip
def test_a_bad_map_picture_is_refused_and_nothing_is_stored(
    media: Any, upload: SimpleUploadedFile, error: str
) -> None:
    table, _hero, _npc = mapped_table()
    seq = services.load_table(table.encounter.pk).seq
    url = reverse("encounter_map_image", args=[table.encounter.pk])
    response = client_for(table.gm).post(url, {"image": upload}, headers={"HX-Request": "true"})
    assert error in response.content.decode() and "form-error" in response.content.decode()
    assert stored(media) == []
    assert services.load_table(table.encounter.pk).seq == seq


def test_a_refused_picture_command_leaves_no_file(
    media: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, _hero, _npc = mapped_table()

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise services.Refused("nie", "Odmowa.")

    monkeypatch.setattr(services, "edit_map", refuse)
    url = reverse("encounter_map_image", args=[table.encounter.pk])
    response = client_for(table.gm).post(url, {"image": png()}, headers={"HX-Request": "true"})
    assert "Odmowa." in response.content.decode() and stored(media) == []


def test_players_may_not_upload_a_map_picture(media: Any) -> None:
    table, _hero, _npc = mapped_table()
    url = reverse("encounter_map_image", args=[table.encounter.pk])
    assert client_for(table.player).post(url, {"image": png()}).status_code == 403
    assert stored(media) == []


def test_the_map_picture_is_only_this_campaigns(media: Any) -> None:
    """An image path is the GM's text: one outside the campaign's folder is neither set nor
    served."""
    table, _hero, _npc = mapped_table()
    default_storage.save("portraits/other.png", png())
    from combat.rules.battlemap import Look

    with pytest.raises(services.Refused, match="Obraz mapy musi pochodzić z tej kampanii"):
        services.edit_map(
            table.encounter.pk, viewer=gm_of(table), edit=Look("#112233", "portraits/other.png")
        )
    url = reverse("encounter_map_image", args=[table.encounter.pk])
    assert client_for(table.player).get(url).status_code == 404


async def test_the_map_picture_command_takes_only_this_campaigns_pictures(media: Any) -> None:
    """Another campaign's upload or any file of the server (the database) is refused at the
    socket and changes nothing; a picture from this campaign's folder is set."""
    table, _hero, _npc, gm, player = await mapped_seats()
    other = await database_sync_to_async(make_campaign)()
    seq = await head(table)
    for image in (f"maps/{other.pk}/{'a' * 32}.png", "db.sqlite3", "maps/x.png"):
        look = {
            "type": "edit_map",
            "actor": "gm",
            "edit": {"background": "#112233", "image": image},
        }
        answer = await gm.send("command", command=look)
        assert answer["t"] == "error"
        assert "Obraz mapy musi pochodzić z tej kampanii." in answer["message"]
    assert await head(table) == seq and (await state_of(table)).battlemap.image == ""
    own = f"maps/{table.campaign.pk}/{'b' * 32}.png"
    look = {"type": "edit_map", "actor": "gm", "edit": {"background": "#112233", "image": own}}
    assert (await gm.send("command", command=look)).get("t") != "error"
    assert (await state_of(table)).battlemap.image == own
    await gm.ws.disconnect()
    await player.ws.disconnect()


@translation.override("pl")
def test_a_map_kept_by_pushes_of_its_tokens_matches_the_map_rendered_whole() -> None:
    """Tokens placed, moved, taken off, hidden from the players and shown again: after each
    step the pages kept by pushes (the tokens as items) show the map a page load would."""
    table, hero, npc = mapped_table()
    pk, gm, player = table.encounter.pk, gm_of(table), player_of(table)
    sockets = {"gm": _Socket(gm), "player": _Socket(player)}
    pages = {who: Page() for who in sockets}
    hide = RULESET.command_to_dict(RULESET.visibility_command(npc, hidden=True))
    show = RULESET.command_to_dict(RULESET.visibility_command(npc, hidden=False))
    steps = [
        lambda: services.place_token(pk, viewer=gm, seat=hero, to=(1, 4)),
        lambda: services.place_token(pk, viewer=gm, seat=npc, to=(6, 6)),
        lambda: services.place_token(pk, viewer=gm, seat=hero, to=None),
        lambda: services.place_token(pk, viewer=gm, seat=hero, to=(0, 7)),
        lambda: services.run_command(pk, hide, viewer=gm),
        lambda: services.place_token(pk, viewer=gm, seat=npc, to=(7, 1)),
        lambda: services.run_command(pk, show, viewer=gm),
    ]
    items, seen = 0, []
    for step in [None, *steps]:
        if step is not None:
            step()
        loaded = services.load_table(pk)
        for (who, socket), push in zip(
            sockets.items(), live.render(pk, None, list(sockets.values())), strict=True
        ):
            html = socket.take(push)
            items += 'id="tok-' in html and 'id="table-map-tokens"' not in html
            pages[who].apply(html)
            whole = fragments.render_one(loaded, socket.viewer, "table-map-tokens")
            assert normal(pages[who]["table-map-tokens"]) == normal(whole), (step, who)
        seen.append(f'data-seat="{npc}"' in pages["player"]["table-map-tokens"])
    assert seen == [True, True, True, True, True, False, False, True]
    assert items >= len(steps)  # most steps sent tokens alone
