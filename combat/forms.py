"""The GM's encounter-balancing form: who fights whom, how many fights, how defenders react."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from characters.models import Character, CreatureTemplate
from combat.roster import OPPONENTS, PARTY
from combat.terms import rules_gettext_lazy

MAX_COMBATANTS = 16
MAX_PER_CREATURE = 10


class SimulatorForm(forms.Form):
    """Side "drużyna": chosen characters; side "przeciwnicy": chosen NPCs plus creatures ×n.

    Each side offers its own characters (`party_offer`: the player characters, `foes_offer`:
    the NPCs, each with those a table put on that side) and accepts any of the campaign's."""

    party = forms.ModelMultipleChoiceField(
        queryset=Character.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Drużyna"),
    )
    foes = forms.ModelMultipleChoiceField(
        queryset=Character.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label=gettext_lazy("Przeciwnicy z kampanii"),
    )
    runs = forms.IntegerField(
        label=gettext_lazy("Liczba starć"), min_value=20, max_value=500, initial=200
    )
    seed = forms.IntegerField(
        label=gettext_lazy("Ziarno losowania"),
        min_value=0,
        max_value=2**31,
        initial=1,
        help_text=gettext_lazy("To samo ziarno daje ten sam wynik."),
    )
    policy = forms.ChoiceField(label=gettext_lazy("Obrońcy reagują"))

    def __init__(
        self,
        *args: Any,
        characters: Any,
        party_offer: Any,
        foes_offer: Any,
        creatures: list[CreatureTemplate],
        policies: list[tuple[str, str]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        for name, offered in (("party", party_offer), ("foes", foes_offer)):
            side = self.fields[name]
            assert isinstance(side, forms.ModelMultipleChoiceField)
            side.queryset = characters
            side.widget.choices = forms.ModelMultipleChoiceField(queryset=offered).choices
        self.offers_foes = foes_offer.exists()
        self.fields["policy"].choices = [(k, rules_gettext_lazy(label)) for k, label in policies]  # type: ignore[attr-defined]
        self.creatures = creatures
        for creature in creatures:
            self.fields[f"creature_{creature.pk}"] = forms.IntegerField(
                label=creature.name,
                min_value=0,
                max_value=MAX_PER_CREATURE,
                initial=0,
                required=False,
            )

    def creature_fields(self) -> list[forms.BoundField]:
        return [self[f"creature_{c.pk}"] for c in self.creatures]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        party, foes = list(cleaned["party"]), list(cleaned["foes"])
        if set(party) & set(foes):
            raise forms.ValidationError(_("Ta sama postać nie może walczyć po obu stronach."))
        counts = {c: cleaned[f"creature_{c.pk}"] or 0 for c in self.creatures}
        if not foes and not any(counts.values()):
            raise forms.ValidationError(_("Wybierz przeciwników: BN z kampanii albo stwory."))
        if len(party) + len(foes) + sum(counts.values()) > MAX_COMBATANTS:
            raise forms.ValidationError(
                _("Najwyżej %(n)d walczących w jednej symulacji.") % {"n": MAX_COMBATANTS}
            )
        cleaned["combatants"] = combatants(party, foes, counts)
        return cleaned


def combatants(
    party: list[Character], foes: list[Character], counts: dict[CreatureTemplate, int]
) -> list[dict[str, Any]]:
    """Combatant dicts for the ruleset: characters by id, creatures numbered per kind."""
    chosen = [
        {"id": f"c{c.pk}", "name": c.name, "side": PARTY, "sheet": c.sheet_data()} for c in party
    ]
    chosen += [
        {"id": f"c{c.pk}", "name": c.name, "side": OPPONENTS, "sheet": c.sheet_data()} for c in foes
    ]
    for creature, count in counts.items():
        chosen += [
            {
                "id": f"t{creature.pk}-{n}",
                "name": f"{creature.name} {n}",
                "side": OPPONENTS,
                "sheet": {**creature.sheet, "name": creature.name},
            }
            for n in range(1, count + 1)
        ]
    return chosen


class EncounterForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Nazwa starcia"), max_length=120)

    def clean_name(self) -> str:
        name = str(self.cleaned_data["name"]).strip()
        if not name:
            raise forms.ValidationError(_("Podaj nazwę starcia."))
        return name
