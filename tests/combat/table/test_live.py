"""The process's live tables under load (combat/live.py): a push that the pool reaches late
renders the newest entry the process has heard of, and a socket closed meanwhile costs no
work."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from channels.db import database_sync_to_async

from combat import fragments, live, services
from combat.access import Viewer
from tests.combat.table.helpers import Party, make_party, start

pytestmark = [pytest.mark.django_db(transaction=True)]


@dataclass(eq=False)
class Socket:
    """What `combat.live.Live` needs of a socket; it keeps every push it is sent."""

    encounter_id: int
    viewer: Viewer
    language: str = "pl"
    seq: int = -1
    sent: Any = None
    shown: dict[str, Any] = field(default_factory=dict)
    channel_name: str = "test!"
    home: Any = None
    pushed: list[int] = field(default_factory=list)

    async def deliver(self, rendered: live.Rendered, *, force: bool, ack: str | None) -> None:
        if rendered.seq > self.seq or force:
            self.seq, self.sent, self.shown = rendered.seq, rendered.tree, rendered.shown
            self.pushed.append(rendered.seq)

    async def close(self, code: int | None = None) -> None:
        pass


async def ready() -> tuple[Party, int]:
    def build() -> tuple[Party, int]:
        party = make_party()
        start(party)
        return party, services.load_table(party.encounter.pk).seq

    return await database_sync_to_async(build)()


async def roll(party: Party) -> int:
    gm_roll = {"type": "gm_roll", "dice": 1, "label": "Próba", "secret": False}

    def run() -> int:
        services.run_command(party.encounter.pk, gm_roll, viewer=party.gm_viewer)
        return services.load_table(party.encounter.pk).seq

    return await database_sync_to_async(run)()


async def test_a_late_push_renders_the_newest_entry_heard_of_and_skips_those_between(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    party, seq = await ready()
    table = live.Live()
    monkeypatch.setattr(table.hub, "join", _nothing)  # no channel layer: one process alone
    monkeypatch.setattr(table.hub, "leave", _nothing)
    gm = Socket(party.encounter.pk, party.gm_viewer)
    await table.open(gm)
    await table.push_all(party.encounter.pk, seq)
    assert gm.pushed == [seq]
    rendered: list[int] = []
    real = live.render

    def counting(pk: int, hint: int | None, sockets: list[Any], **kw: Any) -> Any:
        rendered.append(hint or -1)
        return real(pk, hint, sockets, **kw)

    monkeypatch.setattr(live, "render", counting)
    first, second = await roll(party), await roll(party)
    table.newest[party.encounter.pk] = second  # heard of both before the pool got to the first
    await table.push_all(party.encounter.pk, first)
    assert rendered == [second] and gm.pushed == [seq, second]  # `first` never rendered
    await table.push_all(party.encounter.pk, second)
    assert rendered == [second]  # already there: nothing to do
    await table.close(gm)


async def test_a_socket_closed_before_the_pool_gets_to_it_costs_no_render(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    party, seq = await ready()
    table = live.Live()
    monkeypatch.setattr(table.hub, "join", _nothing)
    monkeypatch.setattr(table.hub, "leave", _nothing)
    gm, p1 = (
        Socket(party.encounter.pk, party.gm_viewer),
        Socket(party.encounter.pk, party.viewer(party.p1)),
    )
    for socket in (gm, p1):
        await table.open(socket)
    await table.push_all(party.encounter.pk, seq)
    views: list[Viewer] = []
    real = fragments.View.__init__

    def counting(self: Any, t: Any, viewer: Viewer, **kw: Any) -> None:
        views.append(viewer)
        real(self, t, viewer, **kw)

    monkeypatch.setattr(fragments.View, "__init__", counting)
    moved = await roll(party)
    await table.close(p1)  # the tab went away while the entry waited for the pool
    await table.send_all(party.encounter.pk, moved, [gm, p1], force=False)
    assert views == [party.gm_viewer] and p1.pushed == [seq] and gm.pushed == [seq, moved]


async def _nothing(*_args: Any) -> None:
    return None


async def test_an_npc_setting_keeps_the_rosters_read_and_only_a_roster_change_drops_them() -> None:
    """A forced push for an NPC's settings (the GM marks it to play itself) re-renders the
    table; it does not make every table of the process read its campaign's roster again."""
    from combat import consumers, roster

    roster._read[(987654, "eleora")] = ([], [])
    socket = consumers.TableConsumer()
    socket.encounter_id = 987654  # a table with no socket in this process: nothing to render
    await socket.table_changed({"type": "table.changed", "seq": 3, "force": True})
    assert (987654, "eleora") in roster._read
    await socket.table_changed({"type": "table.changed", "seq": 3, "force": True, "roster": True})
    assert (987654, "eleora") not in roster._read


async def test_the_fan_out_of_a_seq_a_commands_own_hop_renders_renders_nothing_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    party, seq = await ready()
    table = live.Live()
    monkeypatch.setattr(table.hub, "join", _nothing)
    monkeypatch.setattr(table.hub, "leave", _nothing)
    gm = Socket(party.encounter.pk, party.gm_viewer)
    await table.open(gm)
    await table.push_all(party.encounter.pk, seq)
    moved = await roll(party)
    claimed = table.claim(party.encounter.pk, moved)  # the command's hop renders `moved`…
    await table.push_all(party.encounter.pk, moved)  # …when its fan-out comes back
    assert gm.pushed == [seq]  # nothing rendered or sent by the fan-out
    table.release(party.encounter.pk, claimed)  # the hop failed to deliver: the next one does
    await table.push_all(party.encounter.pk, moved)
    assert gm.pushed == [seq, moved]


