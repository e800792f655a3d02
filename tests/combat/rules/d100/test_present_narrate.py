"""The d100 log: every event told (or listed silent), Polish msgids with names and numbers in
params, the combatants a line mentions as its actors, the GM's secrets kept."""

from __future__ import annotations

from typing import Any

import pytest

from combat.rules.base import LogLine, fill, is_text
from combat.rules.battlemap import Resize
from combat.rules.d100 import narrate
from combat.rules.d100.events import (
    EVENTS,
    Applied,
    AttackDeclared,
    AttackResolved,
    Bled,
    CombatEnded,
    CombatStarted,
    ConditionAdded,
    ConditionRemoved,
    CritRoll,
    Damaged,
    DeadlineSet,
    DeadlinesMoved,
    Event,
    FallenDecided,
    FallRolled,
    FreeActed,
    FullActed,
    GMRolled,
    Harm,
    Healed,
    HiddenSet,
    Joined,
    MapEdited,
    Moved,
    OrderSet,
    PaceSet,
    Placed,
    Posted,
    PostingClosed,
    PostSkipped,
    PostsRevealed,
    PromptClosed,
    RestDeclared,
    RestResolved,
    SpellResolved,
    StatsRevealed,
    Summoned,
    Transformed,
    TurnBegan,
    TurnClosed,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
    Vanished,
)
from combat.rules.d100.falls import FallResult
from combat.rules.d100.settings import D100Settings
from combat.rules.d100.state import Action, Effect, Post, Prompt, Summon
from combat.rules.records import replace
from tests.combat.rules.d100.present_kit import fighter, table, test_roll

ALA = fighter("ala", "Ala", "a", "u1")
ORK = fighter("ork", "Ork", "b")
STATE = table(ALA, ORK, stage="running", turn=2, order=("ala", "ork"))

HIT = test_roll(20)  # threshold 50: OoP 30, zwykły sukces
MISS = test_roll(80)
FUMBLE = test_roll(99)
LUCKY = test_roll(3)
DAMAGE = test_roll(40, label="Obrażenia", attribute="krzepa", modifiers=(("Broń tradycyjna", 20),))
SOAK = test_roll(45, label="Odporność", attribute="wytrzymalosc")
WOLF = replace(
    fighter("wilk", "Wilk", "b"),
    summon=Summon(caster="ork", spell="Wezwanie", attack=40, damage=40),
)


def told(event: Event, state: Any = STATE) -> LogLine:
    line = narrate.describe(state, event)
    assert line is not None
    return line


def text(event: Event, state: Any = STATE) -> str:
    line = told(event, state)
    return fill(line.text, line.params)


def samples() -> dict[str, Event]:
    """One event of every type the engine has (the test below fails when a type is added)."""
    post = Post("ala", Action("attack", target="ork", choice="w0"), defence="unik", text="Tnę!")
    events: list[Event] = [
        Joined(ALA),
        HiddenSet("ork", True),
        StatsRevealed("ork", True),
        CombatStarted(),
        CombatEnded("a"),
        OrderSet(("ala", "ork")),
        PaceSet("post", 1000.0),
        Damaged(Harm("ork", 10)),
        Healed("ala", 5),
        ConditionAdded("ork", Effect("ogluszenie", 2, 3)),
        ConditionRemoved("ork", "ogluszenie"),
        FallRolled(
            "ala",
            FallResult(5, 40, (("Wysokość upadku", 0),), 40, None, False, 40, 1),
            Harm("ala", 40, 1),
        ),
        GMRolled("Spostrzegawczość", test_roll(30, label="Spostrzegawczość", attribute="")),
        FallenDecided("ork", "martwy"),
        DeadlineSet(2000.0),
        DeadlinesMoved(),
        TurnStarted(3),
        TurnBegan("ala"),
        TurnSkipped("ork", "ogluszenie"),
        TurnEnded("ala"),
        Posted(post),
        PostingClosed(2),
        PostsRevealed(2, (post,)),
        PostSkipped("ork", "brak"),
        Bled(Harm("ork", 3)),
        RestResolved("ala", interrupted=True),
        Vanished("ork"),
        TurnClosed(2),
        FreeActed("ala", "move"),
        FullActed("ala", "wyciąga eliksir"),
        RestDeclared("ala"),
        Transformed("ala", "wampir", (("krzepa", 10),)),
        AttackDeclared("ala", "ork", "w0"),
        AttackResolved("ala", "ork", MISS, "w0"),
        PromptClosed("p1", "cel_poza_walka", "Ork jest już poza walką."),
        SpellResolved("ala", 0, "Klątwa", "negative", HIT, "ork"),
        Summoned(WOLF),
        MapEdited(Resize(8, 6)),
        Placed("ala", (2, 3)),
        Moved("ala", ((2, 3), (3, 3)), 1),
    ]
    return {e.type_key: e for e in events}


