"""Keizer manager pages, below /manage/<series>/<season>/ (see competitions.dispatch). The page
that pairs an evening ("pair") is the pairings app's (pairings/systems/keizer/urls.py)."""

from django.urls import path

from . import views

urlpatterns = [
    path("list/", views.season_list, name="keizer_list"),
    path("rounds/<int:number>/attendance/", views.attendance, name="attendance"),
    path("rounds/<int:number>/results/", views.results, name="results"),
    path("rounds/<int:number>/print/", views.print_round, name="print"),
    path("rounds/<int:number>/delete/", views.round_delete, name="round_delete"),
    path("rounds/<int:number>/unpair/", views.unpair, name="unpair"),
]
