"""Magus terms whose English differs from the other rulesets' (msgctxt "magus" in the .po).

The catalogue's plain entries name Eleora's rule terms as its English digest does; the English
Magus books name these differently. The table looks a msgid up in this context first
(combat/terms.py).
"""

from __future__ import annotations

from combat.rules.base import pgettext_noop

TERMS = (
    pgettext_noop("magus", "Zdrowie"),
    pgettext_noop("magus", "Atak"),
    pgettext_noop("magus", "Ruch"),
    pgettext_noop("magus", "Unik"),
    pgettext_noop("magus", "Szarża"),
    pgettext_noop("magus", "Inicjatywa"),
    pgettext_noop("magus", "Nieprzytomność"),
    pgettext_noop("magus", "Pancerz"),
    pgettext_noop("magus", "Walka Wręcz"),
    pgettext_noop("magus", "zawsze Unik"),
    pgettext_noop("magus", "Ustaw zdrowie"),
)
