"""`Fields`, the mapping a panel record holds: hashable, compared by value, in its order."""

from __future__ import annotations

import json

from django.template import Context, Template

from combat.rules.base import Fields, frozen


def test_fields_compare_and_hash_by_value_with_nested_values_frozen() -> None:
    a = Fields({"type": "attack", "targets": ["c1", "c2"], "extra": {"charge": 5}})
    b = frozen({"type": "attack", "targets": ["c1", "c2"], "extra": {"charge": 5}})
    assert a == b and hash(a) == hash(b)
    assert a["targets"] == ("c1", "c2")
    assert isinstance(a["extra"], Fields)
    assert a != Fields({"type": "attack", "targets": ["c1"], "extra": {"charge": 5}})
    assert a == {"type": "attack", "targets": ("c1", "c2"), "extra": {"charge": 5}}
    assert list(a) == ["type", "targets", "extra"]
    assert len({a, b}) == 1


def test_command_fields_write_a_fields_record_as_the_browser_rebuilds_it() -> None:
    command = Fields({"type": "attack", "extra": {"charge": 5}, "targets": ["c1"]})
    html = Template("{% load table %}{% command_fields c %}").render(Context({"c": command}))
    assert '<input type="hidden" name="c.type" value="attack" >' in html
    assert json.dumps({"charge": 5}).replace('"', "&quot;") in html
    assert 'name="c.targets" value="[&quot;c1&quot;]" data-json' in html
