from django.urls import path

from . import views
from .pagecache import public_page

# Every public page of a series is served from the page cache (rankings.pagecache) to
# anonymous visitors: the season pages of every system through season_detail and season_page.
urlpatterns = [
    path("", views.home, name="home"),
    path("help/", views.help_page, name="help"),
    path("<slug:series>/", views.series_detail, name="series"),
    path("<slug:series>/players/", public_page(views.players), name="players"),
    path("<slug:series>/players/<str:player>/", public_page(views.player_detail), name="player"),
    path("<slug:series>/<slug:season>/", public_page(views.season_detail), name="season"),
    path(
        "<slug:series>/<slug:season>/standings.<str:fmt>",
        public_page(views.standings_download),
        name="standings_download",
    ),
    # The season's system pages: resolved against the system's own URLconf (pages.urls).
    path(
        "<slug:series>/<slug:season>/<path:rest>",
        public_page(views.season_page),
        name="season_page",
    ),
]
