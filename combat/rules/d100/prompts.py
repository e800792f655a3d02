"""Reaction prompts as the table shows them, their answers as commands, the automatic answers
of GM-run defenders, and the exact odds (`odds.attack_odds`) of every answer and of an
attack or cast about to be sent.

A live attack waits for its target: Unik, Blok (only those the target may use now) or no
reaction; the answer rolls the whole attack. One path from an answer to a command serves the
player's button and the policies alike, so an automatic answer is never one a player could not
have given. The odds are the engine's own numbers (`engine.attack.plan`, `defence_spec`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from combat.rules.base import (
    Fields,
    OddsOption,
    OddsView,
    Outcome,
    PromptView,
    RuleViolation,
    fill,
    gettext_noop,
    text_param,
)
from combat.rules.d100 import conditions as cond
from combat.rules.d100 import engine
from combat.rules.d100.check import MIND_DEFENCE, RESISTANCE
from combat.rules.d100.commands import Attack, Cast, Command, Defend, Post
from combat.rules.d100.engine.attack import Plan, best_defence, defence_spec, plan, replan
from combat.rules.d100.engine.common import combatant, spec
from combat.rules.d100.engine.spells import spell_of
from combat.rules.d100.equipment import attack_profile
from combat.rules.d100.events import PromptClosed
from combat.rules.d100.narrate import DEFENCE_LABELS
from combat.rules.d100.odds import AttackOdds, attack_odds, success_chance
from combat.rules.d100.state import NO_REACTION, EncounterState, Prompt

POLICIES: tuple[tuple[str, str], ...] = (
    ("ask", gettext_noop("Pytaj MG")),
    ("best", gettext_noop("najlepsza obrona")),
    ("unik", gettext_noop("zawsze Unik")),
    ("blok", gettext_noop("zawsze Blok")),
    ("none", gettext_noop("bez obrony")),
)
DEFAULT_POLICY = "best"
LABEL = gettext_noop("Atak: %(attacker)s → %(target)s")
HIDDEN_LABEL = gettext_noop("Atak z ukrycia → %(target)s")  # a hidden attacker stays unnamed
OPTION = gettext_noop("%(defence)s (próg %(threshold)s)")
NO_DEFENCE = gettext_noop("Bez obrony")
Option = tuple[str, str, Mapping[str, Any]]

HITS = gettext_noop("trafia")
AVOIDED = gettext_noop("obrona udana")
HIT_LUCK = gettext_noop("krytyczne szczęście trafienia")
EACH_D6 = gettext_noop("każdy skutek k6 MG (np. Ogłuszenie)")
HIT_BAD = gettext_noop("krytyczny pech trafienia")
INJURY = gettext_noop("Uraz z krytycznych obrażeń")
DEFENCE_LUCK = gettext_noop("krytyczne szczęście obrony")
DEFENCE_BAD = gettext_noop("krytyczny pech obrony")
KNOCKOUT = gettext_noop("cios do 0 PŻ")
WORKS = gettext_noop("czar działa")


def prompt_plan(state: EncounterState, prompt: Prompt) -> Plan | None:
    """The attack a prompt is about, as the engine will roll it; None when it fell through
    meanwhile (its attacker or target left the fight: any answer just closes the prompt)."""
    found = replan(state, prompt)
    return None if isinstance(found, PromptClosed) else found


def option_templates(state: EncounterState, prompt: Prompt) -> tuple[Option, ...]:
    """(key, msgid, params) of every answer allowed now, each reaction with its threshold;
    "no reaction" last (alone when the attack fell through)."""
    p = prompt_plan(state, prompt)
    offered: list[Option] = []
    for key in prompt.options:
        test = defence_spec(state, p.target, key) if p and key in p.options else None
        if test is not None:
            params = {
                "defence": text_param(DEFENCE_LABELS[key]),
                "threshold": test.threshold(state),
            }
            offered.append((key, OPTION, params))
    return (*offered, (NO_REACTION, NO_DEFENCE, {}))


def attack_command(prompt: Prompt) -> Command:
    """The attack a prompt answers, as the command that declared it."""
    if prompt.spell >= 0:
        return Cast(actor=prompt.attacker, spell=prompt.spell, target=prompt.actor)
    return Attack(actor=prompt.attacker, target=prompt.actor, choice=prompt.choice)


def prompt_view(state: EncounterState, prompt: Prompt) -> PromptView:
    """The prompt's card: who attacks whom; an attacker hidden from the players is not named
    (the card is the target's player's)."""
    attacker = state.get(prompt.attacker)
    params = {"target": state.get(prompt.actor).name}
    label = HIDDEN_LABEL
    if not attacker.hidden:
        params, label = {"attacker": attacker.name, **params}, LABEL
    templates = option_templates(state, prompt)
    return PromptView(
        id=prompt.id,
        kind=prompt.kind,
        actor=prompt.actor,
        label=fill(label, params),
        options=tuple((key, fill(t, p)) for key, t, p in templates),
        deadline=prompt.deadline,
        attacker=prompt.attacker,
        attack_command=attack_command(prompt),
        label_template=label,
        label_params=params,
        option_templates=templates,
    )


def open_prompts(state: EncounterState) -> list[PromptView]:
    return [prompt_view(state, p) for p in state.prompts]


def _prompt(state: EncounterState, prompt_id: str) -> Prompt:
    prompt = state.prompt(prompt_id)
    if prompt is None:
        raise RuleViolation(
            "brak_pytania", gettext_noop("Ten atak nie czeka już na odpowiedź."), prompt=prompt_id
        )
    return prompt


def prompt_command(state: EncounterState, prompt_id: str, option: str, now: float = 0.0) -> Defend:
    """The answer to a prompt with one of its offered options."""
    prompt = _prompt(state, prompt_id)
    if option not in {key for key, _t, _p in option_templates(state, prompt)}:
        raise RuleViolation(
            "obrona_niedostepna",
            gettext_noop("Ta obrona nie jest teraz dostępna: %(option)s."),
            option=option or "–",
        )
    return Defend(actor=prompt.actor, prompt=prompt.id, option=option, now=now)


def auto_answer(state: EncounterState, prompt_id: str, policy: str, now: float) -> Command | None:
    """ "best": the reaction with the lowest expected damage (the engine's `best_defence`);
    "unik"/"blok": that one when offered, else the best; "none": no reaction; "ask": None."""
    if policy not in dict(POLICIES):
        raise ValueError(f"unknown reaction policy: {policy}")
    prompt = state.prompt(prompt_id)
    if policy == "ask" or prompt is None:
        return None
    offered = {key for key, _t, _p in option_templates(state, prompt)}
    p = prompt_plan(state, prompt)
    if policy == "none" or p is None:
        choice = NO_REACTION
    elif policy in offered:
        choice = policy
    else:
        choice = best_defence(state, p)
        choice = choice if choice in offered else NO_REACTION
    return prompt_command(state, prompt_id, choice, now)


@dataclass(frozen=True, slots=True)
class PromptOption:
    """A reaction the prompt offers, its label with the threshold as (msgid, params)."""

    key: str
    label_template: str
    label_params: Fields


@dataclass(frozen=True, slots=True)
class PromptPanel:
    """What the prompt card adds: the attack (what with, its thresholds, the target's armour
    and Odporność), each reaction's threshold, whether ties go to the defender; an attack
    that fell through meanwhile only why (`fallen`, Polish)."""

    fallen: str = ""
    means: str = ""
    spell: bool = False
    hit: int = 0
    damage: int = 0
    resistance: int | None = None
    armour: int = 0
    options: tuple[PromptOption, ...] = ()
    tie_to_defender: bool = False
    crits: bool = False


def prompt_panel(state: EncounterState, prompt_id: str) -> PromptPanel | None:
    """The prompt card's record (`PromptPanel`); None for a prompt no longer open."""
    prompt = state.prompt(prompt_id)
    if prompt is None:
        return None
    found = replan(state, prompt)
    if isinstance(found, PromptClosed):
        return PromptPanel(fallen=found.detail)
    p = found
    return PromptPanel(
        means=p.label,
        spell=p.spell >= 0,
        hit=p.hit.threshold(state),
        damage=p.damage.threshold(state),
        resistance=p.resistance.threshold(state) if p.resistance else None,
        armour=p.armour_percent,
        options=tuple(
            PromptOption(key, t, Fields(params))
            for key, t, params in option_templates(state, prompt)
            if key
        ),
        tie_to_defender=state.settings.tie_to_defender,
        crits=p.crits,
    )


# --- odds -------------------------------------------------------------------------------------


def plan_odds(state: EncounterState, p: Plan, option: str) -> AttackOdds:
    """The exact odds of the planned attack when the target answers with `option`."""
    defence = defence_spec(state, p.target, option)
    return attack_odds(
        state.settings,
        hit=p.hit.threshold(state),
        damage=p.damage.threshold(state),
        defence=defence.threshold(state) if defence else None,
        resistance=p.resistance.threshold(state) if p.resistance else None,
        armour=p.armour_percent,
        crits=p.crits,
        target_pz=p.target.pz,
    )


def outcomes(odds: AttackOdds, *, defended: bool, crits: bool) -> tuple[Outcome, ...]:
    """The headline (the attack lands) first, then the crits and the knockout."""
    found = [Outcome(HITS, odds.lands)]
    if defended:
        found.append(Outcome(AVOIDED, odds.avoided))
    found.append(Outcome(HIT_LUCK, odds.hit_crit_luck))
    if crits:
        found += [Outcome(EACH_D6, odds.armour_negated), Outcome(INJURY, odds.damage_crit_luck)]
    found.append(Outcome(HIT_BAD, odds.hit_crit_bad))
    if defended:
        found += [
            Outcome(DEFENCE_LUCK, odds.defence_crit_luck),
            Outcome(DEFENCE_BAD, odds.defence_crit_bad),
        ]
    if odds.knockout is not None:
        found.append(Outcome(KNOCKOUT, odds.knockout))
    return tuple(found)


def answer_odds(state: EncounterState, prompt_id: str) -> OddsView | None:
    """Per answer: P(the attack still lands) first (the card's "szansa, że cię trafi"), the
    crits, and the expected damage after Odporność and armour."""
    prompt = state.prompt(prompt_id)
    p = prompt_plan(state, prompt) if prompt is not None else None
    if prompt is None or p is None:
        return None
    options = []
    for key, msgid, params in option_templates(state, prompt):
        odds = plan_odds(state, p, key)
        found = outcomes(odds, defended=bool(key), crits=p.crits)
        options.append(OddsOption(key, fill(msgid, params), found, odds.expected_damage))
    return OddsView(tuple(options), notes=_notes(state, p), target=p.target.id)


def _notes(state: EncounterState, p: Plan) -> tuple[tuple[str, Mapping[str, Any]], ...]:
    numbers = {
        "hit": p.hit.threshold(state),
        "damage": p.damage.threshold(state),
        "armour": p.armour_percent,
    }
    if p.resistance is None:
        text = gettext_noop("Trafienie %(hit)s, Obrażenia %(damage)s; pancerz %(armour)s%%.")
        return ((text, numbers),)
    text = gettext_noop(
        "Trafienie %(hit)s, Obrażenia %(damage)s; Odporność %(resistance)s, pancerz %(armour)s%%."
    )
    return ((text, {**numbers, "resistance": p.resistance.threshold(state)}),)


PREVIEW_LABELS = {
    "unik": gettext_noop("cel: Unik"),
    "blok": gettext_noop("cel: Blok"),
    NO_REACTION: gettext_noop("cel bez obrony"),
}


def _previewed(state: EncounterState, command: Command) -> tuple[str, str | None, str, int]:
    """(attacker, target, choice, spell) of a command with odds, or RuleViolation."""
    if isinstance(command, Post) and command.action.kind in ("attack", "cast"):
        a = command.action
        return command.actor, a.target, a.choice, a.spell if a.kind == "cast" else -1
    if isinstance(command, Attack | Cast):
        refused = engine.refusal(state, command)
        if refused is not None:
            raise refused
        if isinstance(command, Attack):
            return command.actor, command.target, command.choice, -1
        return command.actor, command.target, "", command.spell
    raise RuleViolation(
        "podglad", gettext_noop("Szanse można policzyć tylko dla ataku albo czaru.")
    )


def preview_odds(state: EncounterState, command: Command) -> OddsView:
    """An attack (or a cast, or a post's) about to be sent: per reaction the target may
    answer with, P(it lands), the crits and the expected damage; an effect spell: P(it
    works)."""
    actor, target, choice, spell = _previewed(state, command)
    me = combatant(state, actor)
    if spell >= 0 and str(spell_of(me, spell).get("kind")) != "damage":
        return _effect_odds(state, actor, target, spell)
    p = plan(state, me, target, f"spell:{spell}" if spell >= 0 else choice, spell)
    options = []
    for key in (*p.options, NO_REACTION):
        odds = plan_odds(state, p, key)
        found = outcomes(odds, defended=bool(key), crits=p.crits)
        options.append(OddsOption(key, PREVIEW_LABELS[key], found, odds.expected_damage))
    return OddsView(tuple(options), notes=_notes(state, p), target=p.target.id)


def _effect_odds(state: EncounterState, actor: str, target_id: str | None, index: int) -> OddsView:
    """A negative, positive or summoning spell: P(both rolls succeed), and for a negative one
    P(the target does not resist) by OoP."""
    s = state.settings
    me = state.get(actor)
    spell = spell_of(me, index)
    profile = attack_profile(me.sheet, f"spell:{index}", s, transformed=me.transformed)
    hit = spec(state, me, "", profile.hit_attr, cond.TRAFIENIE, profile.hit_mods, spell=True)
    effect = spec(
        state, me, "", profile.damage_attr, cond.OBRAZENIA, profile.damage_mods, spell=True
    )
    hit_p = success_chance(hit.threshold(state), s)
    target = state.combatants.get(target_id or "")
    kind = str(spell.get("kind"))
    if kind == "negative" and target is not None:
        mind = bool(spell.get("mind"))
        attribute = s.mind_attribute if mind else "wytrzymalosc"
        label = MIND_DEFENCE if mind else RESISTANCE
        resist = spec(state, target, label, attribute, cond.UMYSL if mind else "odpornosc")
        lands = attack_odds(
            s, hit=effect.threshold(state), damage=0, defence=resist.threshold(state), crits=False
        ).lands
    else:
        lands = success_chance(effect.threshold(state), s)
    option = OddsOption("czar", str(spell.get("name", "")), (Outcome(WORKS, hit_p * lands),), None)
    notes = (
        (
            gettext_noop("Trafienie %(hit)s, drugi rzut %(effect)s."),
            {"hit": hit.threshold(state), "effect": effect.threshold(state)},
        ),
    )
    return OddsView((option,), notes=notes, target=target.id if target else None)
