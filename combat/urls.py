from __future__ import annotations

from django.urls import path

from combat import views

urlpatterns = [
    path("campaigns/<int:pk>/simulator/", views.simulator, name="simulator"),
    path("campaigns/<int:pk>/encounters/", views.encounter_list, name="encounter-list"),
    path("campaigns/<int:pk>/encounters/copy/", views.encounter_copy, name="encounter-copy"),
    path("encounters/<int:pk>/", views.encounter, name="encounter"),
    path("encounters/<int:pk>/log/", views.encounter_log, name="encounter-log"),
    path("encounters/<int:pk>/rolls/", views.encounter_rolls, name="encounter_rolls"),
    path("encounters/<int:pk>/rolls/<int:seq>/", views.encounter_roll, name="encounter_roll"),
    path(
        "encounters/<int:pk>/rolls/reveal/",
        views.encounter_reveal_gm_seed,
        name="encounter_reveal_gm_seed",
    ),
    path("encounters/<int:pk>/export/", views.encounter_export, name="encounter_export"),
    path("encounters/<int:pk>/map/image/", views.encounter_map_image, name="encounter_map_image"),
]
