"""Othello GP manager pages, below /manage/<series>/<season>/ (see competitions.dispatch)."""

from django.urls import path

from . import views

urlpatterns = [
    path("tournaments/new/", views.tournament_create, name="tournament_create"),
    path("tournaments/<str:tournament>/", views.tournament_manage, name="tournament"),
]
