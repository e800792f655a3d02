"""The by-post pace: deadlines hours or days away, the players' e-mails, and the sweep.

A table played by post (`TableView.pace == "post"`) waits on its players for hours or days, and
nobody need have it open when its time comes. So every append stores, beside the new head,
when something next waits there (`Encounter.due`: the ruleset's next deadline, or the reminder
time of a by-post deadline whose reminders have not gone out), and each server process sweeps
the tables that are due (`combat.sweeps`: `remind` and `settle` here, a deadline resolved
through the table service), or a cron job does (`manage.py sweep_tables`). Nothing of this
lives in a process: a restart loses nothing.

E-mails (Django's mail framework, in each player's own language):
- when the table starts waiting on a player's seats by post (a turn opens for them, or the GM
  sets a new deadline): "turn_open", sent after the append commits;
- at the deadline's `remind_at`, to those it still waits on: "reminder", sent once per deadline
  whatever the number of processes sweeping (a conditional UPDATE of `reminded_for` decides).
The GM is mailed for no seat of theirs (NPCs have no controller); users without an address,
or no longer in the campaign, get nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation

from characters.language import chosen
from characters.models import Profile
from combat.fragments import engine_text
from combat.models import Encounter
from combat.rules.base import Ruleset, TableView
from combat.rules.registry import get_ruleset
from combat.snapshots import load_table

RETRY_S = 300.0  # a deadline the ruleset would not resolve is tried again this much later

TURN_OPEN = "turn_open"
REMINDER = "reminder"


# --- when the head is due -----------------------------------------------------------------


def reminder_time(view: TableView, reminded_for: float | None) -> float | None:
    """When the players a by-post deadline waits on are reminded; None when there is no
    reminder, or its mails for this deadline went out."""
    if view.pace != "post" or view.stage != "running":
        return None
    if view.deadline is None or view.remind_at is None or reminded_for == view.deadline:
        return None
    return view.remind_at


def due_of(
    rules: Ruleset, state: Any, view: TableView, *, reminded_for: float | None = None
) -> float | None:
    """When something next waits at this head: the earliest of the ruleset's next deadline
    and the reminder of a by-post deadline not yet sent (None: nothing waits)."""
    times = (rules.next_deadline(state), reminder_time(view, reminded_for))
    return min((t for t in times if t is not None), default=None)


def opened(previous: TableView, view: TableView) -> tuple[str, ...]:
    """The seats the table starts waiting on by post with this head: every seat it waits on
    when the deadline is new (a turn opened, the GM moved it), else those that were not
    waited on before."""
    if view.pace != "post" or view.stage != "running" or view.deadline is None:
        return ()
    fresh = previous.pace != "post" or previous.stage != "running"
    if fresh or previous.deadline != view.deadline:
        return view.waiting
    before = set(previous.waiting)
    return tuple(seat for seat in view.waiting if seat not in before)


def head_fields(
    rules: Ruleset,
    state: Any,
    view: TableView,
    previous: TableView,
    *,
    reminded_for: float | None,
    now: float,
) -> dict[str, float | None]:
    """`due` and `reminded_for` for the row of a new head (the append writes them in its own
    UPDATE). A deadline that opens closer than its reminder time needs no reminder: the
    opening mail is one."""
    if opened(previous, view) and view.remind_at is not None and view.remind_at <= now:
        reminded_for = view.deadline
    return {
        "due": due_of(rules, state, view, reminded_for=reminded_for),
        "reminded_for": reminded_for,
    }


def mail_after_commit(encounter_id: int, previous: TableView, view: TableView) -> None:
    """After the append commits: mail the players of the seats this head starts waiting on."""
    seats = opened(previous, view)
    if seats:
        transaction.on_commit(lambda: send(encounter_id, view, seats, TURN_OPEN), robust=True)


# --- the sweep ----------------------------------------------------------------------------


def remind(pk: int, now: float) -> tuple[str, ...]:
    """Mark the head's by-post deadline as reminded and, if this call marked it (a conditional
    UPDATE: one process of any number wins), mail the seats it still waits on after commit.
    The seats mailed (none when it was not time, or another process was first)."""
    with transaction.atomic():
        row = _locked(pk)
        if row is None:
            return ()
        table = load_table(pk, row.seq)
        view = table.view
        at = reminder_time(view, row.reminded_for)
        if at is None or at > now or view.deadline is None:
            return ()
        deadline = view.deadline
        due = due_of(get_ruleset(table.ruleset), table.state, view, reminded_for=deadline)
        marked = (
            Encounter.objects.filter(pk=pk)
            .exclude(reminded_for=deadline)
            .update(reminded_for=deadline, due=due)
        )
        # Past the deadline a reminder is late news: marked, not sent.
        seats = view.waiting if marked and deadline > now else ()
        if seats:
            transaction.on_commit(lambda: send(pk, view, seats, REMINDER), robust=True)
        return seats


def settle(pk: int, now: float) -> None:
    """Store when the head is due next, after a sweep appended nothing: a deadline the ruleset
    would not resolve is tried again `RETRY_S` later, not on every sweep."""
    with transaction.atomic():
        row = _locked(pk)
        if row is None:
            return
        table = load_table(pk, row.seq)
        rules = get_ruleset(table.ruleset)
        due = due_of(rules, table.state, table.view, reminded_for=row.reminded_for)
        if due is not None and due <= now:
            due = now + RETRY_S
        Encounter.objects.filter(pk=pk).update(due=due)


def _locked(pk: int) -> Encounter | None:
    """The encounter's row, locked until the transaction ends (None: deleted meanwhile)."""
    rows = Encounter.objects.select_for_update().only("pk", "seq", "reminded_for")
    return rows.filter(pk=pk).first()


