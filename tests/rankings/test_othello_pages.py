"""Othello GP public pages: they render the stored numbers, every number opens its computation,
odd names display safely, the "what if" page writes nothing, and query counts stay flat."""

import copy
import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competitions.models import Season
from rankings.imports import import_competition
from rankings.urls_helpers import season_url
from tests.helpers import count_queries, without_csrf
from tests.othello_files import gp_file

pytestmark = pytest.mark.django_db


@pytest.fixture
def gp():
    return import_competition(gp_file())


def page_urls(season: Season, tournament: str = "t1", player: str = "p1") -> list[str]:
    return [
        season_url(season),
        season_url(season, "tournament", tournament),
        season_url(season, "standings"),
        season_url(season, "whatif"),
        reverse("player", args=[season.series.slug, player]),
    ]


def html(client, url, **params) -> str:
    response = client.get(url, params)
    assert response.status_code == 200, url
    return response.content.decode()


def test_every_public_page_renders(client, gp):
    for url in [*page_urls(gp), reverse("help"), season_url(gp, "tournament", "t3")]:
        html(client, url)


def test_the_tournament_page_explains_every_number(client, gp):
    page = html(client, season_url(gp, "tournament", "t1"))
    assert "2088.3" in page and "15.3532" in page and "15, 8, 4, 2, 1, 0" in page
    # the rating entry -> Nordic-equivalent -> contribution chain
    assert "NR = 0.539 × 2100 + 172 = 1303.9" in page
    assert "r = max(rating − uncertainty, 1600) = 1600; NR = 0.539 × 1600 + 172 = 1034.4" in page
    assert "No rating (debutant): NR = 1000." in page
    assert "Adds max(0, 880 − 900) = 0 to the ranking sum." in page
    # M, x and the series
    assert "M = 0.004 × S + 7 = 0.004 × 2088.3 + 7 = 15.3532" in page
    assert "Place 1 gets g1 = floor(M) = floor(15.3532) = 15." in page
    assert "Place 3 gets g3 = floor(g2 · x) = floor(8 × x) = 4" in page
    assert "the largest whole number h with h^5 × 15.3532 ≤ 8^5" in page
    # the foreign participant: the place's points, received by nobody
    assert "This player plays for FR: only SE players receive points" in page
    assert re.search(r'<span class="text-body-secondary">\(4\)</span>', page)


def test_the_standings_page_marks_the_counted_results(client, gp, settings):
    Season.objects.filter(pk=gp.pk).update(settings={"best_n": 1})
    from rankings.services import season_recompute

    season_recompute(season_id=gp.pk, force=True)
    page = html(client, season_url(gp, "standings"))
    assert '<strong class="counted">16</strong>' in page  # p2 at t2 counted
    assert '<span class="text-body-secondary">(8)</span>' in page  # p2 at t1, not counted
    assert "The best 1 results count" in page
    csv = client.get(season_url(gp, "standings"), {"_export": "csv"}).content.decode()
    lines = csv.splitlines()
    # Each tournament's column is headed by its name and date, and marked where it counts.
    assert lines[0] == (
        "#,Player,GP points,Stockholm Open (2025-03-01),Stockholm Open: counted,"
        "Göteborg GP (2025-04-05),Göteborg GP: counted,Malmö GP,Malmö GP: counted"
    )
    assert lines[1] == "1,Björn Sandberg,16,8,,16,yes,,"


def test_the_overview_lists_tournaments_and_the_top(client, gp):
    page = html(client, season_url(gp))
    assert "Stockholm Open" in page and "Göteborg GP" in page
    assert "2088.3" in page and "15.35" in page
    assert "Björn Sandberg" in page


def test_what_if_recomputes_with_typed_coefficients_and_writes_nothing(client, gp):
    with CaptureQueriesContext(connection) as ctx:
        page = html(client, season_url(gp, "whatif"), a="0.01", b="7")
    writes = [q["sql"] for q in ctx.captured_queries if not q["sql"].lstrip().startswith("SELECT")]
    assert writes == []
    # t1: M = 0.01 * 2088.3 + 7 = 27.883 -> 27, 13, 6, 3, 1, 0; t2: M = 30.4699 -> 30, 5, 0
    assert "With M = 0.01 × S + 7:" in page
    assert "27, 13, 6, 3, 1, 0" in page and "15, 8, 4, 2, 1, 0" in page  # if and now
    assert "30, 5, 0" in page and "16, 3, 0" in page
    assert "27.88" in page and "30.47" in page


