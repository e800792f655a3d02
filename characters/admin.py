"""Django admin for superusers only; GMs use the campaign pages, which check membership."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from characters.models import Campaign, Character, CreatureTemplate, Membership


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
class CharacterAdmin(SuperuserAdmin):
    list_display = ["name", "kind", "campaign", "owner"]
    list_filter = ["kind"]
    search_fields = ["name", "campaign__name"]
    raw_id_fields = ["owner", "campaign", "source_creature"]


@admin.register(CreatureTemplate)
class CreatureTemplateAdmin(SuperuserAdmin):
    list_display = ["name", "campaign", "ruleset"]
    search_fields = ["name"]


@admin.register(Membership)
class MembershipAdmin(SuperuserAdmin):
    list_display = ["user", "campaign", "role"]
    list_filter = ["role"]