def test_every_event_type_is_told_or_listed_silent() -> None:
    found = samples()
    assert set(found) == set(EVENTS)
    for key, event in found.items():
        line = narrate.describe(STATE, event)
        if type(event) in narrate.SILENT:
            assert line is None, key
            continue
        assert line is not None, key
        assert fill(line.text, line.params) != line.text or "%" not in line.text, key
        assert "%(" not in fill(line.text, line.params), key
        for value in line.params.values():  # a name, a number, or a text to translate
            assert isinstance(value, str | int) or is_text(value), key


def test_a_line_names_its_combatants_as_actors() -> None:
    assert told(AttackDeclared("ala", "ork", "w0")).actors == ("ala", "ork")
    assert told(Summoned(WOLF)).actors == ("wilk", "ork")
    assert told(TurnStarted(3)).actors == ()
    spell = SpellResolved("ala", 0, "Tarcza", "positive", HIT, "ala", success=True)
    assert told(spell).actors == ("ala",)


def test_gm_bookkeeping_and_secret_rolls_are_secret() -> None:
    assert told(HiddenSet("ork", True)).secret
    assert told(StatsRevealed("ork", False)).secret
    roll = test_roll(30, label="Pułapka", attribute="", base=40)
    assert told(GMRolled("Pułapka", roll, secret=True)).secret
    assert not told(GMRolled("Pułapka", roll)).secret
    gm = told(GMRolled("Zmysły", roll, target="ork"))
    assert gm.actors == ("ork",)
    assert fill(gm.text, gm.params) == (
        "Rzut Mistrza Gry (Ork): Zmysły — 30 przeciw 40, zwykły sukces."
    )


def test_one_roll_view_per_d100_test() -> None:
    view = narrate.test_view(DAMAGE)
    assert view.label == "Obrażenia"
    assert view.dice == (40,) and view.result == 40 and view.sides == 100
    assert view.modifiers == (("Krzepa", 50), ("Broń tradycyjna", 20))
    assert view.summary == "próg %(threshold)s · OoP %(oop)s · %(level)s"
    assert view.summary_params == {"threshold": 70, "oop": 30, "level": ("zwykły sukces", {})}


def test_a_capped_test_shows_the_cap_among_its_modifiers() -> None:
    capped = test_roll(10, modifiers=(("Przyzwaniec", 40), ("krytyczne szczęście", 30)))
    view = narrate.test_view(capped)
    assert view.modifiers[-1] == ("Limit modyfikatorów", -20)
    assert sum(v for _r, v in view.modifiers) == capped.threshold
    bare = narrate.test_view(test_roll(10, attribute="", base=40))
    assert bare.modifiers == (("Próg", 40),)


def test_crit_dice_are_rolls_of_six_and_two_sides() -> None:
    six = narrate.crit_view(CritRoll("trafienie_szczescie", 6, 2, "ogluszenie"))
    assert (six.sides, six.dice, six.result) == (6, (2,), 2)
    assert fill(six.summary, six.summary_params) == "→ Ogłuszenie"
    two = narrate.crit_view(CritRoll("trafienie_pech", 2, 1, "obrazenia_wlasne"))
    assert two.sides == 2 and "k2" in two.label


def test_a_blow_tells_raw_damage_resistance_armour_and_pz_left() -> None:
    hit = AttackResolved(
        "ala", "ork", HIT, "w0", label="Szabla", defence="unik", defence_roll=MISS,
        damage=DAMAGE, raw=150, resistance=SOAK, soaked=25, armour_percent=20, armour=25,
        dealt=100, harms=(Harm("ork", 100, 1, "pokonany"),),
    )  # fmt: skip
    line = told(hit)
    assert fill(line.text, line.params) == (
        "Ala trafia: Ork (Szabla) — 100 obrażeń (surowe 150, odporność −25, pancerz 20%: −25);"
        " Ork: Nieprzytomny. Skutki: Ork: Uraz; Ork pada (decyzja MG)."
    )
    assert [r.label for r in line.rolls] == ["Trafienie", "Trafienie", "Obrażenia", "Odporność"]
    assert line.actors == ("ala", "ork") and line.kind == "attack"


