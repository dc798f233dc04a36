from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("help/", views.help_page, name="help"),
    path("<slug:series>/", views.series_detail, name="series"),
    path("<slug:series>/players/<str:player>/", views.player_detail, name="player"),
    path("<slug:series>/<str:season>/", views.season_detail, name="season"),
    path("<slug:series>/<str:season>/yearly/", views.yearly, name="yearly"),
    path("<slug:series>/<str:season>/ludo/", views.ludo, name="ludo"),
    path("<slug:series>/<str:season>/games/", views.games, name="games"),
    path("<slug:series>/<str:season>/games/<str:game>/", views.game_detail, name="game"),
    path(
        "<slug:series>/<str:season>/tournaments/<str:tournament>/",
        views.tournament_detail,
        name="tournament",
    ),
    path(
        "<slug:series>/<str:season>/standings.<str:fmt>",
        views.standings_download,
        name="standings_download",
    ),
]
