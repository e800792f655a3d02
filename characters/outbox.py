"""The site's e-mails: queued with what causes them, sent after commit, off the request path.

`queue` stores a `Mail` row in the caller's transaction, so a mail exists exactly when what
caused it committed (a by-post turn opened, an address was given, a reset was asked for).
After that commit the process's courier thread is woken (`kick`) and sends every mail that
is due (`deliver`); a command or a page never waits on the SMTP server. A mail that fails is
tried again later (`RETRY_S`, growing), up to `ATTEMPTS` times; the sweep (combat/sweeps.py,
in each server process or from cron) wakes the courier too, so retries and the mails of a
process that died go out.

Any number of processes may deliver at once: a sender leases a mail by moving its `next_try`
on with a conditional UPDATE, and only the process whose UPDATE moved it sends it.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import close_old_connections, transaction
from django.utils import timezone

from characters.models import Mail

log = logging.getLogger(__name__)

ATTEMPTS = 6  # a mail is given up after this many failed tries
RETRY_S = 60.0  # the wait after the first failure; doubled after each further one
LEASE_S = 120.0  # how long a sender owns the mails it took (longer than an SMTP timeout)
BATCH = 50  # mails one delivery takes at most (the next takes the rest)
# The body of these kinds is blanked once sent: their link signs a person in or confirms.
SECRET_KINDS = frozenset({Mail.Kind.CONFIRM, Mail.Kind.RESET})


def queue(
    kind: str,
    *,
    to: str,
    subject: str,
    body: str,
    user_id: int | None = None,
    encounter_id: int | None = None,
) -> Mail:
    """Store a mail to send once the current transaction commits (at once outside one)."""
    mail = Mail.objects.create(
        kind=kind,
        to=to,
        subject=" ".join(subject.split())[:255],
        body=body,
        user_id=user_id,
        encounter_id=encounter_id,
        next_try=timezone.now(),
    )
    transaction.on_commit(kick, robust=True)
    return mail


def deliver(now: datetime | None = None) -> int:
    """Send the mails that are due over one SMTP connection; the number sent. A mail whose
    send fails is tried again later, and given up after `ATTEMPTS` tries."""
    moment = now or timezone.now()
    due = Mail.objects.filter(next_try__lte=moment).order_by("next_try", "pk")
    taken = [
        pk
        for pk in due.values_list("pk", flat=True)[:BATCH]
        if Mail.objects.filter(pk=pk, next_try__lte=moment).update(
            next_try=moment + timedelta(seconds=LEASE_S)
        )
    ]
    if not taken:
        return 0
    sent = 0
    try:
        connection = get_connection(fail_silently=False)
        connection.open()
    except Exception as error:  # noqa: BLE001 - any failure of the server: try again later
        for mail in Mail.objects.filter(pk__in=taken):
            _failed(mail, error, moment)
        return 0
    try:
        for mail in Mail.objects.filter(pk__in=taken).order_by("pk"):
            message = EmailMessage(mail.subject, mail.body, to=[mail.to], connection=connection)
            try:
                message.send()
            except Exception as error:  # noqa: BLE001 - this one fails, the others go on
                _failed(mail, error, moment)
                continue
            _sent(mail)
            sent += 1
    finally:
        connection.close()
    return sent


def _sent(mail: Mail) -> None:
    fields: dict[str, object] = {
        "sent": timezone.now(),
        "next_try": None,
        "attempts": mail.attempts + 1,
    }
    if mail.kind in SECRET_KINDS:
        fields["body"] = ""
    Mail.objects.filter(pk=mail.pk).update(**fields)


def _failed(mail: Mail, error: Exception, moment: datetime) -> None:
    attempts = mail.attempts + 1
    wait = timedelta(seconds=RETRY_S * 2 ** (attempts - 1))
    again = moment + wait if attempts < ATTEMPTS else None
    log.warning("mail %s to %s, try %s: %s", mail.pk, mail.to, attempts, error)
    Mail.objects.filter(pk=mail.pk).update(
        attempts=attempts, next_try=again, error=f"{type(error).__name__}: {error}"[:2000]
    )


class Courier:
    """This process's sending thread: asleep until `kick`, then `deliver` until nothing is
    due. Started by the first kick; `settings.MAIL_THREAD` False: no thread (the caller
    delivers, as the unit tests do)."""

    def __init__(self) -> None:
        self._wake = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def kick(self) -> None:
        if not getattr(settings, "MAIL_THREAD", True):
            return
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="mail", daemon=True)
                self._thread.start()
        self._wake.set()

    def _run(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            try:
                while deliver() == BATCH:
                    pass
            except Exception:  # noqa: BLE001 - the courier must outlive a bad delivery
                log.exception("delivering mail")
            finally:
                close_old_connections()


courier = Courier()
kick = courier.kick
