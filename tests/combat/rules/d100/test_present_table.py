"""The d100 table: the neutral view in every stage and pace, seats with wound levels, counters
and badges, and panels that offer only what the rules allow now, with the reason for the rest."""

from __future__ import annotations

from typing import Any

from combat.rules.base import fill
from combat.rules.d100 import RULESET, table
from combat.rules.d100.commands import (
    AddCondition,
    Attack,
    Damage,
    EndCombat,
    Expire,
    FreeAction,
    Post,
    ResolveTurn,
    SetPace,
)
from combat.rules.d100.state import Action, Effect, Summon
from combat.rules.records import replace
from tests.combat.rules.d100.engine_kit import Table, fighter

DAY = 24 * 3600


def duel(**settings: Any) -> Table:
    return Table(
        fighter("ala", "a", "u1", zwinnosc=60, pz=100),
        fighter("ork", "b", pz=80, armour="light"),
        **settings,
    )


def live() -> Table:
    t = duel()
    t.start()
    assert t.current == "ala"
    return t


def by_post() -> Table:
    t = duel(pace="post")
    t.start(now=1000)
    return t


def everyone(t: Table) -> frozenset[str]:
    return frozenset(t.state.combatants)


def actions(panel: Any) -> dict[str, Any]:
    return {a.key: a for a in panel.actions}


# --- the view ---------------------------------------------------------------------------------


def test_setup_shows_przygotowanie_and_the_order_the_fight_will_start_in() -> None:
    t = duel()
    view = table.table_view(t.state)
    assert view.stage == "setup" and view.label == "Przygotowanie"
    assert view.order == ("ala", "ork")  # Zwinność 60 before 50
    assert view.current is None and view.acting == () and view.waiting == ()
    assert view.pace == "live" and view.deadline is None and view.remind_at is None
    ala = view.seats["ala"]
    assert ala.initiative == 60 and ala.ready
    assert [c.label for c in ala.counters] == ["Urazy"]
    assert view.marks_label == "Urazy"


def test_a_live_turn_is_tura_bojowa_with_its_number_and_the_one_acting() -> None:
    t = live()
    view = table.table_view(t.state)
    assert view.label == "Tura bojowa %(n)s" and view.label_params == {"n": 1}
    assert fill(view.label, view.label_params) == "Tura bojowa 1"
    assert view.current == "ala" and view.seats["ala"].current
    assert (view.acting, view.waiting, view.deadline) == ((), (), None)
    counters = {c.key: (c.value, c.maximum) for c in view.seats["ala"].counters}
    assert counters == {"akcja_pelna": (1, 1), "urazy": (0, None)}


def test_an_attack_waits_on_its_target_with_the_prompts_deadline() -> None:
    t = live()
    t.do(Attack(actor="ala", target="ork", now=100.0))
    view = table.table_view(t.state)
    assert view.waiting == ("ork",)
    assert view.deadline == 100.0 + t.state.settings.reaction_seconds
    counters = {c.key: c.value for c in view.seats["ala"].counters}
    assert counters["akcja_pelna"] == 0


def test_a_turn_by_post_is_open_to_every_seat_until_its_deadline() -> None:
    t = by_post()
    view = table.table_view(t.state)
    assert view.pace == "post"
    assert view.acting == ("ala", "ork") and view.waiting == ("ala", "ork")
    assert view.deadline == 1000 + DAY
    assert view.remind_at == 1000 + DAY - 6 * 3600
    assert view.current is None
    t.do(Post(actor="ala", action=Action("rest"), now=2000))
    assert table.table_view(t.state).waiting == ("ork",)
    t.do(Expire(now=1000 + DAY + 1))
    closed = table.table_view(t.state)
    assert closed.acting == () and closed.waiting == ()


def test_no_reminder_when_the_table_sets_none() -> None:
    t = duel(pace="post", post_reminder_hours=0)
    t.start(now=1000)
    assert table.table_view(t.state).remind_at is None


def test_an_ended_fight_says_so_and_keeps_its_winner() -> None:
    t = live()
    t.do(EndCombat(winner="a"))
    view = table.table_view(t.state)
    assert view.stage == "ended" and view.label == "Walka zakończona" and view.winner == "a"
    assert view.current is None


