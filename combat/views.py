"""The combat pages: the GM's encounter simulator, the campaign's encounters, the live table."""

from __future__ import annotations

import io
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import UploadedFile
from django.db.models import Q
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from PIL import Image, ImageOps

from characters.access import get_campaign_for, get_gm_campaign, is_gm, require_gm
from characters.models import Campaign, Character, CreatureTemplate
from characters.portraits import FORMATS, content_type_for, validate_portrait
from combat import export, fragments, posts, roster, services, verify
from combat.access import Refused, Viewer, get_encounter_for
from combat.forms import MAX_PER_CREATURE, EncounterForm, SimulatorForm
from combat.models import Encounter
from combat.rules.base import battle_maps_of, simulator_of
from combat.rules.battlemap import BattleMap, Look


@login_required
def simulator(request: HttpRequest, pk: int) -> HttpResponse:
    """Monte-Carlo fights to balance an encounter: "party wins 82%". GM only.

    It starts from the sides of the encounter named by `?encounter=`, else from the campaign's
    player characters against nobody yet; the party is always preselected."""
    campaign = get_gm_campaign(request.user, pk)
    rules = simulator_of(campaign.rules())
    if rules is None:
        raise Http404("This ruleset has no simulator")
    encounter = _encounter_of(campaign, request.GET.get("encounter", ""))
    lineup = _lineup(campaign, encounter)
    creatures = list(
        CreatureTemplate.objects.filter(
            Q(campaign=campaign) | Q(campaign__isnull=True, ruleset=campaign.ruleset)
        ).order_by("campaign", "name")
    )
    characters = campaign.characters.order_by("name")
    pcs, npcs = Q(kind=Character.Kind.PC), Q(kind=Character.Kind.NPC)
    form = SimulatorForm(
        request.POST if request.method == "POST" else None,
        initial={
            "party": lineup.party,
            "foes": lineup.foes,
            **{f"creature_{k}": min(n, MAX_PER_CREATURE) for k, n in lineup.creatures.items()},
        },
        characters=characters,
        party_offer=characters.filter((pcs & ~Q(pk__in=lineup.foes)) | Q(pk__in=lineup.party)),
        foes_offer=characters.filter((npcs & ~Q(pk__in=lineup.party)) | Q(pk__in=lineup.foes)),
        creatures=creatures,
        policies=rules.simulation_policies(),
    )
    context: dict[str, Any] = {"campaign": campaign, "form": form, "encounter": encounter}
    if form.is_valid():
        data = form.cleaned_data
        context["result"] = result = rules.simulate(
            campaign.settings,
            data["combatants"],
            runs=data["runs"],
            seed=data["seed"],
            policy=data["policy"],
        )
        context["drops"] = _drop_chances(getattr(result, "drops", None), data["combatants"])
    template = "combat/simulator.html"
    if request.htmx:  # type: ignore[attr-defined]
        template += "#simulator"
    return render(request, template, context)


def _encounter_of(campaign: Campaign, number: str) -> Encounter | None:
    """The campaign's encounter by its number, None for anything else."""
    return campaign.encounters.filter(pk=int(number)).first() if number.isdigit() else None


def _lineup(campaign: Campaign, encounter: Encounter | None) -> roster.Lineup:
    """The sides of the encounter's table; the campaign's player characters as the party when
    the table has none on its side yet."""
    lineup = roster.Lineup()
    if encounter is not None:
        seats = services.load_table(encounter.pk).view.seats.values()
        lineup = roster.lineup_of((seat.id, seat.side) for seat in seats)
    if not lineup.party:
        pcs = campaign.characters.filter(kind=Character.Kind.PC).exclude(pk__in=lineup.foes)
        lineup.party = list(pcs.values_list("pk", flat=True))
    return lineup


