"""Keizer public pages, below /<series>/<season>/ (see competitions.dispatch)."""

from django.urls import path

from . import views

urlpatterns = [
    path("list/<int:after>/", views.ranking_after, name="list"),
    path("rounds/", views.evenings, name="rounds"),
    path("rounds/<int:number>/", views.evening, name="round"),
]
