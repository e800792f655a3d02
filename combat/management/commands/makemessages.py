"""`makemessages` that also reads `pgettext_noop(ruleset, msgid)`: a term marked in the message
context of one ruleset (its English reads differently there; see combat/terms.py)."""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=pgettext_noop:1c,2"]
