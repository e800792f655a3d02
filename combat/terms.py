"""The rules' texts in the viewer's language and in the terms of the ruleset being shown.

The rules give Polish msgids (`gettext_noop`) and their params; this is the one place they are
translated. A term may read differently in each ruleset's English books ("Unik" is Eleora's
Unik, d100's Dodge), so a msgid is looked up first in the message context named by the
ruleset's key (`msgctxt "d100"` in the .po) and then without a context. Which ruleset is shown
is set once around a render (`ruleset_terms`), as Django sets the language.

A param may itself be a text of the rules: a `(msgid, params)` pair ("porażka", a condition's
name inside a log line) is translated the same way before it is filled in; a plain value (what
older log lines stored, names, numbers) is shown as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.functional import lazy
from django.utils.translation import gettext

from combat.rules.base import fill, is_text

_RULESET: ContextVar[str] = ContextVar("ruleset_terms", default="")
_CONTEXT_SEPARATOR = "\x04"  # how gettext catalogues join a msgctxt to its msgid


@contextmanager
def ruleset_terms(ruleset: str) -> Iterator[None]:
    """Render the rules' texts inside this block in the terms of `ruleset` (its key)."""
    token = _RULESET.set(ruleset)
    try:
        yield
    finally:
        _RULESET.reset(token)


def use_ruleset_terms(ruleset: str) -> None:
    """From here to the end of the request (`RulesetTermsMiddleware`), the rules' texts read
    in the terms of `ruleset`: called where a request reaches a campaign's things."""
    _RULESET.set(ruleset)


class RulesetTermsMiddleware:
    """Each request starts without a ruleset's terms and leaves none behind for the next."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with ruleset_terms(""):
            return self.get_response(request)


def current_ruleset() -> str:
    """The key of the ruleset whose terms are in force ("" outside `ruleset_terms`)."""
    return _RULESET.get()


def rules_gettext(msgid: str) -> str:
    """`pgettext(<ruleset key>, msgid)` where the catalogue has that ruleset's own entry, else
    `gettext(msgid)`. "" stays "" (gettext("") is the catalogue's header). A msgid may name a
    context of its own ("eleora action\x04Przygotowanie", where another text has the same
    Polish): without a translation it reads as its Polish part."""
    if not msgid:
        return msgid
    ruleset = _RULESET.get()
    if ruleset:
        own = gettext(ruleset + _CONTEXT_SEPARATOR + msgid)
        if _CONTEXT_SEPARATOR not in own:
            return own
    return gettext(msgid).rpartition(_CONTEXT_SEPARATOR)[2]


rules_gettext_lazy = lazy(rules_gettext, str)  # a form's label, translated when it is shown


def rules_text(template: str, params: Mapping[str, Any] | None, fallback: str = "") -> str:
    """A text the rules made, in the viewer's language: its msgid translated, then filled with
    its params (each `(msgid, params)` param translated too). `fallback` (their Polish text) is
    shown when there is no msgid or the translation does not format."""
    if not template:
        return fallback
    values = {
        name: rules_text(value[0], value[1], value[0]) if is_text(value) else value
        for name, value in (params or {}).items()
    }
    return fill(rules_gettext(template), values, fallback or fill(template, values))