def test_wound_levels_follow_the_share_of_pz_left() -> None:
    t = live()
    levels = []
    for amount in (0, 20, 20, 20, 19, 1):
        if amount:
            t.do(Damage(target="ork", amount=amount))
        levels.append(table.table_view(t.state).seats["ork"].health.level)
    assert levels == ["bez_ran", "drasniety", "ranny", "ciezko_ranny", "ledwo_zywy", "nieprzytomny"]
    health = table.table_view(t.state).seats["ork"].health
    assert health.out and health.current == 0 and health.maximum == 80
    assert health.status_label == "pokonany"
    assert table.table_view(t.state).seats["ork"].marks == ("1",)


def test_conditions_are_badges_with_the_turns_left_and_what_they_do() -> None:
    t = live()
    t.do(AddCondition(target="ork", condition="krwawienie", turns=3, value=4))
    t.do(AddCondition(target="ork", condition="powalenie", turns=0))
    ork = table.table_view(t.state).seats["ork"]
    bleed, down = ork.badges
    assert (bleed.key, bleed.label, bleed.detail) == (
        "krwawienie",
        "Krwawienie",
        "4 PŻ na turę, 3 tury",
    )
    assert bleed.description == "4 PŻ na koniec tury"
    assert down.detail == "do odwołania"
    assert down.description == "tylko ataki i Uniki z parteru, z modyfikatorem −40"
    assert ork.removable == frozenset({"krwawienie", "powalenie"})


def test_badges_tell_later_effects_modifiers_rest_forms_and_summons() -> None:
    t = live()
    ala = t.state.get("ala")
    later = Effect("zachwianie", 2, 2, value=10)
    plus = Effect("modyfikator", 1, 1, value=5, roll="unik", label="krytyczne szczęście")
    spell = Effect("czar", 1, 3, label="Tarcza")
    gone = Effect("ogluszenie", 0, 0)
    ala = replace(ala, effects=(later, plus, spell), resting=True, transformed="wampir")
    state = t.state.with_combatant(ala)
    badges = {b.key: b for b in table.badges(state, ala)}
    assert badges["zachwianie"].detail == "od tury 2"
    assert badges["modyfikator"].detail == "+5 do Uniku, 1 tura"
    assert badges["czar"].label == "Tarcza" and badges["czar"].detail == "3 tury"
    assert badges["odpoczynek"].label == "Odpoczynek"
    assert badges["przemiana"].label == "Wampir"
    wolf = replace(ala, effects=(gone,), resting=False, transformed="", status="pokonany",
                   summon=Summon("ork", "Wezwanie", 40, 40, until=3, hostile=True))  # fmt: skip
    found = {b.key: b for b in table.badges(state, wolf)}
    assert set(found) == {"ogluszenie", "przyzwaniec", "pokonany"}
    assert found["przyzwaniec"].label == "Wrogi przyzwaniec"
    assert found["przyzwaniec"].detail == "do tury 3"


def test_turns_left_in_polish() -> None:
    assert [fill(*table.turns_left(n)) for n in (1, 2, 4, 5, 12, 22, 25)] == [
        "1 tura", "2 tury", "4 tury", "5 tur", "12 tur", "22 tury", "25 tur",
    ]  # fmt: skip


# --- the turn panel ---------------------------------------------------------------------------


def test_a_live_turn_offers_every_action_with_the_sheets_thresholds() -> None:
    t = live()
    panel = table.turn_panel(t.state, "ala", everyone(t))
    found = actions(panel)
    assert set(found) == {
        "atak", "odpoczynek", "akcja_pelna", "ruch", "przeladowanie", "zmiana_broni",
        "akcja_darmowa", "koniec_tury",
    }  # fmt: skip
    assert all(a.available for a in found.values())
    assert panel.enemies == (table.Target("ork", "Ork", "b"),)
    sword = panel.choices[0]
    assert (sword.key, sword.label, sword.hit, sword.damage) == ("w0", "Miecz", 60, 70)
    assert panel.commands["atak"]["type"] == "attack"
    assert [d.key for d in panel.defences] == ["unik", "blok"]


