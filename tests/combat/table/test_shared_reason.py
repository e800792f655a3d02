"""The turn panel's one reason said above the buttons (`shared_reason`): a reason about one
target is not the whole panel's (issue #22, point 1)."""

from __future__ import annotations

from combat.rules.base import LegalAction
from combat.templatetags.table import shared_reason

FAR = "Thorgrim Kowal Tarcz jest poza zasięgiem walki wręcz: 3 heksów."
SPENT = "Ork 1 wykonał już akcję standardową."


def refused(key: str, reason: str) -> LegalAction:
    return LegalAction(key, "Atak", False, reason)


def test_it_does_not_share_a_reason_the_means_of_one_target_repeat() -> None:
    actions = [
        refused("atak:c1:Tasak", FAR),
        refused("atak:c1:Pięści", FAR),
        LegalAction("atak:c2:Tasak", "Atak", True),
        LegalAction("koniec_tury", "Koniec tury", True),
    ]
    assert shared_reason(actions) is None


def test_it_shares_a_reason_that_refuses_different_actions() -> None:
    actions = [
        refused("atak:c1:Tasak", SPENT),
        refused("atak:c2:Tasak", SPENT),
        refused("akcja", SPENT),
        LegalAction("koniec_tury", "Koniec tury", True),
    ]
    found = shared_reason(actions)
    assert found is not None and found.reason == SPENT
