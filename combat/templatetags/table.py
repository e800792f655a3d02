"""Small helpers for the table's templates: answer fields, countdowns, remembered fragments,
and the texts the rules made shown in the viewer's language."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from django import template
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.utils.html import format_html, format_html_join
from django.utils.translation import get_language, gettext_lazy

from combat import posts
from combat.access import Sight
from combat.fragments import engine_text, memo
from combat.roster import OPPONENTS, PARTY
from combat.rules.base import Badge, LegalAction, OddsOption
from combat.terms import current_ruleset

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


@register.tag("memo")
def do_memo(parser: Parser, token: Token) -> MemoNode:
    """`{% memo "order-row" r view.stage %}…{% endmemo %}`: the block's output remembered for
    these values in this language and ruleset's terms, for this audience (GM or player).

    Name every value the block reads: a value left out would show one viewer what was
    rendered for another's data. Mappings and lists are keyed by their items."""
    bits = token.split_contents()[1:]
    if not bits:
        raise template.TemplateSyntaxError("memo needs a name and the values the block reads")
    nodelist = parser.parse(("endmemo",))
    parser.delete_first_token()
    return MemoNode(nodelist, [parser.compile_filter(bit) for bit in bits])


class MemoNode(template.Node):
    def __init__(self, nodelist: NodeList, values: list[FilterExpression]) -> None:
        self.nodelist = nodelist
        self.values = values

    def render(self, context: template.Context) -> str:
        viewer = context.get("viewer")
        key = (
            get_language(),
            current_ruleset(),
            getattr(viewer, "is_gm", None),
            getattr(context.get("sight"), "seen", None),  # what `{% tr %}` words as hidden
            context.autoescape,
            *(_hashable(value.resolve(context)) for value in self.values),
        )
        return memo(key, lambda: self.nodelist.render(context))


def _hashable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_hashable(v) for v in value)
    return value


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
            rows.append((f"c.{name}", json.dumps(value), "data-json"))
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
