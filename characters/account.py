"""A person's address: given, confirmed by a signed link, and who can be reached by mail.

An address may be given at signup or on the account page; it is unique among the accounts
(case aside). Mail goes to it only once it is confirmed: the account's owner opens a link
mailed to it, signed with the site's key (`django.core.signing`, salted, valid for
`CONFIRM_DAYS`). The link names the account and the address, so it stops working when the
address changes, and says so when opened a second time. A confirmed address is kept on the
profile; the database refuses the same confirmed address on two accounts.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Q, QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from characters import outbox
from characters.language import chosen
from characters.models import Mail, Profile

SALT = "eleora.account.confirm-email"
CONFIRM_DAYS = 3
RESEND_S = 60  # a link is mailed again at most once a minute per account


class LinkRefused(Exception):
    """A confirmation link that confirms nothing; `message` says why, for its reader."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def profile_of(user: User) -> Profile:
    profile, _created = Profile.objects.get_or_create(user=user)
    return profile


def is_confirmed(user: User) -> bool:
    """Whether mail can go to the account's address (given and confirmed)."""
    return bool(user.email) and profile_of(user).confirmed_email == user.email


def reachable(users: QuerySet[User]) -> QuerySet[User]:
    """Those of `users` with a confirmed address."""
    return users.exclude(email="").filter(profile__confirmed_email=F("email"))


def unreachable_ids(user_ids: Iterable[int]) -> set[int]:
    """Those of these accounts that no mail can reach (no address, or not confirmed)."""
    ids = set(user_ids)
    return ids - set(reachable(User.objects.filter(pk__in=ids)).values_list("pk", flat=True))


def address_taken(address: str, *, by_other_than: User | None = None) -> bool:
    """Whether another account has this address (given or confirmed), case aside."""
    others = User.objects.all()
    if by_other_than is not None:
        others = others.exclude(pk=by_other_than.pk)
    given = Q(email__iexact=address) | Q(profile__confirmed_email__iexact=address)
    return others.filter(given).exists()


def set_address(user: User, address: str) -> bool:
    """Put this address (already validated, "" for none) on the account; a new address is
    mailed its confirmation link after commit, unless a link went out less than `RESEND_S`
    ago (then "send it again" on the account page does). Whether a link was queued."""
    address = User.objects.normalize_email(address.strip())
    if address == user.email:
        return False
    user.email = address
    user.save(update_fields=["email"])
    if not address or profile_of(user).confirmed_email == address or _mailed_lately(user):
        return False  # lately: no stream of links to addresses typed one after another
    send_confirmation(user)
    return True


def send_confirmation(user: User) -> None:
    """Queue the link that confirms the account's current address, in the owner's language."""
    token = signing.dumps({"u": user.pk, "e": user.email}, salt=SALT, compress=True)
    context = {
        "user": user,
        "address": user.email,
        "days": CONFIRM_DAYS,
        "url": settings.SITE_URL.rstrip("/") + reverse("confirm-email", args=[token]),
    }
    with translation.override(chosen(profile_of(user).language)):
        subject = render_to_string("registration/confirm_email.txt#subject", context)
        body = render_to_string("registration/confirm_email.txt", context).strip() + "\n"
    outbox.queue(Mail.Kind.CONFIRM, to=user.email, subject=subject, body=body, user_id=user.pk)


@transaction.atomic
def resend_confirmation(user: User, *, now: datetime | None = None) -> None:
    """Queue the link for the account's address once more. ValidationError when there is no
    address, it is confirmed already, or a link went out less than `RESEND_S` ago (counted
    from the account's confirmation mails, so a new address's first link counts too)."""
    if not user.email:
        raise ValidationError(_("Na koncie nie ma adresu e-mail."))
    if is_confirmed(user):
        raise ValidationError(_("Ten adres jest już potwierdzony."))
    User.objects.select_for_update().filter(pk=user.pk).first()  # two clicks: one mail
    if _mailed_lately(user, now):
        raise ValidationError(
            _("Wysłano link przed chwilą. Sprawdź pocztę (i spam) albo spróbuj za minutę.")
        )
    send_confirmation(user)


def _mailed_lately(user: User, now: datetime | None = None) -> bool:
    """Whether a confirmation link went to this account less than `RESEND_S` ago."""
    since = (now or timezone.now()) - timedelta(seconds=RESEND_S)
    return Mail.objects.filter(user=user, kind=Mail.Kind.CONFIRM, created__gt=since).exists()


def confirm(token: str) -> User:
    """Confirm the address a link was mailed to; the account. `LinkRefused` as `check`, or
    when another account confirmed the address meanwhile: nothing changes then."""
    user = check(token)
    try:
        with transaction.atomic():
            Profile.objects.filter(user=user).update(confirmed_email=user.email)
    except IntegrityError:
        raise LinkRefused(_("Ten adres jest już przypisany do innego konta.")) from None
    return user


def check(token: str) -> User:
    """The account whose address this link would confirm. `LinkRefused` when the link is
    damaged, expired, already used, for an address no longer on the account, or for an
    address another account confirmed."""
    try:
        data = signing.loads(token, salt=SALT, max_age=CONFIRM_DAYS * 24 * 3600)
    except signing.SignatureExpired:
        raise LinkRefused(_("Ten link wygasł. Wyślij nowy ze strony konta.")) from None
    except signing.BadSignature:
        raise LinkRefused(
            _("Ten link jest niepełny lub uszkodzony. Skopiuj go z maila w całości.")
        ) from None
    user = User.objects.filter(pk=data.get("u"), is_active=True).first()
    if user is None or user.email != data.get("e"):
        raise LinkRefused(_("Ten link dotyczy adresu, którego nie ma już na koncie."))
    profile = profile_of(user)
    if profile.confirmed_email == user.email:
        raise LinkRefused(_("Ten link został już użyty: adres jest potwierdzony."))
    others = Profile.objects.exclude(user=user)
    if others.filter(confirmed_email__iexact=user.email).exists():
        raise LinkRefused(_("Ten adres jest już przypisany do innego konta."))
    return user


def mark_confirmed(user: User, address: str) -> None:
    """Give the account this address as confirmed, with no link (the demo's accounts)."""
    user.email = User.objects.normalize_email(address)
    user.save(update_fields=["email"])
    Profile.objects.update_or_create(user=user, defaults={"confirmed_email": user.email})
