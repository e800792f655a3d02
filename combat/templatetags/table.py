"""Small helpers for the table's templates: answer fields, countdowns, remembered fragments,
and the texts the rules made shown in the viewer's language."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy

from combat import posts
from combat.access import Sight
from combat.fragments import engine_text
from combat.roster import OPPONENTS, PARTY
from combat.rules.base import Badge, LegalAction, OddsOption

register = template.Library()


@register.simple_tag(takes_context=True)
def tr(
    context: template.Context,
    msgid: str,
    params: Mapping[str, Any] | None = None,
    fallback: str = "",
) -> str:
    """`{% tr a.reason_template a.reason_params a.reason %}`: a msgid the rules made, in the
    viewer's language and filled from its params (escaped as any variable); the fallback (the
    rules' Polish text) when there is no msgid or the translation does not format. With the
    viewer's `sight` in the context, a seat they may not see reads „ktoś ukryty”."""
    seen = context.get("sight")
    if isinstance(seen, Sight):
        return seen.text(str(msgid or ""), params, str(fallback or ""))
    return engine_text(str(msgid or ""), params, str(fallback or ""))


@register.filter
def badge_detail(badge: Badge) -> str:
    """A badge's detail ("×2, tury: 3") in the viewer's language, part by part."""
    if not badge.detail_parts:
        return badge.detail
    return ", ".join(engine_text(template, params) for template, params in badge.detail_parts)


@register.simple_tag
def command_fields(command: Mapping[str, Any]) -> str:
    """Hidden inputs that rebuild `command` in the browser (non-text values as JSON)."""
    rows = []
    for name, value in command.items():
        if isinstance(value, str):
            rows.append((f"c.{name}", value, ""))
        else:
            rows.append((f"c.{name}", json.dumps(value, default=dict), "data-json"))
    return format_html_join(
        "", '<input type="hidden" name="{}" value="{}" {}>', ((n, v, j) for n, v, j in rows)
    )


@register.simple_tag
def seconds_left(deadline: float, now: float) -> int:
    return max(0, round(deadline - now))


@register.filter
def utc_iso(epoch: float) -> str:
    """An epoch deadline as ISO 8601 in UTC, for `<time datetime>` (the page shows it in the
    viewer's own time zone)."""
    return posts.utc_iso(float(epoch))


@register.filter
def utc_text(epoch: float) -> str:
    """An epoch deadline as read in UTC: what a page shows before its script localises it."""
    return posts.utc_text(float(epoch))


@register.filter
def get_item(mapping: Any, key: str) -> Any:
    if isinstance(mapping, Mapping):
        return mapping.get(key)
    return None


@register.filter
def percent(value: float) -> str:
    return format_html("{}%", round(100 * float(value)))


SIDE_LABELS = {PARTY: gettext_lazy("Drużyna"), OPPONENTS: gettext_lazy("Przeciwnicy")}


@register.filter
def side_label(side: str) -> str:
    """The default sides' names; a side the GM typed is shown as typed."""
    return str(SIDE_LABELS.get(side, side))


@register.filter
def best_answer(odds: Mapping[str, OddsOption] | None) -> str | None:
    """The key of the answer with the lowest expected damage (then the lowest headline
    chance); None without odds or when every answer comes out the same."""
    ranked = sorted(
        (
            o.expected_damage if o.expected_damage is not None else float("inf"),
            o.headline.probability if o.headline else 1.0,
            key,
        )
        for key, o in (odds or {}).items()
    )
    if not ranked or ranked[0][:2] == ranked[-1][:2]:
        return None
    return ranked[0][2]


@register.filter
def shared_reason(actions: Sequence[LegalAction]) -> LegalAction | None:
    """An unavailable action whose reason at least one other shares, the most common one:
    the turn panel says it once above the buttons instead of under each. The actions of one
    family ("atak:<target>:<means>": the part before the first colon) count once: a reason
    about one target is not the whole panel's."""
    refused = {(a.key.split(":", 1)[0], a.reason) for a in actions if not a.available and a.reason}
    counts = Counter(reason for _family, reason in refused)
    if not counts or counts.most_common(1)[0][1] < 2:
        return None
    reason = counts.most_common(1)[0][0]
    return next(a for a in actions if not a.available and a.reason == reason)
