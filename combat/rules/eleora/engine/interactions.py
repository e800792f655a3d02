"""Interakcja (the document's examples, and free ones for the GM) and the reactions that are
not answers to an attack: Wyzwolenie, Przepuszczenie, Upuszczenie."""

from __future__ import annotations

from combat.rules.base import RuleViolation, gettext_noop
from combat.rules.dice import RNG
from combat.rules.eleora.attack import skill_pool, test_pool
from combat.rules.eleora.commands import BreakFree, DropItem, Interact, LetPass
from combat.rules.eleora.conditions import ConditionInstance
from combat.rules.eleora.engine.common import (
    Batch,
    require_action,
    require_heroism,
    require_near,
    require_no_prompts,
    require_reaction,
    roll_test,
)
from combat.rules.eleora.events import (
    ActionSpent,
    ConditionRemoved,
    DifficultyLowered,
    Event,
    FirstAidGiven,
    ItemMoved,
    ItemUsed,
    MountChanged,
    Note,
    PassGranted,
)
from combat.rules.eleora.maiming import resolve_maiming
from combat.rules.eleora.state import Combatant, EncounterState

# The condition an interaction needs on its target, and the refusal when the target lacks it.
_NEEDS_TARGET_CONDITION = {
    "ugaszenie": "podpalenie",
    "tamowanie": "krwawienie",
    "podniesienie": "powalenie",
}
_WITHOUT_CONDITION = {
    "podpalenie": gettext_noop("%(name)s nie płonie."),
    "krwawienie": gettext_noop("%(name)s nie krwawi."),
    "powalenie": gettext_noop("Postać %(name)s nie jest Powalona."),
}


def interact(state: EncounterState, cmd: Interact, rng: RNG) -> list[Event]:
    """Interakcja: check the target is the actor or beside it, then do the chosen example."""
    require_no_prompts(state)
    c = require_action(state, cmd.actor)
    require_heroism(c, cmd.heroism)
    target = state.get(cmd.target or cmd.actor)
    require_near(state, c, target, "Interakcja")
    key = _NEEDS_TARGET_CONDITION.get(cmd.kind)
    if key is not None and not target.has(key):
        raise RuleViolation(
            "interakcja", _WITHOUT_CONDITION[key], target=target.id, name=target.name
        )
    batch = Batch(state).add(ActionSpent(actor=c.id, action="interakcja", detail=cmd.kind))
    match cmd.kind:
        case "ugaszenie":
            batch.add(ConditionRemoved(combatant=target.id, key="podpalenie"))
        case "tamowanie":
            _staunch(batch, rng, c, target, cmd.heroism)
        case "podniesienie":
            batch.add(ConditionRemoved(combatant=target.id, key="powalenie"))
        case "pomoc_w_wyrwaniu" | "wyrwanie":
            _free(batch, rng, c, target, cmd)
        case "dosiadanie" | "zsiadanie":
            _mount(batch, c, mounted=cmd.kind == "dosiadanie")
        case "pierwsza_pomoc":
            _first_aid(batch, rng, c, target, cmd.heroism)
        case _:
            _items_and_free(batch, c, target, cmd)
    return batch.events


def _staunch(batch: Batch, rng: RNG, medic: Combatant, target: Combatant, heroism: bool) -> None:
    """Tamowanie Krwawienia: Medycyna vs 2, +1 per stack beyond the first; success stops all."""
    difficulty = 2 + max(0, target.stacks("krwawienie") - 1)
    pool = skill_pool(batch.state, medic, "medycyna", heroism=heroism)
    roll = roll_test(batch, rng, medic.id, "medycyna", pool, difficulty)
    if roll.successes >= difficulty:
        batch.add(ConditionRemoved(combatant=target.id, key="krwawienie"))


def _free(batch: Batch, rng: RNG, c: Combatant, target: Combatant, cmd: Interact) -> None:
    """Wyrwanie (own Siła test, no erosion) or help breaking free (works as Wyzwolenie)."""
    if cmd.kind == "wyrwanie" and target.id != c.id:
        raise RuleViolation(
            "wyrwanie", gettext_noop("Wyrwanie wykonuje sama Unieruchomiona postać.")
        )
    if cmd.kind == "pomoc_w_wyrwaniu" and target.id == c.id:
        raise RuleViolation("wyrwanie", gettext_noop("Pomoc w wyrwaniu dotyczy innej postaci."))
    grip = find_hold(target, "unieruchomienie", cmd.source)
    if cmd.kind == "pomoc_w_wyrwaniu":
        break_free_test(batch, rng, c, target, grip, cmd.heroism)
        return
    difficulty = grip.difficulty or 0
    pool = test_pool(batch.state, c, attribute="sila", heroism=cmd.heroism)
    roll = roll_test(batch, rng, c.id, "wyrwanie", pool, difficulty)
    if roll.successes >= difficulty:
        batch.add(ConditionRemoved(combatant=target.id, key=grip.key, source=grip.source))


def _first_aid(batch: Batch, rng: RNG, medic: Combatant, target: Combatant, heroism: bool) -> None:
    """Pierwsza pomoc after an Okaleczenie roll: +1 to its effect die per Medycyna success."""
    earlier = target.last_maiming
    if earlier is None or target.first_aid_given:
        why = (
            gettext_noop("Pierwsza pomoc: %(name)s już otrzymała pierwszą pomoc.")
            if earlier
            else gettext_noop("Pierwsza pomoc: postać %(name)s nie rzucała na Okaleczenie.")
        )
        raise RuleViolation("pierwsza_pomoc", why, name=target.name)
    pool = skill_pool(batch.state, medic, "medycyna", heroism=heroism)
    roll = roll_test(batch, rng, medic.id, "medycyna", pool)
    revised = resolve_maiming(
        earlier.location_die, earlier.effect_die, target.maiming_zdrowie, roll.successes
    )
    batch.add(FirstAidGiven(combatant=target.id, medic=medic.id, result=revised))


