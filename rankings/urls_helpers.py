"""URLs of the public pages: shared ones, and a system's pages below its season."""

from collections.abc import Callable

from django.urls import reverse

from competitions.dispatch import system_url
from competitions.links import key_urls
from competitions.models import Season
from competitions.registry import get_system


def season_url(season: Season, name: str = "", *args, **kwargs) -> str:
    """The season overview, or the system's public page `name` of the season."""
    base = reverse("season", args=[season.series.slug, season.slug])
    if not name:
        return base
    pages = get_system(season.system).pages
    urls = (pages.urls,) if pages is not None and pages.urls else ()
    return system_url(base, urls, name, *args, **kwargs)


def player_url(series_slug: str, key: str) -> str:
    return reverse("player", args=[series_slug, key])


def player_urls(series_slug: str) -> Callable[[str], str]:
    """key -> the player's page, as `player_url` makes it, without a reverse() per player (a
    page that lists 2000 players)."""
    return key_urls("player", series_slug)
