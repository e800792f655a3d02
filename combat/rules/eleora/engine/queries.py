"""Questions the UI asks without changing anything: what may this character do now, and
what are the odds of this attack for each answer the defender could give."""

from __future__ import annotations

from collections.abc import Callable

from combat.rules.base import Badge, LegalAction, RuleViolation
from combat.rules.dice import pool_size
from combat.rules.eleora import conditions as cond
from combat.rules.eleora import grid, odds
from combat.rules.eleora.attack import (
    NO_DAMAGE_SPECIALS,
    damage_base,
    defence_modifiers,
    shield_or_one,
)
from combat.rules.eleora.commands import DeclareAttack
from combat.rules.eleora.engine.attacks import pending_attack
from combat.rules.eleora.engine.common import (
    reaction_refusal,
    require_action,
    require_no_prompts,
)
from combat.rules.eleora.sheet import derive
from combat.rules.eleora.state import Combatant, EncounterState
from combat.rules.records import replace

Probe = Callable[[EncounterState, Combatant], None]


def _needs(condition: bool, code: str, message: str) -> None:
    if not condition:
        raise RuleViolation(code, message)


def _attack_probe(state: EncounterState, c: Combatant) -> None:
    _needs(
        any(e.status != "dead" for e in state.enemies_of(c.id)),
        "brak_celu",
        "Nie ma kogo zaatakować.",
    )


def _aim_probe(state: EncounterState, c: Combatant) -> None:
    cap = state.settings.aim_cap
    room = any(
        c.aim.get(e.id, 0) + e.stacks("odsloniecie") < cap
        for e in state.enemies_of(c.id)
        if e.status != "dead"
    )
    _needs(room, "limit_celowania", f"Celowanie: limit +{cap} przy każdym wrogu.")


ACTIONS: tuple[tuple[str, str, Probe | None], ...] = (
    ("atak", "Atak", _attack_probe),
    ("celowanie", "Celowanie", _aim_probe),
    ("inkantacja", "Inkantacja", None),
    ("interakcja", "Interakcja", None),
    ("komenda", "Komenda", None),
    ("oddanie_inicjatywy", "Oddanie inicjatywy", None),
    (
        "przeladowanie",
        "Przeładowanie",
        lambda s, c: _needs(bool(c.unloaded), "naladowana", "Nie ma broni do przeładowania."),
    ),
    ("przygotowanie", "Przygotowanie", None),
    (
        "ruch",
        "Ruch",
        lambda s, c: _needs(
            not c.has("unieruchomienie"),
            "unieruchomienie",
            "Unieruchomienie: nie możesz się poruszyć.",
        ),
    ),
    (
        "wstanie",
        "Wstanie (Ruch)",
        lambda s, c: _needs(c.has("powalenie"), "nie_lezy", "Postać nie jest Powalona."),
    ),
    (
        "sterowanie",
        "Sterowanie",
        lambda s, c: _needs(c.mounted, "bez_wierzchowca", "Brak wierzchowca lub pojazdu."),
    ),
    ("dobycie", "Dobycie", None),
    ("zaslona", "Zasłona", None),
)


def legal_actions(state: EncounterState, actor_id: str) -> list[LegalAction]:
    """Every action and reaction with whether it is available now, and why not."""
    c = state.get(actor_id)
    result = [_action(state, c, key, label, probe) for key, label, probe in ACTIONS]
    result.append(_end_turn(state, c))
    result += _reactions(state, c)
    return result


def _action(
    state: EncounterState, c: Combatant, key: str, label: str, probe: Probe | None
) -> LegalAction:
    try:
        require_no_prompts(state)
        require_action(state, c.id)
        if c.frenzy_bound and key not in ("atak", "ruch"):
            raise RuleViolation("szal", "Szał: pierwsza akcja w turze musi być Atakiem.")
        if probe is not None:
            probe(state, c)
    except RuleViolation as refusal:
        return LegalAction(key, label, False, refusal.message)
    return LegalAction(key, label, True)


def _end_turn(state: EncounterState, c: Combatant) -> LegalAction:
    if state.current != c.id:
        return LegalAction("koniec_tury", "Koniec tury", False, "Nie twoja tura.")
    if state.prompts:
        return LegalAction("koniec_tury", "Koniec tury", False, "Czekamy na reakcję.")
    return LegalAction("koniec_tury", "Koniec tury", True)


