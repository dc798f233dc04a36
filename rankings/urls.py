from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("help/", views.help_page, name="help"),
    path("<slug:series>/", views.series_detail, name="series"),
    path("<slug:series>/players/", views.players, name="players"),
    path("<slug:series>/players/<str:player>/", views.player_detail, name="player"),
    path("<slug:series>/<slug:season>/", views.season_detail, name="season"),
    path(
        "<slug:series>/<slug:season>/standings.<str:fmt>",
        views.standings_download,
        name="standings_download",
    ),
    # The season's system pages: resolved against the system's own URLconf (pages.urls).
    path("<slug:series>/<slug:season>/<path:rest>", views.season_page, name="season_page"),
]