# --- the mails ----------------------------------------------------------------------------


def utc_iso(epoch: float) -> str:
    """An epoch time as ISO 8601 in UTC ("2026-12-02T14:00:00Z"), for `<time datetime>`."""
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def utc_text(epoch: float) -> str:
    """An epoch time as people read it in UTC ("2026-12-02 14:00 UTC")."""
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%d %H:%M UTC")


def send(encounter_id: int, view: TableView, seats: Sequence[str], kind: str) -> int:
    """Mail the players of these seats (one mail per player, naming each of their seats),
    each in their own language. The number of mails sent."""
    encounter = Encounter.objects.select_related("campaign").filter(pk=encounter_id).first()
    if encounter is None or view.deadline is None:
        return 0
    names = _names_by_user(view, seats)
    users = list(
        User.objects.filter(
            pk__in=list(names), is_active=True, memberships__campaign=encounter.campaign_id
        )
        .exclude(email="")
        .distinct()
        .order_by("pk")
    )
    if not users:
        return 0
    languages = dict(Profile.objects.filter(user__in=users).values_list("user_id", "language"))
    messages = []
    for user in users:
        with translation.override(chosen(languages.get(user.pk))):
            messages.append(_message(kind, encounter, view, user, names[user.pk]))
    with get_connection() as connection:
        return int(connection.send_messages(messages) or 0)


def _names_by_user(view: TableView, seats: Iterable[str]) -> dict[int, list[str]]:
    """The names of the seats each player controls among these (not the GM's, not hidden)."""
    names: dict[int, list[str]] = {}
    for cid in seats:
        seat = view.seats.get(cid)
        if seat is None or seat.hidden or seat.controller is None:
            continue
        if seat.controller.isdigit():
            names.setdefault(int(seat.controller), []).append(seat.name)
    return names


def _message(
    kind: str, encounter: Encounter, view: TableView, user: User, names: list[str]
) -> EmailMessage:
    deadline = float(view.deadline or 0)
    context: Mapping[str, Any] = {
        "user": user,
        "encounter": encounter,
        "campaign": encounter.campaign,
        "turn": engine_text(view.label, view.label_params, view.label),
        "characters": ", ".join(names),
        "deadline_utc": utc_text(deadline),
        "url": f"{settings.SITE_URL.rstrip('/')}{encounter.get_absolute_url()}",
    }
    template = f"combat/email/{kind}.txt"
    subject = " ".join(render_to_string(f"{template}#subject", context).split())
    body = render_to_string(template, context).strip() + "\n"
    return EmailMessage(subject, body, to=[user.email])