def test_a_players_pz_are_told_as_numbers_an_npcs_as_its_wound_level() -> None:
    ork_hits = AttackResolved(
        "ork", "ala", HIT, "w0", label="Topór", damage=DAMAGE, raw=30, dealt=30,
        harms=(Harm("ala", 30),),
    )  # fmt: skip
    assert text(ork_hits).endswith("Ala: 70/100 PŻ.")
    ala_hits = replace(ork_hits, attacker="ala", target="ork", harms=(Harm("ork", 30),))
    assert text(ala_hits).endswith("Ork: Ranny.")
    revealed = table(ALA, replace(ORK, revealed=True), stage="running", turn=2)
    assert text(ala_hits, revealed).endswith("Ork: 70/100 PŻ.")


def test_attack_outcomes_each_have_their_line() -> None:
    base = AttackResolved("ala", "ork", MISS, "w0", label="Szabla")
    assert text(base) == "Ala atakuje: Ork (Szabla) — pudło."
    fumble = replace(
        base, hit=FUMBLE, hit_crit=CritRoll("trafienie_pech", 2, 1, "obrazenia_wlasne"),
        harms=(Harm("ala", 10),),
    )  # fmt: skip
    line = told(fumble)
    assert fill(line.text, line.params) == (
        "Ala atakuje: Ork (Szabla) — krytyczny pech, tura stracona. Skutki: Ala: −10 PŻ"
        " (90/100 PŻ)."
    )
    assert [r.sides for r in line.rolls] == [100, 2]
    dodged = replace(base, hit=HIT, defence="unik", defence_roll=LUCKY, avoided=True)
    assert text(dodged) == "Ala atakuje: Ork (Szabla) — Unik: atak uniknięty."
    blocked = replace(dodged, defence="blok")  # issue 22, point 6e: not „Blok: atak uniknięty”
    assert text(blocked) == "Ala atakuje: Ork (Szabla) — Blok: atak zablokowany."
    with_effects = replace(blocked, expired=True)
    assert text(with_effects).startswith("Ala atakuje: Ork (Szabla) — Blok: atak zablokowany. ")
    weak = replace(base, hit=HIT, damage=test_roll(90, label="Obrażenia"))
    assert text(weak).endswith("test obrażeń nieudany, bez obrażeń.")
    negated = replace(
        base, hit=LUCKY, hit_crit=CritRoll("trafienie_szczescie", 6, 1, "negacja"),
        damage=DAMAGE, raw=150, dealt=150, armour_negated=True,
        harms=(Harm("ork", 100, 1, "pokonany"),),
    )  # fmt: skip
    assert "pancerz pominięty: negacja" in text(negated)
    expired = replace(base, expired=True)
    assert text(expired).endswith("Skutki: brak reakcji w czasie.")


def test_crit_conditions_are_told_with_their_turns() -> None:
    stun = Applied("ork", Effect("ogluszenie", 2, 3, source="ala"))
    bleed = Applied("ork", Effect("krwawienie", 2, 4, value=3))
    plus = Applied(
        "ork", Effect("modyfikator", 3, 3, value=5, roll="unik", label="krytyczne szczęście")
    )
    hit = AttackResolved(
        "ala", "ork", LUCKY, "w0", label="Szabla", damage=DAMAGE, raw=10, dealt=10,
        harms=(Harm("ork", 10),), applied=(stun, bleed, plus),
        hit_crit=CritRoll("trafienie_szczescie", 6, 2, "ogluszenie"),
    )  # fmt: skip
    assert text(hit).endswith(
        "Skutki: Ork: Ogłuszenie (tury 2–3); Ork: Krwawienie (3 PŻ) (tury 2–4);"
        " Ork: krytyczne szczęście: +5 do Uniku (tura 3)."
    )
    assert text(ConditionAdded("ork", Effect("zachwianie", 3, 3, value=10))) == (
        "Ork: Zachwianie (−10) (tura 3)."
    )
    assert text(ConditionAdded("ork", Effect("powalenie", 2))) == (
        "Ork: Powalenie (od tury 2 do odwołania)."
    )
    assert text(ConditionAdded("ork", Effect("czar", 2, 3, label="Klątwa"))) == (
        "Ork: Klątwa (tury 2–3)."
    )
    assert text(ConditionRemoved("ork", "ogluszenie")) == "Ork: koniec — Ogłuszenie."


