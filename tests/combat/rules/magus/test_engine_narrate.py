"""The log's lines: each event told in Polish, GM-only where it must be, with its rolls."""

from __future__ import annotations

import random

from combat.rules.base import LogLine, fill
from combat.rules.magus import narrate
from combat.rules.magus.dice import roll_step
from combat.rules.magus.events import (
    EVENTS,
    ActionChanged,
    ActionUsed,
    AttackRolled,
    Bled,
    CheckRolled,
    CombatEnded,
    CombatStarted,
    ConditionAdded,
    ConditionRemoved,
    DamageRolled,
    DefenceRolled,
    Delayed,
    GotUp,
    HealthEdited,
    HiddenSet,
    InitiativeSet,
    Joined,
    PromptClosed,
    SimpleActed,
    StatsRevealed,
    StrainPaid,
    SustainedCompleted,
    SustainedTested,
)
from combat.rules.magus.state import Declaration
from tests.combat.rules.magus.engine_kit import Table, fighter

TABLE = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
STATE = TABLE.state
ROLL = roll_step(random.Random(1), 9, STATE.settings.table)


def told(event: object) -> LogLine:
    line = narrate.describe(STATE, event)  # type: ignore[arg-type]
    assert line is not None
    return line


def text(event: object) -> str:
    line = told(event)
    return fill(line.text, line.params)


def test_it_tells_every_event_type_or_lists_it_silent() -> None:
    assert set(narrate.NARRATORS) | narrate.SILENT == set(EVENTS.values())
    assert not set(narrate.NARRATORS) & narrate.SILENT


def test_declarations_in_a_few_words() -> None:
    say = narrate.declaration_text
    assert say(STATE, Declaration(empty=True)) == "brak deklaracji"
    assert say(STATE, Declaration("spell", spell="Ogień", target="ork")) == "czar (Ogień) → Ork"
    sustained = Declaration("sustained", rounds=3, note="zamek", move=4, simple=2)
    assert say(STATE, sustained) == "działanie podtrzymywane «zamek», 3, 4 m, +2"
    assert say(STATE, Declaration(options=("bieg",))) == "bez akcji standardowej; Bieg"


def test_gm_lines_are_secret() -> None:
    for event in (
        HiddenSet("ork", True),
        HiddenSet("ork", False),
        StatsRevealed("ork", True),
        StatsRevealed("ork", False),
        HealthEdited("ork", 3, 1, 1),
    ):
        assert told(event).secret
    assert "obrażenia 3" in text(HealthEdited("ork", 3, 1, 1))


def test_the_fight_and_its_turns_are_told() -> None:
    assert text(Joined(STATE.get("ala"))) == "Do walki dołącza: Ala."
    assert text(CombatStarted(("ork",))) == "Walka się zaczyna. Zaskoczeni: Ork."
    assert text(CombatStarted()) == "Walka się zaczyna."
    assert text(CombatEnded("a")) == "Walka zakończona: wygrywa strona a."
    assert text(CombatEnded()) == "Walka zakończona."
    assert text(ConditionRemoved("ork", "powalony")) == "Ork: koniec stanu Powalony."
    assert text(Delayed("ala", next_round=True)).endswith("do następnej rundy.")
    assert text(Delayed("ala")) == "Ala opóźnia działanie."
    assert "×2" in text(SimpleActed("ala", 2, "dobywa broni"))
    assert "akcja standardowa" in text(ActionUsed("ala", "otwiera"))
    assert text(InitiativeSet("ala", 12)).endswith("Inicjatywa 12.")
    assert text(SustainedTested("ala", True)).endswith("udany.")
    assert text(SustainedTested("ala", False)).endswith("nieudany.")
    assert "kończy działanie" in text(SustainedCompleted("ala"))
    assert text(PromptClosed("p1", expired=True)) == "Czas na obronę minął."
    assert narrate.describe(STATE, PromptClosed("p1")) is None


def test_rolls_ride_on_their_lines() -> None:
    assert told(GotUp("ala", ROLL, 6, True)).rolls and "wstaje" in text(GotUp("ala", ROLL, 6, True))
    assert "nie zdołał" in text(GotUp("ala", ROLL, 6, False))
    bled = told(Bled("ork", "oderwana_konczyna", 3, ROLL))
    assert bled.rolls and "Oderwana kończyna" in fill(bled.text, bled.params)
    assert "udany" in text(CheckRolled("ork", "tarcza", ROLL, 10, True))


