"""Reaction prompts as the table shows them, their answers as commands, the automatic
policies for GM-run defenders, and the exact odds of every answer and of an attack preview.

One path from an answer to a command serves the player's button and the NPC policy alike,
so an automatic answer is never one a player could not have given.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from combat.rules.base import (
    Names,
    OddsOption,
    OddsView,
    Outcome,
    PromptView,
    RuleViolation,
    fill,
    gettext_noop,
)
from combat.rules.magus import conditions as cond
from combat.rules.magus import damage as dmg
from combat.rules.magus import options as opt
from combat.rules.magus.commands import Answer, Attack, Command
from combat.rules.magus.engine.attack import TALENT_LABELS, Plan, blow, defence_test, plan
from combat.rules.magus.engine.common import reaction_talents
from combat.rules.magus.levels import LEVELS
from combat.rules.magus.state import NO_REACTION, EncounterState, Prompt, Strike

POLICIES: tuple[tuple[str, str], ...] = (
    ("ask", gettext_noop("Pytaj MG")),
    ("best", gettext_noop("najlepsza obrona")),
    ("none", gettext_noop("bez obrony")),
)
Option = tuple[str, str, Mapping[str, Any]]


def option_templates(state: EncounterState, prompt: Prompt) -> tuple[Option, ...]:
    """(key, msgid, params) of every answer allowed now; "no reaction" last."""
    defender = state.get(prompt.actor)
    legal = reaction_talents(state, defender)
    offered: list[Option] = []
    for talent in prompt.options:
        if talent in legal:
            step, _, _ = defence_test(state, defender, talent, prompt.strike.total)
            label = gettext_noop("%(talent)s (stopień %(step)s)")
            offered.append((talent, label, {"talent": TALENT_LABELS[talent], "step": step}))
    return (*offered, (NO_REACTION, gettext_noop("Bez obrony"), {}))


def prompt_view(state: EncounterState, prompt: Prompt) -> PromptView:
    strike = prompt.strike
    attacker = state.get(strike.attacker)
    params = {
        "attacker": Names.of(attacker),  # a hidden one is „ktoś ukryty” to the player
        "target": state.get(prompt.actor).name,
        "total": strike.total,
    }
    msgid = gettext_noop("Trafienie: %(attacker)s → %(target)s (wynik ataku %(total)s)")
    templates = option_templates(state, prompt)
    return PromptView(
        id=prompt.id,
        kind=prompt.kind,
        actor=prompt.actor,
        label=fill(msgid, params),
        options=tuple((key, fill(t, p)) for key, t, p in templates),
        deadline=prompt.deadline,
        attacker=attacker.id,
        attack_command=Attack(
            actor=attacker.id, target=prompt.actor, weapon=strike.weapon, spell=strike.spell
        ),
        label_template=msgid,
        label_params=params,
        option_templates=templates,
    )


def open_prompts(state: EncounterState) -> list[PromptView]:
    return [prompt_view(state, p) for p in state.prompts]


def prompt_command(state: EncounterState, prompt_id: str, option: str, now: float = 0.0) -> Answer:
    prompt = state.prompt(prompt_id)
    if prompt is None:
        raise RuleViolation(
            "brak_pytania", gettext_noop("To pytanie jest już zamknięte."), prompt=prompt_id
        )
    if option not in {key for key, _, _ in option_templates(state, prompt)}:
        raise RuleViolation(
            "reakcja", gettext_noop("Tej reakcji nie można tu użyć."), option=option
        )
    return Answer(actor=prompt.actor, prompt=prompt.id, option=option, now=now)


def auto_answer(state: EncounterState, prompt_id: str, policy: str, now: float) -> Command | None:
    """ "best": the talent most likely to reach the attack's result; "none": no reaction."""
    if policy not in dict(POLICIES):
        raise ValueError(f"unknown reaction policy: {policy}")
    prompt = state.prompt(prompt_id)
    if policy == "ask" or prompt is None:
        return None
    choice = NO_REACTION
    if policy == "best":
        odds = answer_odds(state, prompt_id)
        best = 0.0
        for option in odds.options if odds else ():
            p = 1 - option.outcomes[0].probability  # the headline is P(the hit lands)
            if option.key != NO_REACTION and p > best:
                choice, best = option.key, p
    return prompt_command(state, prompt_id, choice, now)


LEVEL_LABELS = {lvl.key: lvl.label for lvl in LEVELS}


@dataclass(frozen=True, slots=True)
class PromptPanel:
    """What a defensive-talent prompt card adds: the attack's result the talent test must
    reach, its success level (key and msgid), and the talents offered."""

    attack_result: int
    level: str
    level_label: str
    options: tuple[str, ...]


def prompt_panel(state: EncounterState, prompt_id: str) -> PromptPanel | None:
    """The attack's result and each talent's step on the prompt card; None without the
    prompt."""
    prompt = state.prompt(prompt_id)
    if prompt is None:
        return None
    return PromptPanel(
        attack_result=prompt.strike.total,
        level=prompt.strike.level,
        level_label=LEVEL_LABELS.get(prompt.strike.level, ""),
        options=tuple(key for key, _, _ in option_templates(state, prompt) if key),
    )


