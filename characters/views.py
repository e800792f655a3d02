"""Pages for campaigns, members, characters and the bestiary (the GM panel and the player's).

Function-based views. Each one first asks `characters.access` for the objects it works on
(404 for outsiders, 403 for players on GM pages), then validates with a form and writes with
`characters.services`. HTMX requests get a fragment (an inline partial of the same template);
every action also works as a plain form post followed by a redirect.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_POST
from django_htmx.middleware import HtmxDetails

from characters import access, account, services
from characters.forms import (
    CampaignCreateForm,
    CampaignEditForm,
    CharacterForm,
    CreatureForm,
    ImportForm,
    InstantiateForm,
    JoinCodeForm,
    SheetEditor,
    SignupForm,
    reshape_rows,
)
from characters.language import remember_in_cookie, saved_language
from characters.models import (
    Campaign,
    Character,
    CreatureTemplate,
    Membership,
    normalise_invite_code,
)
from characters.portraits import content_type_for
from characters.settings_form import TableSettingsForm
from characters.sheet_view import sheet_context
from characters.sheets import blank_sheet
from characters.templatetags.people import shown
from characters.transfer import (
    check_characters,
    check_creatures,
    export_bestiary,
    export_characters,
)


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails
    user: User  # every view below requires login


# ---- accounts and joining ---------------------------------------------------------------------


def _posted(request: HttpRequest) -> tuple[Any, Any]:
    """POST data and files for a POST (even an empty one), (None, None) otherwise."""
    if request.method == "POST":
        return request.POST, request.FILES
    return None, None


def _safe_next(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


def signup(request: HttpRequest) -> HttpResponse:
    """A username, password and optional address, then straight back to where the person came
    from (an invite); the address is mailed its confirmation link."""
    if request.user.is_authenticated:
        return redirect(_safe_next(request, reverse("campaign-list")))
    form = SignupForm(_posted(request)[0])
    if request.method == "POST" and form.is_valid():
        picked = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
        user = services.sign_up(
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
            address=form.cleaned_data["email"],
            # picked before the account existed
            language=picked if picked in dict(settings.LANGUAGES) else "",
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        if user.email:
            messages.success(
                request,
                _("Wysłaliśmy link na %(address)s. Otwórz go, żeby potwierdzić adres.")
                % {"address": user.email},
            )
        return redirect(_safe_next(request, reverse("campaign-list")))
    next_url = _safe_next(request, "")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


class SignIn(auth_views.LoginView):
    """Django's sign-in; then this browser shows the language saved on the account."""

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        language = saved_language(form.get_user().pk)
        if language:
            remember_in_cookie(response, language)
        return response


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """django-axes' answer to a sign-in from a locked account or address
    (`AXES_LOCKOUT_CALLABLE`): why and for how long, as 429 Too Many Requests."""
    minutes = max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    return render(request, "registration/locked_out.html", {"minutes": minutes}, status=429)


def set_language(request: HttpRequest) -> HttpResponse:
    """The PL/EN switch: Django's own view sets the cookie; a signed-in person's pick is
    also kept on their account."""
    response = i18n.set_language(request)
    language = request.POST.get("language", "")
    picked = request.method == "POST" and language in dict(settings.LANGUAGES)
    if picked and request.user.is_authenticated:
        assert isinstance(request.user, User)
        services.save_language(user=request.user, language=language)
    return response


@login_required
def join_code(request: HtmxHttpRequest) -> HttpResponse:
    """Typing a code leads to the same confirmation page as following the invite link."""
    form = JoinCodeForm(_posted(request)[0])
    if request.method == "POST" and form.is_valid():
        return redirect("join", code=normalise_invite_code(form.cleaned_data["code"]))
    return render(request, "characters/join.html", {"form": form})


