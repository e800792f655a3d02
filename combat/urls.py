from __future__ import annotations

from django.urls import path

from combat import views

urlpatterns = [
    path("campaigns/<int:pk>/simulator/", views.simulator, name="simulator"),
    path("campaigns/<int:pk>/encounters/", views.encounter_list, name="encounter-list"),
    path("encounters/<int:pk>/", views.encounter, name="encounter"),
    path("encounters/<int:pk>/log/", views.encounter_log, name="encounter-log"),
]
