from django.urls import path

from . import views

app_name = "manage"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("<slug:series>/players/", views.players, name="players"),
    path("<slug:series>/players/<str:player>/", views.player_edit, name="player_edit"),
    path("<slug:series>/players/<str:player>/delete/", views.player_delete, name="player_delete"),
    path("<slug:series>/players/<str:player>/merge/", views.player_merge, name="player_merge"),
    path("<slug:series>/seasons/new/", views.season_create, name="season_create"),
    path("<slug:series>/<slug:season>/", views.season_manage, name="season"),
    path("<slug:series>/<slug:season>/settings/", views.season_settings, name="season_settings"),
    path("<slug:series>/<slug:season>/edit/", views.season_edit, name="season_edit"),
    path("<slug:series>/<slug:season>/delete/", views.season_delete, name="season_delete"),
    # The season's system pages: resolved against the system's own manage_urls.
    path("<slug:series>/<slug:season>/<path:rest>", views.season_page, name="season_page"),
]
