"""Django admin for superusers only; GMs use the campaign pages, which check membership."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Model, QuerySet
from django.forms import ModelForm
from django.http import HttpRequest

from characters import services
from characters.models import Campaign, Character, CreatureTemplate, Mail, Membership


class SuperuserAdmin(admin.ModelAdmin):
    """Staff without superuser rights see nothing here: the admin bypasses campaign access."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_superuser)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return self.has_module_permission(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)


class RosterAdmin(SuperuserAdmin):
    """Characters and creatures changed here reach the open tables too, as from the pages."""

    def save_model(self, request: HttpRequest, obj: Any, form: ModelForm, change: bool) -> None:
        super().save_model(request, obj, form, change)
        _tell(obj)

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        super().delete_model(request, obj)
        _tell(obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        places = {_place(obj) for obj in queryset}
        super().delete_queryset(request, queryset)
        for campaign_id, ruleset in places:
            services.tell_tables(campaign_id, ruleset)


def _place(obj: Model) -> tuple[int | None, str]:
    """The campaign whose tables show `obj` (None and the ruleset for a shared creature)."""
    return getattr(obj, "campaign_id", None), getattr(obj, "ruleset", "")


def _tell(obj: Model) -> None:
    services.tell_tables(*_place(obj))


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Campaign)
class CampaignAdmin(SuperuserAdmin):
    list_display = ["name", "gm", "ruleset", "created"]
    search_fields = ["name", "gm__username"]
    inlines = [MembershipInline]


@admin.register(Character)
class CharacterAdmin(RosterAdmin):
    list_display = ["name", "kind", "campaign", "owner"]
    list_filter = ["kind"]
    search_fields = ["name", "campaign__name"]
    raw_id_fields = ["owner", "campaign", "source_creature"]


@admin.register(CreatureTemplate)
class CreatureTemplateAdmin(RosterAdmin):
    list_display = ["name", "campaign", "ruleset"]
    search_fields = ["name"]


@admin.register(Membership)
class MembershipAdmin(SuperuserAdmin):
    list_display = ["user", "campaign", "role"]
    list_filter = ["role"]


@admin.register(Mail)
class MailAdmin(SuperuserAdmin):
    """The record of the site's mails: what went out, what waits, what failed and why."""

    list_display = ["created", "kind", "to", "subject", "sent", "attempts", "next_try"]
    list_filter = ["kind", "sent"]
    search_fields = ["to", "subject"]
    readonly_fields = [f.name for f in Mail._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
