"""Reaction prompts and odds: the prompt offers only the reactions allowed now, every answer
is a command the rules take, the policies answer for GM-run defenders, and the odds are the
leaves' exact odds for the engine's own thresholds."""

from __future__ import annotations

import pytest

from combat.rules.base import (
    Autoplay,
    Odds,
    Prompts,
    RuleViolation,
    SecretRolls,
    fill,
    secret_rolls_of,
)
from combat.rules.d100 import RULESET, prompts
from combat.rules.d100.commands import (
    AddCondition,
    Attack,
    Cast,
    Damage,
    Defend,
    EndTurn,
    GMRoll,
    Post,
    Rest,
)
from combat.rules.d100.engine.attack import best_defence
from combat.rules.d100.events import PromptClosed
from combat.rules.d100.odds import attack_odds, success_chance
from combat.rules.d100.state import Action
from combat.rules.records import replace
from tests.combat.rules.d100.engine_kit import Table, fighter

SPELLS = [
    {"name": "Ogień", "kind": "damage"},
    {"name": "Klątwa", "kind": "negative"},
    {"name": "Tarcza", "kind": "positive"},
]


def attacked(**ork: object) -> Table:
    """Ala (Zwinność 60, a Miecz) attacks Ork (light armour): Ork's prompt is open."""
    t = Table(
        fighter("ala", "a", "u1", zwinnosc=60, pz=100, spells=SPELLS),
        fighter("ork", "b", pz=80, armour="light", **ork),  # type: ignore[arg-type]
    )
    t.start()
    t.do(Attack(actor="ala", target="ork", now=100.0))
    return t


def test_ruleset_has_the_prompts_odds_autoplay_and_secret_rolls_capabilities() -> None:
    assert isinstance(RULESET, Prompts) and isinstance(RULESET, Odds)
    assert isinstance(RULESET, Autoplay) and isinstance(RULESET, SecretRolls)
    assert secret_rolls_of(RULESET) is RULESET
    assert RULESET.secret_dice(GMRoll(secret=True))
    assert not RULESET.secret_dice(GMRoll())
    assert not RULESET.secret_dice(Rest(actor="ala"))
    assert RULESET.key == "d100" and RULESET.label == "Kroniki Fallathanu (k100)"


def test_a_hidden_attacker_is_not_named_on_its_targets_prompt() -> None:
    t = Table(
        fighter("ala", "a", "u1", zwinnosc=40),
        fighter("ork", "b", zwinnosc=60, hidden=True),
    )
    t.start()
    t.do(Attack(actor="ork", target="ala", now=100.0))
    (view,) = prompts.open_prompts(t.state)
    assert view.label == "Atak z ukrycia → Ala"
    assert (view.label_template, view.label_params) == (
        "Atak z ukrycia → %(target)s",
        {"target": "Ala"},
    )


def test_the_prompt_names_attacker_and_target_and_offers_the_allowed_reactions() -> None:
    t = attacked()
    (view,) = prompts.open_prompts(t.state)
    assert view.actor == "ork" and view.attacker == "ala" and view.kind == "obrona"
    assert view.label == "Atak: Ala → Ork"
    assert (view.label_template, view.label_params) == (
        prompts.LABEL,
        {"attacker": "Ala", "target": "Ork"},
    )
    assert view.options == (
        ("unik", "Unik (próg 40)"),
        ("blok", "Blok (próg 50)"),
        ("", "Bez obrony"),
    )
    assert view.deadline == 100.0 + t.state.settings.reaction_seconds
    assert view.attack_command == Attack(actor="ala", target="ork", choice="w0")


def test_a_defender_without_weapon_or_shield_cannot_block() -> None:
    t = attacked(weapons=[])
    (view,) = prompts.open_prompts(t.state)
    assert [key for key, _ in view.options] == ["unik", ""]
    with pytest.raises(RuleViolation) as refused:
        prompts.prompt_command(t.state, view.id, "blok", 1.0)
    assert refused.value.code == "obrona_niedostepna"