def test_posts_are_the_gms_secret_while_posts_are_hidden() -> None:
    post = Post("ala", Action("attack", target="ork", choice="w0"), defence="unik", text="Tnę!")
    line = told(Posted(post))
    assert line.secret and line.actors == ("ala", "ork") and line.kind == "post"
    assert fill(line.text, line.params) == ("Ala wysyła wpis: atak → Ork (Szabla); obrona: Unik.")
    open_table = table(ALA, ORK, settings=D100Settings(posts_hidden=False), stage="running")
    assert not told(Posted(post), open_table).secret
    replaced = replace(STATE, posts={"ala": post})
    assert text(Posted(post), replaced).startswith("Ala zmienia wpis:")
    by_gm = replace(post, actor="ork", action=Action("rest"), defence="best", by_gm=True)
    assert text(Posted(by_gm)) == (
        "Mistrz Gry wpisuje za: Ork — Odpoczynek; obrona: najlepsza obrona."
    )


def quoted(event: Event, state: Any) -> list[tuple[str, str, str]]:
    """Each quoted post: its author, its action as the Polish page shows it, its text."""
    return [(q.author, fill(*q.action), q.text) for q in told(event, state).quotes]


def test_posts_revealed_quote_every_post_on_its_own_but_the_hidden_ones() -> None:
    mine = Post("ala", Action("cast", spell=0, target="ork"), defence="")
    theirs = Post("ork", Action("full", note="ryczy"), defence="blok")
    hidden = table(
        fighter("ala", "Ala", "a", "u1", spells=[{"name": "Ogień", "kind": "damage"}]),
        replace(ORK, hidden=True),
        stage="running",
    )
    assert text(PostsRevealed(2, (mine, theirs)), hidden) == "Wpisy tury 2:"
    assert quoted(PostsRevealed(2, (mine, theirs)), hidden) == [
        ("Ala", "czar Ogień; obrona: bez obrony", "")
    ]
    shown = replace(hidden, combatants={**hidden.combatants, "ork": ORK})
    assert quoted(PostsRevealed(2, (mine, theirs)), shown) == [
        ("Ala", "czar Ogień → Ork; obrona: bez obrony", ""),
        ("Ork", "akcja pełna: ryczy; obrona: Blok", ""),
    ]
    assert text(PostsRevealed(2, ())) == "Wpisy tury 2: —."
    assert told(PostsRevealed(2, ()), STATE).quotes == ()


