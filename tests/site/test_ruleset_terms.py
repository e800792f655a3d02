"""The rules' texts in each ruleset's terms (combat/terms.py): a msgid is looked up in the
ruleset's message context first, then without one; a param may itself be a (msgid, params) text,
and a plain param, as older log lines stored them, still shows as it was."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation

from combat.fragments import engine_text
from combat.rules.base import fill, text_param
from combat.terms import current_ruleset, rules_gettext, rules_text, ruleset_terms


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    with translation.override("en"):
        yield


def test_a_term_reads_in_the_ruleset_s_own_words() -> None:
    with ruleset_terms("d100"):
        assert rules_gettext("Unik") == "Dodge"
    with ruleset_terms("magus"):
        assert rules_gettext("Unik") == "Avoid Blow"
    with ruleset_terms("eleora"):
        assert rules_gettext("Zręczność") == "Zręczność"
    with ruleset_terms("magus"):
        assert rules_gettext("Zręczność") == "Dexterity"


def test_a_msgid_without_an_entry_of_the_ruleset_falls_back_to_the_plain_one() -> None:
    with ruleset_terms("d100"):
        assert rules_gettext("Blok") == "Block"
        assert rules_gettext("Nie ma takiego tekstu") == "Nie ma takiego tekstu"
    assert rules_gettext("Blok") == "Block"  # outside any ruleset
    assert rules_gettext("") == ""  # not the catalogue's header


def test_the_terms_last_only_inside_their_block() -> None:
    with ruleset_terms("magus"):
        with ruleset_terms("d100"):
            assert current_ruleset() == "d100"
        assert current_ruleset() == "magus"
    assert current_ruleset() == ""


def test_a_text_inside_a_log_line_is_translated_too() -> None:
    template = "%(name)s: %(condition)s."
    params = {"name": "Ork 1", "condition": text_param("Powalony")}
    assert rules_text(template, params) == "Ork 1: Knocked down."
    with translation.override("pl"):
        assert rules_text(template, params) == "Ork 1: Powalony."
    assert fill(template, params) == "Ork 1: Powalony."  # the rules' own Polish text


def test_a_stored_text_param_is_a_list_and_nests() -> None:
    """JSON keeps a (msgid, params) pair as a list; a text may carry texts of its own."""
    level = ["porażka", {}]
    summary = [
        "próg %(threshold)s · OoP %(oop)s · %(level)s",
        {"threshold": 40, "oop": 0, "level": level},
    ]
    with ruleset_terms("d100"):
        assert (
            engine_text("%(summary)s", {"summary": summary}) == "threshold 40 · margin 0 · failure"
        )


def test_an_old_plain_param_still_shows_as_it_was_stored() -> None:
    """Log lines stored before params could be texts hold the Polish word itself."""
    with ruleset_terms("d100"):
        assert engine_text(
            "%(name)s: %(condition)s.", {"name": "Ghul", "condition": "Powalony"}
        ) == ("Ghul: Powalony.")
