"""Creature names as the players count them (`combat.rules.naming`): pure, every ruleset's."""

from __future__ import annotations

import pytest

from combat.rules import naming


def test_numbered_counts_only_numbered_names_of_its_kind() -> None:
    names = ["Wilk ?KX", "Wilk ?B3", "Wilk 1", "Wilkołak 7", "Radosław"]
    assert naming.numbered("Wilk", names) == "Wilk 2"
    assert naming.numbered("Ghul", names) == "Ghul 1"


def test_a_placeholder_is_shown_under_the_next_number_and_a_name_keeps_itself() -> None:
    others = ["Wilk 1", "Wilk ?B3", "Wilk 4"]
    assert naming.shown("Wilk ?KX", others) == "Wilk 5"
    assert naming.shown("Wilk 2", others) is None
    assert naming.shown("Cichy Szpieg", others) is None


def test_a_placeholder_has_a_tag_and_refuses_a_bad_one() -> None:
    assert naming.placeholder("Szary wilk", "KX") == "Szary wilk ?KX"
    assert naming.tag_of("Szary wilk ?KX") == "KX"
    assert naming.tag_of("Szary wilk 2") is None
    with pytest.raises(ValueError):
        naming.placeholder("Wilk", "kx 1")