def test_posts_revealed_carry_the_players_own_words() -> None:
    said = Post("ala", Action("rest"), defence="unik", text="  Oddycham głęboko.  ")
    shown = table(fighter("ala", "Ala", "a", "u1"), ORK, stage="running")
    assert quoted(PostsRevealed(2, (said,)), shown) == [
        ("Ala", "Odpoczynek; obrona: Unik", "Oddycham głęboko.")
    ]


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (PostSkipped("ork", "brak"), "Ork: brak wpisu."),
        (PostSkipped("ork", "ogluszenie"), "Ork jest ogłuszony: wpis przepada."),
        (PostSkipped("ork", "poza_walka"), "Ork nie walczy: wpis przepada."),
        (
            PostSkipped("ala", "cel_poza_walka", target="ork"),
            "Ala: Ork już nie walczy — atak przepada.",
        ),
        (
            PostSkipped("ala", "odmowa", detail="Brak akcji pełnej."),
            "Ala: wpisu nie da się wykonać — Brak akcji pełnej.",
        ),
        (TurnSkipped("ork", "nieprzytomny"), "Ork jest nieprzytomny: pomija turę."),
        (TurnSkipped("ork", "pokonany"), "Ork jest pokonany: pomija turę."),
        (TurnSkipped("ork", "inny"), "Ork pomija turę."),
        (PostingClosed(2), "Termin minął: tura 2 zamknięta dla wpisów."),
        (TurnStarted(3, 5000.0), "Tura bojowa 3: czas na wpisy."),
        (TurnStarted(3), "Tura bojowa 3."),
        (CombatStarted("post"), "Walka się zaczyna: tury przez posty."),
        (CombatStarted(), "Walka się zaczyna."),
        (CombatEnded(), "Walka zakończona."),
        (PaceSet("live"), "Tempo: na żywo."),
        (DeadlineSet(9.0, reopened=True), "Mistrz Gry przesuwa termin: wpisy znów otwarte."),
        (DeadlineSet(9.0), "Mistrz Gry przesuwa termin tury."),
        (OrderSet(("ork", "ala"), fixed=True), "Mistrz Gry ustala kolejność: Ork, Ala."),
        (FallenDecided("ork", "nieprzytomny"), "Mistrz Gry rozstrzyga: Ork żyje, nieprzytomny."),
        (FallenDecided("ork", "martwy"), "Mistrz Gry rozstrzyga: Ork ginie."),
        (HiddenSet("ork", False), "Widoczny dla graczy: Ork."),
        (StatsRevealed("ork", True), "Liczby odkryte: Ork."),
        (FreeActed("ala", "move", note="do drzwi"), "Ala — ruch: do drzwi"),
        (FreeActed("ala", "reload"), "Ala — przeładowanie."),
        (FreeActed("ala", "dance"), "Ala — akcja darmowa."),
        (FreeActed("ala", "change_weapon", choice="unarmed"), "Ala zmienia broń: Walka wręcz."),
        (FullActed("ala"), "Ala — akcja pełna: —"),
        (Transformed("ala", ""), "Ala wraca do swojej postaci (Przemiana)."),
        (
            Transformed("ala", "wilkolak", (("krzepa", 20), ("zwinnosc", -5))),
            "Ala przemienia się: Wilkołak (Krzepa +20, Zwinność -5).",
        ),
        (
            AttackDeclared("ork", "ala", "", prompt=Prompt("p1", "ala", "ork", 30.0)),
            "Ork atakuje: Ala (Szabla) — czas na reakcję celu.",
        ),
        (  # an NPC's prompt: its policy (or the GM at the table) answers at once
            AttackDeclared("ala", "ork", "", prompt=Prompt("p1", "ork", "ala", 30.0)),
            "Ala atakuje: Ork (Szabla).",
        ),
        (Vanished("ork"), "Ork znika."),
        (TurnClosed(2), "Koniec tury bojowej 2."),
        (RestDeclared("ala"), "Ala odpoczywa (Odpoczynek: test Ogłady na koniec tury)."),
    ],
)
def test_each_event_has_its_polish_line(event: Event, expected: str) -> None:
    assert text(event) == expected


def test_the_dead_skipping_their_turn_make_no_line() -> None:
    assert narrate.describe(STATE, TurnSkipped("ork", "martwy")) is None


def test_damage_healing_and_falls_tell_what_is_left() -> None:
    hurt = table(replace(ALA, pz=40, status="nieprzytomny"), ORK, stage="running", turn=2)
    assert text(Damaged(Harm("ala", 10))) == "Mistrz Gry: Ala traci 10 PŻ (90/100 PŻ)."
    assert text(Damaged(Harm("ala", 10), note="pułapka")) == (
        "Mistrz Gry: Ala traci 10 PŻ (90/100 PŻ) — pułapka."
    )
    assert text(Damaged(Harm("ala", 100, 1, "nieprzytomny"), source="pech")) == (
        "Ala rani się (krytyczny pech): −100 PŻ (0/100 PŻ). Skutki: Ala: Uraz;"
        " Ala traci przytomność."
    )
    assert text(Damaged(Harm("ork", 5, 2), note="ogień")).endswith("Skutki: Ork: Urazy ×2.")
    assert text(Damaged(Harm("ork", 5, 2))).endswith("Skutki: Ork: Urazy ×2.")
    assert text(Damaged(Harm("ork", 5, 2), source="pech")).endswith("Skutki: Ork: Urazy ×2.")
    woke = Healed("ala", 20, injuries=1, woke=True, stopped_bleeding=True)
    assert text(woke, hurt) == (
        "Ala: +20 PŻ (60/100 PŻ). Skutki: Ala odzyskuje przytomność; Urazy −1;"
        " Krwawienie zatamowane."
    )
    assert text(Healed("ala", 5, note="eliksir"), hurt) == ("Ala: +5 PŻ (45/100 PŻ) — eliksir.")
    assert text(Healed("ala", 5, note="eliksir", woke=True), hurt).endswith(
        "Skutki: Ala odzyskuje przytomność."
    )
    assert text(Healed("ala", 5)) == "Ala: +5 PŻ (100/100 PŻ)."
    assert text(Bled(Harm("ork", 3))) == "Ork krwawi: −3 PŻ (Draśnięty)."
    assert text(Bled(Harm("ork", 100, 1, "martwy"))) == (
        "Ork krwawi: −100 PŻ (Martwy). Skutki: Ork: Uraz; Ork ginie."
    )


