"""By post: a turn's deadline days away, the players' e-mails and the sweep (combat/posts.py,
combat/sweeps.py).

Played on the tests' own ruleset (tests/duel) set to its by-post pace: every fighter acts once
a round before a deadline 24 h away, with a reminder 6 h before it. The mail backend is
Django's locmem one (pytest-django sets it): `sent_mails()` holds what was sent. The tests run
in transactions (the mails go out after commit) and call `sweeps.sweep` themselves, as each
server process's sweeper or `manage.py sweep_tables` would.
"""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection

from characters import account
from characters.models import Campaign, Character, Profile
from combat import clock, fragments, posts, services, sweeps
from combat.access import Refused
from combat.models import Encounter
from combat.rules.base import HealthView, SeatView, TableView
from combat.services import Viewer
from tests.characters.helpers import forget_mails, make_member, make_user, sent_mails
from tests.combat.table.duel_table import duel_sheet, make_duel_campaign

pytestmark = [pytest.mark.django_db(transaction=True)]

HOUR = 3600.0
DAY = 24 * HOUR
T0 = 1_900_000_000.0  # 2030-03-17 17:46:40 UTC


@dataclass
class PostTable:
    gm: User
    anna: User  # plays in English, has an address
    bolek: User  # has no address
    campaign: Campaign
    encounter: Encounter
    seats: dict[str, str]  # character name -> seat id

    @property
    def pk(self) -> int:
        return self.encounter.pk

    def start(self, now: float = T0) -> None:
        services.run_command(
            self.pk, {"type": "start_round"}, viewer=GM_OF(self), command_id="start", now=now
        )

    def act(self, name: str, now: float) -> None:
        """The seat passes its turn (by post: its action this round)."""
        seat = self.seats[name]
        services.run_command(
            self.pk, {"type": "end_turn", "actor": seat}, viewer=GM_OF(self), now=now
        )

    def row(self) -> Encounter:
        return Encounter.objects.get(pk=self.pk)


def GM_OF(table: PostTable) -> Viewer:  # noqa: N802 - reads as a constant at the call
    return Viewer(user_id=table.gm.pk, is_gm=True)


def make_post_table(*, pace: str = "post") -> PostTable:
    gm = make_user("mistrz", email="mg@example.com")
    campaign = make_duel_campaign(gm, "Listy z frontu")
    campaign.settings = {**campaign.settings, "pace": pace}
    campaign.save(update_fields=["settings"])
    anna, bolek = make_member(campaign, "anna"), make_member(campaign, "bolek")
    account.mark_confirmed(anna, "anna@example.com")
    Profile.objects.update_or_create(user=anna, defaults={"language": "en"})
    heroes = [
        Character.objects.create(campaign=campaign, owner=anna, name="Ania", sheet=duel_sheet()),
        Character.objects.create(campaign=campaign, owner=bolek, name="Bolo", sheet=duel_sheet()),
        Character.objects.create(
            campaign=campaign, name="Zbój", kind=Character.Kind.NPC, sheet=duel_sheet()
        ),
    ]
    encounter = services.create_encounter(campaign=campaign, name="Brzeg rzeki", by=gm)
    services.add_combatants(
        encounter.pk, viewer=Viewer(gm.pk, True), characters=[c.pk for c in heroes]
    )
    seats = {c.name: f"c{c.pk}" for c in heroes}
    return PostTable(gm, anna, bolek, campaign, encounter, seats)


def fresh_process() -> None:
    """What a new server process knows: only the database."""
    services.clear_cache()
    fragments.clear_caches()


# --- the turn opens -------------------------------------------------------------------------


def test_a_turn_opening_by_post_mails_the_waiting_players_once_in_their_language() -> None:
    table = make_post_table()
    table.start()
    (message,) = sent_mails()  # not the GM (the NPC waits on them), not Bolek (no address)
    assert message.to == ["anna@example.com"]
    # The round's label is the test ruleset's own msgid, with no English in the catalogue.
    assert message.subject == "Your move: Brzeg rzeki (Runda 1)"
    assert "Ania" in message.body and "Zbój" not in message.body
    assert "Listy z frontu" in message.body
    assert posts.utc_text(T0 + DAY) == "2030-03-18 17:46 UTC"
    assert "2030-03-18 18:46 CET" in message.body  # in her time zone (Warsaw: the default)
    assert f"http://127.0.0.1:8000/encounters/{table.pk}/" in message.body
    # Acting, and passing time before the reminder, mails nobody again.
    table.act("Bolo", T0 + HOUR)
    sweeps.sweep(T0 + 2 * HOUR)
    assert len(sent_mails()) == 1