def test_what_if_computes_the_season_in_full_while_the_standings_are_behind(client, gp):
    # A result entered and not yet computed (a worker's queue, say): the stored tables are not
    # read for it, the season's placements are.
    Season.objects.filter(pk=gp.pk).update(data_version=gp.data_version + 1)
    page = html(client, season_url(gp, "whatif"), a="0.01", b="7")
    assert "27, 13, 6, 3, 1, 0" in page and "30, 5, 0" in page
    assert "27.88" in page and "30.47" in page


def test_what_if_follows_a_result_entered_since(client, gp, django_capture_on_commit_callbacks):
    from competitions.systems.othello.models import Placement

    first = html(client, season_url(gp, "whatif"), a="0.01", b="7")
    assert "27, 13, 6, 3, 1, 0" in first and "27.88" in first

    kept = html(client, season_url(gp, "whatif"), a="0.01", b="7")
    assert without_csrf(kept) == without_csrf(first)
    placement = Placement.objects.filter(tournament__key="t1", nordic__isnull=False).first()
    placement.nordic += 500  # the ranking sum S of t1 grows by 500: M = 0.01 × 2588.3 + 7
    with django_capture_on_commit_callbacks(execute=True):
        placement.save()
    again = html(client, season_url(gp, "whatif"), a="0.01", b="7")
    assert "32.88" in again and "27.88" not in again


@pytest.mark.parametrize(
    "params,message",
    [
        ({"a": "2", "b": "7"}, "less than or equal to 1"),
        ({"a": "0.004", "b": "1"}, "greater than or equal to 2"),
        ({"a": "abc", "b": "7"}, "Enter a number"),
        ({"a": "0.0000001", "b": "7"}, "no more than 6 decimal places"),
    ],
)
def test_what_if_refuses_inputs_out_of_bounds(client, gp, params, message):
    response = client.get(season_url(gp, "whatif"), params)
    assert response.status_code == 400
    assert message in response.content.decode()


def test_the_player_page_has_a_chart_with_the_table_s_numbers(client, gp):
    page = html(client, reverse("player", args=["swedish-gp", "p1"]))
    chart = json.loads(
        re.search(r'<script id="gp-chart-\d+" type="application/json">(.*?)</script>', page).group(
            1
        )
    )
    assert chart["labels"] == ["Stockholm Open", "Göteborg GP"]
    assert chart["datasets"][0]["data"] == [15, 3]
    assert page.count('src="/static/js/charts.js"') == 1
    assert 'src="/static/js/othello.js"' not in page  # explanations are placed by site.js
    # the points open the tournament's whole computation
    assert "Ranking sum S = sum of max(0, NR − 900) = 2088.3" in page
    assert "Factor x = M^(−1/(n−1)) = 15.3532^(−1/5) = 0.579109 (n = 6)" in page


def test_a_foreign_result_on_the_player_page(client, gp):
    page = html(client, reverse("player", args=["swedish-gp", "p3"]))
    chart = json.loads(re.search(r'type="application/json">(.*?)</script>', page).group(1))
    assert chart["datasets"][0]["data"] == [None, 0]


def test_unknown_pages_are_404(client, gp):
    assert client.get(season_url(gp, "tournament", "nope")).status_code == 404
    assert client.get(season_url(gp) + "nothing/").status_code == 404


ODD_NAMES = [
    "<script>alert('x')</script>",
    "A/B = C & D",
    "Νίκος Παπαδόπουλος",
    "李伟",
    "X" * 200,
]


def test_odd_names_display_safely(client):
    data = gp_file()
    for player, name in zip(data["players"], ODD_NAMES, strict=False):
        player["name"] = name
    data["tournaments"][0]["name"] = "<b>Open</b> / = 李"
    data["tournaments"][0]["id"] = "t.1_Ö-x"
    season = import_competition(data)
    urls = page_urls(season, tournament="t.1_Ö-x")
    for url in [*urls, season_url(season, "whatif") + "?a=0.004&b=7"]:
        page = client.get(url).content.decode()
        assert "<script>alert" not in page, url
        assert "<b>Open</b>" not in page, url
    page = html(client, season_url(season, "tournament", "t.1_Ö-x"))
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
    assert "Νίκος Παπαδόπουλος" in page and "X" * 200 in page


# --- query counts ------------------------------------------------------------------------------


def big_file(players: int) -> dict:
    data = gp_file()
    data["players"] += [{"id": f"x{i}", "name": f"Extra Player {i}"} for i in range(players)]
    data["tournaments"].append(
        {
            "id": "big",
            "name": "Big day",
            "date": "2025-05-01",
            "participants": [
                {
                    "player": f"x{i}",
                    "place": i + 1,
                    "country": "SE" if i % 3 else "FI",
                    "rating": {"nordic": 1000 + 10 * i},
                }
                for i in range(players)
            ],
        }
    )
    return copy.deepcopy(data)