def test_a_fall_tells_its_percent_and_the_acrobatics_half() -> None:
    low = FallRolled("ala", FallResult(1, 0, (("Wysokość upadku", 0),), 0, None, False, 0, 0),
                     Harm("ala", 0))  # fmt: skip
    assert text(low) == "Ala spada z 1 m: za nisko, bez obrażeń."
    assert told(low).rolls == ()
    acro = test_roll(10, label="Akrobatyka", attribute="akrobatyka", base=30)
    soft = FallResult(3, 50, (("Wysokość upadku", -20),), 30, acro, True, 15, 0)
    line = told(FallRolled("ala", soft, Harm("ala", 15)))
    assert fill(line.text, line.params) == (
        "Ala spada z 3 m: 30% maks. PŻ, Akrobatyka połowi — 15 obrażeń (85/100 PŻ)."
    )
    assert [r.label for r in line.rolls] == ["Upadek", "Akrobatyka"]
    assert line.rolls[0].modifiers == (("Wysokość upadku", -20),)
    assert fill(line.rolls[0].summary, line.rolls[0].summary_params) == "30% maks. PŻ"
    hard = replace(soft, halved=False, damage=70, injuries=2)
    assert text(FallRolled("ala", hard, Harm("ala", 70, 2)), STATE).endswith(
        "— 70 obrażeń (30/100 PŻ). Skutki: Ala: Urazy ×2."
    )
    assert text(FallRolled("ala", soft, Harm("ala", 15, 1))).endswith("Skutki: Ala: Uraz.")
    assert text(FallRolled("ala", hard, Harm("ala", 70))).endswith("(30/100 PŻ).")


def test_rest_is_told_with_its_ogłada_roll() -> None:
    resting = table(replace(ALA, pz=50), ORK, stage="running", turn=2)
    roll = test_roll(30, label="Odpoczynek", attribute="oglada")
    line = told(RestResolved("ala", roll=roll, healed=100), resting)
    assert fill(line.text, line.params) == "Ala: Odpoczynek udany, +100 PŻ (100/100 PŻ)."
    assert line.rolls[0].modifiers[0] == ("Ogłada", 50)
    failed = RestResolved("ala", roll=test_roll(90, label="Odpoczynek", attribute="oglada"))
    assert text(failed, resting) == "Ala: Odpoczynek nieudany."
    assert text(RestResolved("ala", interrupted=True)) == (
        "Ala: Odpoczynek przerwany — zaatakowany w tej turze."
    )


def test_spells_are_told_by_how_they_went() -> None:
    base = SpellResolved("ala", 0, "Klątwa", "negative", HIT, "ork", effect=DAMAGE)
    assert text(replace(base, hit=MISS)) == "Ala rzuca czar Klątwa: nie trafia."
    assert text(replace(base, hit=FUMBLE)) == "Ala rzuca czar Klątwa: krytyczny pech."
    assert text(base) == "Ala rzuca czar Klątwa: czar nie działa."
    assert text(replace(base, resisted=True, resistance=SOAK)) == (
        "Ala rzuca czar Klątwa: Ork się opiera."
    )
    curse = Applied("ork", Effect("czar", 2, 3, label="Klątwa"))
    worked = replace(base, success=True, turns=2, applied=(curse,))
    line = told(worked)
    assert fill(line.text, line.params) == (
        "Ala rzuca czar Klątwa: działa na Ork (tury: 2). Skutki: Ork: Klątwa (tury 2–3)."
    )
    assert [r.label for r in line.rolls] == ["Trafienie", "Obrażenia"]
    summon = SpellResolved("ala", 1, "Wezwanie", "summon", HIT, None, effect=DAMAGE, success=True)
    assert text(summon) == "Ala rzuca czar Wezwanie: przyzwanie się udaje."
    assert told(summon).actors == ("ala",)