def test_after_the_full_action_only_free_actions_and_the_end_are_left() -> None:
    t = live()
    t.do(Attack(actor="ala", target="ork"))
    t.defend("", [90])  # a miss: nothing else rolled
    found = actions(table.turn_panel(t.state, "ala", everyone(t)))
    assert not found["atak"].available and not found["odpoczynek"].available
    assert found["atak"].reason_template.startswith("Brak akcji pełnej")
    assert found["ruch"].available and found["koniec_tury"].available


def test_while_a_prompt_waits_nothing_is_offered_and_the_reason_says_who() -> None:
    t = live()
    t.do(Attack(actor="ala", target="ork"))
    found = actions(table.turn_panel(t.state, "ala", everyone(t)))
    assert not any(a.available for a in found.values())
    assert found["koniec_tury"].reason == "Najpierw Ork musi odpowiedzieć na atak."


def test_no_visible_enemy_means_no_attack() -> None:
    t = live()
    found = actions(table.turn_panel(t.state, "ala", frozenset({"ala"})))
    assert not found["atak"].available
    assert found["atak"].reason == "Nie ma kogo zaatakować."


def test_with_no_enemy_left_a_spell_on_oneself_is_still_offered() -> None:
    spells = [{"name": "Ogień", "kind": "damage"}, {"name": "Tarcza", "kind": "positive"}]
    t = Table(fighter("ala", "a", "u1", zwinnosc=60, spells=spells), fighter("ork", "b"))
    t.start()
    panel = table.turn_panel(t.state, "ala", frozenset({"ala"}))  # the ork is hidden from her
    found = actions(panel)
    assert not found["atak"].available and found["czar"].available and panel.castable
    assert panel.commands["czar"]["spell"] == 1  # Tarcza: Ogień has nobody to hit
    assert panel.commands["czar"]["target"] == "ala"


def test_a_spell_needing_a_target_is_not_posted_without_one() -> None:
    spells = [{"name": "Ogień", "kind": "damage"}, {"name": "Klątwa", "kind": "negative"}]
    t = Table(fighter("ala", "a", "u1", spells=spells), fighter("ork", "b"), pace="post")
    t.start(now=1000)
    post = table.turn_panel(t.state, "ala", frozenset({"ala"})).post
    assert post is not None
    assert [o for o in post.action_options if o.group == "cast"] == []


def test_spells_transformation_and_claws_are_offered_when_the_sheet_has_them() -> None:
    spells = [
        {"name": "Ogień", "kind": "damage"},
        {"name": "Tarcza", "kind": "positive"},
        {"name": "Klątwa", "kind": "negative"},
        {"name": "Wilk", "kind": "summon", "summon": {"name": "Wilk", "pz": 20, "attack": 40,
                                                     "damage": 40}},
    ]  # fmt: skip
    t = Table(
        fighter("ala", "a", "u1", zwinnosc=60, spells=spells, transformation="wilkolak"),
        fighter("ork", "b"),
        fighter("bob", "a", "u2"),
    )
    t.start()
    panel = table.turn_panel(t.state, "ala", everyone(t))
    found = actions(panel)
    assert found["czar"].available and found["przemiana"].label == "Przemiana"
    by_name = {s.name: s for s in panel.spells}
    assert [x.id for x in by_name["Ogień"].targets] == ["ork"]
    assert [x.id for x in by_name["Tarcza"].targets] == ["ala", "bob", "ork"]
    assert [x.id for x in by_name["Klątwa"].targets] == ["bob", "ork"]
    assert by_name["Wilk"].targets == () and by_name["Ogień"].kind_label == "zadaje obrażenia"
    assert [c.key for c in panel.choices] == ["w0", "unarmed"]
    t.state = t.state.with_combatant(replace(t.state.get("ala"), transformed="wilkolak"))
    panel = table.turn_panel(t.state, "ala", everyone(t))
    assert actions(panel)["przemiana"].label == "Powrót do swojej postaci"
    assert "claws" in [c.key for c in panel.choices]


