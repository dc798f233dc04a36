"""Board-game manager pages, below /manage/<series>/<season>/ (see competitions.dispatch)."""

from django.urls import path

from . import views

urlpatterns = [
    path("tournaments/new/", views.tournament_create, name="tournament_create"),
    path("games/rename/", views.game_rename, name="game_rename"),
    path("tournaments/<str:tournament>/", views.tournament_manage, name="tournament"),
    path("tournaments/<str:tournament>/delete/", views.tournament_delete, name="tournament_delete"),
    path("tournaments/<str:tournament>/redraw/", views.tournament_redraw, name="tournament_redraw"),
    path("tournaments/<str:tournament>/rounds/<int:number>/", views.round_manage, name="round"),
    path(
        "tournaments/<str:tournament>/rounds/<int:number>/tables/<int:table>/",
        views.table_edit,
        name="table_edit",
    ),
    path(
        "tournaments/<str:tournament>/rounds/<int:number>/tables/<int:table>/delete/",
        views.table_delete,
        name="table_delete",
    ),
]
