from __future__ import annotations

from django.urls import path

from characters import account_views, views

campaign = "campaigns/<int:pk>/"
creature = "campaigns/<int:pk>/bestiary/<int:creature_pk>/"

urlpatterns = [
    path("", views.campaign_list, name="campaign-list"),
    path("signup/", views.signup, name="signup"),
    path("account/", account_views.account_page, name="account"),
    path("account/profile/", account_views.account_profile, name="account-profile"),
    path("account/resend/", account_views.account_resend, name="account-resend"),
    path("account/password/", account_views.account_password, name="account-password"),
    path("account/mails/", account_views.account_mails, name="account-mails"),
    path("account/confirm/<str:token>/", account_views.confirm_email, name="confirm-email"),
    path("join/", views.join_code, name="join-code"),
    path("join/<str:code>/", views.join, name="join"),
    path("campaigns/new/", views.campaign_create, name="campaign-create"),
    path(campaign, views.campaign_detail, name="campaign-detail"),
    path(campaign + "edit/", views.campaign_edit, name="campaign-edit"),
    path(campaign + "settings/", views.campaign_settings, name="campaign-settings"),
    path(campaign + "delete/", views.campaign_delete, name="campaign-delete"),
    path(campaign + "invite/", views.invite_regenerate, name="invite-regenerate"),
    path(campaign + "members/<int:member_pk>/remove/", views.member_remove, name="member-remove"),
    path(campaign + "characters/new/", views.character_create, name="character-create"),
    path(campaign + "characters/import/", views.character_import, name="character-import"),
    path(campaign + "bestiary/", views.bestiary, name="bestiary"),
    path(campaign + "bestiary/new/", views.creature_create, name="creature-create"),
    path(campaign + "bestiary/import/", views.bestiary_import, name="bestiary-import"),
    path(campaign + "bestiary/export.json", views.bestiary_export, name="bestiary-export"),
    path(creature, views.creature_detail, name="creature-detail"),
    path(creature + "edit/", views.creature_edit, name="creature-edit"),
    path(creature + "delete/", views.creature_delete, name="creature-delete"),
    path(creature + "copy/", views.creature_copy, name="creature-copy"),
    path(creature + "instantiate/", views.creature_instantiate, name="creature-instantiate"),
    path("characters/<int:pk>/", views.character_detail, name="character-detail"),
    path("characters/<int:pk>/edit/", views.character_edit, name="character-edit"),
    path("characters/<int:pk>/delete/", views.character_delete, name="character-delete"),
    path("characters/<int:pk>/portrait/", views.character_portrait, name="character-portrait"),
    path("characters/<int:pk>/export.json", views.character_export, name="character-export"),
]