def test_a_knocked_down_defender_may_only_dodge() -> None:
    t = Table(fighter("ala", "a", "u1", zwinnosc=60), fighter("ork", "b"))
    t.start()
    t.do(AddCondition(target="ork", condition="powalenie", turns=2))
    t.do(Attack(actor="ala", target="ork"))
    (view,) = prompts.open_prompts(t.state)
    assert [key for key, _ in view.options] == ["unik", ""]
    assert dict(view.options)["unik"] == "Unik (próg 10)"  # 50 − 40 from the ground


def test_every_answer_is_a_defend_command_the_rules_take() -> None:
    t = attacked()
    (view,) = prompts.open_prompts(t.state)
    for key, _label in view.options:
        command = prompts.prompt_command(t.state, view.id, key, 5.0)
        assert command == Defend(actor="ork", prompt=view.id, option=key, now=5.0)
    t.do(prompts.prompt_command(t.state, view.id, "unik", 5.0), [90])
    assert t.state.prompts == ()
    with pytest.raises(RuleViolation) as refused:
        prompts.prompt_command(t.state, view.id, "", 6.0)
    assert refused.value.code == "brak_pytania"


def test_policies_answer_for_a_gm_run_defender() -> None:
    t = attacked()
    (view,) = prompts.open_prompts(t.state)
    answer = prompts.auto_answer
    assert answer(t.state, view.id, "ask", 1.0) is None
    assert answer(t.state, "p9", "best", 1.0) is None
    none = answer(t.state, view.id, "none", 1.0)
    assert isinstance(none, Defend) and none.option == ""
    unik = answer(t.state, view.id, "unik", 1.0)
    assert isinstance(unik, Defend) and unik.option == "unik"
    best = answer(t.state, view.id, "best", 1.0)
    plan = prompts.prompt_plan(t.state, t.state.prompts[0])
    assert plan is not None
    assert isinstance(best, Defend) and best.option == best_defence(t.state, plan) == "blok"
    with pytest.raises(ValueError, match="unknown reaction policy"):
        answer(t.state, view.id, "flee", 1.0)
    assert [key for key, _ in RULESET.reaction_policies()] == [
        "ask",
        "best",
        "unik",
        "blok",
        "none",
    ]
    assert RULESET.default_policy(t.state) == "best"


def test_a_policy_whose_reaction_is_not_offered_answers_the_best() -> None:
    t = attacked(weapons=[])
    (view,) = prompts.open_prompts(t.state)
    blok = prompts.auto_answer(t.state, view.id, "blok", 1.0)
    assert isinstance(blok, Defend) and blok.option == "unik"


def test_answer_odds_are_the_leaves_odds_for_the_engines_thresholds() -> None:
    t = attacked()
    (view,) = prompts.open_prompts(t.state)
    odds = prompts.answer_odds(t.state, view.id)
    assert odds is not None and odds.target == "ork"
    s = t.state.settings
    for key, defence in (("unik", 40), ("blok", 50), ("", None)):
        expected = attack_odds(
            s, hit=60, damage=70, defence=defence, resistance=50, armour=10, target_pz=80
        )
        option = odds.option(key)
        assert option is not None
        assert option.headline is not None and option.headline.label == "trafia"
        assert option.headline.probability == pytest.approx(expected.lands)
        assert option.expected_damage == pytest.approx(expected.expected_damage)
        found = {o.label: o.probability for o in option.outcomes}
        assert found["krytyczne szczęście trafienia"] == pytest.approx(expected.hit_crit_luck)
        assert found["każdy skutek k6 MG (np. Ogłuszenie)"] == pytest.approx(
            expected.armour_negated
        )
        assert found["Uraz z krytycznych obrażeń"] == pytest.approx(expected.damage_crit_luck)
        assert found["cios do 0 PŻ"] == pytest.approx(expected.knockout or 0.0)
        if key:
            assert found["obrona udana"] == pytest.approx(expected.avoided)
            assert found["krytyczny pech obrony"] == pytest.approx(expected.defence_crit_bad)
    assert fill(*odds.notes[0]) == "Trafienie 60, Obrażenia 70; Odporność 50, pancerz 10%."
    assert prompts.answer_odds(t.state, "p9") is None