def _drop_chances(
    drops: Mapping[str, float] | None, combatants: Sequence[Mapping[str, Any]]
) -> list[tuple[str, str, float]]:
    """(name, side, chance to drop) per combatant, where the ruleset's summary reports it."""
    if not drops:
        return []
    return [(c["name"], c["side"], drops[c["id"]]) for c in combatants if c["id"] in drops]


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
@require_POST
def encounter_copy(request: HttpRequest, pk: int) -> HttpResponse:
    """The campaign's GM copies one of its encounters: the same map and line-up, in setup,
    with fresh dice (404 for an encounter of any other campaign, nothing made)."""
    campaign = get_gm_campaign(request.user, pk)
    source = _encounter_of(campaign, request.POST.get("encounter", ""))
    if source is None:
        raise Http404("No such encounter in this campaign")
    assert isinstance(request.user, User)
    name = _("%(name)s (kopia)") % {"name": source.name}
    copied = services.copy_encounter(source=source, by=request.user, name=name[:120])
    messages.success(request, _("Skopiowano starcie: mapa i skład są gotowe do walki."))
    return redirect(copied)


@login_required
def encounter(request: HttpRequest, pk: int) -> HttpResponse:
    """The live table, rendered for this viewer; the socket keeps it current."""
    found, viewer = get_encounter_for(request.user, pk)
    services.resolve_expired(found.pk)  # a deadline that passed while nobody watched
    table = services.load_table(found.pk)
    context = fragments.page(table, viewer)
    # The socket renders in the page's language, whichever way the page chose it.
    context["ws_path"] = f"/ws/encounters/{found.pk}/?lang={get_language()}"
    context["my_sheets"] = _my_sheets(request.user, found)
    if verify.seeded(found):  # the dice's commitment, linked to the rolls' check
        context["seed_hash"] = found.seed_hash
    if viewer.is_gm and table.view.pace == "post":  # whom the turn mails will not reach
        context["unmailed"] = posts.unmailed(found.campaign_id, table.view)
    if viewer.is_gm and simulator_of(found.rules()) is not None:
        simulator_url = reverse("simulator", args=[found.campaign_id])
        context["simulator_url"] = f"{simulator_url}?encounter={found.pk}"
    return render(request, "combat/encounter.html", context)


def _my_sheets(user: Any, encounter: Encounter) -> list[tuple[str, str]]:
    """(name, sheet URL) of the viewer's own characters in the encounter's campaign."""
    mine = Character.objects.filter(campaign_id=encounter.campaign_id, owner_id=user.pk)
    return [(c.name, c.get_absolute_url()) for c in mine.order_by("name").only("name")]


@login_required
def encounter_log(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole log of an encounter as this viewer may see it; `?format=json` downloads it."""
    found, viewer = get_encounter_for(request.user, pk)
    table = services.load_table(found.pk)
    lines = fragments.log_lines(table, viewer, services.full_log(found))
    if request.GET.get("format") == "json":
        data = [
            {"seq": line.seq, "text": line.text, "kind": line.kind, "rolls": list(line.rolls),
             "secret": line.secret, "undone": line.undone,
             **({"quotes": list(line.quotes)} if line.quotes else {})}
            for line in reversed(lines)
        ]  # fmt: skip
        response = JsonResponse({"encounter": found.name, "lines": data})
        response["Content-Disposition"] = f'attachment; filename="eleora-{found.pk}-log.json"'
        return response
    context = {"table": table, "log": lines, "viewer": viewer}
    return render(request, "combat/encounter_log.html", context)


@login_required
def encounter_export(request: HttpRequest, pk: int) -> HttpResponse:
    """A fight, or one of its turns, as a forum post (BBCode or Markdown) in the viewer's
    language: what the players see, or everything in the GM's version (the GM's alone)."""
    found, viewer = get_encounter_for(request.user, pk)
    context, status = export.page(found, viewer, request.GET, request.build_absolute_uri)
    context.update(encounter=found, viewer=viewer)
    return render(request, "combat/export.html", context, status=status)


@login_required
def encounter_rolls(request: HttpRequest, pk: int) -> HttpResponse:
    """Every roll of the encounter the viewer may see, each checked against the revealed seed
    (combat/verify.py), with the seeds or their hashes and the algorithm."""
    found, viewer = get_encounter_for(request.user, pk)
    return render(request, "combat/rolls.html", verify.page(found, viewer))


@login_required
def encounter_roll(request: HttpRequest, pk: int, seq: int) -> HttpResponse:
    """One entry's rolls, checked: the permanent link of a roll is this page + `#r<n>`."""
    found, viewer = get_encounter_for(request.user, pk)
    context = verify.page(found, viewer, seq=seq)
    if not context["entries"]:
        raise Http404("No such roll")
    context["entry"] = context["entries"][0]
    return render(request, "combat/roll.html", context)