def test_a_disarmed_weapon_is_shown_unavailable_with_the_reason() -> None:
    t = live()
    ala = t.state.get("ala")
    t.state = t.state.with_combatant(replace(ala, effects=(Effect("rozbrojenie", 1, 2),)))
    choices = {c.key: c for c in table.turn_panel(t.state, "ala", everyone(t)).choices}
    assert not choices["w0"].available
    assert choices["w0"].reason == "Rozbrojenie: Ala nie może atakować bronią w tej turze."
    assert choices["unarmed"].available


def test_a_hostile_summon_sees_only_its_caster_as_an_enemy() -> None:
    t = Table(fighter("ala", "a", "u1"), fighter("ork", "b"), fighter("bob", "a", "u2"))
    t.start()
    wolf = replace(
        t.state.get("bob"), id="ala~1", name="Wilk", controller=None,
        summon=Summon("ala", "Wezwanie", 40, 40, hostile=True),
    )  # fmt: skip
    state = t.state.with_combatant(wolf)
    assert [c.id for c in table.enemies(state, wolf, frozenset(state.combatants))] == ["ala"]
    ala = state.get("ala")
    assert "ala~1" in [c.id for c in table.enemies(state, ala, frozenset(state.combatants))]
    assert [c.key for c in table.attack_choices(state, wolf)] == ["unarmed"]


def test_setup_shows_a_players_thresholds_before_the_fight() -> None:
    t = duel()
    panel = table.turn_panel(t.state, "ala", everyone(t))
    assert panel.stage == "setup" and panel.actions == ()
    assert panel.choices[0].hit == 60


# --- by post ----------------------------------------------------------------------------------


def test_the_post_form_offers_the_structured_actions_and_the_allowed_defences() -> None:
    t = by_post()
    panel = table.turn_panel(t.state, "ala", everyone(t))
    post = panel.post
    assert post is not None
    assert post.mine is None and not post.closed and post.deadline == 1000 + DAY
    assert post.text_max == 4000
    values = [o.value for o in post.action_options]
    assert values[0] == {"kind": "none", "target": None, "choice": "", "spell": -1, "note": ""}
    assert {"kind": "attack", "target": "ork", "choice": "w0", "spell": -1, "note": ""} in values
    assert post.action_options[0].selected
    assert '"kind": "none"' in post.action_options[0].json
    assert [d.key for d in post.defence_options] == ["best", "unik", "blok", ""]
    assert post.defence_options[0].selected
    found = actions(panel)
    assert found["wpis"].available and found["wpis"].label == "Wyślij wpis"
    assert found["wpis_mg"].available


def test_a_character_without_a_weapon_or_shield_is_not_offered_blok() -> None:
    t = Table(fighter("ala", "a", "u1", weapons=[]), fighter("ork", "b"), pace="post")
    t.start(now=1000)
    post = table.turn_panel(t.state, "ala", everyone(t)).post
    assert post is not None
    assert [d.key for d in post.defence_options] == ["best", "unik", ""]


def test_the_players_own_post_is_shown_back_and_can_be_changed() -> None:
    t = by_post()
    attack = Action("attack", target="ork", choice="w0")
    t.do(Post(actor="ala", action=attack, defence="unik", text="Tnę!", now=2000))
    panel = table.turn_panel(t.state, "ala", everyone(t))
    assert panel.post is not None and panel.post.mine is not None
    mine = panel.post.mine
    assert fill(*mine.what[0]) == "atak → Ork (Miecz)"
    assert (mine.defence, mine.defence_label, mine.text) == ("unik", "Unik", "Tnę!")
    assert actions(panel)["wpis"].label == "Zmień wpis"
    selected = [o for o in panel.post.action_options if o.selected]
    assert [o.value["kind"] for o in selected] == ["attack"]
    assert [d.key for d in panel.post.defence_options if d.selected] == ["unik"]
    seat = table.seat_panel(t.state, "ala", everyone(t))
    assert seat.post is not None and seat.post.text == "Tnę!"