def counting_views(monkeypatch: pytest.MonkeyPatch) -> list[Viewer]:
    """The viewers whose page is worked out from here on (one `fragments.View` each)."""
    views: list[Viewer] = []
    real = fragments.View.__init__

    def counting(self: Any, t: Any, viewer: Viewer, **kw: Any) -> None:
        views.append(viewer)
        real(self, t, viewer, **kw)

    monkeypatch.setattr(fragments.View, "__init__", counting)
    return views


async def open_table(monkeypatch: pytest.MonkeyPatch) -> live.Live:
    table = live.Live()
    monkeypatch.setattr(table.hub, "join", _nothing)
    monkeypatch.setattr(table.hub, "leave", _nothing)
    return table


async def test_it_renders_one_first_page_per_viewer_for_tabs_opening_together(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    party, seq = await ready()
    table = await open_table(monkeypatch)
    pk = party.encounter.pk
    gm, gm_again, p1 = (
        Socket(pk, party.gm_viewer),
        Socket(pk, party.gm_viewer),
        Socket(pk, party.viewer(party.p1)),
    )
    renders: list[int] = []
    real = live.render

    def counting(pk: int, hint: int | None, sockets: list[Any], **kw: Any) -> Any:
        renders.append(len(sockets))
        return real(pk, hint, sockets, **kw)

    monkeypatch.setattr(live, "render", counting)
    views = counting_views(monkeypatch)
    for socket in (gm, gm_again, p1):
        await table.open(socket)
    greeted = [table.greet(socket) for socket in (gm, gm_again, p1)]
    await greeted[0]
    assert renders == [3] and views == [party.gm_viewer, party.viewer(party.p1)]
    assert gm.pushed == gm_again.pushed == p1.pushed == [seq]
    assert gm.sent == gm_again.sent and gm.shown == gm_again.shown  # the same records
    assert gm.sent != p1.sent  # the player's page is their own
    assert pk not in table.greetings  # nothing kept once every tab has its page


async def test_a_tab_opening_while_its_viewers_first_page_renders_takes_that_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A reconnect storm: the viewer's second tab opens while the pool renders the first's
    page; it is sent the same page, not rendered again. A player opening then is rendered."""
    import asyncio

    party, seq = await ready()
    table = await open_table(monkeypatch)
    pk, loop = party.encounter.pk, asyncio.get_running_loop()
    first, second, p1 = (
        Socket(pk, party.gm_viewer),
        Socket(pk, party.gm_viewer),
        Socket(pk, party.viewer(party.p1)),
    )
    for socket in (first, second, p1):
        await table.open(socket)
    real = live.render
    renders: list[list[Any]] = []

    def arriving(pk: int, hint: int | None, sockets: list[Any], **kw: Any) -> Any:
        renders.append(list(sockets))
        if len(renders) == 1:  # the other tabs open while the first page renders
            loop.call_soon_threadsafe(table.greet, second)
            loop.call_soon_threadsafe(table.greet, p1)
        return real(pk, hint, sockets, **kw)

    monkeypatch.setattr(live, "render", arriving)
    views = counting_views(monkeypatch)
    await table.greet(first)
    assert renders == [[first], [p1]] and views == [party.gm_viewer, party.viewer(party.p1)]
    assert first.pushed == second.pushed == p1.pushed == [seq] and first.sent is second.sent


async def test_a_first_page_older_than_the_newest_seq_heard_of_or_a_forced_push_is_not_reused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import asyncio

    party, seq = await ready()
    table = await open_table(monkeypatch)
    pk, loop = party.encounter.pk, asyncio.get_running_loop()
    tabs = [Socket(pk, party.gm_viewer) for _ in range(3)]
    for socket in tabs:
        await table.open(socket)
    moved = await roll(party)
    real = live.render
    renders: list[int | None] = []

    def arriving(pk: int, hint: int | None, sockets: list[Any], **kw: Any) -> Any:
        renders.append(hint)
        if len(renders) == 1:  # the table moves on while the first page renders at `seq`…
            loop.call_soon_threadsafe(table.newest.__setitem__, pk, moved)
            loop.call_soon_threadsafe(table.greet, tabs[1])
            return real(pk, seq, sockets, **kw)
        if len(renders) == 2:  # …and an NPC's settings change while the second renders
            forced = table.send_all(pk, None, [], force=True)
            loop.call_soon_threadsafe(asyncio.ensure_future, forced)
            loop.call_soon_threadsafe(table.greet, tabs[2])
        return real(pk, hint, sockets, **kw)

    monkeypatch.setattr(live, "render", arriving)
    await table.greet(tabs[0])
    assert len(renders) == 3  # neither the older page nor the one before the push reused
    assert [t.pushed for t in tabs] == [[seq], [moved], [moved]]


async def test_a_tab_closed_before_its_first_page_renders_costs_no_render(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    party, _seq = await ready()
    table = await open_table(monkeypatch)
    p1 = Socket(party.encounter.pk, party.viewer(party.p1))
    await table.open(p1)
    views = counting_views(monkeypatch)
    done = table.greet(p1)
    await table.close(p1)  # the client went away during its handshake
    await done
    assert views == [] and p1.pushed == []
