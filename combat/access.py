"""Who may reach a table, command in it and see what: the one place for each of these rules.

`find_encounter_for` serves the pages (404), `viewer_at` the socket (its connect and every
message: close); `authorise` every command;
`Sight` what a viewer may see of a table: which seats (a player never sees a hidden one, nor
the numbers of a GM-run one until the GM reveals them), which log lines and which prompts,
and how a refusal or a reason reads for them (`words`: a seat they may not see is „ktoś
ukryty”).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _

from characters.access import AnyUser, campaigns_for, role_in
from characters.models import Membership
from combat.models import Encounter
from combat.rules.base import (
    Names,
    PromptView,
    Ruleset,
    RuleViolation,
    SeatView,
    TableView,
    fill,
    is_text,
)
from combat.terms import rules_text, use_ruleset_terms


class Refused(Exception):  # noqa: N818 - a refusal shown to the one who asked
    """A command the table will not run; `message` is readable, the log is unchanged."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Viewer:
    """Who looks at (and commands) a table: the GM sees and runs everything."""

    user_id: int
    is_gm: bool

    @property
    def controller(self) -> str:
        return str(self.user_id)

    def owns(self, controller: str | None) -> bool:
        """A player character this viewer plays (the GM's NPCs have no controller)."""
        return controller is not None and controller == self.controller


GM = Viewer(user_id=0, is_gm=True)  # the server acting for the GM (expiries, NPC answers)


@dataclass(frozen=True)
class Sight:
    """What one viewer may see of one table (`sight(view, viewer)`)."""

    gm: bool
    viewer: Viewer
    seen: frozenset[str]  # the seats this viewer sees
    public: frozenset[str] = frozenset()  # the seats every player sees

    def everyone(self, line: Mapping[str, Any]) -> bool:
        """A log line every viewer sees, the GM and all players alike."""
        return not line.get("secret") and set(line.get("actors", ())) <= self.public

    def seat(self, seat: SeatView) -> SeatView | None:
        """The seat as this viewer may see it, or None: a player sees no hidden seat, and
        the numbers of a GM-run one only once the GM reveals them (its wound level instead)."""
        if self.gm:
            return seat
        if seat.hidden:
            return None
        if seat.controller is not None or seat.revealed:
            return dataclasses.replace(seat, removable=frozenset())
        health = dataclasses.replace(seat.health, current=0, maximum=0)
        return dataclasses.replace(seat, health=health, removable=frozenset())

    def numbers(self, seat: SeatView) -> bool:
        return self.gm or seat.controller is not None or seat.revealed

    def line(self, line: Mapping[str, Any]) -> bool:
        """A log line: secret ones for the GM only, and one about a seat the viewer cannot
        see neither (its name would give it away)."""
        if self.gm:
            return True
        return not line.get("secret") and set(line.get("actors", ())) <= self.seen

    def prompt(self, prompt: PromptView, view: TableView) -> bool:
        """A player sees the prompts of their own characters; the GM sees (and answers) all."""
        seat = view.seats.get(prompt.actor)
        return self.gm or (seat is not None and self.viewer.owns(seat.controller))

    def words(self, params: Mapping[str, Any] | None) -> Mapping[str, Any]:
        """The params of a text the rules made, as this viewer may read them: each seat a
        `Names` param names that the viewer cannot see becomes „ktoś ukryty” (texts inside
        texts too)."""
        if self.gm or not params:
            return params or {}
        return {key: self._word(value) for key, value in params.items()}

    def _word(self, value: Any) -> Any:
        if isinstance(value, Names) and value.seats:
            names = (name if seat in self.seen else _("ktoś ukryty") for seat, name in value.seats)
            return value.separator.join(dict.fromkeys(names))
        if is_text(value):
            return (value[0], self.words(value[1]))
        return value

    def text(self, template: str, params: Mapping[str, Any] | None, fallback: str = "") -> str:
        """A text the rules made (a reason, a note), in this viewer's language and words."""
        worded = self.words(params)
        if template:  # the Polish text, worded as the viewer may read it
            fallback = fill(template, worded)
        return rules_text(template, worded, fallback)

    def refused(self, refusal: RuleViolation) -> str:
        """A refusal of the rules as this viewer reads it."""
        return self.text(refusal.template, refusal.params, refusal.message)


def sight(view: TableView, viewer: Viewer) -> Sight:
    public = player_seen(view)
    seen = frozenset(view.seats) if viewer.is_gm else public
    return Sight(gm=viewer.is_gm, viewer=viewer, seen=seen, public=public)


def player_seen(view: TableView) -> frozenset[str]:
    """The seats every player sees (not the hidden)."""
    return frozenset(cid for cid, seat in view.seats.items() if not seat.hidden)


def authorise(rules: Ruleset, view: TableView, viewer: Viewer, command: Any) -> None:
    """The GM commands everyone; a player only the characters they control, within the rules,
    never naming a combatant they cannot see, and never a value only the GM judges."""
    if viewer.is_gm:
        return
    actor = rules.command_actor(command)
    if actor is None:
        raise Refused("tylko_mg", _("Tylko Mistrz Gry może to zrobić."))
    seat = view.seats.get(actor)
    if seat is None or not viewer.owns(seat.controller):
        raise Refused("nie_twoja", _("To nie twoja postać."))
    for named in rules.command_targets(command):
        other = view.seats.get(named)
        if other is None or other.hidden:
            # As for an id that does not exist: a player may not probe for hidden combatants.
            raise Refused("postac", _("Nie ma takiej postaci: %(id)s") % {"id": named})
    judged = rules.gm_judged_fields(command)
    if judged:
        raise Refused(
            "ocena_mg",
            _("Tylko Mistrz Gry ustala: %(fields)s.") % {"fields": ", ".join(judged)},
        )


def find_encounter_for(user: AnyUser, pk: int) -> tuple[Encounter, Viewer] | None:
    """The encounter and the user as its viewer, if they belong to its campaign; else None."""
    encounter = (
        Encounter.objects.filter(pk=pk, campaign__in=campaigns_for(user))
        .select_related("campaign")
        .first()
    )
    if encounter is None:
        return None
    role = role_in(user, encounter.campaign)
    if role is None or user.pk is None:
        return None
    return encounter, Viewer(user_id=user.pk, is_gm=role == Membership.Role.GM)


def viewer_at(user: AnyUser, pk: int) -> Viewer | None:
    """The user as a viewer of table `pk`, or None, in one query: the socket asks again on
    every message (the two queries of `find_encounter_for` were 4 ms of a command's CPU)."""
    if user.pk is None or not user.is_active:
        return None
    if user.is_superuser:
        found = Encounter.objects.filter(pk=pk).exists()
        return Viewer(user_id=user.pk, is_gm=True) if found else None
    role = (
        Membership.objects.filter(user_id=user.pk, campaign__encounters__pk=pk)
        .values_list("role", flat=True)
        .first()
    )
    return None if role is None else Viewer(user_id=user.pk, is_gm=role == Membership.Role.GM)


def get_encounter_for(user: AnyUser, pk: int) -> tuple[Encounter, Viewer]:
    found = find_encounter_for(user, pk)
    if found is None:
        raise Http404("No such encounter")
    use_ruleset_terms(found[0].ruleset)
    return found
