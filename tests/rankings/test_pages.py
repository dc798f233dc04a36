"""Public pages: they render, they show the stored numbers, and their query count is flat."""

import copy

import pytest
from django.db import connection
from django.urls import reverse

from rankings.imports import import_competition
from rankings.urls_helpers import season_url
from tests.helpers import count_queries

pytestmark = pytest.mark.django_db


def big_file(circuit_file, players: int):
    """The fixture's file with many more players at 4-player tables in one tournament."""
    data = copy.deepcopy(circuit_file)
    data["players"] += [
        {"id": f"x{i}", "name": f"Extra Player {i}", "club": "c1" if i % 2 else "c2"}
        for i in range(players)
    ]
    ids = [f"x{i}" for i in range(players)]
    tables = [
        {
            "game": "Catan" if n % 2 else "Azul",
            "results": [{"player": pid, "rank": r + 1} for r, pid in enumerate(ids[n : n + 4])],
        }
        for n in range(0, players - players % 4, 4)
    ]
    data["tournaments"].append(
        {"id": "big", "name": "Big day", "date": "2025-05-01", "rounds": [{"tables": tables}]}
    )
    return data


def page_urls(season, tournament="t1"):
    return [
        season_url(season),
        season_url(season, "tournament", tournament),
        season_url(season, "yearly"),
        season_url(season, "ludo"),
        season_url(season, "games"),
        season_url(season, "game", "catan"),
        reverse("player", args=[season.series.slug, "p1"]),
    ]


def test_every_public_page_renders(client, season):
    for url in [reverse("home"), reverse("help"), *page_urls(season)]:
        response = client.get(url)
        assert response.status_code == 200, url


def test_tournament_page_shows_scores_ceremony_and_bonus(client, season):
    response = client.get(season_url(season, "tournament", "t1"))
    html = response.content.decode()
    # An Peeters: 104.5 at Catan (1st of 4) + 0 at Carcassonne (2nd of 2): daily 104.50
    assert "104.50" in html and "50.25" in html
    assert "Day winner" in html and "Best club" in html
    assert "An Peeters" in html and "Spelclub Mechelen" in html


def test_yearly_page_names_counted_tournaments(client, season):
    html = client.get(season_url(season, "yearly")).content.decode()
    # An Peeters played all three (each name isolated, competitions.text.isolated)
    assert "<bdi>Mechelen</bdi>, <bdi>Gent</bdi>, <bdi>Final</bdi>" in html


def test_unknown_pages_are_404(client, season):
    assert client.get("/belgian-circuit/2031/").status_code == 404
    assert client.get(season_url(season, "tournament", "nope")).status_code == 404
    assert client.get(season_url(season, "game", "chess")).status_code == 404
    assert client.get("/belgian-circuit/2025/standings.exe").status_code == 404


@pytest.mark.parametrize(
    "fmt,content_type",
    [
        ("csv", "text/csv"),
        ("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    ],
)
def test_tables_download_as_csv_and_spreadsheet(client, season, fmt, content_type):
    response = client.get(season_url(season, "yearly"), {"_export": fmt})
    assert response.status_code == 200
    assert response["Content-Type"].startswith(content_type)
    if fmt == "csv":
        lines = response.content.decode().splitlines()
        assert lines[0].startswith("#,Player")
        assert len(lines) == 1 + 5  # five players in the yearly ranking


def test_season_downloads(client, season):
    json_response = client.get(
        reverse("standings_download", args=["belgian-circuit", "2025", "json"])
    )
    assert json_response.json()["tournaments"][0]["id"] == "t1"
    zip_response = client.get(
        reverse("standings_download", args=["belgian-circuit", "2025", "zip"])
    )
    assert zip_response["Content-Type"] == "application/zip"
    assert zip_response.content[:2] == b"PK"


# The queries of each public page for an anonymous visitor (no session), one comment each.
# The page cache's key (rankings.pagecache): the series' seasons with their versions; the view
# finds its season and the season switcher's list among them.
SEASON = "the series' seasons with their series (the cache key, the season, the switcher)"
TABLES = "the standings table(s) shown"
ROWS = "their rows, in rank order"
PLAYERS = "names and clubs of the players shown, and their clubs of this season"
NAMES = "the tournament names (the counted tournaments, explained)"
# PostgreSQL only: SQLite picks the tables shown out of the tournament's data read whole.
PG_TABLES_SHOWN = (
    "the tables shown and those of the lines shown (their daily totals' explanations), "
    "by position (PostgreSQL: read out of the stored data)"
)

COUNT = "how many lines the ranking has (its pages)"
PAGE = "a page of the ranking's lines, in the order asked, with their names and clubs"

EXPECTED_QUERIES = {
    "season": [SEASON, TABLES, "the tournaments' leaders", PLAYERS, PAGE],
    "tournament": [
        SEASON,
        "the tournament's data without its tables (where each round's tables are)",
        "none of its lines (the daily ranking reads its own page)",
        COUNT,
        PAGE,
        PG_TABLES_SHOWN,
        PLAYERS,
        "the club names (interclub)",
    ],
    "yearly": [SEASON, NAMES, COUNT, PAGE],
    "ludo": [SEASON, TABLES, COUNT, PAGE],
    "games": [SEASON, TABLES, ROWS, PLAYERS],
    "game": [SEASON, TABLES, NAMES, COUNT, PAGE],
    "player": [
        "the series' seasons with their versions (the page cache's key)",
        "the player with series and club",
        "all the player's rows with their tables",
    ],
}


def test_page_query_counts_do_not_grow_with_players(client, circuit_file):
    small = import_competition(big_file(circuit_file, 8))
    small_counts = [count_queries(client, url) for url in page_urls(small, "big")]
    large = import_competition(big_file(circuit_file, 120), replace=True)
    large_counts = [count_queries(client, url) for url in page_urls(large, "big")]
    assert large_counts == small_counts
    postgresql = connection.vendor == "postgresql"
    assert large_counts == [
        len([q for q in queries if postgresql or q != PG_TABLES_SHOWN])
        for queries in EXPECTED_QUERIES.values()
    ]
