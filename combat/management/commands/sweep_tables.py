"""`manage.py sweep_tables [--loop]`: send the by-post reminders and resolve the deadlines of
every table that is due, as each server process does every SWEEP_S seconds by itself, and
send the mails that are due (characters/outbox.py).

For deployments that sweep from cron (every minute or so) or from one process beside the
servers (`--loop`, with SWEEP_S=0 for the servers themselves).
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections

from characters import outbox
from combat import sweeps


class Command(BaseCommand):
    help = "Send due by-post reminders and resolve passed deadlines of every table."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--loop", action="store_true", help="sweep again and again")
        parser.add_argument(
            "--every",
            type=float,
            default=None,
            help=f"seconds between sweeps with --loop (SWEEP_S, else {sweeps.SWEEP_S:g})",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        every = options["every"] or float(getattr(settings, "SWEEP_S", 0) or sweeps.SWEEP_S)
        while True:
            close_old_connections()
            swept = sweeps.sweep()
            outbox.deliver()  # the mails due: queued by this sweep, or left to try again
            if not options["loop"]:
                self.stdout.write(f"{swept} table(s) swept")
                return
            time.sleep(every)