def test_without_crits_or_resistance_the_odds_leave_them_out() -> None:
    t = Table(
        fighter("ala", "a", "u1", zwinnosc=60),
        fighter("ork", "b"),
        optional_crits=False,
        resistance_roll=False,
    )
    t.start()
    t.do(Attack(actor="ala", target="ork"))
    odds = prompts.answer_odds(t.state, "p1")
    assert odds is not None
    labels = [o.label for o in odds.options[-1].outcomes]
    assert "Uraz z krytycznych obrażeń" not in labels
    assert fill(*odds.notes[0]) == "Trafienie 60, Obrażenia 70; pancerz 0%."


def test_the_prompt_card_shows_the_attack_and_each_reactions_threshold() -> None:
    t = attacked()
    panel = prompts.prompt_panel(t.state, "p1")
    assert panel is not None
    assert panel.means == "Miecz" and not panel.spell
    assert (panel.hit, panel.damage, panel.resistance, panel.armour) == (60, 70, 50, 10)
    assert [o.key for o in panel.options] == ["unik", "blok"]
    assert panel.tie_to_defender and panel.crits
    assert prompts.prompt_panel(t.state, "p9") is None


def test_preview_odds_of_an_attack_before_it_is_sent() -> None:
    t = Table(
        fighter("ala", "a", "u1", zwinnosc=60, spells=SPELLS), fighter("ork", "b", armour="light")
    )
    t.start()
    odds = prompts.preview_odds(t.state, Attack(actor="ala", target="ork"))
    assert [o.key for o in odds.options] == ["unik", "blok", ""]
    assert [o.label for o in odds.options] == ["cel: Unik", "cel: Blok", "cel bez obrony"]
    expected = attack_odds(t.state.settings, hit=60, damage=70, defence=40, resistance=50,
                           armour=10, target_pz=200)  # fmt: skip
    headline = odds.options[0].headline
    assert headline is not None and headline.probability == pytest.approx(expected.lands)
    assert odds.target == "ork"


def test_a_refused_or_oddless_command_has_no_preview() -> None:
    t = Table(fighter("ala", "a", "u1", zwinnosc=60), fighter("ork", "b"))
    t.start()
    with pytest.raises(RuleViolation) as refused:
        prompts.preview_odds(t.state, Attack(actor="ork", target="ala"))
    assert refused.value.code == "nie_twoja_tura"
    with pytest.raises(RuleViolation) as refused:
        prompts.preview_odds(t.state, EndTurn(actor="ala"))
    assert refused.value.code == "podglad"
    with pytest.raises(RuleViolation):
        prompts.preview_odds(t.state, Attack(actor="ala", target="ala"))


def test_a_damage_spell_and_a_posted_attack_have_odds_too() -> None:
    t = Table(fighter("ala", "a", "u1", spells=SPELLS), fighter("ork", "b"), pace="post")
    t.start(now=1000)
    post = Post(actor="ala", action=Action("attack", target="ork", choice="w0"))
    assert [o.key for o in prompts.preview_odds(t.state, post).options] == ["unik", "blok", ""]
    fire = Post(actor="ala", action=Action("cast", target="ork", spell=0))
    keys = [o.key for o in prompts.preview_odds(t.state, fire).options]
    assert keys == ["unik", ""]  # no Blok against magic
    live = Table(fighter("ala", "a", "u1", zwinnosc=60, spells=SPELLS), fighter("ork", "b"))
    live.start()
    cast = prompts.preview_odds(live.state, Cast(actor="ala", spell=0, target="ork"))
    assert [o.key for o in cast.options] == ["unik", ""]


