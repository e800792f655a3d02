"""Who is asking: the client's address, through the site's own reverse proxy.

Behind nginx (deploy/) every request comes from the proxy's address; the proxy appends the
address it saw to `X-Forwarded-For`. Only that last entry, and only from a trusted proxy
(`TRUSTED_PROXIES`), is believed: anything before it is the client's own text.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The address of whoever sent `request` (as the login throttle and the debug pages see
    it): the peer, or what a trusted proxy says its peer was."""
    peer = request.META.get("REMOTE_ADDR", "")
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if peer in settings.TRUSTED_PROXIES and forwarded:
        return forwarded.rsplit(",", 1)[-1].strip()
    return peer


def is_loopback(address: str) -> bool:
    """True for 127.0.0.0/8 and ::1; False for anything else, including garbage."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False