def test_a_player_who_picked_no_language_reads_polish(settings: Any) -> None:
    settings.SITE_URL = "https://eleora.example/"
    table = make_post_table()
    Profile.objects.filter(user=table.anna).update(language="")
    table.start()
    (message,) = sent_mails()
    assert message.subject == "Twój ruch: Brzeg rzeki (Runda 1)"
    assert f"https://eleora.example/encounters/{table.pk}/" in message.body


def test_a_player_who_left_the_campaign_is_not_mailed() -> None:
    table = make_post_table()
    table.campaign.memberships.filter(user=table.anna).delete()
    table.start()
    assert sent_mails() == []


def test_a_live_table_mails_nobody() -> None:
    table = make_post_table(pace="live")
    table.start()
    assert sent_mails() == [] and table.row().due is None


def test_the_next_round_mails_the_players_again() -> None:
    table = make_post_table()
    table.start()
    forget_mails()
    for name in ("Ania", "Bolo", "Zbój"):
        table.act(name, T0 + HOUR)
    assert services.load_table(table.pk).view.deadline == T0 + HOUR + DAY
    assert [m.to for m in sent_mails()] == [["anna@example.com"]]


def test_an_address_not_yet_confirmed_gets_no_mail() -> None:
    table = make_post_table()
    account.set_address(table.bolek, "bolek@example.com")  # its confirmation link is queued
    forget_mails()
    table.start()
    assert [m.to for m in sent_mails()] == [["anna@example.com"]]


def test_the_deadline_is_given_in_the_players_time_zone() -> None:
    table = make_post_table()
    Profile.objects.filter(user=table.anna).update(time_zone="America/New_York")
    table.start()
    (message,) = sent_mails()
    assert "2030-03-18 13:46 EDT" in message.body


def test_a_player_who_wants_no_turn_mails_hears_when_the_turn_is_resolved() -> None:
    table = make_post_table()
    table.campaign.memberships.filter(user=table.anna).update(mail_turn_open=False)
    table.start()
    assert sent_mails() == []
    for name in ("Ania", "Bolo", "Zbój"):
        table.act(name, T0 + HOUR)
    (message,) = sent_mails()  # round 1 was resolved; round 2's opening is not for her
    assert message.to == ["anna@example.com"]
    assert message.subject == "Turn resolved: Brzeg rzeki (Runda 1)"
    assert "Ania" in message.body and f"/encounters/{table.pk}/" in message.body


def test_a_player_who_wants_none_of_the_campaigns_mails_gets_none() -> None:
    table = make_post_table()
    table.campaign.memberships.filter(user=table.anna).update(
        mail_turn_open=False, mail_reminder=False, mail_resolved=False
    )
    table.start()
    sweeps.sweep(T0 + DAY - HOUR)  # the reminder's time
    for name in ("Ania", "Bolo", "Zbój"):
        table.act(name, T0 + DAY - HOUR)
    assert sent_mails() == []
    assert table.row().reminded_for == T0 + DAY  # the reminder had its turn, unsent


def test_a_turn_is_resolved_when_the_next_round_begins_or_the_fight_ends() -> None:
    running = _view(deadline=T0 + DAY, remind_at=None)
    assert posts.resolved(running, replace(running, round=2, deadline=T0 + 2 * DAY))
    assert posts.resolved(running, replace(running, stage="ended", deadline=None))
    assert not posts.resolved(running, replace(running, deadline=T0 + 2 * DAY))  # moved
    assert not posts.resolved(replace(running, round=2), running)  # an undo
    live = _view(deadline=T0 + 60, remind_at=None, pace="live")
    assert not posts.resolved(live, replace(live, round=2))


# --- the reminder ---------------------------------------------------------------------------


def test_the_reminder_goes_out_once_at_its_time_to_those_still_waited_on() -> None:
    table = make_post_table()
    table.start()
    remind_at = T0 + DAY - 6 * HOUR
    assert table.row().due == remind_at
    forget_mails()
    sweeps.sweep(remind_at - 1)
    assert sent_mails() == []
    sweeps.sweep(remind_at + 1)
    sweeps.sweep(remind_at + 2)
    fresh_process()
    sweeps.sweep(remind_at + 3)
    (reminder,) = sent_mails()
    assert reminder.to == ["anna@example.com"]
    assert reminder.subject == "Reminder: Brzeg rzeki, deadline 2030-03-18 18:46 CET"
    row = table.row()
    assert row.reminded_for == T0 + DAY and row.due == T0 + DAY


def test_a_player_who_acted_is_not_reminded() -> None:
    table = make_post_table()
    table.start()
    table.act("Ania", T0 + HOUR)
    forget_mails()
    sweeps.sweep(T0 + DAY - HOUR)
    assert sent_mails() == []
    assert table.row().reminded_for == T0 + DAY