def test_a_post_at_a_target_its_player_cannot_see_shows_no_name() -> None:
    """The GM posted for Ala at one hidden from the players: her panel and card say "?"."""
    t = Table(
        fighter("ala", "a", "u1"), fighter("ork", "b"), fighter("szpieg", "b", hidden=True),
        pace="post",
    )  # fmt: skip
    t.start(now=1000)
    strike = Action("attack", target="szpieg", choice="w0")
    t.do(Post(actor="ala", action=strike, by_gm=True, now=1500))
    seen = frozenset({"ala", "ork"})
    post = table.turn_panel(t.state, "ala", seen).post
    assert post is not None
    for mine in (post.mine, table.seat_panel(t.state, "ala", seen).post):
        assert mine is not None
        assert mine.action["target"] == "?"
        assert [fill(m, p) for m, p in mine.what] == ["atak → ? (Miecz)"]
    gm = table.turn_panel(t.state, "ala", everyone(t)).post
    assert gm is not None and gm.mine is not None
    assert gm.mine.action["target"] == "szpieg"


def test_after_the_deadline_only_the_gm_may_post() -> None:
    t = by_post()
    t.do(Expire(now=1000 + DAY + 1))
    panel = table.turn_panel(t.state, "ala", everyone(t))
    found = actions(panel)
    assert panel.post is not None and panel.post.closed
    assert not found["wpis"].available and found["wpis"].reason.startswith("Termin minął")
    assert found["wpis_mg"].available
    assert table.seat_panel(t.state, "ala", everyone(t)).closed
    assert not table.seat_panel(by_post().state, "ala", everyone(t)).closed


# --- the GM -----------------------------------------------------------------------------------


def test_the_gm_starts_a_fight_of_two_sides_in_either_pace() -> None:
    alone = Table(fighter("ala", "a", "u1"), fighter("bob", "a", "u2"))
    found = actions(table.gm_panel(alone.state))
    assert not found["start"].available
    assert found["start"].reason == "Do walki potrzeba co najmniej dwóch stron."
    panel = table.gm_panel(duel().state)
    found = actions(panel)
    assert found["start"].available and found["tempo_post"].available
    assert not found["tempo_live"].available
    assert panel.paces == (("live", "na żywo"), ("post", "przez posty"))
    assert panel.posts == () and panel.deadline is None
    assert panel.sides == ("a", "b")


def test_by_post_the_gm_sees_every_post_and_who_has_not_posted() -> None:
    t = by_post()
    t.do(Post(actor="ala", action=Action("rest"), text="Oddycham.", now=2000))
    panel = table.gm_panel(t.state)
    assert panel.waiting == ("ork",) and panel.deadline == 1000 + DAY
    posts = {p.id: p for p in panel.posts}
    ala = posts["ala"].post
    assert posts["ala"].posted and ala is not None and ala.text == "Oddycham."
    assert not posts["ork"].posted and posts["ork"].panel is None
    assert [e.hours for e in panel.extend] == [6, 12, 24, 48]
    assert panel.extend[0].deadline == 1000 + DAY + 6 * 3600
    found = actions(panel)
    assert found["rozstrzygnij"].available and found["termin"].available
    assert not found["tempo_live"].available  # a post waits to be resolved
    t.do(Expire(now=1000 + DAY + 1))
    closed = {p.id: p for p in table.gm_panel(t.state).posts}
    assert actions(closed["ork"].panel)["wpis_mg"].available


def test_after_the_resolve_the_next_turn_opens_to_posts() -> None:
    t = by_post()
    t.do(ResolveTurn(now=3000), [])
    view = table.table_view(t.state)
    assert view.round == 2 and view.deadline == 3000 + DAY
    assert table.gm_panel(t.state).turn == 2


def test_the_gm_seat_panel_offers_its_controls_and_the_order_moves() -> None:
    t = live()
    panel = table.gm_seat_panel(t.state, "ala")
    found = actions(panel)
    assert {"obrazenia", "leczenie", "stan", "upadek", "nizej", "koniec_tury"} <= set(found)
    assert "wyzej" not in found and "martwy" not in found
    assert panel.commands["nizej"]["order"] == ("ork", "ala")
    assert panel.commands["remove_condition"] == {
        "type": "remove_condition", "actor": "gm", "target": "ala",
    }  # fmt: skip
    assert panel.condition_choices[0] == ("ogluszenie", "Ogłuszenie")
    assert panel.grounds[0] == ("soft", "Miękkie podłoże")
    ork = table.gm_seat_panel(t.state, "ork")
    assert ork.commands["wyzej"]["order"] == ("ork", "ala")
    assert "koniec_tury" not in actions(ork)