def _reactions(state: EncounterState, c: Combatant) -> list[LegalAction]:
    kinds = {p.kind for p in state.prompts if p.actor == c.id}
    holds_free = c.has("unieruchomienie") or any(x.mind for x in c.conditions)
    table = (
        ("parowanie", "Parowanie", True, "reakcja" in kinds, "Brak deklaracji ataku."),
        ("unik", "Unik", True, "reakcja" in kinds, "Brak deklaracji ataku."),
        ("atak_okazyjny", "Atak okazyjny", False, "atak_okazyjny" in kinds, "Brak okazji."),
        ("ucieczka", "Ucieczka", True, "ucieczka" in kinds, "Brak ataku obszarowego."),
        ("przepuszczenie", "Przepuszczenie", False, True, ""),
        ("upuszczenie", "Upuszczenie", False, bool(c.held_items()), "Nic w rękach."),
        ("wyzwolenie", "Wyzwolenie", False, holds_free, "Nie ma z czego się wyzwalać."),
    )
    result = []
    for key, label, defensive, trigger, why_not in table:
        refusal = reaction_refusal(c, defensive=defensive)
        if state.phase not in ("surprise", "combat"):
            result.append(LegalAction(key, label, False, "Walka nie trwa.", reaction=True))
        elif refusal is not None:
            result.append(LegalAction(key, label, False, refusal.message, reaction=True))
        else:
            result.append(LegalAction(key, label, trigger, "" if trigger else why_not, True))
    return result


def attack_odds(state: EncounterState, cmd: DeclareAttack) -> odds.AttackOdds:
    """Exact odds of a declared attack for each reaction the defender could choose."""
    target = state.get(cmd.target)
    base = pending_attack(state, cmd, cmd.target, opportunity=False)
    pools = {"brak": pool_size(defence_modifiers(state, target, base))}
    if reaction_refusal(target, defensive=True) is None and target.status == "active":
        bonus, _ = shield_or_one(target, None)
        for option in ("parowanie", "unik"):
            chosen = replace(base, reactions=(option,), parry_bonus=bonus)
            pools[option] = pool_size(defence_modifiers(state, target, chosen))
    damage, kind = damage_base(base, state.get(cmd.actor), target)
    d = derive(target.sheet)
    return odds.attack_odds(
        pool_size(base.modifiers),
        pools,
        damage,
        kind,
        odds.reduction_for(kind, d.pancerz, d.odpornosc),
        state.settings,
        auto_hit=base.auto_hit,
        deals_damage=cmd.special not in NO_DAMAGE_SPECIALS,
    )


def condition_badges(state: EncounterState, combatant_id: str) -> list[Badge]:
    """Each condition once, with stacks, turns left and difficulty; derived ones included."""
    c = state.get(combatant_id)
    badges = []
    if c.status == "unconscious":
        badges.append(_badge("nieprzytomnosc", ""))
    if c.position is not None:
        enemies = [e.position for e in state.enemies_of(c.id) if e.position and e.conscious]
        if grid.osaczenie(c.position, enemies, state.settings):
            badges.append(_badge("osaczenie", ""))
    for key in dict.fromkeys(x.key for x in c.conditions):
        badges.append(_badge(key, _detail([x for x in c.conditions if x.key == key])))
    return badges


def _badge(key: str, detail: str) -> Badge:
    spec = cond.spec(key)
    return Badge(key, spec.label, detail, spec.description)


def _detail(instances: list[cond.ConditionInstance]) -> str:
    parts = []
    stacks = sum(x.stacks for x in instances)
    if stacks > 1:
        parts.append(f"×{stacks}")
    turns = [x.remaining for x in instances]
    if turns and None not in turns:
        parts.append(f"tury: {max(t for t in turns if t is not None)}")
    difficulties = [x.difficulty for x in instances if x.difficulty is not None]
    if difficulties:
        parts.append(f"trudność {max(difficulties)}")
    notes = [x.note for x in instances if x.note]
    return ", ".join(parts + notes)
