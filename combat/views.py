"""The combat pages: the GM's encounter simulator, the campaign's encounters, the live table."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language

from characters.access import get_campaign_for, get_gm_campaign, is_gm, require_gm
from characters.models import CreatureTemplate
from combat import fragments, services
from combat.access import get_encounter_for
from combat.forms import EncounterForm, SimulatorForm
from combat.rules.base import simulator_of


@login_required
def simulator(request: HttpRequest, pk: int) -> HttpResponse:
    """Monte-Carlo fights to balance an encounter: "party wins 82%". GM only."""
    campaign = get_gm_campaign(request.user, pk)
    rules = simulator_of(campaign.rules())
    if rules is None:
        raise Http404("This ruleset has no simulator")
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


@login_required
def encounter_list(request: HttpRequest, pk: int) -> HttpResponse:
    """The campaign's encounters; its GM opens a new one here."""
    campaign = get_campaign_for(request.user, pk)
    gm = is_gm(request.user, campaign)
    form = EncounterForm(request.POST if request.method == "POST" and gm else None)
    if request.method == "POST":
        require_gm(request.user, campaign)
        if form.is_valid():
            assert isinstance(request.user, User)
            encounter = services.create_encounter(
                campaign=campaign, name=form.cleaned_data["name"], by=request.user
            )
            return redirect(encounter)
    encounters = campaign.encounters.all()
    return render(
        request,
        "combat/encounter_list.html",
        {"campaign": campaign, "encounters": encounters, "form": form, "is_gm": gm},
    )


@login_required
def encounter(request: HttpRequest, pk: int) -> HttpResponse:
    """The live table, rendered for this viewer; the socket keeps it current."""
    found, viewer = get_encounter_for(request.user, pk)
    services.resolve_expired(found.pk)  # a deadline that passed while nobody watched
    table = services.load_table(found.pk)
    context = fragments.context(table, viewer, oob=False)
    # The socket renders in the page's language, whichever way the page chose it.
    context["ws_path"] = f"/ws/encounters/{found.pk}/?lang={get_language()}"
    return render(request, "combat/encounter.html", context)


@login_required
def encounter_log(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole log of an encounter as this viewer may see it; `?format=json` downloads it."""
    found, viewer = get_encounter_for(request.user, pk)
    table = services.load_table(found.pk)
    lines = fragments.log_lines(table, viewer, services.full_log(found))
    if request.GET.get("format") == "json":
        data = [
            {"seq": line.seq, "text": line.text, "kind": line.kind, "rolls": list(line.rolls),
             "secret": line.secret, "undone": line.undone}
            for line in reversed(lines)
        ]  # fmt: skip
        response = JsonResponse({"encounter": found.name, "lines": data})
        response["Content-Disposition"] = f'attachment; filename="eleora-{found.pk}-log.json"'
        return response
    context = {"table": table, "log": lines, "viewer": viewer}
    return render(request, "combat/encounter_log.html", context)
