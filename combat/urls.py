from __future__ import annotations

from django.urls import path

from combat import views

urlpatterns = [
    path("campaigns/<int:pk>/simulator/", views.simulator, name="simulator"),
]
