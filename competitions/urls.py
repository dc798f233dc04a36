from django.urls import path

from . import views

app_name = "manage"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("<slug:series>/players/", views.players, name="players"),
    path("<slug:series>/seasons/new/", views.season_create, name="season_create"),
    path("<slug:series>/<str:season>/", views.season_manage, name="season"),
    path("<slug:series>/<str:season>/settings/", views.season_settings, name="season_settings"),
    path(
        "<slug:series>/<str:season>/tournaments/new/",
        views.tournament_create,
        name="tournament_create",
    ),
    path(
        "<slug:series>/<str:season>/tournaments/<str:tournament>/",
        views.tournament_manage,
        name="tournament",
    ),
    path(
        "<slug:series>/<str:season>/tournaments/<str:tournament>/redraw/",
        views.tournament_redraw,
        name="tournament_redraw",
    ),
    path(
        "<slug:series>/<str:season>/tournaments/<str:tournament>/rounds/<int:number>/",
        views.round_manage,
        name="round",
    ),
    path(
        "<slug:series>/<str:season>/tournaments/<str:tournament>/rounds/<int:number>/"
        "tables/<int:table>/",
        views.table_edit,
        name="table_edit",
    ),
    path(
        "<slug:series>/<str:season>/tournaments/<str:tournament>/rounds/<int:number>/"
        "tables/<int:table>/delete/",
        views.table_delete,
        name="table_delete",
    ),
]