def test_a_fallen_npc_waits_for_the_gm_to_decide() -> None:
    t = live()
    t.do(Damage(target="ork", amount=80))
    panel = table.gm_seat_panel(t.state, "ork")
    assert panel.fallen and actions(panel)["martwy"].available
    assert panel.commands["nieprzytomny"]["outcome"] == "nieprzytomny"


def test_the_gm_seat_lists_the_conditions_to_remove() -> None:
    t = live()
    t.do(AddCondition(target="ork", condition="ogluszenie", turns=2))
    assert table.gm_seat_panel(t.state, "ork").conditions == (
        table.Label("ogluszenie", "Ogłuszenie"),
    )


def test_a_players_card_shows_its_thresholds_armour_and_urazy() -> None:
    t = live()
    t.do(Damage(target="ork", amount=1, injuries=2))
    panel = table.seat_panel(t.state, "ork", everyone(t))
    assert panel.armour == 10 and panel.injury_penalty == 20
    assert [d.key for d in panel.defences] == ["unik", "blok"]
    assert panel.defences[0].threshold == 50 - 10 - 20
    assert panel.post is None


def test_a_free_weapon_change_is_offered_with_the_sheets_choices() -> None:
    t = live()
    command = table.turn_panel(t.state, "ala", everyone(t)).commands["zmiana_broni"]
    assert command["kind"] == "change_weapon"
    t.do(FreeAction(actor="ala", kind="change_weapon", choice="unarmed"))
    assert t.state.get("ala").weapon == "unarmed"


def test_the_ruleset_gives_the_same_panels() -> None:
    t = live()
    seen = everyone(t)
    assert RULESET.turn_panel(t.state, "ala", seen) == table.turn_panel(t.state, "ala", seen)
    assert RULESET.gm_panel(t.state) == table.gm_panel(t.state)
    assert RULESET.gm_seat_panel(t.state, "ork") == table.gm_seat_panel(t.state, "ork")
    assert RULESET.seat_panel(t.state, "ala", seen) == table.seat_panel(t.state, "ala", seen)
    assert RULESET.table_view(t.state) == table.table_view(t.state)
    t.do(SetPace(pace="post", now=10.0))
    assert RULESET.table_view(t.state).pace == "post"


def test_an_unknown_effect_is_shown_by_its_key_without_a_description() -> None:
    t = live()
    badge = table.effect_badge(t.state, Effect("zaklecie_mg", 1, 1))
    assert (badge.label, badge.description, badge.detail) == ("zaklecie_mg", "", "1 tura")


def test_a_summons_hit_bonus_is_in_its_threshold() -> None:
    t = live()
    ork = replace(t.state.get("ork"), summon=Summon("ala", "Wezwanie", 40, 40, hit_bonus=10))
    (choice,) = table.attack_choices(t.state, ork)
    assert choice.key == "unarmed" and choice.hit == 60


def test_a_summoning_is_posted_without_a_target() -> None:
    wolf = {"name": "Wilk", "kind": "summon",
            "summon": {"name": "Wilk", "pz": 20, "attack": 40, "damage": 40}}  # fmt: skip
    t = Table(fighter("ala", "a", "u1", spells=[wolf]), fighter("ork", "b"), pace="post",
              post_reminder_hours=0)  # fmt: skip
    t.start(now=1000)
    post = table.turn_panel(t.state, "ala", everyone(t)).post
    assert post is not None
    casts = [o for o in post.action_options if o.group == "cast"]
    assert [o.value["target"] for o in casts] == [None]
    assert fill(casts[0].label_template, casts[0].label_params) == (
        "czar Wilk (Trafienie 50, drugi rzut 50)"
    )
    assert post.remind_at is None
