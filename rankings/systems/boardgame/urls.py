"""Board-game public pages, below /<series>/<season>/ (see competitions.dispatch)."""

from django.urls import path

from . import views

urlpatterns = [
    path("tournaments/<str:tournament>/", views.tournament_detail, name="tournament"),
    path("tournaments/<str:tournament>/live/", views.tournament_live, name="tournament_live"),
    path("yearly/", views.yearly, name="yearly"),
    path("ludo/", views.ludo, name="ludo"),
    path("games/", views.games, name="games"),
    path("games/<slug:game>/", views.game_detail, name="game"),
]
