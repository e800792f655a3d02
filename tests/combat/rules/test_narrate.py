"""The log's narration: every event type told in Polish (or silent by a listed decision), each
text a marked msgid the catalogue can extract, formatted with names and numbers only."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from combat.rules import battlemap
from combat.rules.base import LogLine, RollView, fill
from combat.rules.dice import Modifier, PoolRoll, replay_pool
from combat.rules.eleora import narrate
from combat.rules.eleora.commands import Command, RollInitiative, StartCombat
from combat.rules.eleora.conditions import ConditionInstance
from combat.rules.eleora.engine import decide, evolve
from combat.rules.eleora.environment import Darkness
from combat.rules.eleora.events import (
    EVENTS,
    ActionSpent,
    AimTaken,
    AttackCancelled,
    AttackDeclared,
    AttackResolved,
    CombatantChanged,
    CombatantJoined,
    CombatantPlaced,
    CombatEnded,
    CombatStarted,
    ConditionAdded,
    ConditionRemoved,
    ConditionSpent,
    ConditionTicked,
    DifficultyLowered,
    EnvironmentChanged,
    Event,
    FirstAidGiven,
    GMRolled,
    GuardRaised,
    HealthChanged,
    InitiativeChanged,
    InitiativeRolled,
    InitiativeTieBroken,
    ItemMoved,
    ItemUsed,
    MaimingRolled,
    MapEdited,
    MountAdrift,
    MountChanged,
    Moved,
    Note,
    PassGranted,
    PromptClosed,
    PromptOpened,
    ReactionChosen,
    ReactionGained,
    ReloadProgressed,
    RoundStarted,
    SpellPartPrepared,
    Steered,
    TestRolled,
    TurnEnded,
    TurnStarted,
)
from combat.rules.eleora.initiative import InitiativeOrder
from combat.rules.eleora.maiming import resolve_maiming
from combat.rules.eleora.narrate import NARRATORS, SILENT, describe
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.simulate import Policy, next_command
from combat.rules.eleora.state import UNARMED, EncounterState, PendingAttack, Prompt
from combat.rules.registry import get_ruleset
from combat.rules.seeded import SeededRNG
from tests.combat.rules.engine_kit import (
    LUK,
    TARCZA,
    TOPOR,
    begin,
    make_combatant,
    make_sheet,
    make_state,
)

RULES_DIR = Path(narrate.__file__).resolve().parent
FACES = frozenset({4, 5, 6})


def marked_msgids() -> set[str]:
    """Every string literal inside a gettext_noop(...) call, as xgettext would extract it."""
    found: set[str] = set()
    for path in RULES_DIR.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "gettext_noop":
                (arg,) = node.args
                assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), path
                found.add(arg.value)
    return found


MSGIDS = marked_msgids()


def told(line: LogLine | None) -> str | None:
    """What the table shows (untranslated): the msgid with its params."""
    if line is None:
        return None
    assert line.text in MSGIDS, f"not a marked msgid: {line.text!r}"
    return fill(line.text, line.params)


def roll(*faces: int, reason: str = "Pula") -> PoolRoll:
    return replay_pool((Modifier(len(faces), reason),), faces, FACES)


def fight(settings: TableSettings | None = None, **wolf: object) -> EncounterState:
    """Radosław Szablista (sabre, shield) against Wilk 1; Radosław acts first."""
    ala = make_combatant(
        "ala",
        name="Radosław Szablista",
        sheet=make_sheet("Radosław", weapons=(TOPOR, LUK), shields=(TARCZA,)),
    )
    wilk = make_combatant("wilk", "foes", name="Wilk 1", **wolf)
    return begin(make_state(ala, wilk, settings=settings), ["ala", "wilk"])


def setup() -> EncounterState:
    return make_state(make_combatant("ala", name="Radosław Szablista"))


def mapped() -> EncounterState:
    """The fight on a laid battle map (12 × 8 fields)."""
    return replace(fight(), battlemap=battlemap.new_map("square", 1, 12, 8))


def with_prompt(prompt: Prompt, **wolf: object) -> EncounterState:
    return replace(fight(**wolf), prompts=(prompt,))


def pending(**changes: object) -> PendingAttack:
    base = PendingAttack(
        id="a9", attacker="ala", target="wilk", weapon="Topór", special=None, modifiers=()
    )
    return replace(base, **changes)


AO = Prompt(
    id="p9",
    kind="atak_okazyjny",
    actor="wilk",
    options=("atak_okazyjny",),
    deadline=1.0,
    target="ala",
    trigger="Inkantacja",
)
AREA = Prompt(id="p8", kind="ucieczka", actor="wilk", options=("ucieczka",), deadline=1.0)
REACT = Prompt(id="p7", kind="reakcja", actor="wilk", options=("parowanie", "unik"), deadline=1)
DEATH = resolve_maiming(1, 1, -1)  # Głowa, effect 1 − 1 → clamped to 1: Śmierć
BROKEN_ARM = resolve_maiming(3, 5, 0)  # Prawa Ręka, Złamanie
NO_MAIMING = TableSettings(maiming_enabled=False)

Case = tuple[Callable[[], EncounterState], Event, str | None]
CASES: list[Case] = [
    # turn structure
    (
        setup,
        InitiativeRolled(combatant="ala", faces=(4, 3)),
        "Radosław Szablista: Inicjatywa 4 + 3 + Intuicja 2 = 9.",
    ),
    (
        fight,
        InitiativeTieBroken(contenders=("ala", "wilk"), faces=(5, 2)),
        "Remis w Inicjatywie: Radosław Szablista, Wilk 1 rzucają dodatkową k6.",
    ),
    (setup, CombatStarted(initiative=InitiativeOrder((), (), ())), "Walka się zaczyna!"),
    (
        setup,
        CombatStarted(initiative=InitiativeOrder((), (), ()), surprise_side="foes"),
        "Walka się zaczyna: tura zaskoczenia! Działa strona foes.",
    ),
    (fight, RoundStarted(round=2), "Runda 2"),
    (fight, RoundStarted(round=0, surprise=True), "Tura zaskoczenia"),
    (fight, TurnStarted(combatant="wilk", actions=2, reactions=1), "Tura: Wilk 1"),
    (fight, TurnStarted(combatant="wilk", actions=1, reactions=1), "Tura: Wilk 1 (akcje: 1)"),
    (fight, TurnStarted(combatant="wilk", actions=0, reactions=0), "Tura: Wilk 1 (bez akcji)"),
    (fight, TurnEnded(combatant="ala"), None),
    (fight, CombatEnded(winner="party"), "Koniec walki. Zwycięża strona party."),
    (fight, CombatEnded(), "Koniec walki."),
    (fight, ActionSpent(actor="ala", action="atak"), None),
    (
        fight,
        InitiativeChanged(combatant="ala", initiative=3, order=("wilk", "ala")),
        "Radosław Szablista oddaje inicjatywę: teraz 3.",
    ),
    # actions and moves
    (fight, Moved(combatant="ala", metres=3), "Radosław Szablista idzie 3 m."),
    (fight, Moved(combatant="ala", metres=6, mode="bieg"), "Radosław Szablista biegnie 6 m."),
    (fight, Moved(combatant="ala", metres=2, mode="plywanie"), "Radosław Szablista płynie 2 m."),
    (
        fight,
        Moved(combatant="ala", metres=1, mode="wspinaczka"),
        "Radosław Szablista wspina się 1 m.",
    ),
    (fight, Moved(combatant="ala", metres=8, mode="jazda"), "Radosław Szablista jedzie 8 m."),
    (
        fight,
        Moved(combatant="ala", metres=2, mode="akrobatyka"),
        "Radosław Szablista przemieszcza się akrobatycznie 2 m.",
    ),
    (
        fight,
        Moved(combatant="wilk", metres=1, mode="ucieczka"),
        "Wilk 1 ucieka 1 m z obszaru ataku.",
    ),
    (
        fight,
        Moved(combatant="wilk", metres=2, mode="odepchniecie", forced=True),
        "Odepchnięcie: Wilk 1 przesuwa się o 2 m.",
    ),
    (
        fight,
        Moved(combatant="wilk", metres=3, mode="ciagniety", forced=True),
        "Unieruchomienie: Wilk 1 przesuwa się razem z trzymającym.",
    ),
    (
        fight,
        Moved(combatant="ala", metres=4, charge_bonus=2, charge_metres=4),
        "Radosław Szablista szarżuje 4 m (Szarża: +2 do ataku).",
    ),
    (fight, Moved(combatant="ala", metres=1, mode="teleport"), "Radosław Szablista idzie 1 m."),
    (fight, AimTaken(actor="ala", target="wilk"), "Radosław Szablista celuje: Wilk 1."),
    (
        fight,
        ReloadProgressed(actor="ala", weapon="Łuk", progress=1, loaded=False),
        "Radosław Szablista: Przeładowanie — Łuk (1 z 2).",
    ),
    (
        fight,
        ReloadProgressed(actor="ala", weapon="Proca", progress=1, loaded=False),
        "Radosław Szablista: Przeładowanie — Proca (1 z 1).",
    ),
    (
        fight,
        ReloadProgressed(actor="ala", weapon="Łuk", progress=2, loaded=True),
        "Radosław Szablista kończy Przeładowanie: Łuk.",
    ),
    (
        fight,
        SpellPartPrepared(actor="ala", spell="Kula ognia", parts=2),
        "Radosław Szablista: Inkantacja — Kula ognia (część 2).",
    ),
    (
        fight,
        ReactionGained(actor="ala"),
        "Radosław Szablista: Przygotowanie — dodatkowa reakcja.",
    ),
    (
        fight,
        GuardRaised(actor="ala", bonus=2, shield="Tarcza"),
        "Radosław Szablista: Zasłona — Tarcza, +2 do Obrony.",
    ),
    (fight, GuardRaised(actor="ala", bonus=1), "Radosław Szablista: Zasłona, +1 do Obrony."),
    (
        fight,
        ItemMoved(combatant="ala", item="Łuk", held=False, to="wilk"),
        "Radosław Szablista podaje: Łuk → Wilk 1.",
    ),
    (
        fight,
        ItemMoved(combatant="ala", item="Łuk", held=True),
        "Radosław Szablista bierze do ręki: Łuk.",
    ),
    (
        fight,
        ItemMoved(combatant="ala", item="Łuk", held=False),
        "Radosław Szablista odkłada: Łuk.",
    ),
    (
        fight,
        ItemUsed(actor="ala", target="ala", item="Maść"),
        "Radosław Szablista używa: Maść.",
    ),
    (
        fight,
        ItemUsed(actor="ala", target="wilk", item="Maść"),
        "Radosław Szablista używa: Maść na: Wilk 1.",
    ),
    (
        fight,
        MountChanged(combatant="ala", mounted=True),
        "Radosław Szablista dosiada wierzchowca.",
    ),
    (
        fight,
        MountChanged(combatant="ala", mounted=False),
        "Radosław Szablista zsiada z wierzchowca.",
    ),
    (
        fight,
        Steered(actor="ala", passed=True, pace=8),
        "Radosław Szablista steruje wierzchowcem (tempo 8 m).",
    ),
    (
        fight,
        Steered(actor="ala", passed=False),
        "Radosław Szablista nie panuje nad wierzchowcem.",
    ),
    (
        fight,
        MountAdrift(combatant="ala"),
        "Wierzchowiec bez sterowania: Radosław Szablista — dokąd pójdzie, decyduje MG.",
    ),
    (fight, PassGranted(actor="ala", ally="wilk"), "Radosław Szablista przepuszcza: Wilk 1."),
    (fight, Note(actor="ala", text="Szukam liny"), "Radosław Szablista: Szukam liny"),
    # tests
    (
        fight,
        TestRolled(actor="ala", test="percepcja", roll=roll(4, 2)),
        "Radosław Szablista: Percepcja — 1 sukces.",
    ),
    (
        fight,
        TestRolled(actor="ala", test="sila", roll=roll(4, 5, 6)),
        "Radosław Szablista: Siła — 3 sukcesy.",
    ),
    (
        fight,
        TestRolled(actor="ala", test="wyrwanie", roll=roll(4, 5, 6, 6, 6, 1)),
        "Radosław Szablista: Wyrwanie — 5 sukcesów.",
    ),
    (
        fight,
        TestRolled(actor="ala", test="medycyna", roll=roll(5, 5), difficulty=2, passed=True),
        "Radosław Szablista: Medycyna (trudność 2) — zdany.",
    ),
    (
        fight,
        TestRolled(actor="ala", test="Tropienie", roll=roll(5, 1), difficulty=2, passed=False),
        "Radosław Szablista: Tropienie (trudność 2) — niezdany.",
    ),
    (
        fight,
        TestRolled(
            actor="ala",
            test="bieganie",
            roll=roll(1, 2),
            difficulty=1,
            passed=False,
            critical_failure=True,
        ),
        "Radosław Szablista: Bieganie — krytyczna porażka!",
    ),
    (fight, GMRolled(label="Rzut MG", roll=roll(6, 1)), "Rzut MG: 1 sukces."),
    (fight, GMRolled(label="Rzut MG", roll=roll(6, 5, 1)), "Rzut MG: 2 sukcesy."),
    (fight, GMRolled(label="Rzut MG", roll=roll(1, 2)), "Rzut MG: 0 sukcesów."),
    (fight, GMRolled(label="Zasadzka", roll=roll(6)), "Rzut MG (Zasadzka): 1 sukces."),
    (fight, GMRolled(label="Zasadzka", roll=roll(6, 6)), "Rzut MG (Zasadzka): 2 sukcesy."),
    (fight, GMRolled(label="Zasadzka", roll=roll()), "Rzut MG (Zasadzka): 0 sukcesów."),
    # conditions
    (
        fight,
        ConditionAdded(combatant="wilk", condition=ConditionInstance("krwawienie", remaining=3)),
        "Wilk 1: Krwawienie (tury: 3).",
    ),
    (
        fight,
        ConditionAdded(combatant="wilk", condition=ConditionInstance("odsloniecie", stacks=2)),
        "Wilk 1: Odsłonięcie ×2.",
    ),
    (
        fight,
        ConditionAdded(
            combatant="wilk", condition=ConditionInstance("krwawienie", stacks=2, remaining=3)
        ),
        "Wilk 1: Krwawienie ×2 (tury: 3).",
    ),
    (
        fight,
        ConditionAdded(combatant="wilk", condition=ConditionInstance("powalenie")),
        "Wilk 1: Powalenie.",
    ),
    (
        lambda: fight(conditions=(ConditionInstance("zmeczenie", stacks=4),)),
        ConditionAdded(combatant="wilk", condition=ConditionInstance("zmeczenie")),
        "Wilk 1: Zmęczenie. Wilk 1 traci przytomność.",
    ),
    (fight, ConditionRemoved(combatant="wilk", key="powalenie"), "Wilk 1 wstaje."),
    (fight, ConditionRemoved(combatant="wilk", key="krwawienie"), "Wilk 1: Krwawienie mija."),
    (
        fight,
        ConditionSpent(combatant="ala", key="inspiracja"),
        "Radosław Szablista używa Kostki Heroizmu.",
    ),
    (
        fight,
        ConditionSpent(combatant="wilk", key="odsloniecie", stacks=2),
        "Wilk 1: Odsłonięcie zużyte (2).",
    ),
    (
        fight,
        DifficultyLowered(combatant="wilk", key="unieruchomienie", source="ala", difficulty=2),
        "Wilk 1: Unieruchomienie — trudność spada do 2.",
    ),
    (
        fight,
        ConditionTicked(combatant="wilk", key="krwawienie", damage=1),
        "Krwawienie zadaje 1 obrażenie: Wilk 1.",
    ),
    (
        fight,
        ConditionTicked(combatant="wilk", key="podpalenie", damage=3),
        "Podpalenie zadaje 3 obrażenia: Wilk 1.",
    ),
    (
        fight,
        ConditionTicked(combatant="wilk", key="krwawienie", damage=5),
        "Krwawienie zadaje 5 obrażeń: Wilk 1.",
    ),
    (
        lambda: fight(damage_physical=9),
        ConditionTicked(combatant="wilk", key="krwawienie", damage=1),
        "Krwawienie: Wilk 1 traci 1 pkt Zdrowia i przytomność.",
    ),
    (
        lambda: fight(NO_MAIMING, damage_physical=12),
        ConditionTicked(combatant="wilk", key="krwawienie", damage=1),
        "Krwawienie: Wilk 1 traci 1 pkt Zdrowia i ginie.",
    ),
    # health
    (
        fight,
        HealthChanged(combatant="wilk", physical=2, reason="upadek"),
        "Wilk 1 traci 2 pkt Zdrowia (upadek).",
    ),
    (fight, HealthChanged(combatant="wilk", stun=2), "Wilk 1 traci 2 pkt Zdrowia."),
    (
        fight,
        HealthChanged(combatant="wilk", physical=10, reason="MG"),
        "Wilk 1 traci 10 pkt Zdrowia (MG) i przytomność.",
    ),
    (
        fight,
        HealthChanged(combatant="wilk", physical=10),
        "Wilk 1 traci 10 pkt Zdrowia i przytomność.",
    ),
    (
        lambda: fight(NO_MAIMING),
        HealthChanged(combatant="wilk", physical=13, reason="lawina"),
        "Wilk 1 traci 13 pkt Zdrowia (lawina) i ginie.",
    ),
    (
        lambda: fight(NO_MAIMING),
        HealthChanged(combatant="wilk", physical=13),
        "Wilk 1 traci 13 pkt Zdrowia i ginie.",
    ),
    (
        lambda: fight(damage_physical=4),
        HealthChanged(combatant="wilk", physical=-3, reason="leczenie"),
        "Wilk 1 odzyskuje 3 pkt Zdrowia (leczenie).",
    ),
    (
        lambda: fight(damage_physical=4),
        HealthChanged(combatant="wilk", physical=-3),
        "Wilk 1 odzyskuje 3 pkt Zdrowia.",
    ),
    (
        lambda: fight(damage_physical=10, status="unconscious"),
        HealthChanged(combatant="wilk", physical=-5, reason="leczenie"),
        "Wilk 1 odzyskuje 5 pkt Zdrowia (leczenie) i przytomność.",
    ),
    (
        lambda: fight(damage_physical=10, status="unconscious"),
        HealthChanged(combatant="wilk", physical=-5),
        "Wilk 1 odzyskuje 5 pkt Zdrowia i przytomność.",
    ),
    (
        lambda: fight(damage_physical=2, damage_stun=3),
        HealthChanged(combatant="wilk", physical=1, stun=-3, reason="MG"),
        "MG zmienia obrażenia: Wilk 1 — fizyczne 3, ogłuszające 0.",
    ),
    (fight, HealthChanged(combatant="wilk", stun=0, reason="upadek"), None),
    (
        lambda: fight(damage_physical=14, status="unconscious"),
        MaimingRolled(combatant="wilk", result=DEATH, zdrowie=-1),
        "Okaleczenie i Śmierć: Wilk 1 — kości 1 i 1 (efekt 1): Głowa, Śmierć. Wilk 1 nie żyje.",
    ),
    (
        lambda: fight(damage_physical=13, status="unconscious"),
        MaimingRolled(combatant="wilk", result=BROKEN_ARM, zdrowie=0),
        "Okaleczenie i Śmierć: Wilk 1 — kości 3 i 5 (efekt 5): Prawa Ręka, Złamanie.",
    ),
    (
        fight,
        FirstAidGiven(combatant="wilk", medic="ala", result=BROKEN_ARM),
        "Radosław Szablista udziela pierwszej pomocy: Wilk 1 (efekt 5): Prawa Ręka, Złamanie.",
    ),
    (
        fight,
        FirstAidGiven(combatant="wilk", medic="ala", result=DEATH),
        "Radosław Szablista udziela pierwszej pomocy: Wilk 1 (efekt 1): Głowa, Śmierć. "
        "Wilk 1 nie żyje.",
    ),
    # attacks
    (
        fight,
        AttackDeclared(attack=pending(), prompt=REACT),
        "Radosław Szablista atakuje: Wilk 1 (Topór).",
    ),
    (
        fight,
        AttackDeclared(attack=pending(weapon=UNARMED)),
        "Radosław Szablista atakuje bez broni: Wilk 1.",
    ),
    (
        fight,
        AttackDeclared(attack=pending(special="powalenie")),
        "Radosław Szablista atakuje: Wilk 1 (Topór, Powalenie).",
    ),
    (
        fight,
        AttackDeclared(attack=pending(weapon=UNARMED, special="schwytanie")),
        "Radosław Szablista atakuje bez broni: Wilk 1 (Schwytanie).",
    ),
    (
        fight,
        AttackDeclared(attack=pending(opportunity=True)),
        "Radosław Szablista — atak okazyjny: Wilk 1 (Topór).",
    ),
    (
        fight,
        AttackDeclared(attack=pending(opportunity=True, weapon=UNARMED)),
        "Radosław Szablista — atak okazyjny bez broni: Wilk 1.",
    ),
    (
        fight,
        ReactionChosen(prompt="p7", actor="wilk", reactions=("parowanie",)),
        "Wilk 1 wybiera reakcję: Parowanie.",
    ),
    (
        fight,
        ReactionChosen(prompt="p7", actor="ala", reactions=("parowanie",), shield="Tarcza"),
        "Radosław Szablista wybiera reakcję: Parowanie (Tarcza).",
    ),
    (
        fight,
        ReactionChosen(prompt="p7", actor="wilk", reactions=("unik",)),
        "Wilk 1 wybiera reakcję: Unik.",
    ),
    (
        fight,
        ReactionChosen(prompt="p7", actor="wilk", reactions=("unik", "parowanie")),
        "Wilk 1 wybiera reakcje: Parowanie i Unik.",
    ),
    (fight, ReactionChosen(prompt="p7", actor="wilk"), "Wilk 1 nie reaguje."),
    (
        fight,
        ReactionChosen(prompt="p7", actor="wilk", expired=True),
        "Wilk 1 nie reaguje (czas minął).",
    ),
    (
        lambda: fight(status="unconscious"),
        ReactionChosen(prompt="p7", actor="wilk", expired=True),
        "Wilk 1 nie może zareagować.",
    ),
    (
        fight,
        AttackResolved(
            attack="a9",
            attacker="ala",
            target="wilk",
            attack_roll=roll(4, 1),
            defence_roll=roll(5, 6),
            hit=False,
        ),
        "Radosław Szablista nie trafia: Wilk 1.",
    ),
    (
        fight,
        AttackResolved(
            attack="a9",
            attacker="ala",
            target="wilk",
            attack_roll=roll(1, 1),
            defence_roll=roll(5, 6),
            hit=False,
            critical_failure=True,
        ),
        "Radosław Szablista nie trafia: Wilk 1. Krytyczna porażka!",
    ),
    (
        fight,
        AttackResolved(
            attack="a9",
            attacker="ala",
            target="wilk",
            attack_roll=roll(4, 5),
            defence_roll=roll(1),
            hit=True,
            przebicia=2,
        ),
        "Radosław Szablista trafia: Wilk 1! Przebicia: 2.",
    ),
    (
        fight,
        AttackResolved(
            attack="a9",
            attacker="ala",
            target="wilk",
            attack_roll=roll(4, 5, 6),
            defence_roll=None,
            hit=True,
            przebicia=3,
            damage_type="fizyczne",
            damage=6,
            reduction=1,
            physical=5,
        ),
        "Radosław Szablista trafia: Wilk 1! Przebicia: 3; obrażenia 6 − Pancerz 1 = 5 (fizyczne).",
    ),
    (
        fight,
        AttackResolved(
            attack="a9",
            attacker="ala",
            target="wilk",
            attack_roll=roll(4, 5, 6),
            defence_roll=roll(4),
            hit=True,
            przebicia=2,
            damage_type="fizyczne",
            damage=12,
            physical=12,
        ),
        "Radosław Szablista trafia: Wilk 1! Przebicia: 2; obrażenia 12 − Pancerz 0 = 12 "
        "(fizyczne). Wilk 1 traci przytomność.",
    ),
    (
        lambda: fight(NO_MAIMING),
        AttackResolved(
            attack="a9",
            attacker="ala",
            target="wilk",
            attack_roll=roll(4, 5, 6),
            defence_roll=roll(4),
            hit=True,
            przebicia=2,
            damage_type="fizyczne",
            damage=13,
            physical=13,
        ),
        "Radosław Szablista trafia: Wilk 1! Przebicia: 2; obrażenia 13 − Pancerz 0 = 13 "
        "(fizyczne). Wilk 1 ginie.",
    ),
    (
        fight,
        AttackResolved(
            attack="a9",
            attacker="wilk",
            target="ala",
            attack_roll=roll(4, 5),
            defence_roll=roll(1),
            hit=True,
            przebicia=2,
            damage_type="ogluszajace",
            damage=4,
            reduction=1,
            stun=3,
        ),
        "Wilk 1 trafia: Radosław Szablista! Przebicia: 2; obrażenia 4 − Wola 1 = 3 (ogłuszające).",
    ),
    (
        fight,
        AttackResolved(
            attack="a9",
            attacker="wilk",
            target="ala",
            attack_roll=roll(4, 5),
            defence_roll=roll(1),
            hit=True,
            przebicia=2,
            damage_type="ogluszajace",
            damage=11,
            reduction=1,
            stun=10,
        ),
        "Wilk 1 trafia: Radosław Szablista! Przebicia: 2; obrażenia 11 − Wola 1 = 10 "
        "(ogłuszające). Radosław Szablista traci przytomność.",
    ),
    (
        lambda: fight(NO_MAIMING),
        AttackResolved(
            attack="a9",
            attacker="wilk",
            target="ala",
            attack_roll=roll(4, 5),
            defence_roll=roll(1),
            hit=True,
            przebicia=2,
            damage_type="ogluszajace",
            damage=14,
            reduction=1,
            stun=13,
        ),
        "Wilk 1 trafia: Radosław Szablista! Przebicia: 2; obrażenia 14 − Wola 1 = 13 "
        "(ogłuszające). Radosław Szablista ginie.",
    ),
    (
        lambda: replace(fight(), attacks=(pending(),)),
        AttackCancelled(attack="a9", reason="Wilk 1 nie żyje"),
        "Atak odwołany: Wilk 1 nie żyje.",
    ),
    (fight, AttackCancelled(attack="a9", reason="cel zniknął"), "Atak odwołany: cel zniknął."),
    # prompts
    (
        fight,
        PromptOpened(prompt=AO),
        "Wilk 1 ma okazję do ataku okazyjnego: Radosław Szablista (Inkantacja).",
    ),
    (
        fight,
        PromptOpened(prompt=replace(AREA, trigger="kula ognia")),
        "Wilk 1 może uciec z obszaru ataku (kula ognia).",
    ),
    (fight, PromptOpened(prompt=REACT), "Czekamy na reakcję: Wilk 1."),
    (
        lambda: with_prompt(AO),
        PromptClosed(prompt="p9", expired=True),
        "Wilk 1 nie reaguje (czas minął).",
    ),
    (
        lambda: with_prompt(AO, status="unconscious"),
        PromptClosed(prompt="p9", expired=True),
        "Wilk 1 nie może zareagować.",
    ),
    (lambda: with_prompt(AO), PromptClosed(prompt="p9"), None),
    (fight, PromptClosed(prompt="p404", expired=True), None),
    # GM
    (fight, CombatantChanged(combatant="wilk", hidden=True), "MG ukrywa: Wilk 1."),
    (fight, CombatantChanged(combatant="wilk", hidden=False), "Pojawia się: Wilk 1."),
    (
        fight,
        CombatantChanged(combatant="wilk", stats_revealed=True),
        "MG odsłania statystyki: Wilk 1.",
    ),
    (
        fight,
        CombatantChanged(combatant="wilk", stats_revealed=False),
        "MG zakrywa statystyki: Wilk 1.",
    ),
    (fight, CombatantChanged(combatant="wilk"), None),
    (setup, CombatantPlaced(combatant="ala", to=(1, 1)), None),
    (
        fight,
        CombatantPlaced(combatant="wilk", to=(2, 3)),
        "MG przestawia: Wilk 1 na pole (2, 3).",
    ),
    (fight, CombatantPlaced(combatant="wilk", to=None), "MG zdejmuje z mapy: Wilk 1."),
    (fight, EnvironmentChanged(darkness=Darkness.POLMROK), "Oświetlenie: półmrok."),
    (fight, EnvironmentChanged(darkness=Darkness.CIEMNOSC), "Oświetlenie: ciemność."),
    (
        fight,
        EnvironmentChanged(darkness=Darkness.CALKOWITA_CIEMNOSC),
        "Oświetlenie: całkowita ciemność.",
    ),
    (
        lambda: replace(fight(), darkness=Darkness.POLMROK),
        EnvironmentChanged(darkness=Darkness.SWIATLO),
        "Oświetlenie: pełne światło.",
    ),
    (
        fight,
        EnvironmentChanged(darkness=Darkness.SWIATLO, difficult_terrain=((1, 1), (1, 2))),
        "MG zmienia trudny teren (pola: 2).",
    ),
    (fight, EnvironmentChanged(darkness=Darkness.SWIATLO), None),
    (
        fight,
        CombatantJoined(combatant=make_combatant("wilk2", "foes", name="Wilk 2", initiative=9)),
        "Do walki dołącza: Wilk 2 (Inicjatywa 9).",
    ),
    (
        setup,
        CombatantJoined(combatant=make_combatant("wilk2", "foes", name="Wilk 2")),
        "Do walki dołącza: Wilk 2.",
    ),
    (setup, MapEdited(edit=battlemap.Resize(12, 8)), "MG rozkłada mapę 12 × 8 pól."),
    (mapped, MapEdited(edit=battlemap.Resize(10, 9)), "MG zmienia rozmiar mapy: 10 × 9 pól."),
    (
        mapped,
        MapEdited(edit=battlemap.Paint("wall", ((1, 1), (1, 2)))),
        "MG rysuje ściany na mapie (pola: 2).",
    ),
    (
        mapped,
        MapEdited(edit=battlemap.Paint("dark2", ((1, 1),))),
        "MG zaznacza ciemność na mapie (pola: 1).",
    ),
    (mapped, MapEdited(edit=battlemap.Look("#112233")), "MG zmienia wygląd mapy."),
    (mapped, MapEdited(edit=battlemap.Remove(confirm=True)), "MG usuwa mapę."),
    (
        mapped,
        CombatantPlaced(combatant="wilk", to=(2, 3)),
        "MG stawia: Wilk 1 na polu C4.",
    ),
]


@pytest.mark.parametrize(
    ("make", "event", "expected"),
    CASES,
    ids=lambda x: type(x).__name__ if isinstance(x, Event) else "",
)
def test_each_event_reads_naturally_in_polish(
    make: Callable[[], EncounterState], event: Event, expected: str | None
) -> None:
    assert told(describe(make(), event)) == expected


def test_every_event_type_is_told_or_listed_as_silent() -> None:
    registered = set(EVENTS.values())
    assert set(NARRATORS) | SILENT == registered
    assert not set(NARRATORS) & SILENT
    told_types = {type(event) for _, event, expected in CASES if expected is not None}
    assert told_types == set(NARRATORS), "every narrator has a sample that reads as a line"


def test_every_msgid_uses_named_placeholders_only() -> None:
    """gettext(text) % params: positional or unnamed placeholders could not be reordered."""
    for msgid in MSGIDS:
        stripped = re.sub(r"%\(\w+\)s", "", msgid)
        assert "%" not in stripped, msgid
        assert msgid == msgid.strip(), msgid


def test_lines_name_their_actors_and_carry_the_rolls() -> None:
    miss = AttackResolved(
        attack="a9",
        attacker="ala",
        target="wilk",
        attack_roll=roll(4, 1),
        defence_roll=roll(5, 6),
        hit=False,
    )
    line = describe(fight(), miss)
    assert line is not None and line.kind == "attack" and line.actors == ("ala", "wilk")
    assert line.rolls == (
        RollView("Atak", (4, 1), 1, (("Pula", 2),), summary="sukcesy: %(n)s"),
        RollView("Obrona", (5, 6), 2, (("Pula", 2),), summary="sukcesy: %(n)s"),
    )
    assert {r.label for r in line.rolls} <= MSGIDS


def test_a_secret_gm_roll_is_a_secret_line() -> None:
    state = fight()
    secret = describe(state, GMRolled(label="Rzut MG", roll=roll(6, 6, 6)))
    public = describe(state, GMRolled(label="Rzut MG", roll=roll(6, 6, 6), secret=False))
    assert secret is not None and secret.secret and secret.kind == "gm"
    assert public is not None and not public.secret
    assert told(secret) == "Rzut MG: 3 sukcesy."
    hidden = describe(state, CombatantChanged(combatant="wilk", hidden=True))
    assert hidden is not None and hidden.secret


def test_a_joining_combatant_is_named_from_the_event() -> None:
    joined = make_combatant("wilk2", "foes", name="Wilk 2")
    line = describe(fight(), CombatantJoined(combatant=joined))
    assert line is not None and line.actors == ("wilk2",)


def test_polish_plural_forms() -> None:
    forms = {n: narrate._plural(n, "one", "few", "many") for n in (0, 1, 2, 4, 5, 12, 14, 22, 25)}
    assert forms == {
        0: "many",
        1: "one",
        2: "few",
        4: "few",
        5: "many",
        12: "many",
        14: "many",
        22: "few",
        25: "many",
    }


def test_the_ruleset_describes_events_through_the_protocol() -> None:
    rules = get_ruleset("eleora")
    line = rules.describe(fight(), RoundStarted(round=3))
    assert line == LogLine(text="Runda %(round)s", params={"round": 3}, kind="turn")
    assert rules.describe(fight(), TurnEnded(combatant="ala")) is None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_fight_is_told_line_by_line(seed: int) -> None:
    """A simulated fight on a map (flanks, Atak okazyjny offers, knock-outs): every event
    is described against the state before it, and every line formats."""
    wolf = make_sheet("Wilk", weapons=(), skills={"walka_wrecz": 3})
    state = make_state(
        make_combatant("ala", position=(0, 0), sheet=make_sheet(shields=(TARCZA,))),
        make_combatant("bob", position=(0, 2), sheet=make_sheet("Bob", weapons=(TOPOR,))),
        *(make_combatant(f"w{i}", "foes", position=(4, i * 2), sheet=wolf) for i in range(3)),
    )
    rng = SeededRNG(seed)
    lines: list[str] = []

    def run(command: Command) -> None:
        nonlocal state
        for event in decide(state, command, rng):
            text = told(describe(state, event))
            if text is not None:
                lines.append(text)
            state = evolve(state, event)

    run(RollInitiative(actor="ala"))
    run(StartCombat())
    for clock in range(300):
        if len({c.side for c in state.combatants.values() if c.conscious}) < 2:
            break
        run(next_command(state, Policy(targeting="nearest"), float(clock)))
    assert lines[0].startswith("Ala: Inicjatywa")
    assert any(line.startswith("Tura: ") for line in lines)
    assert any(" atakuje" in line for line in lines)
