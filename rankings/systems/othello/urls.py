"""Othello GP public pages, below /<series>/<season>/ (see competitions.dispatch)."""

from django.urls import path

from . import next_gp, views

urlpatterns = [
    path("tournaments/<str:tournament>/", views.tournament_detail, name="tournament"),
    path("standings/", views.standings, name="standings"),
    path("what-if/", views.whatif, name="whatif"),
    path("next-gp/", next_gp.next_gp, name="next"),
]