# The page cache's key (rankings.pagecache): the series' seasons with their versions; the view
# finds its season and the season switcher's list among them.
SEASON = "the series' seasons with their series (the cache key, the season, the switcher)"
PLAYERS = "names of the players shown, and their clubs of this season"
EXPECTED_QUERIES = {
    "season": [
        SEASON,
        "the tournament tables",
        "their first rows",
        PLAYERS,  # the winners
        "the standings' first ten lines, with their names",
    ],
    "tournament": [
        SEASON,
        "the tournament's table",
        "how many lines it has",
        "a page of its lines, with their names",
    ],
    "standings": [
        SEASON,
        "the standings table",
        "the tournament names",
        "how many lines it has",
        "a page of its lines, with their names",
    ],
    "whatif": [
        SEASON,
        "the stored tables",
        "their rows",
        # S and who placed where come from the stored tables' data (their lines only for a
        # table stored before the data kept the order; the placements when they are behind)
        "the tournaments",
        PLAYERS,
    ],
    "player": [
        "the series' seasons with their versions (the page cache's key)",
        "the player with series and club",
        "all the player's rows with their tables",
        "the participants around the player in each GP tournament, with their names",
    ],
}


def test_page_query_counts_do_not_grow_with_players(client):
    small = import_competition(big_file(8))
    small_counts = [count_queries(client, url) for url in page_urls(small, "big", "x1")]
    large = import_competition(big_file(150), replace=True)
    large_counts = [count_queries(client, url) for url in page_urls(large, "big", "x1")]
    assert large_counts == small_counts
    assert large_counts == [len(queries) for queries in EXPECTED_QUERIES.values()]


def test_odd_data_stored_through_the_admin_still_renders(
    client, gp, django_capture_on_commit_callbacks
):
    """Rows a file would refuse but the database accepts: a gap in the places, a huge rating,
    a lower-case country, a provisional flag without an FFO rating."""
    from competitions.models import Tournament
    from competitions.systems.othello.models import Placement

    t2 = Tournament.objects.get(key="t2")
    with django_capture_on_commit_callbacks(execute=True):
        Placement.objects.filter(tournament=t2, player__key="p3").update(place=9)
        Placement.objects.filter(tournament=t2, player__key="p2").update(nordic=999999.99)
        placement = Placement.objects.get(tournament=t2, player__key="p1")
        placement.country, placement.nordic, placement.provisional = "se", None, True
        placement.save()
    for url in [*page_urls(gp, tournament="t2", player="p1"), season_url(gp, "whatif")]:
        html(client, url)
    page = html(client, season_url(gp, "tournament", "t2"))
    assert "Nordic 999999.99" in page and "debutant" in page


# --- long pages: one page of lines at a time ------------------------------------------------------


def test_a_long_tournament_and_the_standings_show_a_page_at_a_time(client):
    from rankings.systems.othello.views import PER_PAGE

    season = import_competition(big_file(120))
    url = season_url(season, "tournament", "big")
    first = html(client, url)
    assert first.count('<details class="explain">') >= 2 * PER_PAGE  # every number explains
    assert "Extra Player 0<" in first and f"Extra Player {PER_PAGE}<" not in first
    second = html(client, url, page=2)
    assert f"Extra Player {PER_PAGE}<" in second and "Extra Player 0<" not in second
    # the place's position in the series is kept across pages
    assert f"Place {PER_PAGE + 1} gets g{PER_PAGE + 1}" in second
    # a download has every line
    csv = client.get(url, {"_export": "csv"}).content.decode().splitlines()
    assert len(csv) == 1 + 120
    standings = html(client, season_url(season, "standings"))
    assert standings.count('class="counted"') <= PER_PAGE * 3
    rows = client.get(season_url(season, "standings"), {"_export": "csv"}).content.decode()
    assert len(rows.splitlines()) == 1 + len(document_rows(season))


def document_rows(season) -> list:
    from tests.helpers import document

    return document(season)["standings"]


def test_the_player_page_shows_the_lines_around_the_player(client):
    season = import_competition(big_file(120))
    page = html(client, reverse("player", args=[season.series.slug, "x60"]))
    for near in (58, 59, 61, 62):
        assert f"Extra Player {near}</bdi> <span" in page
    assert "Extra Player 10</bdi> <span" not in page
    assert "Extra Player 63</bdi> <span" not in page
    assert "All participants" in page
    assert season_url(season, "tournament", "big") in page