def test_a_hostile_summon_is_told_as_such() -> None:
    hostile = replace(WOLF, summon=replace(WOLF.summon, hostile=True))
    assert text(Summoned(hostile)) == "Przybywa przyzwany Wilk — krytyczny pech: atakuje Ork!"
    assert text(Summoned(WOLF)) == "Ork przyzywa: Wilk."  # the GM's: its PŻ stay hidden
    own = replace(WOLF, controller="u1", summon=replace(WOLF.summon, caster="ala"))
    assert text(Summoned(own)) == "Ala przyzywa: Wilk (100 PŻ)."
    turned = replace(own, controller=None, summon=replace(own.summon, hostile=True))
    assert text(Summoned(turned)) == (
        "Przybywa przyzwany Wilk (100 PŻ) — krytyczny pech: atakuje Ala!"
    )


def test_an_npcs_fall_tells_its_percent_but_not_the_damage_that_gives_its_pz_away() -> None:
    soft = FallResult(3, 50, (("Wysokość upadku", -20),), 30, None, True, 12, 0)
    assert text(FallRolled("ork", soft, Harm("ork", 12))) == (
        "Ork spada z 3 m: 30% maks. PŻ, Akrobatyka połowi (Draśnięty)."
    )
    hard = replace(soft, halved=False, damage=70, injuries=1)
    assert text(FallRolled("ork", hard, Harm("ork", 70, 1))) == (
        "Ork spada z 3 m: 30% maks. PŻ (Ciężko ranny). Skutki: Ork: Uraz."
    )
    assert text(FallRolled("ork", hard, Harm("ork", 70))) == (
        "Ork spada z 3 m: 30% maks. PŻ (Ciężko ranny)."
    )
    assert text(FallRolled("ork", soft, Harm("ork", 12, 1))).endswith(
        "Akrobatyka połowi (Draśnięty). Skutki: Ork: Uraz."
    )


def test_wound_levels_follow_the_share_of_pz() -> None:
    level = narrate.wound_level
    assert [level(p, 100) for p in (100, 75, 74, 50, 25, 24, 1, 0)] == [
        "bez_ran", "drasniety", "ranny", "ranny", "ciezko_ranny", "ledwo_zywy",
        "ledwo_zywy", "nieprzytomny",
    ]  # fmt: skip
    assert level(50, 100, "martwy") == "martwy"
    assert level(50, 100, "pokonany") == "nieprzytomny"
    assert level(5, 0) == "ledwo_zywy"


def test_words_for_what_is_gone_or_cannot_be_made() -> None:
    assert narrate.means_of(STATE, "nikt", "w0") == "w0"
    assert narrate.means_of(STATE, "ala", "claws") == "claws"  # a human has none
    assert narrate.means_of(STATE, "ala", "", 5) == "5"
    assert narrate.turns_text(Effect("powalenie", 2)) == "od tury 2 do odwołania"
    parts = narrate.action_parts(STATE, "ala", Action("transform"))
    assert parts == (("Przemiana", {}),)
    assert narrate.action_text(STATE, "ala", Action("none")) == "bez akcji pełnej"
    gone = AttackResolved(
        "ala", "ork", HIT, "w0", label="Szabla", damage=DAMAGE, raw=5, dealt=5,
        harms=(Harm("ork", 5), Harm("wilk", 3)),
    )  # fmt: skip
    assert text(gone).endswith("Ork: Draśnięty.")  # the vanished Wilk is left out
    forever = AttackResolved(
        "ala", "ork", LUCKY, "w0", label="Szabla", damage=DAMAGE, raw=5, dealt=5,
        harms=(Harm("ork", 5),), applied=(Applied("ork", Effect("powalenie", 2)),),
    )  # fmt: skip
    assert text(forever).endswith("Skutki: Ork: Powalenie (od tury 2 do odwołania).")


def test_an_attack_that_fell_through_is_told_with_why() -> None:
    waiting = replace(STATE, prompts=(Prompt("p1", "ork", "ala", 30.0),))
    closed = PromptClosed("p1", "cel_poza_walka", "Ork jest już poza walką.")
    line = told(closed, waiting)
    assert fill(line.text, line.params) == "Atak Ala → Ork przepada: Ork jest już poza walką."
    assert line.actors == ("ala", "ork")
    assert text(closed) == "Atak przepada: Ork jest już poza walką."
