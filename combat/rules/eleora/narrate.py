"""The table's log: each Eleora event told in Polish, against the state BEFORE the event.

A line's text is a msgid with `%(name)s` placeholders; the table layer shows
`gettext(line.text) % line.params`, so the params hold only names and numbers and a translation
may reorder them. Every msgid sits inside `gettext_noop(...)`, the keyword makemessages hands
to xgettext, so the catalogue picks them up. Counted nouns pick their Polish form in code
(`_plural`), each form its own msgid. Every event type is either told by a narrator in
NARRATORS or listed in SILENT (pure bookkeeping); tests hold the EVENTS registry to that.
"""

from __future__ import annotations

from typing import Any

from combat.rules import battlemap
from combat.rules.base import LogLine, RollView, gettext_noop, text_param
from combat.rules.dice import PoolRoll
from combat.rules.eleora import conditions as cond
from combat.rules.eleora.attack import SPECIAL_MSGIDS
from combat.rules.eleora.engine.evolve import evolve
from combat.rules.eleora.environment import Darkness
from combat.rules.eleora.events import (
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
    DeadlinesMoved,
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
from combat.rules.eleora.sheet import ATTRIBUTE_LABELS, SKILL_LABELS, DamageType
from combat.rules.eleora.state import UNARMED, EncounterState
from combat.rules.narration import Narrator, line, name_of

# Bookkeeping without a line of its own: the event told next says what happened.
SILENT: frozenset[type[Event]] = frozenset(
    {
        ActionSpent,  # each action is told by the event that follows (Atak, Ruch, …)
        TurnEnded,  # the next "Tura: …" line says it
        DeadlinesMoved,  # the undo that moves them is told by the table
    }
)


def describe(state: EncounterState, event: Event) -> LogLine | None:
    """The log line for `event` (None for bookkeeping); names are read from `state`."""
    if type(event) in SILENT:
        return None
    return NARRATORS[type(event)](state, event)


# --- helpers ----------------------------------------------------------------------------------


def _roll(label: str, roll: PoolRoll) -> RollView:
    return RollView(
        label=label,
        dice=roll.faces,
        result=roll.successes,
        modifiers=tuple((m.reason, m.dice) for m in roll.modifiers),
        summary=gettext_noop("sukcesy: %(n)s"),
    )


def _plural(n: int, one: str, few: str, many: str) -> str:
    """The Polish form for a count: 1 sukces, 2–4 sukcesy (not 12–14), else 5 sukcesów."""
    if n == 1:
        return one
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return few
    return many


def _fate(state: EncounterState, event: Event, who: str) -> str:
    """What the event does to `who`'s status: "out" (knocked out), "dead", "awake" or "".

    No event of its own says so (the status follows from the damage), so the line that
    caused it tells it."""
    before = state.combatants.get(who)
    after = evolve(state, event).combatants.get(who)
    if before is None or after is None or before.status == after.status:
        return ""
    if after.status == "dead":
        return "dead"
    return "out" if after.status == "unconscious" else "awake"


def _condition(key: str) -> str:
    spec = cond.SPECS.get(key)
    return spec.label if spec is not None else key


# --- turn structure ---------------------------------------------------------------------------


def _initiative_rolled(state: EncounterState, e: InitiativeRolled) -> LogLine:
    """The 2d6 + Intuicja; the server's dice as a roll (checkable), a player's typed-in ones not."""
    c = state.get(e.combatant)
    intuicja = c.sheet.attribute("intuicja")
    total = sum(e.faces) + intuicja
    rolls = () if e.supplied else (_initiative_roll(e.faces, intuicja, total),)
    return line(
        gettext_noop(
            "%(name)s: Inicjatywa %(first)s + %(second)s + Intuicja %(intuicja)s = %(total)s."
        ),
        "setup",
        [c.id],
        rolls=rolls,
        name=c.name,
        first=e.faces[0],
        second=e.faces[1],
        intuicja=intuicja,
        total=total,
    )


def _initiative_roll(faces: tuple[int, int], intuicja: int, total: int) -> RollView:
    return RollView(
        label=gettext_noop("Inicjatywa"),
        dice=faces,
        result=total,
        modifiers=((gettext_noop("Intuicja"), intuicja),),
        summary=gettext_noop("wynik %(n)s"),
    )


def _initiative_tie_broken(state: EncounterState, e: InitiativeTieBroken) -> LogLine:
    """A tie-break's extra d6, one roll per tied character (each line names only them)."""
    names = [name_of(state, cid) for cid in e.contenders]
    rolls = [
        RollView(
            label=gettext_noop("Dogrywka inicjatywy"),
            dice=(face,),
            result=face,
            summary=gettext_noop("%(name)s: %(n)s"),
            summary_params={"name": name},
        )
        for name, face in zip(names, e.faces, strict=True)
    ]
    text = gettext_noop("Remis w Inicjatywie: %(names)s rzucają dodatkową k6.")
    return line(text, "setup", e.contenders, rolls=rolls, names=", ".join(names))


def _combat_started(state: EncounterState, e: CombatStarted) -> LogLine:
    # The order is on screen already; listing it here would name hidden combatants.
    if e.surprise_side:
        return line(
            gettext_noop("Walka się zaczyna: tura zaskoczenia! Działa strona %(side)s."),
            "turn",
            side=e.surprise_side,
        )
    return line(gettext_noop("Walka się zaczyna!"), "turn")


def _round_started(state: EncounterState, e: RoundStarted) -> LogLine:
    if e.surprise:
        return line(gettext_noop("Tura zaskoczenia"), "turn")
    return line(gettext_noop("Runda %(round)s"), "turn", round=e.round)


def _turn_started(state: EncounterState, e: TurnStarted) -> LogLine:
    name = name_of(state, e.combatant)
    if e.actions == 0:
        return line(gettext_noop("Tura: %(name)s (bez akcji)"), "turn", [e.combatant], name=name)
    if e.actions < state.settings.actions_per_turn and state.phase != "surprise":
        return line(
            gettext_noop("Tura: %(name)s (akcje: %(actions)s)"),
            "turn",
            [e.combatant],
            name=name,
            actions=e.actions,
        )
    return line(gettext_noop("Tura: %(name)s"), "turn", [e.combatant], name=name)


def _combat_ended(state: EncounterState, e: CombatEnded) -> LogLine:
    if e.winner:
        return line(gettext_noop("Koniec walki. Zwycięża strona %(side)s."), "turn", side=e.winner)
    return line(gettext_noop("Koniec walki."), "turn")


def _initiative_changed(state: EncounterState, e: InitiativeChanged) -> LogLine:
    return line(
        gettext_noop("%(name)s oddaje inicjatywę: teraz %(initiative)s."),
        "action",
        [e.combatant],
        name=name_of(state, e.combatant),
        initiative=e.initiative,
    )


# --- actions ----------------------------------------------------------------------------------


_MOVES = {
    "ruch": gettext_noop("%(name)s idzie %(metres)s m."),
    "bieg": gettext_noop("%(name)s biegnie %(metres)s m."),
    "plywanie": gettext_noop("%(name)s płynie %(metres)s m."),
    "wspinaczka": gettext_noop("%(name)s wspina się %(metres)s m."),
    "jazda": gettext_noop("%(name)s jedzie %(metres)s m."),
    "akrobatyka": gettext_noop("%(name)s przemieszcza się akrobatycznie %(metres)s m."),
    "ucieczka": gettext_noop("%(name)s ucieka %(metres)s m z obszaru ataku."),
    "odepchniecie": gettext_noop("Odepchnięcie: %(name)s przesuwa się o %(metres)s m."),
    "ciagniety": gettext_noop("Unieruchomienie: %(name)s przesuwa się razem z trzymającym."),
}


def _moved(state: EncounterState, e: Moved) -> LogLine:
    name = name_of(state, e.combatant)
    if e.charge_metres or e.charge_bonus:
        return line(
            gettext_noop("%(name)s szarżuje %(metres)s m (Szarża: +%(bonus)s do ataku)."),
            "move",
            [e.combatant],
            name=name,
            metres=e.metres,
            bonus=state.get(e.combatant).charge_bonus + e.charge_bonus,
        )
    text = _MOVES.get(e.mode, _MOVES["ruch"])
    return line(text, "move", [e.combatant], name=name, metres=e.metres)


def _aim_taken(state: EncounterState, e: AimTaken) -> LogLine:
    return line(
        gettext_noop("%(name)s celuje: %(target)s."),
        "action",
        [e.actor, e.target],
        name=name_of(state, e.actor),
        target=name_of(state, e.target),
    )


def _reload_progressed(state: EncounterState, e: ReloadProgressed) -> LogLine:
    name = name_of(state, e.actor)
    if e.loaded:
        return line(
            gettext_noop("%(name)s kończy Przeładowanie: %(weapon)s."),
            "action",
            [e.actor],
            name=name,
            weapon=e.weapon,
        )
    weapon = state.get(e.actor).weapon(e.weapon)
    return line(
        gettext_noop("%(name)s: Przeładowanie — %(weapon)s (%(progress)s z %(needed)s)."),
        "action",
        [e.actor],
        name=name,
        weapon=e.weapon,
        progress=e.progress,
        needed=weapon.reload_actions if weapon is not None else e.progress,
    )


def _spell_part_prepared(state: EncounterState, e: SpellPartPrepared) -> LogLine:
    return line(
        gettext_noop("%(name)s: Inkantacja — %(spell)s (część %(parts)s)."),
        "action",
        [e.actor],
        name=name_of(state, e.actor),
        spell=e.spell,
        parts=e.parts,
    )


def _reaction_gained(state: EncounterState, e: ReactionGained) -> LogLine:
    return line(
        gettext_noop("%(name)s: Przygotowanie — dodatkowa reakcja."),
        "action",
        [e.actor],
        name=name_of(state, e.actor),
    )


def _guard_raised(state: EncounterState, e: GuardRaised) -> LogLine:
    name = name_of(state, e.actor)
    if e.shield:
        return line(
            gettext_noop("%(name)s: Zasłona — %(shield)s, +%(bonus)s do Obrony."),
            "action",
            [e.actor],
            name=name,
            shield=e.shield,
            bonus=e.bonus,
        )
    return line(
        gettext_noop("%(name)s: Zasłona, +%(bonus)s do Obrony."),
        "action",
        [e.actor],
        name=name,
        bonus=e.bonus,
    )


def _item_moved(state: EncounterState, e: ItemMoved) -> LogLine:
    name = name_of(state, e.combatant)
    if e.to is not None:
        return line(
            gettext_noop("%(name)s podaje: %(item)s → %(to)s."),
            "action",
            [e.combatant, e.to],
            name=name,
            item=e.item,
            to=name_of(state, e.to),
        )
    if e.held:
        return line(
            gettext_noop("%(name)s bierze do ręki: %(item)s."),
            "action",
            [e.combatant],
            name=name,
            item=e.item,
        )
    return line(
        gettext_noop("%(name)s odkłada: %(item)s."),
        "action",
        [e.combatant],
        name=name,
        item=e.item,
    )


def _item_used(state: EncounterState, e: ItemUsed) -> LogLine:
    name = name_of(state, e.actor)
    if e.target == e.actor:
        return line(
            gettext_noop("%(name)s używa: %(item)s."), "action", [e.actor], name=name, item=e.item
        )
    return line(
        gettext_noop("%(name)s używa: %(item)s na: %(target)s."),
        "action",
        [e.actor, e.target],
        name=name,
        item=e.item,
        target=name_of(state, e.target),
    )


def _mount_changed(state: EncounterState, e: MountChanged) -> LogLine:
    text = (
        gettext_noop("%(name)s dosiada wierzchowca.")
        if e.mounted
        else gettext_noop("%(name)s zsiada z wierzchowca.")
    )
    return line(text, "action", [e.combatant], name=name_of(state, e.combatant))


def _steered(state: EncounterState, e: Steered) -> LogLine:
    name = name_of(state, e.actor)
    if e.passed:
        return line(
            gettext_noop("%(name)s steruje wierzchowcem (tempo %(pace)s m)."),
            "action",
            [e.actor],
            name=name,
            pace=e.pace,
        )
    return line(
        gettext_noop("%(name)s nie panuje nad wierzchowcem."), "action", [e.actor], name=name
    )


def _mount_adrift(state: EncounterState, e: MountAdrift) -> LogLine:
    return line(
        gettext_noop("Wierzchowiec bez sterowania: %(name)s — dokąd pójdzie, decyduje MG."),
        "gm",
        [e.combatant],
        name=name_of(state, e.combatant),
    )


def _pass_granted(state: EncounterState, e: PassGranted) -> LogLine:
    return line(
        gettext_noop("%(name)s przepuszcza: %(ally)s."),
        "reaction",
        [e.actor, e.ally],
        name=name_of(state, e.actor),
        ally=name_of(state, e.ally),
    )


def _note(state: EncounterState, e: Note) -> LogLine:
    return line(
        gettext_noop("%(name)s: %(text)s"),
        "note",
        [e.actor],
        name=name_of(state, e.actor),
        text=e.text,
    )


# --- tests ------------------------------------------------------------------------------------

_TEST_LABELS = {"wyrwanie": "Wyrwanie", "wyzwolenie": "Wyzwolenie"}


def _test_label(test: str) -> str:
    return SKILL_LABELS.get(test) or ATTRIBUTE_LABELS.get(test) or _TEST_LABELS.get(test, test)


def _test_rolled(state: EncounterState, e: TestRolled) -> LogLine:
    label = _test_label(e.test)
    view = _roll(label, e.roll)
    common: dict[str, str | int] = {"name": name_of(state, e.actor), "test": label}
    if e.critical_failure:
        text = gettext_noop("%(name)s: %(test)s — krytyczna porażka!")
    elif e.difficulty is None:
        text = _plural(
            e.roll.successes,
            gettext_noop("%(name)s: %(test)s — %(successes)s sukces."),
            gettext_noop("%(name)s: %(test)s — %(successes)s sukcesy."),
            gettext_noop("%(name)s: %(test)s — %(successes)s sukcesów."),
        )
    elif e.passed:
        text = gettext_noop("%(name)s: %(test)s (trudność %(difficulty)s) — zdany.")
    else:
        text = gettext_noop("%(name)s: %(test)s (trudność %(difficulty)s) — niezdany.")
    params = {**common, "successes": e.roll.successes, "difficulty": e.difficulty or 0}
    return line(text, "roll", [e.actor], params, rolls=[view])


def _gm_rolled(state: EncounterState, e: GMRolled) -> LogLine:
    n = e.roll.successes
    if e.label in ("", "Rzut MG"):
        text = _plural(
            n,
            gettext_noop("Rzut MG: %(successes)s sukces."),
            gettext_noop("Rzut MG: %(successes)s sukcesy."),
            gettext_noop("Rzut MG: %(successes)s sukcesów."),
        )
    else:
        text = _plural(
            n,
            gettext_noop("Rzut MG (%(label)s): %(successes)s sukces."),
            gettext_noop("Rzut MG (%(label)s): %(successes)s sukcesy."),
            gettext_noop("Rzut MG (%(label)s): %(successes)s sukcesów."),
        )
    view = _roll(e.label or gettext_noop("Rzut MG"), e.roll)
    return line(text, "gm", rolls=[view], secret=e.secret, successes=n, label=e.label)


# --- conditions -------------------------------------------------------------------------------


def _condition_added(state: EncounterState, e: ConditionAdded) -> LogLine:
    x = e.condition
    params: dict[str, Any] = {
        "name": name_of(state, e.combatant),
        "condition": text_param(_condition(x.key)),
        "stacks": x.stacks,
        "turns": x.remaining or 0,
    }
    if _fate(state, e, e.combatant):
        text = gettext_noop("%(name)s: %(condition)s. %(name)s traci przytomność.")
    elif x.stacks > 1 and x.remaining is not None:
        text = gettext_noop("%(name)s: %(condition)s ×%(stacks)s (tury: %(turns)s).")
    elif x.stacks > 1:
        text = gettext_noop("%(name)s: %(condition)s ×%(stacks)s.")
    elif x.remaining is not None:
        text = gettext_noop("%(name)s: %(condition)s (tury: %(turns)s).")
    else:
        text = gettext_noop("%(name)s: %(condition)s.")
    return line(text, "condition", [e.combatant], params)


def _condition_removed(state: EncounterState, e: ConditionRemoved) -> LogLine:
    name = name_of(state, e.combatant)
    if e.key == "powalenie":
        return line(gettext_noop("%(name)s wstaje."), "condition", [e.combatant], name=name)
    return line(
        gettext_noop("%(name)s: %(condition)s mija."),
        "condition",
        [e.combatant],
        name=name,
        condition=_condition(e.key),
    )


def _condition_spent(state: EncounterState, e: ConditionSpent) -> LogLine:
    name = name_of(state, e.combatant)
    if e.key == "inspiracja":
        return line(
            gettext_noop("%(name)s używa Kostki Heroizmu."), "condition", [e.combatant], name=name
        )
    return line(
        gettext_noop("%(name)s: %(condition)s zużyte (%(stacks)s)."),
        "condition",
        [e.combatant],
        name=name,
        condition=_condition(e.key),
        stacks=e.stacks,
    )


def _difficulty_lowered(state: EncounterState, e: DifficultyLowered) -> LogLine:
    return line(
        gettext_noop("%(name)s: %(condition)s — trudność spada do %(difficulty)s."),
        "condition",
        [e.combatant],
        name=name_of(state, e.combatant),
        condition=_condition(e.key),
        difficulty=e.difficulty,
    )


def _condition_ticked(state: EncounterState, e: ConditionTicked) -> LogLine:
    fate = _fate(state, e, e.combatant)
    if fate == "dead":
        text = gettext_noop("%(condition)s: %(name)s traci %(damage)s pkt Zdrowia i ginie.")
    elif fate == "out":
        text = gettext_noop("%(condition)s: %(name)s traci %(damage)s pkt Zdrowia i przytomność.")
    else:
        text = _plural(
            e.damage,
            gettext_noop("%(condition)s zadaje %(damage)s obrażenie: %(name)s."),
            gettext_noop("%(condition)s zadaje %(damage)s obrażenia: %(name)s."),
            gettext_noop("%(condition)s zadaje %(damage)s obrażeń: %(name)s."),
        )
    return line(
        text,
        "damage",
        [e.combatant],
        name=name_of(state, e.combatant),
        condition=_condition(e.key),
        damage=e.damage,
    )


# --- health -----------------------------------------------------------------------------------


_DAMAGE = {
    (True, ""): gettext_noop("%(name)s traci %(amount)s pkt Zdrowia (%(reason)s)."),
    (True, "out"): gettext_noop(
        "%(name)s traci %(amount)s pkt Zdrowia (%(reason)s) i przytomność."
    ),
    (True, "dead"): gettext_noop("%(name)s traci %(amount)s pkt Zdrowia (%(reason)s) i ginie."),
    (False, ""): gettext_noop("%(name)s traci %(amount)s pkt Zdrowia."),
    (False, "out"): gettext_noop("%(name)s traci %(amount)s pkt Zdrowia i przytomność."),
    (False, "dead"): gettext_noop("%(name)s traci %(amount)s pkt Zdrowia i ginie."),
}
_HEALING = {
    (True, False): gettext_noop("%(name)s odzyskuje %(amount)s pkt Zdrowia (%(reason)s)."),
    (True, True): gettext_noop(
        "%(name)s odzyskuje %(amount)s pkt Zdrowia (%(reason)s) i przytomność."
    ),
    (False, False): gettext_noop("%(name)s odzyskuje %(amount)s pkt Zdrowia."),
    (False, True): gettext_noop("%(name)s odzyskuje %(amount)s pkt Zdrowia i przytomność."),
}


def _health_changed(state: EncounterState, e: HealthChanged) -> LogLine | None:
    c = state.get(e.combatant)
    total = e.physical + e.stun
    params: dict[str, str | int] = {"name": c.name, "amount": abs(total), "reason": e.reason}
    if e.physical * e.stun < 0:  # a GM edit moving damage between the two kinds
        text = gettext_noop(
            "MG zmienia obrażenia: %(name)s — fizyczne %(physical)s, ogłuszające %(stun)s."
        )
        params |= {
            "physical": c.damage_physical + e.physical,
            "stun": c.damage_stun + e.stun,
        }
    elif total > 0:
        text = _DAMAGE[bool(e.reason), _fate(state, e, c.id)]
    elif total < 0:
        text = _HEALING[bool(e.reason), _fate(state, e, c.id) == "awake"]
    else:
        return None  # nothing changed (e.g. damage fully stopped by Wola)
    return line(text, "damage", [c.id], params)


def _maiming_rolled(state: EncounterState, e: MaimingRolled) -> LogLine:
    r = e.result
    params: dict[str, Any] = {
        "name": name_of(state, e.combatant),
        "location_die": r.location_die,
        "effect_die": r.effect_die,
        "final": r.final_effect,
        "location": text_param(r.location.name),
        "effect": text_param(r.effect.name),
    }
    if r.death:
        text = gettext_noop(
            "Okaleczenie i Śmierć: %(name)s — kości %(location_die)s i %(effect_die)s "
            "(efekt %(final)s): %(location)s, Śmierć. %(name)s nie żyje."
        )
    else:
        text = gettext_noop(
            "Okaleczenie i Śmierć: %(name)s — kości %(location_die)s i %(effect_die)s "
            "(efekt %(final)s): %(location)s, %(effect)s."
        )
    roll = RollView(
        label=gettext_noop("Okaleczenie i Śmierć"),
        dice=(r.location_die, r.effect_die),
        result=r.final_effect,
        summary=gettext_noop("efekt %(n)s"),
    )
    return line(text, "damage", [e.combatant], params, rolls=[roll])


def _first_aid_given(state: EncounterState, e: FirstAidGiven) -> LogLine:
    r = e.result
    params: dict[str, Any] = {
        "medic": name_of(state, e.medic),
        "name": name_of(state, e.combatant),
        "final": r.final_effect,
        "location": text_param(r.location.name),
        "effect": text_param(r.effect.name),
    }
    if r.death:
        text = gettext_noop(
            "%(medic)s udziela pierwszej pomocy: %(name)s (efekt %(final)s): "
            "%(location)s, Śmierć. %(name)s nie żyje."
        )
    else:
        text = gettext_noop(
            "%(medic)s udziela pierwszej pomocy: %(name)s (efekt %(final)s): "
            "%(location)s, %(effect)s."
        )
    return line(text, "damage", [e.medic, e.combatant], params)


# --- attacks ----------------------------------------------------------------------------------


def _attack_declared(state: EncounterState, e: AttackDeclared) -> LogLine:
    a = e.attack
    params: dict[str, Any] = {
        "attacker": name_of(state, a.attacker),
        "target": name_of(state, a.target),
        "weapon": a.weapon,
        "special": text_param(SPECIAL_MSGIDS.get(a.special or "", a.special or "")),
    }
    armed = a.weapon != UNARMED
    if a.opportunity:
        text = (
            gettext_noop("%(attacker)s — atak okazyjny: %(target)s (%(weapon)s).")
            if armed
            else gettext_noop("%(attacker)s — atak okazyjny bez broni: %(target)s.")
        )
    elif a.special:
        text = (
            gettext_noop("%(attacker)s atakuje: %(target)s (%(weapon)s, %(special)s).")
            if armed
            else gettext_noop("%(attacker)s atakuje bez broni: %(target)s (%(special)s).")
        )
    else:
        text = (
            gettext_noop("%(attacker)s atakuje: %(target)s (%(weapon)s).")
            if armed
            else gettext_noop("%(attacker)s atakuje bez broni: %(target)s.")
        )
    return line(text, "attack", [a.attacker, a.target], params)


def _reaction_chosen(state: EncounterState, e: ReactionChosen) -> LogLine:
    c = state.get(e.actor)
    params: dict[str, str | int] = {"name": c.name, "shield": e.shield or ""}
    if e.expired and not c.conscious:
        text = gettext_noop("%(name)s nie może zareagować.")
    elif e.expired:
        text = gettext_noop("%(name)s nie reaguje (czas minął).")
    elif not e.reactions:
        text = gettext_noop("%(name)s nie reaguje.")
    elif len(e.reactions) > 1:
        text = gettext_noop("%(name)s wybiera reakcje: Parowanie i Unik.")
    elif e.reactions[0] == "unik":
        text = gettext_noop("%(name)s wybiera reakcję: Unik.")
    elif e.shield:
        text = gettext_noop("%(name)s wybiera reakcję: Parowanie (%(shield)s).")
    else:
        text = gettext_noop("%(name)s wybiera reakcję: Parowanie.")
    return line(text, "reaction", [c.id], params)


_HITS = {
    (False, ""): gettext_noop(
        "%(attacker)s trafia: %(target)s! Przebicia: %(przebicia)s; obrażenia "
        "%(damage)s − Pancerz %(reduction)s = %(taken)s (fizyczne)."
    ),
    (False, "out"): gettext_noop(
        "%(attacker)s trafia: %(target)s! Przebicia: %(przebicia)s; obrażenia "
        "%(damage)s − Pancerz %(reduction)s = %(taken)s (fizyczne). "
        "%(target)s traci przytomność."
    ),
    (False, "dead"): gettext_noop(
        "%(attacker)s trafia: %(target)s! Przebicia: %(przebicia)s; obrażenia "
        "%(damage)s − Pancerz %(reduction)s = %(taken)s (fizyczne). %(target)s ginie."
    ),
    (True, ""): gettext_noop(
        "%(attacker)s trafia: %(target)s! Przebicia: %(przebicia)s; obrażenia "
        "%(damage)s − Wola %(reduction)s = %(taken)s (ogłuszające)."
    ),
    (True, "out"): gettext_noop(
        "%(attacker)s trafia: %(target)s! Przebicia: %(przebicia)s; obrażenia "
        "%(damage)s − Wola %(reduction)s = %(taken)s (ogłuszające). "
        "%(target)s traci przytomność."
    ),
    (True, "dead"): gettext_noop(
        "%(attacker)s trafia: %(target)s! Przebicia: %(przebicia)s; obrażenia "
        "%(damage)s − Wola %(reduction)s = %(taken)s (ogłuszające). %(target)s ginie."
    ),
}


def _attack_resolved(state: EncounterState, e: AttackResolved) -> LogLine:
    rolls = [_roll(gettext_noop("Atak"), e.attack_roll)]
    if e.defence_roll is not None:
        rolls.append(_roll(gettext_noop("Obrona"), e.defence_roll))
    params: dict[str, str | int] = {
        "attacker": name_of(state, e.attacker),
        "target": name_of(state, e.target),
        "przebicia": e.przebicia,
        "damage": e.damage,
        "reduction": e.reduction,
        "taken": e.physical + e.stun,
    }
    if not e.hit and e.critical_failure:
        text = gettext_noop("%(attacker)s nie trafia: %(target)s. Krytyczna porażka!")
    elif not e.hit:
        text = gettext_noop("%(attacker)s nie trafia: %(target)s.")
    elif not e.damage_type:
        text = gettext_noop("%(attacker)s trafia: %(target)s! Przebicia: %(przebicia)s.")
    else:
        stun = e.damage_type == DamageType.STUN
        text = _HITS[stun, _fate(state, e, e.target)]
    return line(text, "attack", [e.attacker, e.target], params, rolls=rolls)


def _attack_cancelled(state: EncounterState, e: AttackCancelled) -> LogLine:
    attack = state.attack(e.attack)
    actors = [attack.attacker, attack.target] if attack else []
    return line(gettext_noop("Atak odwołany: %(reason)s."), "attack", actors, reason=e.reason)


# --- prompts ----------------------------------------------------------------------------------


def _prompt_opened(state: EncounterState, e: PromptOpened) -> LogLine:
    p = e.prompt
    name = name_of(state, p.actor)
    if p.kind == "atak_okazyjny":
        return line(
            gettext_noop("%(name)s ma okazję do ataku okazyjnego: %(target)s (%(trigger)s)."),
            "prompt",
            [p.actor, p.target],
            name=name,
            target=name_of(state, p.target),
            trigger=text_param(p.trigger),
        )
    if p.kind == "ucieczka":
        return line(
            gettext_noop("%(name)s może uciec z obszaru ataku (%(trigger)s)."),
            "prompt",
            [p.actor],
            name=name,
            trigger=text_param(p.trigger),
        )
    return line(gettext_noop("Czekamy na reakcję: %(name)s."), "prompt", [p.actor], name=name)


def _prompt_closed(state: EncounterState, e: PromptClosed) -> LogLine | None:
    """Only an expiry is news: an answer is told by what it does (or, declined, by nothing)."""
    prompt = state.prompt(e.prompt)
    if not e.expired or prompt is None:
        return None
    c = state.get(prompt.actor)
    if not c.conscious:
        return line(gettext_noop("%(name)s nie może zareagować."), "prompt", [c.id], name=c.name)
    return line(gettext_noop("%(name)s nie reaguje (czas minął)."), "prompt", [c.id], name=c.name)


# --- GM ---------------------------------------------------------------------------------------


def _combatant_changed(state: EncounterState, e: CombatantChanged) -> LogLine | None:
    name = name_of(state, e.combatant)
    if e.stopped is not None:
        return line(
            battlemap.STOPPED,
            "move",
            [e.stopped, e.combatant],
            name=name_of(state, e.stopped),
            other=e.name or name,
        )
    if e.hidden is True:
        return line(
            gettext_noop("MG ukrywa: %(name)s."), "gm", [e.combatant], secret=True, name=name
        )
    if e.hidden is False:  # under the name the players are shown (a placeholder's number)
        shown = e.name or name
        return line(gettext_noop("Pojawia się: %(name)s."), "gm", [e.combatant], name=shown)
    if e.stats_revealed is True:
        return line(
            gettext_noop("MG odsłania statystyki: %(name)s."), "gm", [e.combatant], name=name
        )
    if e.stats_revealed is False:
        return line(
            gettext_noop("MG zakrywa statystyki: %(name)s."),
            "gm",
            [e.combatant],
            secret=True,
            name=name,
        )
    return None  # nothing changed


def _combatant_placed(state: EncounterState, e: CombatantPlaced) -> LogLine | None:
    name = name_of(state, e.combatant)
    if state.battlemap is not None:
        # On the battle map every token the GM sets is told (a hidden one's line carries its
        # id in `actors`, so players who may not see it never get the line).
        if e.to is None:
            return line(
                gettext_noop("MG zdejmuje z mapy: %(name)s."), "gm", [e.combatant], name=name
            )
        return line(
            gettext_noop("MG stawia: %(name)s na polu %(field)s."),
            "gm",
            [e.combatant],
            name=name,
            field=battlemap.label(e.to),
        )
    if state.phase == "setup":
        return None  # arranging the picture before the fight is not the fight's story
    if e.to is None:
        return line(gettext_noop("MG zdejmuje z mapy: %(name)s."), "gm", [e.combatant], name=name)
    return line(
        gettext_noop("MG przestawia: %(name)s na pole (%(x)s, %(y)s)."),
        "gm",
        [e.combatant],
        name=name,
        x=e.to[0],
        y=e.to[1],
    )


_DARKNESS = {
    Darkness.SWIATLO: gettext_noop("Oświetlenie: pełne światło."),
    Darkness.POLMROK: gettext_noop("Oświetlenie: półmrok."),
    Darkness.CIEMNOSC: gettext_noop("Oświetlenie: ciemność."),
    Darkness.CALKOWITA_CIEMNOSC: gettext_noop("Oświetlenie: całkowita ciemność."),
}


def _environment_changed(state: EncounterState, e: EnvironmentChanged) -> LogLine | None:
    if e.darkness != state.darkness:
        return line(_DARKNESS[e.darkness], "gm")
    if frozenset(e.difficult_terrain) != state.difficult_terrain:
        return line(
            gettext_noop("MG zmienia trudny teren (pola: %(squares)s)."),
            "gm",
            squares=len(e.difficult_terrain),
        )
    return None


_PAINT = {
    "wall": gettext_noop("MG rysuje ściany na mapie (pola: %(n)s)."),
    "obstacle": gettext_noop("MG stawia przeszkody na mapie (pola: %(n)s)."),
    "difficult": gettext_noop("MG zaznacza trudny teren na mapie (pola: %(n)s)."),
    "dark1": gettext_noop("MG zaznacza półmrok na mapie (pola: %(n)s)."),
    "dark2": gettext_noop("MG zaznacza ciemność na mapie (pola: %(n)s)."),
    "dark3": gettext_noop("MG zaznacza całkowitą ciemność na mapie (pola: %(n)s)."),
    "light": gettext_noop("MG oświetla pola mapy (pola: %(n)s)."),
    "erase": gettext_noop("MG czyści pola mapy (pola: %(n)s)."),
}


def _map_edited(state: EncounterState, e: MapEdited) -> LogLine | None:
    match e.edit:
        case battlemap.Remove():
            return line(gettext_noop("MG usuwa mapę."), "gm")
        case battlemap.Resize(width=width, height=height):
            if state.battlemap is None:
                return line(
                    gettext_noop("MG rozkłada mapę %(width)s × %(height)s pól."),
                    "gm",
                    width=width,
                    height=height,
                )
            return line(
                gettext_noop("MG zmienia rozmiar mapy: %(width)s × %(height)s pól."),
                "gm",
                width=width,
                height=height,
            )
        case battlemap.Paint(tool=tool, fields=fields):
            return line(_PAINT[tool], "gm", n=len(fields))
        case battlemap.Look():
            return line(gettext_noop("MG zmienia wygląd mapy."), "gm")
    return None


def _combatant_joined(state: EncounterState, e: CombatantJoined) -> LogLine:
    c = e.combatant  # not in the state yet: its data comes with the event
    if c.initiative is not None:
        faces = c.initiative_roll
        intuicja = c.sheet.attribute("intuicja")
        server_rolled = len(faces) == 2 and not e.supplied
        rolls = (
            (_initiative_roll((faces[0], faces[1]), intuicja, c.initiative),)
            if server_rolled
            else ()
        )
        return line(
            gettext_noop("Do walki dołącza: %(name)s (Inicjatywa %(initiative)s)."),
            "setup",
            [c.id],
            rolls=rolls,
            name=c.name,
            initiative=c.initiative,
        )
    return line(gettext_noop("Do walki dołącza: %(name)s."), "setup", [c.id], name=c.name)


NARRATORS: dict[type[Event], Narrator] = {
    InitiativeRolled: _initiative_rolled,
    InitiativeTieBroken: _initiative_tie_broken,
    CombatStarted: _combat_started,
    RoundStarted: _round_started,
    TurnStarted: _turn_started,
    CombatEnded: _combat_ended,
    InitiativeChanged: _initiative_changed,
    Moved: _moved,
    AimTaken: _aim_taken,
    ReloadProgressed: _reload_progressed,
    SpellPartPrepared: _spell_part_prepared,
    ReactionGained: _reaction_gained,
    GuardRaised: _guard_raised,
    ItemMoved: _item_moved,
    ItemUsed: _item_used,
    MountChanged: _mount_changed,
    Steered: _steered,
    MountAdrift: _mount_adrift,
    PassGranted: _pass_granted,
    Note: _note,
    TestRolled: _test_rolled,
    GMRolled: _gm_rolled,
    ConditionAdded: _condition_added,
    ConditionRemoved: _condition_removed,
    ConditionSpent: _condition_spent,
    DifficultyLowered: _difficulty_lowered,
    ConditionTicked: _condition_ticked,
    HealthChanged: _health_changed,
    MaimingRolled: _maiming_rolled,
    FirstAidGiven: _first_aid_given,
    AttackDeclared: _attack_declared,
    ReactionChosen: _reaction_chosen,
    AttackResolved: _attack_resolved,
    AttackCancelled: _attack_cancelled,
    PromptOpened: _prompt_opened,
    PromptClosed: _prompt_closed,
    CombatantChanged: _combatant_changed,
    CombatantPlaced: _combatant_placed,
    MapEdited: _map_edited,
    EnvironmentChanged: _environment_changed,
    CombatantJoined: _combatant_joined,
}
