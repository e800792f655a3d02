"""GM tools of the combat app. The live table's views come with the encounter layer."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from characters.access import get_gm_campaign
from characters.models import CreatureTemplate
from combat.forms import SimulatorForm


@login_required
def simulator(request: HttpRequest, pk: int) -> HttpResponse:
    """Monte-Carlo fights to balance an encounter: "party wins 82%". GM only."""
    campaign = get_gm_campaign(request.user, pk)
    rules = campaign.rules()
    creatures = list(
        CreatureTemplate.objects.filter(
            Q(campaign=campaign) | Q(campaign__isnull=True, ruleset=campaign.ruleset)
        ).order_by("campaign", "name")
    )
    form = SimulatorForm(
        request.POST if request.method == "POST" else None,
        characters=campaign.characters.order_by("-kind", "name"),  # player characters first
        creatures=creatures,
        policies=rules.simulation_policies(),
    )
    result = None
    if form.is_valid():
        data = form.cleaned_data
        result = rules.simulate(
            campaign.settings,
            data["combatants"],
            runs=data["runs"],
            seed=data["seed"],
            policy=data["policy"],
        )
    template = "combat/simulator.html"
    if request.htmx:  # type: ignore[attr-defined]
        template += "#simulator"
    return render(request, template, {"campaign": campaign, "form": form, "result": result})
