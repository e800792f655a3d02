"""d100 terms whose English differs from the other rulesets' (msgctxt "d100" in the .po).

The catalogue's plain entries name Eleora's rule terms as its English digest does; the English
d100 digest names these differently. The table looks a msgid up in this context first
(combat/terms.py).
"""

from __future__ import annotations

from combat.rules.base import pgettext_noop

TERMS = (
    pgettext_noop("d100", "Zdrowie"),
    pgettext_noop("d100", "Atak"),
    pgettext_noop("d100", "Ruch"),
    pgettext_noop("d100", "Unik"),
    pgettext_noop("d100", "Przeładowanie"),
    pgettext_noop("d100", "Inicjatywa"),
    pgettext_noop("d100", "Nieprzytomność"),
    pgettext_noop("d100", "zawsze Unik"),
)
