"""Eleora terms whose English differs from the other rulesets' (msgctxt "eleora" in the .po).

Eleora's English keeps its attributes and skills in Polish, as its rules digest does ("Zręczność
+ Intuicja"), where Magus and d100 read "Dexterity", "Perception". The table looks a msgid up in
this context first (combat/terms.py).
"""

from __future__ import annotations

from combat.rules.base import pgettext_noop

TERMS = (
    pgettext_noop("eleora", "Siła"),
    pgettext_noop("eleora", "Krzepa"),
    pgettext_noop("eleora", "Zręczność"),
    pgettext_noop("eleora", "Intelekt"),
    pgettext_noop("eleora", "Charyzma"),
    pgettext_noop("eleora", "Akrobatyka"),
    pgettext_noop("eleora", "Medycyna"),
    pgettext_noop("eleora", "Percepcja"),
    pgettext_noop("eleora", "Powalenie"),  # the condition: Prone (d100's Knockdown)
)