# --- odds -------------------------------------------------------------------------------------


def expected_hit(state: EncounterState, strike: Strike) -> float:
    """The mean damage dealt by a hit with this known attack result (exact over the damage
    test's distribution, `damage.hit_odds`; the neglected tail as in odds.step_sum)."""
    b, _, _ = blow(state, strike)
    target = state.get(strike.target)
    odds = dmg.hit_odds(b, strike.total, strike.dn, target.wound_threshold, state.settings)
    return odds.expected_damage


def answer_odds(state: EncounterState, prompt_id: str) -> OddsView | None:
    """Per answer: P(the hit still lands) first (the prompt card's headline), then P(the
    defence reaches the attack's result), and the expected damage."""
    prompt = state.prompt(prompt_id)
    if prompt is None:
        return None
    defender = state.get(prompt.actor)
    hit = expected_hit(state, prompt.strike)
    options = []
    outcomes: tuple[Outcome, ...]
    for key, msgid, params in option_templates(state, prompt):
        if key == NO_REACTION:
            outcomes = (Outcome(gettext_noop("trafia"), 1.0),)
            options.append(OddsOption(key, fill(msgid, params), outcomes, hit))
            continue
        step, reasons, needed = defence_test(state, defender, key, prompt.strike.total)
        modifier = sum(a.value for a in reasons)
        p = dmg.talent_odds(step, modifier, needed, state.settings)
        outcomes = (
            Outcome(gettext_noop("trafia"), 1 - p),
            Outcome(gettext_noop("obrona udana"), p),
        )
        options.append(OddsOption(key, fill(msgid, params), outcomes, hit * (1 - p)))
    return OddsView(tuple(options), target=defender.id)


def preview_odds(state: EncounterState, command: Command) -> OddsView:
    """An attack about to be made: P(each success level), P(penetration), P(Wound) and the
    expected damage after armour (defender's answers not counted)."""
    if not isinstance(command, Attack):
        raise RuleViolation("podglad", gettext_noop("Szanse można policzyć tylko dla ataku."))
    p = plan(state, command)
    strike = Strike(
        p.attacker.id, p.target.id, p.weapon.name if p.weapon else "",
        p.spell.name if p.spell else "", 0, p.dn, "", p.flags,
    )  # fmt: skip
    b, _, _ = blow(state, strike)
    odds = dmg.attack_odds(p.step, p.modifier, p.dn, b, p.target.wound_threshold, state.settings)
    outcomes = tuple(Outcome(level.label, prob) for level, prob in reversed(odds.levels))
    headline = Outcome(gettext_noop("trafia"), odds.p_hit)
    extra = (
        Outcome(gettext_noop("przebija pancerz"), odds.p_penetration),
        Outcome(gettext_noop("zadaje Ranę"), odds.p_wound),
    )
    option = OddsOption(
        "atak", gettext_noop("Atak"), (headline, *outcomes, *extra), odds.expected_damage
    )
    notes: tuple[tuple[str, Mapping[str, Any]], ...] = (
        (
            gettext_noop("Stopień %(step)s %(modifier)+d przeciw trudności %(dn)s."),
            {"step": p.step, "modifier": p.modifier, "dn": p.dn},
        ),
        *tail_notes(odds.neglected_tail),
        *_space_notes(p),
    )
    return OddsView((option,), notes=notes, target=p.target.id)


SHOWN_PRECISION = 0.0005  # the odds show tenths of a per cent: less than this reads as 0


def tail_notes(tail: float) -> tuple[tuple[str, Mapping[str, Any]], ...]:
    """The odds leave out the rolls past the open-ended dice's reroll cap: said in percent
    when it could change a shown figure, else not at all (it was a raw "≤ 5e-17")."""
    if tail < SHOWN_PRECISION:
        return ()
    text = gettext_noop("Pominięte skrajne wyniki: najwyżej %(percent).1f%%.")
    return ((text, {"percent": tail * 100}),)


def _space_notes(p: Plan) -> tuple[tuple[str, Mapping[str, Any]], ...]:
    """What the battle map adds to the attack: its reasons (`facts.notes`, as the decided
    attack's `AttackRolled.notes`) and each modifier's value (as in its `dn_parts`)."""
    values = dict(p.dn_parts)
    found = (
        (p.facts.blindside, opt.Z_TYLU, gettext_noop("Atak z tyłu: %(value)+d do Obrony.")),
        (p.facts.harried, cond.OTOCZONY, gettext_noop("Otoczony: %(value)+d do Obrony.")),
        (p.facts.ground is not None, opt.ODDAWANIE, gettext_noop("Oddawanie pola: %(value)+d OF.")),
    )
    labels = {
        opt.Z_TYLU: opt.label(opt.Z_TYLU),
        cond.OTOCZONY: cond.SPECS[cond.OTOCZONY].label,
        opt.ODDAWANIE: opt.label(opt.ODDAWANIE),
    }
    out = [
        (text, {"value": values[labels[key]]})
        for on, key, text in found
        if on and labels[key] in values
    ]
    return (*p.facts.notes, *out)
