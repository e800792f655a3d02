"""Questions the UI asks without changing anything: what may this character do now, what
are the odds of this attack for each answer the defender could give, and how hurt does a
character look to players who may not see its numbers."""

from __future__ import annotations

from collections.abc import Callable, Mapping

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
from combat.rules.eleora.commands import AcceptOpportunity, DeclareAttack, Reaction
from combat.rules.eleora.engine.attacks import pending_attack
from combat.rules.eleora.engine.common import (
    reaction_refusal,
    require_action,
    require_no_prompts,
)
from combat.rules.eleora.narrate import gettext_noop
from combat.rules.eleora.prompts import NO_REACTION, REACTIONS, best_weapon, prompt_options
from combat.rules.eleora.sheet import derive
from combat.rules.eleora.state import Combatant, EncounterState, PendingAttack
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
    """Exact odds of an attack about to be declared, for each reaction the defender could
    choose."""
    base = pending_attack(state, cmd, cmd.target, opportunity=False)
    return pending_odds(state, base, _defender_options(state.get(cmd.target)))


def prompt_odds(state: EncounterState, prompt_id: str) -> odds.AttackOdds | None:
    """Exact odds of the attack behind a prompt, for each option its defender has.

    A reakcja prompt waits on an attack whose pool was fixed at the declaration (aim, Szarża
    and tokens are spent by then), so the odds come from that pending attack, keyed like
    `attack_odds` ("brak" is the prompt's "" option). For an Atak okazyjny offer: the odds of
    the attack accepting it would make. None for a prompt without an attack (Ucieczka)."""
    prompt = state.prompt(prompt_id)
    if prompt is None:
        return None
    if prompt.kind == "reakcja":
        attack = state.attack(prompt.attack_id or "")
        if attack is None:
            return None
        keys = [key for key, _ in prompt_options(state, prompt)]
        ordered = [NO_REACTION, *(k for k in keys if k != NO_REACTION)]
        return pending_odds(state, attack, {k or "brak": REACTIONS[k] for k in ordered})
    target = state.combatants.get(prompt.target or "")
    if prompt.kind == "atak_okazyjny" and target is not None:
        actor = state.get(prompt.actor)
        accept = AcceptOpportunity(
            actor=actor.id, prompt=prompt.id, weapon=best_weapon(actor, opportunity=True)
        )
        attack = pending_attack(state, accept, target.id, opportunity=True)
        return pending_odds(state, attack, _defender_options(target))
    return None


def _defender_options(target: Combatant) -> dict[str, tuple[Reaction, ...]]:
    """No reaction, and Parowanie and Unik when the defender may use a defensive reaction."""
    if reaction_refusal(target, defensive=True) is None and target.status == "active":
        return {"brak": (), "parowanie": ("parowanie",), "unik": ("unik",)}
    return {"brak": ()}


def pending_odds(
    state: EncounterState, attack: PendingAttack, options: Mapping[str, tuple[Reaction, ...]]
) -> odds.AttackOdds:
    """Odds of an attack with its pool fixed, for each option (reactions) of the defender."""
    target = state.get(attack.target)
    bonus, _ = shield_or_one(target, None)
    pools = {
        key: pool_size(
            defence_modifiers(
                state,
                target,
                replace(attack, reactions=chosen, parry_bonus=bonus if chosen else 0),
            )
        )
        for key, chosen in options.items()
    }
    damage, kind = damage_base(attack, state.get(attack.attacker), target)
    d = derive(target.sheet)
    return odds.attack_odds(
        pool_size(attack.modifiers),
        pools,
        damage,
        kind,
        odds.reduction_for(kind, d.pancerz, d.odpornosc),
        state.settings,
        auto_hit=attack.auto_hit,
        deals_damage=attack.special not in NO_DAMAGE_SPECIALS,
    )


def initiative_action(state: EncounterState, combatant_id: str) -> LegalAction:
    """Inicjatywa may be rolled before the fight, once per character."""
    c = state.get(combatant_id)
    if state.phase != "setup":
        return LegalAction("inicjatywa", "Inicjatywa", False, "Walka już się zaczęła.")
    if c.setup_roll:
        rolled = " + ".join(str(face) for face in c.setup_roll)
        return LegalAction("inicjatywa", "Inicjatywa", False, f"Inicjatywa rzucona: {rolled}.")
    return LegalAction("inicjatywa", "Inicjatywa", True)


# (key, label) from unhurt to nearly dead; the thresholds between them are a table setting.
WOUND_LEVELS = (
    ("bez_ran", gettext_noop("Bez ran")),
    ("drasniety", gettext_noop("Draśnięcia")),
    ("ranny", gettext_noop("Rany")),
    ("ciezko_ranny", gettext_noop("Ciężkie rany")),
    ("ledwo_zywy", gettext_noop("Ledwo żyje")),
)
UNCONSCIOUS_LEVEL = ("nieprzytomny", gettext_noop("Nieprzytomność"))
DEAD_LEVEL = ("martwy", gettext_noop("Nie żyje"))


def wound_level(state: EncounterState, combatant_id: str) -> tuple[str, str]:
    """How hurt a character looks: its status, else the share of Zdrowie left against the
    table's thresholds (players see this for GM-run characters instead of the numbers)."""
    c = state.get(combatant_id)
    if c.status == "dead":
        return DEAD_LEVEL
    if c.status == "unconscious":
        return UNCONSCIOUS_LEVEL
    if c.damage_physical + c.damage_stun <= 0:
        return WOUND_LEVELS[0]
    left = 100 * c.health
    for level, threshold in zip(WOUND_LEVELS[1:], state.settings.wound_thresholds, strict=False):
        if left > threshold * c.max_health:
            return level
    return WOUND_LEVELS[-1]


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
