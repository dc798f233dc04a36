"""Chess manager pages, below /manage/<series>/<season>/ (see competitions.dispatch)."""

from django.urls import path

from . import views

GROUP = "tournaments/<str:tournament>/groups/<int:group>/"
ROUND = GROUP + "rounds/<int:number>/"

urlpatterns = [
    path("tournaments/new/", views.tournament_create, name="tournament_create"),
    path("tournaments/<str:tournament>/", views.tournament_manage, name="tournament"),
    path(GROUP, views.group_manage, name="group"),
    path(GROUP + "players/<int:member>/", views.member_edit, name="member"),
    path(GROUP + "players/<int:member>/remove/", views.member_remove, name="member_remove"),
    path(GROUP + "start-numbers/", views.start_numbers, name="start_numbers"),
    path(GROUP + "rounds/new/", views.round_create, name="round_create"),
    path(ROUND, views.round_manage, name="round"),
    path(ROUND + "delete/", views.round_delete, name="round_delete"),
    path(ROUND + "games/<int:game>/delete/", views.game_delete, name="game_delete"),
    path(ROUND + "walkovers/<int:entry>/delete/", views.walkover_delete, name="walkover_delete"),
]
