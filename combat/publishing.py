"""The one way news leaves the table service: after commit, through the hook the live layer
registers (`register`; combat/apps.py registers `combat.hub.send`, the channel layer's
group of the table). The service never imports the socket layer; without a hook (a process
that registered none) news goes nowhere, and sockets elsewhere catch up by their watchdog.

The messages (group messages of the table, handled by `TableConsumer.table_<type>`):
- "table.changed": the log reached `seq`. For an entry appended, `entry` carries it as
  stored (`entry_of`), so a process that holds the head before it builds the new head
  without reading the database (`snapshots.advance`); `force`: something outside the log
  changed (an NPC policy; `roster`: the campaign's characters or creatures), render again
  anyway.
- "table.access": a user left the campaign; their sockets check and close.
The events carry what the GM's eyes see too (hidden stats, GM rolls): the message goes to the
server processes only, and each renders for its viewers what they may see.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

Message = dict[str, Any]
Sender = Callable[[int, Message], None]  # (encounter pk, message) -> sent, without waiting

_sender: Sender | None = None


def register(sender: Sender | None) -> Sender | None:
    """Make `sender` the hook (None: none); the one it replaces, for a test to put back."""
    global _sender  # noqa: PLW0603 - the one hook of the process, set once at start-up
    previous, _sender = _sender, sender
    return previous


def table_changed(
    encounter_id: int,
    seq: int,
    *,
    entry: Mapping[str, Any] | None = None,
    force: bool = False,
    roster: bool = False,
) -> None:
    """Tell every process showing the table that its log reached `seq` (with its `entry`)."""
    message: Message = {"type": "table.changed", "seq": seq, "force": force or roster}
    if roster:
        message["roster"] = True
    if entry is not None:
        message["entry"] = dict(entry)
    _send(encounter_id, message)


def access_changed(encounter_id: int, user_id: int) -> None:
    """Tell every process showing the table that this user left its campaign."""
    _send(encounter_id, {"type": "table.access", "user": user_id})


def entry_of(
    events: Sequence[Mapping[str, Any]],
    lines: Sequence[Mapping[str, Any]],
    undo_to: int | None,
    npc_policies: Mapping[str, str],
) -> dict[str, Any]:
    """An appended entry as "table.changed" carries it: its events and log lines as stored,
    the undo it is (if any) and the GM's NPC settings at the new head."""
    return {
        "events": list(events),
        "lines": list(lines),
        "undo_to": undo_to,
        "npc_policies": dict(npc_policies),
    }


def _send(encounter_id: int, message: Message) -> None:
    if _sender is not None:
        _sender(encounter_id, message)