@login_required
@require_POST
def encounter_reveal_gm_seed(request: HttpRequest, pk: int) -> HttpResponse:
    """GM: reveal the seed of the secret GM rolls after the fight (403 to a player)."""
    found, viewer = get_encounter_for(request.user, pk)
    require_gm(request.user, found.campaign)
    try:
        verify.reveal_gm_seed(found.pk, viewer)
    except Refused as refusal:
        messages.error(request, refusal.message)
    return redirect(reverse("encounter_rolls", args=[found.pk]))


MAP_IMAGE_SIDE = 4096  # pixels: a map picture is stored at most this wide and tall


@login_required
def encounter_map_image(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The battle map's picture, to the table's members (never from a public URL); the GM
    uploads a new one by POST."""
    found, viewer = get_encounter_for(request.user, pk)
    if request.method == "POST":
        require_gm(request.user, found.campaign)
        return _upload_map_image(request, found, viewer)
    m = _battle_map(found)
    # Only this campaign's uploads: an image path is the GM's text and could name any file.
    if m is None or not m.image.startswith(f"maps/{found.campaign_id}/"):
        raise Http404("No map image")
    try:
        handle = default_storage.open(m.image, "rb")
    except FileNotFoundError:
        raise Http404("Map image missing") from None
    response = FileResponse(handle, content_type=content_type_for(m.image))
    response["Cache-Control"] = "private, max-age=3600"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return response


def _battle_map(encounter: Encounter) -> BattleMap | None:
    maps = battle_maps_of(encounter.rules())
    return None if maps is None else maps.battle_map(services.load_table(encounter.pk).state)


def _upload_map_image(request: HttpRequest, encounter: Encounter, viewer: Viewer) -> HttpResponse:
    """Checked like a portrait, stored re-encoded (no camera metadata) under the campaign,
    then set by the ruleset's map command; a refused command leaves no file behind."""
    m = _battle_map(encounter)
    upload = request.FILES.get("image")
    error, done = "", ""
    if m is None:
        error = _("Najpierw utwórz mapę.")
    elif upload is None:
        error = _("Wybierz plik obrazu.")
    else:
        try:
            validate_portrait(upload)
        except ValidationError as exc:
            error = _map_image_error(exc)
    if not error and m is not None and upload is not None:
        picture, extension = _map_copy(upload)
        path = default_storage.save(f"maps/{encounter.campaign_id}/{uuid.uuid4().hex}.{extension}",
                                    picture)  # fmt: skip
        try:
            services.edit_map(encounter.pk, viewer=viewer, edit=Look(m.background, path))
            done = _("Obraz mapy zapisany.")
        except Refused as refusal:
            default_storage.delete(path)
            error = refusal.message
    if not request.htmx:  # type: ignore[attr-defined]
        if error:
            messages.error(request, error)
        return redirect(encounter)
    context = {"error": error, "done": done}
    return render(request, "combat/_map_upload.html", context)  # htmx swaps 2xx only


def _map_image_error(exc: ValidationError) -> str:
    """The portrait check's refusal, worded for a map."""
    if exc.code == "too_big":
        return _("Obraz mapy może mieć najwyżej 2 MB.")
    if exc.code == "format":
        return _("Obraz mapy musi być plikiem PNG, JPEG albo WebP.")
    return " ".join(exc.messages)


def _map_copy(upload: UploadedFile) -> tuple[ContentFile[bytes], str]:
    """The stored copy: the same format, orientation applied, metadata dropped, at most
    MAP_IMAGE_SIDE pixels a side."""
    upload.seek(0)
    with Image.open(upload) as image:
        image_format = image.format or "PNG"
        picture = ImageOps.exif_transpose(image)
        picture.thumbnail((MAP_IMAGE_SIDE, MAP_IMAGE_SIDE))
        if image_format == "JPEG" and picture.mode not in ("RGB", "L"):
            picture = picture.convert("RGB")
        buffer = io.BytesIO()
        picture.save(buffer, format=image_format)
    extension = FORMATS.get(image_format, ("png", ""))[0]
    return ContentFile(buffer.getvalue()), extension
