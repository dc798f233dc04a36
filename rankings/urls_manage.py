"""The rankings app's manager page, below /manage/ (clubsite.urls includes it before the
competitions app's manager pages)."""

from django.urls import path

from . import manage

urlpatterns = [
    path(
        "<slug:series>/<slug:season>/recompute/", manage.season_recompute, name="season_recompute"
    ),
]