def test_an_effect_spells_odds_are_both_rolls_and_the_targets_resistance() -> None:
    t = Table(fighter("ala", "a", "u1", zwinnosc=60, spells=SPELLS), fighter("ork", "b"))
    t.start()
    s = t.state.settings
    curse = prompts.preview_odds(t.state, Cast(actor="ala", spell=1, target="ork"))
    (option,) = curse.options
    lands = attack_odds(s, hit=50, damage=0, defence=50, crits=False).lands
    assert option.key == "czar" and option.label == "Klątwa"
    assert option.outcomes[0].probability == pytest.approx(success_chance(50, s) * lands)
    assert curse.target == "ork"
    shield = prompts.preview_odds(t.state, Cast(actor="ala", spell=2))
    assert shield.options[0].outcomes[0].probability == pytest.approx(success_chance(50, s) ** 2)
    assert shield.target is None
    assert fill(*shield.notes[0]) == "Trafienie 50, drugi rzut 50."


def test_a_mind_spell_is_resisted_with_the_mind_attribute() -> None:
    fear = [{"name": "Strach", "kind": "negative"}]
    t = Table(fighter("ala", "a", "u1", zwinnosc=60, spells=fear), fighter("ork", "b", oglada=20))
    t.start()
    ala = t.state.get("ala")  # the engine reads a "mind" flag the sheet does not keep yet
    sheet = {**ala.sheet, "spells": [{**ala.spells[0], "mind": True}]}
    t.state = t.state.with_combatant(replace(ala, sheet=sheet))
    (option,) = prompts.preview_odds(t.state, Cast(actor="ala", spell=0, target="ork")).options
    s = t.state.settings
    lands = attack_odds(s, hit=50, damage=0, defence=20, crits=False).lands
    assert option.outcomes[0].probability == pytest.approx(success_chance(50, s) * lands)


def test_the_ruleset_answers_prompts_through_the_same_functions() -> None:
    t = attacked()
    assert RULESET.open_prompts(t.state) == prompts.open_prompts(t.state)
    assert RULESET.prompt_command(t.state, "p1", "", 2.0) == prompts.prompt_command(
        t.state, "p1", "", 2.0
    )
    assert RULESET.prompt_panel(t.state, "p1") == prompts.prompt_panel(t.state, "p1")
    assert RULESET.answer_odds(t.state, "p1") == prompts.answer_odds(t.state, "p1")
    assert RULESET.auto_answer(t.state, "p1", "none", 2.0) == prompts.auto_answer(
        t.state, "p1", "none", 2.0
    )
    preview = RULESET.preview_odds(
        t.state, Post(actor="ala", action=Action("attack", target="ork"))
    )
    assert preview.target == "ork"


def test_a_damage_spells_prompt_names_the_cast_and_offers_no_blok() -> None:
    t = Table(fighter("ala", "a", "u1", zwinnosc=60, spells=SPELLS), fighter("ork", "b"))
    t.start()
    t.do(Cast(actor="ala", spell=0, target="ork"))
    (view,) = prompts.open_prompts(t.state)
    assert view.attack_command == Cast(actor="ala", spell=0, target="ork")
    assert [key for key, _ in view.options] == ["unik", ""]
    panel = prompts.prompt_panel(t.state, view.id)
    assert panel is not None and panel.spell and panel.means == "Ogień"


def test_an_attack_that_fell_through_leaves_only_closing_its_prompt() -> None:
    t = attacked()
    t.do(Damage(target="ork", amount=500))  # the GM drops the target before it answers
    (view,) = prompts.open_prompts(t.state)
    assert view.options == (("", "Bez obrony"),)
    assert prompts.answer_odds(t.state, view.id) is None
    assert prompts.prompt_panel(t.state, view.id) == prompts.PromptPanel(
        fallen="Ork jest już poza walką."
    )
    answer = prompts.auto_answer(t.state, view.id, "best", 9.0)
    assert isinstance(answer, Defend) and answer.option == ""
    (closed,) = t.do(answer)
    assert isinstance(closed, PromptClosed) and t.state.prompts == ()