@login_required
def join(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """GET shows which campaign the link is for; POST joins it as a player."""
    campaign = Campaign.objects.filter(invite_code=normalise_invite_code(code)).first()
    if campaign is None:
        messages.error(request, _("Ten kod zaproszenia jest nieważny albo został zmieniony."))
        return redirect("join-code")
    if access.role_in(request.user, campaign) is not None:
        return redirect(campaign)
    if request.method == "POST":
        services.join_campaign(campaign=campaign, user=request.user)
        messages.success(request, _("Dołączono do kampanii „%(name)s”.") % {"name": campaign})
        return redirect(campaign)
    return render(request, "characters/join.html", {"campaign": campaign, "code": code})


# ---- campaigns --------------------------------------------------------------------------------


@login_required
def campaign_list(request: HtmxHttpRequest) -> HttpResponse:
    memberships = (
        Membership.objects.filter(user=request.user)
        .select_related("campaign__gm")
        .order_by("campaign__name")
    )
    mine = {m.campaign_id for m in memberships}
    others = Campaign.objects.none()
    if request.user.is_superuser:
        others = access.campaigns_for(request.user).exclude(pk__in=mine).select_related("gm")
    context = {
        "running": [m.campaign for m in memberships if m.role == Membership.Role.GM],
        "playing": [m.campaign for m in memberships if m.role == Membership.Role.PLAYER],
        "others": others,
        "join_form": JoinCodeForm(),
    }
    return render(request, "characters/campaign_list.html", context)


@login_required
def campaign_create(request: HtmxHttpRequest) -> HttpResponse:
    form = CampaignCreateForm(_posted(request)[0])
    if request.method == "POST" and form.is_valid():
        campaign = services.create_campaign(gm=request.user, **form.cleaned_data)
        messages.success(request, _("Kampania utworzona. Zaproś graczy linkiem poniżej."))
        return redirect(campaign)
    return render(request, "characters/campaign_form.html", {"form": form})


@login_required
def campaign_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The GM's control page, or a player's view of the party and their own characters."""
    campaign = access.get_campaign_for(request.user, pk)
    if access.is_gm(request.user, campaign):
        return render(request, "characters/campaign_gm.html", _gm_context(request, campaign))
    party = campaign.memberships.select_related("user").prefetch_related(
        Prefetch(
            "user__characters",
            queryset=Character.objects.filter(campaign=campaign, kind=Character.Kind.PC),
            to_attr="party_characters",
        )
    )
    context = {
        "campaign": campaign,
        "party": party,
        "mine": access.characters_for(request.user, campaign),
    }
    return render(request, "characters/campaign_player.html", context)


def _gm_context(request: HtmxHttpRequest, campaign: Campaign) -> dict[str, Any]:
    characters = campaign.characters.select_related("owner", "source_creature")
    members = list(campaign.memberships.select_related("user"))
    players = [m.user_id for m in members if m.role == Membership.Role.PLAYER]
    return {
        "campaign": campaign,
        "members": members,
        # The players no by-post mail reaches: shown to the GM only, never to other players.
        "unreachable": account.unreachable_ids(players),
        "pcs": [c for c in characters if c.kind == Character.Kind.PC],
        "npcs": [c for c in characters if c.kind == Character.Kind.NPC],
        "invite_url": _invite_url(request, campaign),
    }


def _invite_url(request: HttpRequest, campaign: Campaign) -> str:
    return request.build_absolute_uri(reverse("join", args=[campaign.invite_code]))


@login_required
def campaign_edit(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = access.get_gm_campaign(request.user, pk)
    form = CampaignEditForm(_posted(request)[0], instance=campaign)
    if request.method == "POST" and form.is_valid():
        form.instance.save(update_fields=["name", "description", "updated"])
        messages.success(request, _("Zapisano."))
        return redirect(campaign)
    return render(request, "characters/campaign_form.html", {"form": form, "campaign": campaign})


@login_required
def campaign_settings(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Table settings; refused if a sheet in the campaign would fall outside the new ranges."""
    campaign = access.get_gm_campaign(request.user, pk)
    form = TableSettingsForm(_posted(request)[0], rules=campaign.rules(), current=campaign.settings)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_settings(campaign=campaign, settings=form.cleaned_data["settings"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Ustawienia stołu zapisane."))
            return redirect(campaign)
    return render(
        request, "characters/campaign_settings.html", {"form": form, "campaign": campaign}
    )


@login_required
def campaign_delete(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = access.get_gm_campaign(request.user, pk)
    if request.method == "POST":
        services.delete_campaign(campaign=campaign)
        messages.success(request, _("Kampania usunięta."))
        return redirect("campaign-list")
    return render(
        request, "characters/confirm_delete.html", {"object": campaign, "campaign": campaign}
    )


@login_required
@require_POST
def invite_regenerate(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A new code; the old link stops working at once."""
    campaign = access.get_gm_campaign(request.user, pk)
    campaign.regenerate_invite_code()
    if request.htmx:
        context = {"campaign": campaign, "invite_url": _invite_url(request, campaign)}
        return render(request, "characters/campaign_gm.html#invite", context)
    messages.success(request, _("Nowy kod zaproszenia. Stary link już nie działa."))
    return redirect(campaign)


@login_required
def member_remove(request: HtmxHttpRequest, pk: int, member_pk: int) -> HttpResponse:
    """GET asks for confirmation; POST removes the player (their characters stay, unowned)."""
    campaign = access.get_gm_campaign(request.user, pk)
    membership = get_object_or_404(
        Membership.objects.select_related("user"), pk=member_pk, campaign=campaign
    )
    if request.method == "POST":
        try:
            services.remove_member(membership=membership)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(
                request, _("Usunięto %(user)s z kampanii.") % {"user": shown(membership.user)}
            )
        return redirect(campaign)
    return render(
        request, "characters/member_remove.html", {"campaign": campaign, "membership": membership}
    )


# ---- characters -------------------------------------------------------------------------------


@login_required
def character_create(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The GM creates any character; a player creates their own player character."""
    campaign = access.get_campaign_for(request.user, pk)
    as_gm = access.is_gm(request.user, campaign)
    character = Character(campaign=campaign)
    if as_gm:
        wants_npc = request.GET.get("kind") == Character.Kind.NPC
        character.kind = Character.Kind.NPC if wants_npc else Character.Kind.PC
    else:
        character.kind, character.owner = Character.Kind.PC, request.user
    character.sheet = blank_sheet(rules=campaign.rules(), settings=campaign.settings)
    return _character_form(request, campaign, character, as_gm=as_gm)


@login_required
def character_edit(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    character = access.get_character_for(request.user, pk, edit=True)
    as_gm = access.is_gm(request.user, character.campaign)
    return _character_form(request, character.campaign, character, as_gm=as_gm)


def _character_form(
    request: HtmxHttpRequest, campaign: Campaign, character: Character, *, as_gm: bool
) -> HttpResponse:
    """The character's fields and sheet, validated together and saved in one transaction."""
    data, files = _form_data(request, campaign)
    old_portrait = character.portrait.name or ""
    form = CharacterForm(data, files, instance=character, campaign=campaign, as_gm=as_gm)
    editor = _editor(campaign, data, character.sheet)
    row_command = request.POST.get("row", "") if request.method == "POST" else ""
    if row_command:
        return _reshaped(
            request, row_command, _character_form_context(form, editor, campaign, character)
        )
    if data is not None and form.is_valid() and editor.is_valid():
        services.save_character(
            character=form.instance, sheet=editor.sheet, old_portrait=old_portrait
        )
        messages.success(request, _("Zapisano postać %(name)s.") % {"name": character.name})
        return redirect(character)
    context = _character_form_context(form, editor, campaign, character)
    return render(request, "characters/character_form.html", context)


def _character_form_context(
    form: CharacterForm, editor: SheetEditor, campaign: Campaign, character: Character
) -> dict[str, Any]:
    return {"form": form, "editor": editor, "campaign": campaign, "character": character}


def _form_data(request: HttpRequest, campaign: Campaign) -> tuple[Any, Any]:
    """Like `_posted`, with the data reshaped when a row was added or removed (the rows of the
    campaign's ruleset: another ruleset's list of the same key has other defaults)."""
    if request.method != "POST":
        return None, None
    command = request.POST.get("row", "")
    reshaped = reshape_rows(
        request.POST, command, rules=campaign.rules(), settings=campaign.settings
    )
    return (reshaped if reshaped is not None else request.POST), request.FILES


def _editor(campaign: Campaign, data: Any, sheet: dict[str, Any]) -> SheetEditor:
    return SheetEditor(data, rules=campaign.rules(), settings=campaign.settings, initial=sheet)


def _reshaped(request: HtmxHttpRequest, command: str, context: dict[str, Any]) -> HttpResponse:
    """After "add/remove a row": the one fieldset for HTMX, the whole form otherwise."""
    editor: SheetEditor = context["editor"]
    section = command.split()[1] if len(command.split()) > 1 else ""
    template = context.get("template", "characters/character_form.html")
    context["hide_errors"] = True  # the person is still filling the form in
    if request.htmx and section in editor.formsets:
        context["formset"] = editor.formsets[section]
        return render(request, "characters/sheet_editor.html#rows", context)
    return render(request, template, context)


@login_required
def character_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    character = access.get_character_for(request.user, pk, edit=False)
    campaign = character.campaign
    context = {
        "character": character,
        "campaign": campaign,
        "is_gm": access.is_gm(request.user, campaign),
        **sheet_context(character.sheet, character.derived_values(), campaign=campaign),
    }
    return render(request, "characters/character_detail.html", context)


@login_required
def character_delete(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    character = access.get_character_for(request.user, pk, edit=True)
    campaign = character.campaign
    if request.method == "POST":
        services.delete_character(character=character)
        messages.success(request, _("Usunięto postać %(name)s.") % {"name": character.name})
        return redirect(campaign)
    return render(
        request, "characters/confirm_delete.html", {"object": character, "campaign": campaign}
    )


@login_required
def character_portrait(request: HtmxHttpRequest, pk: int) -> HttpResponseBase:
    """The portrait file, to those who may see the character; never from a public URL."""
    character = access.get_character_for(request.user, pk, edit=False)
    if not character.portrait:
        raise Http404("No portrait")
    try:
        handle = character.portrait.open("rb")
    except FileNotFoundError:
        raise Http404("Portrait file missing") from None
    response = FileResponse(handle, content_type=content_type_for(character.portrait.name))
    response["Cache-Control"] = "private, max-age=3600"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return response


@login_required
def character_export(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    character = access.get_character_for(request.user, pk, edit=False)
    data = export_characters(character.campaign, [character])
    return _json_download(data, slugify(character.name) or "postac")


@login_required
def character_import(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Characters from JSON: all of them or, on any problem, none and the list of problems."""
    campaign = access.get_gm_campaign(request.user, pk)
    form = ImportForm(*_posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            entries = check_characters(form.cleaned_data["data"], campaign=campaign)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            created = services.import_characters(campaign=campaign, entries=entries)
            messages.success(request, _("Zaimportowano postacie: %(n)d.") % {"n": len(created)})
            return redirect(campaign)
    context = {"form": form, "campaign": campaign, "what": "characters"}
    return render(request, "characters/import.html", context)


def _json_download(data: dict[str, Any], stem: str) -> HttpResponse:
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = f'attachment; filename="{stem}.json"'
    return response


# ---- bestiary ---------------------------------------------------------------------------------


@login_required
def bestiary(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = access.get_gm_campaign(request.user, pk)
    creatures = access.creatures_for(campaign)
    context = {
        "campaign": campaign,
        "own": [c for c in creatures if not c.is_shared],
        "shared": [c for c in creatures if c.is_shared],
    }
    return render(request, "characters/bestiary.html", context)


@login_required
def creature_create(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = access.get_gm_campaign(request.user, pk)
    creature = CreatureTemplate(
        campaign=campaign,
        ruleset=campaign.ruleset,
        sheet=blank_sheet(rules=campaign.rules(), settings=campaign.settings),
    )
    return _creature_form(request, campaign, creature)


@login_required
def creature_edit(request: HtmxHttpRequest, pk: int, creature_pk: int) -> HttpResponse:
    campaign, creature = access.get_creature_for(request.user, pk, creature_pk, edit=True)
    return _creature_form(request, campaign, creature)


def _creature_form(
    request: HtmxHttpRequest, campaign: Campaign, creature: CreatureTemplate
) -> HttpResponse:
    data, _files = _form_data(request, campaign)
    form = CreatureForm(data, instance=creature)
    editor = _editor(campaign, data, creature.sheet)
    context = {
        "form": form,
        "editor": editor,
        "campaign": campaign,
        "creature": creature,
        "template": "characters/creature_form.html",
    }
    row_command = request.POST.get("row", "") if request.method == "POST" else ""
    if row_command:
        return _reshaped(request, row_command, context)
    if data is not None and form.is_valid() and editor.is_valid():
        services.save_creature(creature=form.instance, sheet=editor.sheet)
        messages.success(request, _("Zapisano: %(name)s.") % {"name": creature.name})
        return redirect("creature-detail", pk=campaign.pk, creature_pk=creature.pk)
    return render(request, "characters/creature_form.html", context)


@login_required
def creature_detail(request: HtmxHttpRequest, pk: int, creature_pk: int) -> HttpResponse:
    campaign, creature = access.get_creature_for(request.user, pk, creature_pk, edit=False)
    sheet = {**creature.sheet, "name": creature.name}
    derived = campaign.rules().derived_values(sheet, campaign.settings)
    context = {
        "campaign": campaign,
        "creature": creature,
        **sheet_context(creature.sheet, derived, campaign=campaign),
    }
    return render(request, "characters/creature_detail.html", context)


@login_required
def creature_delete(request: HtmxHttpRequest, pk: int, creature_pk: int) -> HttpResponse:
    campaign, creature = access.get_creature_for(request.user, pk, creature_pk, edit=True)
    if request.method == "POST":
        services.delete_creature(creature=creature)
        messages.success(request, _("Usunięto %(name)s z bestiariusza.") % {"name": creature.name})
        return redirect("bestiary", pk=campaign.pk)
    context = {"object": creature, "campaign": campaign}
    return render(request, "characters/confirm_delete.html", context)


@login_required
@require_POST
def creature_copy(request: HtmxHttpRequest, pk: int, creature_pk: int) -> HttpResponse:
    """A copy in the campaign's own bestiary, which the GM may then change."""
    campaign, creature = access.get_creature_for(request.user, pk, creature_pk, edit=False)
    try:
        copy = services.copy_creature(creature=creature, campaign=campaign)
    except ValidationError as error:
        messages.error(
            request, _("Nie pasuje do ustawień kampanii: %(e)s") % {"e": "; ".join(error.messages)}
        )
        return redirect("bestiary", pk=campaign.pk)
    messages.success(
        request, _("Skopiowano %(name)s do bestiariusza kampanii.") % {"name": copy.name}
    )
    return redirect("creature-edit", pk=campaign.pk, creature_pk=copy.pk)


@login_required
@require_POST
def creature_instantiate(request: HtmxHttpRequest, pk: int, creature_pk: int) -> HttpResponse:
    """NPCs from a bestiary entry, numbered on from those already in the campaign."""
    campaign, creature = access.get_creature_for(request.user, pk, creature_pk, edit=False)
    form = InstantiateForm(request.POST)
    created: list[Character] = []
    error = ""
    if form.is_valid():
        try:
            created = services.instantiate_creature(
                creature=creature, campaign=campaign, **form.cleaned_data
            )
        except ValidationError as problem:
            error = "; ".join(problem.messages)
    else:
        error = "; ".join(str(m) for errors in form.errors.values() for m in errors)
    if request.htmx:
        context = {"campaign": campaign, "creature": creature, "created": created, "error": error}
        return render(request, "characters/bestiary.html#instantiated", context)
    if error:
        messages.error(request, error)
        return redirect("bestiary", pk=campaign.pk)
    names = ", ".join(c.name for c in created)
    messages.success(request, _("Utworzono BN: %(names)s.") % {"names": names})
    return redirect(reverse("campaign-detail", args=[campaign.pk]) + "#npcs")


@login_required
def bestiary_export(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = access.get_gm_campaign(request.user, pk)
    data = export_bestiary(campaign, campaign.creatures.all())
    return _json_download(data, f"bestiariusz-{slugify(campaign.name) or campaign.pk}")


@login_required
def bestiary_import(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = access.get_gm_campaign(request.user, pk)
    form = ImportForm(*_posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            entries = check_creatures(form.cleaned_data["data"], campaign=campaign)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            created = services.import_creatures(campaign=campaign, entries=entries)
            messages.success(request, _("Zaimportowano stwory: %(n)d.") % {"n": len(created)})
            return redirect("bestiary", pk=campaign.pk)
    context = {"form": form, "campaign": campaign, "what": "bestiary"}
    return render(request, "characters/import.html", context)
