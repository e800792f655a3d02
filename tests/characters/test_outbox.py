"""The site's mails (characters/outbox.py): queued with what causes them, sent after commit
over SMTP by the process's mail thread, tried again when the server fails, sent once however
many processes deliver, and kept as the record of what went out.

The mails cross a real SMTP server on loopback (aiosmtpd, the `smtp` fixture). The tests run
in transactions: the thread's queries need the rows committed, as in a server.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.utils import timezone

from characters import account, outbox
from characters.models import Mail
from tests.characters.helpers import make_user
from tests.smtp import SmtpServer

pytestmark = [pytest.mark.django_db(transaction=True)]


def wait_until(holds: Callable[[], bool], timeout: float = 5) -> bool:
    end = time.monotonic() + timeout
    while not holds():
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def queue_one(kind: str = Mail.Kind.TURN_OPEN, to: str = "anna@example.com") -> Mail:
    return outbox.queue(kind, to=to, subject="Twój ruch:\n  Brzeg rzeki", body="Treść.\n")


def test_a_queued_mail_goes_over_smtp_when_delivered_and_is_kept_as_sent(
    smtp: SmtpServer,
) -> None:
    mail = queue_one()
    assert smtp.mails() == []  # queued, not sent
    assert outbox.deliver() == 1
    (received,) = smtp.mails()
    assert received.to == ("anna@example.com",)
    assert received.subject == "Twój ruch: Brzeg rzeki"
    assert received.body.strip() == "Treść."
    mail.refresh_from_db()
    assert mail.sent is not None and mail.next_try is None and mail.attempts == 1
    assert mail.body == "Treść.\n"  # a game mail keeps its body: the record of what went out
    assert outbox.deliver() == 0 and len(smtp.mails()) == 1  # sent once


def test_the_body_of_an_account_mail_is_blanked_once_sent(smtp: SmtpServer) -> None:
    user = make_user("anna")
    account.set_address(user, "anna@example.com")
    outbox.deliver()
    (received,) = smtp.mails()
    assert "/account/confirm/" in received.link("/account/confirm/")
    mail = Mail.objects.get(kind=Mail.Kind.CONFIRM)
    assert mail.sent is not None and mail.body == ""  # its link is a credential


def test_a_mail_queued_in_a_transaction_that_rolls_back_is_never_sent(smtp: SmtpServer) -> None:
    with pytest.raises(RuntimeError), transaction.atomic():
        queue_one()
        raise RuntimeError("the command failed")
    assert outbox.deliver() == 0 and not Mail.objects.exists()


def test_a_server_that_refuses_is_tried_again_later_and_given_up_at_last(
    smtp: SmtpServer, settings: Any
) -> None:
    mail = queue_one()
    settings.EMAIL_PORT = SmtpServer().port  # nothing listens there
    now = timezone.now()
    assert outbox.deliver(now) == 0
    mail.refresh_from_db()
    assert mail.sent is None and mail.attempts == 1 and "Error" in mail.error
    assert mail.next_try == now + timedelta(seconds=outbox.RETRY_S)
    assert outbox.deliver(now + timedelta(seconds=outbox.RETRY_S - 1)) == 0  # not yet due
    mail.refresh_from_db()
    assert mail.attempts == 1
    for _ in range(outbox.ATTEMPTS - 1):
        assert mail.next_try is not None
        outbox.deliver(mail.next_try)
        mail.refresh_from_db()
    assert mail.attempts == outbox.ATTEMPTS and mail.next_try is None and mail.sent is None
    settings.EMAIL_PORT = smtp.port
    assert outbox.deliver(now + timedelta(days=30)) == 0 and smtp.mails() == []  # given up


def test_a_mail_that_failed_goes_out_once_the_server_is_back(
    smtp: SmtpServer, settings: Any
) -> None:
    queue_one()
    port, settings.EMAIL_PORT = settings.EMAIL_PORT, SmtpServer().port
    now = timezone.now()
    outbox.deliver(now)
    settings.EMAIL_PORT = port
    assert outbox.deliver(now + timedelta(seconds=outbox.RETRY_S)) == 1
    assert [m.to for m in smtp.mails()] == [("anna@example.com",)]


def test_two_processes_delivering_at_once_send_each_mail_once(smtp: SmtpServer) -> None:
    queue_one()
    smtp.gate.clear()  # the server holds the first sender in the middle of its send
    counts: list[int] = []

    def process() -> None:
        try:
            counts.append(outbox.deliver())
        finally:
            connection.close()

    first = threading.Thread(target=process)
    first.start()
    leased = Mail.objects.filter(next_try__gt=timezone.now() + timedelta(seconds=60))
    assert wait_until(leased.exists)  # the first sender took it
    second = threading.Thread(target=process)
    second.start()
    second.join(timeout=10)
    assert counts == [0]  # the second found it leased by the first
    smtp.gate.set()
    first.join(timeout=10)
    assert sorted(counts) == [0, 1]
    assert len(smtp.mails()) == 1


def test_the_mail_thread_sends_after_commit_without_holding_the_caller(
    smtp: SmtpServer, settings: Any
) -> None:
    settings.MAIL_THREAD = True
    smtp.gate.clear()  # a slow SMTP server: it holds every mail until the test lets go
    done = threading.Event()

    def request() -> None:
        try:
            with transaction.atomic():
                queue_one()
            done.set()
        finally:
            connection.close()

    caller = threading.Thread(target=request)
    caller.start()
    assert done.wait(5)  # the caller went on while the server held its mail
    assert smtp.mails() == []
    smtp.gate.set()
    (received,) = smtp.wait(1)
    assert received.to == ("anna@example.com",)


def test_a_superuser_reads_the_record_of_mails_in_the_admin_and_cannot_change_it(
    smtp: SmtpServer,
) -> None:
    mail = queue_one()
    outbox.deliver()
    client = Client()
    client.force_login(make_user("admin", is_superuser=True, is_staff=True))
    listed = client.get("/admin/characters/mail/")
    assert listed.status_code == 200 and "anna@example.com" in listed.content.decode()
    assert client.get("/admin/characters/mail/add/").status_code == 403
    page = client.get(f"/admin/characters/mail/{mail.pk}/change/")
    assert page.status_code == 200 and 'name="subject"' not in page.content.decode()
