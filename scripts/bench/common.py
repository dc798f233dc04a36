"""Shared pieces of the benchmark (`make bench`): timing side by side, memory, the floor of an
import, page fetching. Imported by the harness and by each system's module in `systems/`."""

import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from competitions.models import Club, Player, Season, SeasonPlayer, Series


def timed(func: Callable[[], object]) -> float:
    """Seconds func takes, after a full collection (so that garbage of what ran before is not
    collected inside the timing). The app's own objects are frozen (clubsite.wsgi), so the
    collection walks only what the bench made since."""
    gc.collect()
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


# Runs of each side-by-side figure: recomputes and changes (each up to a second or two) 5 times,
# pages (tens of milliseconds, where a scheduler hiccup weighs most) 7 times; the median of 3
# let one slow request of a page near its target decide the figure.
RUNS = 5
PAGE_RUNS = 7


def side_by_side(a: Callable, b: Callable, runs: int = RUNS) -> tuple[float, float]:
    """Medians of `runs` timings of a and b, interleaved (a, b, a, b, ...), so the machine's
    noise hits both alike."""
    ta, tb = [], []
    for _ in range(runs):
        ta.append(timed(a))
        tb.append(timed(b))
    return statistics.median(ta), statistics.median(tb)


def peak_memory(func: Callable[[], object]) -> int:
    """Peak of the Python memory allocated while func runs, above what was allocated before."""
    gc.collect()
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    func()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return max(peak - base, 1)


def fetch(client: Client, path: str) -> tuple[int, int, int]:
    """(status, size of the body, queries) of one page."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    return response.status_code, len(response.content), len(queries)


@dataclass
class Base:
    """The shared rows of a season written by a bare bulk insert."""

    series: Series
    season: Season
    players: dict[str, Player]
    clubs: dict[str, Club]


def bulk_common(data: dict, *, series_slug: str) -> Base:
    """The floor of an import's shared part: the series, the season, clubs, players and season
    entries of a competition file, written with bulk_create and nothing else."""
    series = Series.objects.create(slug=series_slug, name=series_slug, system=data["system"])
    season = Season.objects.create(
        series=series,
        label=data["season"],
        name=data.get("name", data["season"]),
        settings=data.get("settings", {}),
        previous_participants=data.get("previous_participants", []),
    )
    clubs = {
        c.key: c
        for c in Club.objects.bulk_create(
            Club(series=series, key=c["id"], name=c["name"]) for c in data.get("clubs", [])
        )
    }
    players = {
        p.key: p
        for p in Player.objects.bulk_create(
            Player(
                series=series,
                key=p["id"],
                name=p["name"],
                club=clubs.get(p.get("club")),
            )
            for p in data["players"]
        )
    }
    SeasonPlayer.objects.bulk_create(
        SeasonPlayer(season=season, player=players[p["id"]], position=i, club=players[p["id"]].club)
        for i, p in enumerate(data["players"])
    )
    return Base(series=series, season=season, players=players, clubs=clubs)


def shared_pages(season, player_key: str) -> list[tuple[str, str]]:
    """The shared public pages of a season's series: its player index (first page
    and a search), one player's page, the season overview and its downloads."""
    from django.urls import reverse

    series = season.series.slug
    return [
        ("season", reverse("season", args=[series, season.slug])),
        ("players", reverse("players", args=[series])),
        ("players_search", reverse("players", args=[series]) + "?q=player+1"),
        ("player", reverse("player", args=[series, player_key])),
    ]


def shared_manage_pages(season) -> list[tuple[str, str]]:
    """The manager's pages every system has: the season's page, its settings, and the
    series' players."""
    from django.urls import reverse

    series = season.series.slug
    return [
        ("season", reverse("manage:season", args=[series, season.slug])),
        ("settings", reverse("manage:season_settings", args=[series, season.slug])),
        ("players", reverse("manage:players", args=[series])),
    ]
