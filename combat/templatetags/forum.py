"""Texts made safe for a forum post: every text the export shows is plain text in its format.

`{{ text|bbcode }}` keeps a `[` or `]` of the text from opening or closing a tag (a zero-width
space beside each, so "[b]X[/b]" reads as written and bolds nothing); `{{ text|markdown }}`
backslash-escapes what Markdown would read as markup, and keeps a text's own line breaks
inside the list item it stands in (`|markdown_quote`: inside the blockquote).
`{{ name|bbcode_author }}` is a name fit for `[quote="…"]`. The export templates turn
autoescaping off: HTML escaping would show "&amp;" on a forum.
"""

from __future__ import annotations

import re

from django import template

register = template.Library()

ZERO_WIDTH = "\u200b"
# Markdown's inline markup (and entities, and raw HTML); a text's line may also start a block.
_MD_INLINE = re.compile(r"([\\`*_\[\]<>~|&])")
_MD_BLOCK = re.compile(r"^([ \t]*)([#+\-=>])", re.MULTILINE)
_MD_NUMBERED = re.compile(r"^([ \t]*\d+)([.)])", re.MULTILINE)


@register.filter
def bbcode(value: object) -> str:
    text = str(value)
    return text.replace("[", "[" + ZERO_WIDTH).replace("]", ZERO_WIDTH + "]")


@register.filter
def markdown(value: object) -> str:
    text = _MD_INLINE.sub(r"\\\1", str(value).replace("\r\n", "\n"))
    text = _MD_NUMBERED.sub(r"\1\\\2", _MD_BLOCK.sub(r"\1\\\2", text))
    return text.replace("\n", "  \n  ")  # a hard break, the next line still in the list item


@register.filter
def bbcode_author(value: object) -> str:
    """A name inside `[quote="…"]`: a straight quote would end the attribute."""
    return bbcode(value).replace('"', "\u201d")


@register.filter
def markdown_quote(value: object) -> str:
    """A text inside a "> " blockquote: each of its lines escaped, and still in the quote."""
    lines = str(value).replace("\r\n", "\n").split("\n")
    return "  \n> ".join(markdown(line) for line in lines)