def test_two_processes_sweeping_at_once_send_the_reminder_once() -> None:
    table = make_post_table()
    table.start()
    forget_mails()
    remind_at = T0 + DAY - 6 * HOUR
    barrier = threading.Barrier(2)
    seats: list[tuple[str, ...]] = []

    def process() -> None:
        try:
            barrier.wait(timeout=5)
            seats.append(posts.remind(table.pk, remind_at + 1))
        finally:
            connection.close()

    threads = [threading.Thread(target=process) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(map(set, seats), key=len) == [set(), set(table.seats.values())]
    assert len(sent_mails()) == 1


def test_a_turn_opening_after_its_reminder_time_sends_no_second_mail() -> None:
    view = _view(deadline=T0 + HOUR, remind_at=T0 - 5 * HOUR)
    before = _view(deadline=None, remind_at=None, stage="setup")
    fields = posts.head_fields(_NoDeadline(), None, view, before, reminded_for=None, now=T0)
    assert fields == {"due": None, "reminded_for": T0 + HOUR}
    # The same deadline later on: nothing new is opened, the mark stays.
    again = posts.head_fields(_NoDeadline(), None, view, view, reminded_for=T0 + HOUR, now=T0)
    assert again == {"due": None, "reminded_for": T0 + HOUR}


def test_due_is_the_earliest_of_the_deadline_and_an_unsent_reminder() -> None:
    view = _view(deadline=T0 + DAY, remind_at=T0 + 18 * HOUR)
    rules = _NoDeadline(T0 + DAY)
    assert posts.due_of(rules, None, view) == T0 + 18 * HOUR
    assert posts.due_of(rules, None, view, reminded_for=T0 + DAY) == T0 + DAY
    live = _view(deadline=T0 + 30, remind_at=None, pace="live")
    assert posts.due_of(_NoDeadline(T0 + 30), None, live) == T0 + 30
    assert posts.opened(view, live) == ()


# --- the deadline -----------------------------------------------------------------------------


def test_a_deadline_passing_with_no_socket_open_is_resolved_by_the_sweep() -> None:
    table = make_post_table()
    table.start()
    table.act("Ania", T0 + HOUR)
    fresh_process()  # the server restarted since: only the database knows the deadline
    sweeps.sweep(T0 + DAY - 6 * HOUR)  # the reminder
    forget_mails()
    assert sweeps.sweep(T0 + DAY - 1) == 0  # nothing due yet
    assert sweeps.sweep(T0 + DAY + 1) == 1
    head = services.load_table(table.pk)
    assert head.view.round == 2 and head.view.deadline == T0 + DAY + 1 + DAY
    lines = [line["text"] for entry in head.log for line in entry.lines]
    assert "Termin rundy minął; bez akcji: %(names)s." in lines
    assert [m.to for m in sent_mails()] == [["anna@example.com"]]  # round 2 opens for her
    assert table.row().due == T0 + DAY + 1 + DAY - 6 * HOUR
    before = table.row().seq
    sweeps.sweep(T0 + DAY + 2)  # swept again: nothing more happens
    assert table.row().seq == before


def test_a_live_prompt_deadline_is_swept_after_a_restart_too() -> None:
    table = make_post_table(pace="live")
    table.start()
    first = services.load_table(table.pk).view.current
    assert first is not None
    target = table.seats["Zbój"] if first != table.seats["Zbój"] else table.seats["Ania"]
    services.run_command(
        table.pk,
        {"type": "attack", "actor": first, "target": target},
        viewer=GM_OF(table),
        now=T0 + 1,
        rng=_Faces(20),
    )
    deadline = services.load_table(table.pk).state.prompt.deadline
    assert table.row().due == deadline == T0 + 1 + 15
    fresh_process()
    sweeps.sweep(deadline + 1)
    head = services.load_table(table.pk)
    assert head.state.prompt is None and table.row().due is None


def test_a_deadline_the_rules_will_not_resolve_is_tried_again_later(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = make_post_table()
    table.start()

    def refuse(pk: int, *, now: float) -> None:
        raise Refused("nic", "Nic nie czeka.")

    monkeypatch.setattr(services, "resolve_expired", refuse)
    assert sweeps.sweep(T0 + DAY + 1) == 1
    assert table.row().due == T0 + DAY + 1 + posts.RETRY_S
    assert sweeps.sweep(T0 + DAY + 2) == 0


def test_the_deadline_of_an_ended_fight_is_not_swept() -> None:
    table = make_post_table()
    table.start()
    services.run_command(table.pk, {"type": "end_fight"}, viewer=GM_OF(table), now=T0 + 5)
    assert table.row().due is None
    assert sweeps.sweep(T0 + 2 * DAY) == 0


def test_the_command_sweeps_like_a_server_process() -> None:
    table = make_post_table()
    table.start(now=time.time() - 2 * DAY)
    call_command("sweep_tables", stdout=_Sink())
    assert services.load_table(table.pk).view.round == 2


# --- the server's clock -----------------------------------------------------------------------


def test_the_clock_offset_moves_the_deadlines(settings: Any, tmp_path: Path) -> None:
    offset = tmp_path / "clock-offset"
    offset.write_text(str(3 * DAY))
    settings.CLOCK_OFFSET_FILE = str(offset)
    assert abs(clock.now() - (time.time() + 3 * DAY)) < 5
    table = make_post_table()
    services.run_command(table.pk, {"type": "start_round"}, viewer=GM_OF(table))
    deadline = services.load_table(table.pk).view.deadline
    assert deadline is not None and abs(deadline - (time.time() + 4 * DAY)) < 5
    assert sweeps.sweep() == 0
    offset.write_text(str(5 * DAY))  # two days on: past the deadline
    assert sweeps.sweep() == 1
    assert services.load_table(table.pk).view.round == 2


# --- the page ---------------------------------------------------------------------------------


def test_the_status_line_shows_a_post_deadline_as_a_time_and_a_live_one_as_a_countdown() -> None:
    table = make_post_table()
    table.start()
    html = fragments.render_one(services.load_table(table.pk), GM_OF(table), "table-status")
    assert '<time class="deadline-time" datetime="2030-03-18T17:46:40Z"' in html
    assert "2030-03-18 17:46 UTC</time>" in html and "countdown" not in html
    for name in table.seats:
        table.act(name, T0 + HOUR)
    html = fragments.render_one(services.load_table(table.pk), GM_OF(table), "table-status")
    assert 'datetime="2030-03-18T18:46:40Z"' in html  # round 2: the page shows its deadline


def test_a_live_table_shows_no_date() -> None:
    table = make_post_table(pace="live")
    table.start()
    html = fragments.render_one(services.load_table(table.pk), GM_OF(table), "table-status")
    assert "<time" not in html and "deadline-time" not in html


# --- the sweeper ------------------------------------------------------------------------------


def test_the_sweeper_sweeps_at_once_and_then_every_interval(settings: Any) -> None:
    settings.SWEEP_S = 0.02
    runs: list[float] = []

    async def run() -> int:
        runs.append(time.monotonic())
        return 0

    async def serve() -> None:
        sweeper = sweeps.Sweeper(run)
        sweeper.start()
        sweeper.start()  # a second connection: still one sweeper
        await asyncio.sleep(0.1)
        assert sweeper.task is not None
        sweeper.task.cancel()

    asyncio.run(serve())
    assert 3 <= len(runs) <= 7


def test_no_sweeper_when_the_interval_is_zero(settings: Any) -> None:
    settings.SWEEP_S = 0

    async def serve() -> sweeps.Sweeper:
        sweeper = sweeps.Sweeper(_never)
        sweeper.start()
        return sweeper

    assert asyncio.run(serve()).task is None


def test_the_asgi_application_starts_the_sweeper_with_its_first_connection(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[bool] = []
    monkeypatch.setattr(sweeps.sweeper, "start", lambda: started.append(True))
    seen: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope["type"])

    asyncio.run(sweeps.sweeping(app)({"type": "http"}, None, None))
    assert started == [True] and seen == ["http"]


# --- helpers ----------------------------------------------------------------------------------


class _Faces:
    """An RNG that always throws `face` (clamped to the die)."""

    def __init__(self, face: int) -> None:
        self.face = face

    def randint(self, a: int, b: int) -> int:
        return max(a, min(b, self.face))


class _Deadline:
    """Just enough of a ruleset for `due_of`."""

    def __init__(self, deadline: float | None) -> None:
        self.deadline = deadline

    def next_deadline(self, state: Any) -> float | None:
        return self.deadline


def _NoDeadline(deadline: float | None = None) -> Any:  # noqa: N802 - reads as the class
    return _Deadline(deadline)


class _Sink:
    def write(self, text: str) -> None:
        pass

    def flush(self) -> None:
        pass


async def _never() -> int:
    raise AssertionError("the sweeper ran")


def _view(
    *,
    deadline: float | None,
    remind_at: float | None,
    pace: str = "post",
    stage: str = "running",
) -> TableView:
    health = HealthView(current=1, maximum=1, level="ok", level_label="")
    seat = SeatView("a", "A", "x", "7", False, False, False, None, health)
    return TableView(
        stage=stage,  # type: ignore[arg-type]
        round=1,
        label="",
        seats={"a": seat},
        order=("a",),
        waiting=("a",),
        deadline=deadline,
        pace=pace,  # type: ignore[arg-type]
        remind_at=remind_at,
    )
