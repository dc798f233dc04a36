"""Keizer manager pages of the rankings app, below /manage/<series>/<season>/ (added to the
system's manager URLconfs with competitions.registry.add_manage_urls): moving in from
KeizerForClubs, which imports, recomputes and checks the standings."""

from django.urls import path

from . import move_in

urlpatterns = [
    path("move-in/keizerforclubs/", move_in.move_in, name="keizer_move_in"),
]