def test_damage_lines_tell_wounds_unconsciousness_and_death() -> None:
    def dmg(dealt: int, kind: str = "damage", wound: bool = False) -> str:
        return text(DamageRolled("ala", "ork", ROLL, 9, dealt, 2, dealt, False, kind, wound))

    assert dmg(5) == "Ork: 5 obrażeń."
    assert dmg(9, wound=True) == "Ork: 9 obrażeń i Rana."
    assert dmg(26) == "Ork: 26 obrażeń — traci przytomność."
    assert dmg(33) == "Ork: 33 obrażeń — ginie."
    assert dmg(4, "stun") == "Ork: 4 obrażeń ogłuszających."
    assert dmg(4, "none") == "Ork: wynik obrażeń 4 (bez obrażeń)."
    line = told(DamageRolled("ala", "ork", ROLL, 9, 5, 2, 3, False))
    assert ("Pancerz", -2) in line.rolls[0].modifiers and line.rolls[0].result == 3


def test_a_label_in_a_log_line_is_part_of_its_msgid() -> None:
    """A line's params are shown as they are, so a label (an option, a level, a condition…)
    is in the msgid itself: the English UI shows it in English."""
    cases = {
        StrainPaid("ala", "agresywny_atak", 1, 1): (
            "Agresywny atak",
            "Ala: Wyczerpanie 1 (Agresywny atak), obrażenia +1.",
        ),
        StrainPaid("ork", "riposta", 2, 2): (
            "Riposta",
            "Ork: Wyczerpanie 2 (Riposta), obrażenia +2.",
        ),
        AttackRolled("ala", "ork", "Miecz", "", ROLL, 6, (), "good"): (
            "Duży sukces",
            f"Ala atakuje: Ork (Miecz), {ROLL.total} vs 6 — Duży sukces.",
        ),
        AttackRolled("ork", "ala", "", "", ROLL, 99, (), "poor"): (
            "(bez broni)",
            f"Ork atakuje: Ala (bez broni), {ROLL.total} vs 99 — Porażka.",
        ),
        DefenceRolled("p1", "ork", "unik", ROLL, 1, True): (
            "Unik udany",
            f"Ork: Unik udany ({ROLL.total} ≥ 1).",
        ),
        ActionChanged("ala", "spell"): ("czar", "Ala zmienia akcję: czar (+2 do trudności)."),
        ConditionAdded("ork", "krwotok"): ("Krwotok", "Ork: Krwotok."),
        ConditionRemoved("ork", "ogluszony"): ("Ogłuszony", "Ork: koniec stanu Ogłuszony."),
        CheckRolled("ork", "bron", ROLL, 99, False): (
            "Utrzymanie broni",
            f"Ork — Utrzymanie broni: nieudany ({ROLL.total} vs 99).",
        ),
        Bled("ork", "krwotok", 2): ("(Krwotok)", "Ork traci krew (Krwotok): 2 obrażeń."),
    }
    for event, (label, polish) in cases.items():
        line = told(event)
        assert label in line.text, event
        assert fill(line.text, line.params) == polish
    for table in (
        narrate.STRAIN_TEXTS, narrate.ATTACK_TEXTS, narrate.UNARMED_TEXTS, narrate.CHANGED_TEXTS,
        narrate.DEFENCE_TEXTS, narrate.CHECK_TEXTS, narrate.CONDITION_TEXTS, narrate.BLED_TEXTS,
    ):  # fmt: skip
        for msgid in table.values():
            assert "%(reason)s" not in msgid and "%(level)s" not in msgid, msgid
            assert "%(condition)s" not in msgid and "%(check)s" not in msgid, msgid


def test_declaration_parts_keep_each_label_a_msgid_of_its_own() -> None:
    d = Declaration(
        "attack", weapon="Miecz", target="ork", move=4, options=("bieg", "agresywny_atak")
    )
    parts = narrate.declaration_parts(STATE, d)
    assert parts == (
        ("atak", {}),
        (narrate.TEXT, {"text": " (Miecz) → Ork, 4 m; "}),
        ("Bieg", {}),
        (narrate.TEXT, {"text": ", "}),
        ("Agresywny atak", {}),
    )
    assert narrate.declaration_text(STATE, d) == "atak (Miecz) → Ork, 4 m; Bieg, Agresywny atak"
    preset = narrate.sus.PRESET["zamek"]
    found = narrate.declaration_parts(STATE, Declaration("sustained", preset="zamek"))
    assert found == (
        ("działanie podtrzymywane", {}),
        (narrate.TEXT, {"text": " «"}),
        (preset.label, {}),
        (narrate.TEXT, {"text": f"», {preset.high}"}),
    )