def _mount(batch: Batch, c: Combatant, *, mounted: bool) -> None:
    if c.mounted == mounted:
        already = (
            gettext_noop("%(name)s już dosiada wierzchowca.")
            if mounted
            else gettext_noop("%(name)s już nie dosiada wierzchowca.")
        )
        raise RuleViolation("wierzchowiec", already, name=c.name)
    batch.add(MountChanged(combatant=c.id, mounted=mounted))


def _items_and_free(batch: Batch, c: Combatant, target: Combatant, cmd: Interact) -> None:
    if cmd.kind == "swobodna":
        if not cmd.description.strip():
            raise RuleViolation("opis", gettext_noop("Opisz interakcję dla Mistrza Gry."))
        batch.add(Note(actor=c.id, text=cmd.description))
        return
    if not cmd.item:
        raise RuleViolation("przedmiot", gettext_noop("Podaj przedmiot."))
    if cmd.kind == "uzycie":
        batch.add(ItemUsed(actor=c.id, target=target.id, item=cmd.item))
        return
    if target.id == c.id:
        raise RuleViolation("podanie", gettext_noop("Podać przedmiot można innej postaci."))
    if not c.holds(cmd.item):
        raise RuleViolation(
            "przedmiot",
            gettext_noop("%(name)s nie trzyma „%(item)s”."),
            name=c.name,
            item=cmd.item,
        )
    batch.add(ItemMoved(combatant=c.id, item=cmd.item, held=False, to=target.id))


# --- Wyzwolenie -------------------------------------------------------------------------------


def find_hold(c: Combatant, key: str, source: str | None) -> ConditionInstance:
    """The Unieruchomienie (by source) or mind effect to break free from; readable refusals."""
    holds = [x for x in c.conditions if x.key == key and (key == "unieruchomienie" or x.mind)]
    if source is not None:
        holds = [x for x in holds if x.source == source]
    if not holds:
        raise RuleViolation(
            "wyzwolenie", gettext_noop("%(name)s: nie ma z czego się wyzwalać."), name=c.name
        )
    if len({x.source for x in holds}) > 1:
        raise RuleViolation(
            "wyzwolenie", gettext_noop("Kilka źródeł: wskaż, z którego się wyzwalasz.")
        )
    hold = holds[0]
    if hold.difficulty is None:
        raise RuleViolation(
            "wyzwolenie", gettext_noop("Ten efekt nie ma ustalonej trudności: rozstrzyga MG.")
        )
    return hold


def break_free_test(
    batch: Batch,
    rng: RNG,
    roller: Combatant,
    bearer: Combatant,
    hold: ConditionInstance,
    heroism: bool,
) -> None:
    """Doubled Siła (Unieruchomienie) or Wola (mind): pass frees from every hold of that
    source; a failure lowers the difficulty by the successes rolled."""
    attribute = "wola" if hold.mind else "sila"
    difficulty = hold.difficulty or 0
    pool = test_pool(batch.state, roller, attribute=attribute, doubled=True, heroism=heroism)
    roll = roll_test(batch, rng, roller.id, "wyzwolenie", pool, difficulty)
    if roll.successes >= difficulty:
        batch.add(ConditionRemoved(combatant=bearer.id, key=hold.key, source=hold.source))
    else:
        lowered = max(0, difficulty - roll.successes)
        batch.add(
            DifficultyLowered(
                combatant=bearer.id, key=hold.key, source=hold.source, difficulty=lowered
            )
        )


def break_free(state: EncounterState, cmd: BreakFree, rng: RNG) -> list[Event]:
    """Wyzwolenie (reaction): only while Unieruchomiony or under a mind-affecting effect."""
    c = require_reaction(state, cmd.actor)
    require_heroism(c, cmd.heroism)
    hold = find_hold(c, cmd.condition, cmd.source)
    batch = Batch(state).add(ActionSpent(actor=c.id, action="wyzwolenie", reaction=True))
    break_free_test(batch, rng, c, c, hold, cmd.heroism)
    return batch.events


def let_pass(state: EncounterState, cmd: LetPass) -> list[Event]:
    """Przepuszczenie: an ally may move through this character's square."""
    c = require_reaction(state, cmd.actor)
    ally = state.get(cmd.ally)
    if ally.id == c.id or ally.side != c.side:
        raise RuleViolation(
            "przepuszczenie", gettext_noop("Przepuścić można tylko sprzymierzeńca.")
        )
    return [
        ActionSpent(actor=c.id, action="przepuszczenie", reaction=True, detail=ally.id),
        PassGranted(actor=c.id, ally=ally.id),
    ]


def drop_item(state: EncounterState, cmd: DropItem) -> list[Event]:
    """Upuszczenie: drop a held item (it can be picked up with Dobycie)."""
    c = require_reaction(state, cmd.actor)
    if not c.holds(cmd.item):
        raise RuleViolation(
            "przedmiot",
            gettext_noop("%(name)s nie trzyma „%(item)s”."),
            name=c.name,
            item=cmd.item,
        )
    return [
        ActionSpent(actor=c.id, action="upuszczenie", reaction=True, detail=cmd.item),
        ItemMoved(combatant=c.id, item=cmd.item, held=False),
    ]
