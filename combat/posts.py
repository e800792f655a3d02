"""The by-post pace: deadlines hours or days away, the players' e-mails, and the sweep.

A table played by post (`TableView.pace == "post"`) waits on its players for hours or days, and
nobody need have it open when its time comes. So every append stores, beside the new head,
when something next waits there (`Encounter.due`: the ruleset's next deadline, or the reminder
time of a by-post deadline whose reminders have not gone out), and each server process sweeps
the tables that are due (`combat.sweeps`: `remind` and `settle` here, a deadline resolved
through the table service), or a cron job does (`manage.py sweep_tables`). Nothing of this
lives in a process: a restart loses nothing.

E-mails, queued in the transaction that causes them and sent after it commits
(`characters.outbox`), each in the player's language with times in their time zone:
- when the table starts waiting on a player's seats by post (a turn opens for them, or the GM
  sets a new deadline): "turn_open";
- at the deadline's `remind_at`, to those it still waits on: "reminder", queued once per
  deadline whatever the number of processes sweeping (a conditional UPDATE of `reminded_for`
  decides);
- when a by-post turn is resolved (the next round begins, or the fight ends): "resolved", to
  the table's players not mailed that its next turn opened for them.
Each player picks per campaign which of these they want (`Membership.mail_*`). The GM is
mailed for no seat of theirs (NPCs have no controller); players without a confirmed address
(`characters.account`), or no longer in the campaign, get nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from characters import outbox
from characters.account import reachable, unreachable_ids
from characters.language import chosen
from characters.models import Mail, Membership, Profile
from combat.fragments import engine_text
from combat.models import Encounter
from combat.rules.base import Ruleset, TableView
from combat.rules.registry import get_ruleset
from combat.snapshots import load_table

RETRY_S = 300.0  # a deadline the ruleset would not resolve is tried again this much later

TURN_OPEN = Mail.Kind.TURN_OPEN.value
REMINDER = Mail.Kind.REMINDER.value
RESOLVED = Mail.Kind.RESOLVED.value


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


def resolved(previous: TableView, view: TableView) -> bool:
    """Whether this head resolves the by-post turn the previous head waited on (the next
    round begins, or the fight ends)."""
    if previous.pace != "post" or previous.stage != "running" or previous.deadline is None:
        return False
    return view.stage != "running" or view.round > previous.round


def queue_mails(encounter_id: int, previous: TableView, view: TableView) -> None:
    """In the append's transaction: queue the mails of this head (sent after it commits):
    "turn_open" to the players of the seats it starts waiting on, "resolved" to the table's
    other players when it resolves a turn (one mail per player and head)."""
    seats = opened(previous, view)
    told = queue(encounter_id, view, seats, TURN_OPEN) if seats else set()
    if resolved(previous, view):
        queue(encounter_id, previous, tuple(previous.seats), RESOLVED, skip=told)


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
            queue(pk, view, seats, REMINDER)
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


def local_text(epoch: float, zone: str) -> str:
    """An epoch time as people read it in their time zone ("2026-12-02 15:00 CET"); UTC for
    a zone this machine does not know."""
    try:
        tz: tzinfo = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        tz = UTC
    return datetime.fromtimestamp(epoch, tz).strftime("%Y-%m-%d %H:%M %Z")


WANTS = {
    TURN_OPEN: "mail_turn_open",
    REMINDER: "mail_reminder",
    RESOLVED: "mail_resolved",
}


def queue(
    encounter_id: int,
    view: TableView,
    seats: Sequence[str],
    kind: str,
    *,
    skip: Iterable[int] = (),
) -> set[int]:
    """Queue a mail of this kind for the players of these seats (one each, naming each of
    their seats, in their own language and time zone): those still in the campaign, with a
    confirmed address, who want this kind of mail there, and not in `skip`. The users queued."""
    encounter = Encounter.objects.select_related("campaign").filter(pk=encounter_id).first()
    if encounter is None or (kind != RESOLVED and view.deadline is None):
        return set()
    names = _names_by_user(view, seats)
    wanted = {f"memberships__{WANTS[kind]}": True, "memberships__campaign": encounter.campaign_id}
    users = list(
        reachable(User.objects.filter(pk__in=list(names), is_active=True, **wanted))
        .exclude(pk__in=list(skip))
        .select_related("profile")
        .distinct()
        .order_by("pk")
    )
    for user in users:
        profile = user.profile
        with translation.override(chosen(profile.language)):
            subject, body = _message(kind, encounter, view, user, names[user.pk], profile)
        mail = {"to": user.email, "subject": subject, "body": body}
        outbox.queue(kind, **mail, user_id=user.pk, encounter_id=encounter_id)
    return {user.pk for user in users}


def unmailed(campaign_id: int, view: TableView) -> list[dict[str, Any]]:
    """The table's players its by-post turn mails will not reach, for the GM: each with the
    names of their seats and why (no confirmed address, or the mails turned off here)."""
    names = _names_by_user(view, tuple(view.seats))
    if not names:
        return []
    members = Membership.objects.filter(campaign=campaign_id, user__in=list(names))
    wanting = dict(members.values_list("user_id", "mail_turn_open"))
    unreachable = unreachable_ids(names)
    found = []
    for user in User.objects.filter(pk__in=list(names)).order_by("username"):
        if user.pk in unreachable:
            why = _("brak potwierdzonego adresu e-mail")
        elif not wanting.get(user.pk, False):
            why = _("maile o turach wyłączone")
        else:
            continue
        shown = user.first_name or user.get_username()
        found.append({"player": shown, "characters": names[user.pk], "why": why})
    return found


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
    kind: str, encounter: Encounter, view: TableView, user: User, names: list[str], profile: Profile
) -> tuple[str, str]:
    deadline = float(view.deadline or 0)
    context: Mapping[str, Any] = {
        "user": user,
        "encounter": encounter,
        "campaign": encounter.campaign,
        "turn": engine_text(view.label, view.label_params, view.label),
        "characters": ", ".join(names),
        "deadline": local_text(deadline, profile.time_zone) if view.deadline else "",
        "url": f"{settings.SITE_URL.rstrip('/')}{encounter.get_absolute_url()}",
    }
    template = f"combat/email/{kind}.txt"
    subject = " ".join(render_to_string(f"{template}#subject", context).split())
    body = render_to_string(template, context).strip() + "\n"
    return subject, body
