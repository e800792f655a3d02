"""Every Magus form at the table is keyboard-operable: each control the user sets has a
label, and each form is sent by a real submit button."""

from __future__ import annotations

import pytest

from tests.combat.magus_table.helpers import MagusTable, forms_in, make_magus_table
from tests.combat.magus_table.test_round import to_act, to_initiative

pytestmark = pytest.mark.django_db


def assert_operable(html: str) -> int:
    """How many forms `html` has, each checked."""
    forms = forms_in(html)
    for form in forms:
        buttons = [b for b in form.buttons() if b.attrs.get("type") == "submit"]
        assert buttons and all(b.text for b in buttons), form
        for f in form.fields:
            typed = f.tag == "input" and f.attrs.get("type") != "hidden"
            if typed or f.tag in ("select", "textarea"):
                assert f.labelled, f
    return len(forms)


@pytest.mark.parametrize("stage", ["setup", "declare", "initiative", "act", "ended"])
def test_every_form_has_labelled_controls_and_a_submit_button(stage: str) -> None:
    t: MagusTable = make_magus_table()
    if stage == "declare":
        t.run(t.gm, {"type": "start_combat"})
    elif stage == "initiative":
        to_initiative(t)
    elif stage == "act":
        to_act(t)
    elif stage == "ended":
        to_act(t)
        t.run(t.gm, {"type": "end_combat"})
    assert assert_operable(t.html(t.gm))
    players = assert_operable(t.html(t.p1))
    assert players or stage in ("setup", "ended")
