"""The players' GP what-if (issue 46, item 17): a place at the next GP, with a field, gives the
points, the new season total and the new rank that the engine gives for the season with that
tournament added; bad input is a clear 400, never a 500; nothing is written; the queries do
not grow with the players."""

from fractions import Fraction
from urllib.parse import urlencode

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competitions.models import Season
from competitions.systems.othello.settings import parse_settings
from rankings.engines import othello as engine
from rankings.imports import import_competition
from rankings.systems.othello import standings as gp_standings
from rankings.urls_helpers import season_url
from tests.helpers import count_queries
from tests.othello_files import gp_file
from tests.rankings.test_othello_pages import big_file

pytestmark = pytest.mark.django_db


@pytest.fixture
def gp():
    return import_competition(gp_file())


def url(season, **params) -> str:
    return season_url(season, "next") + ("?" + urlencode(params) if params else "")


def by_engine(season: Season, player: str, place: int, n: int, field: int):
    """The player's row of the season standings the engine gives with the next tournament
    added to the season's input (the player's rating entry of their latest tournament)."""
    gp = gp_standings.engine_settings(parse_settings(season.settings))
    tournaments, placements = gp_standings.load_season(season)
    season_in = gp_standings.season_input(tournaments, placements, gp)
    latest = [p for t in season_in.tournaments for p in t.participants if p.player == player][-1]
    nxt = engine.next_tournament(player, place, latest.country, latest.rating, n, Fraction(field))
    out = engine.compute_season(
        engine.SeasonIn(tournaments=(*season_in.tournaments, nxt), settings=gp)
    )
    rows = {r.player: r for r in out.standings}
    return out.tournaments[-1], rows[player], len(rows)


def test_a_place_at_the_next_gp_gives_points_total_and_rank_as_the_engine_does(client, gp):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url(gp, player="p1", place=1, participants=6, field=1400))
    assert response.status_code == 200
    writes = [q["sql"] for q in ctx.captured_queries if not q["sql"].lstrip().startswith("SELECT")]
    assert writes == []
    page = response.content.decode()
    tournament, row, players = by_engine(gp, "p1", 1, 6, 1400)
    # S = (1855.5 − 900) + 5 × (1400 − 900) = 3455.5; M = 0.004 × 3455.5 + 7 = 20.822: 20
    assert tournament.series[0] == 20 and (row.points, row.rank, players) == (38, 1, 6)
    assert "<bdi>Anna Lindqvist</bdi> at place 1 of 6" in page
    assert '<div class="next-gp-value next-gp-points"><details class="explain"><summary>20<' in page
    assert '<div class="next-gp-value next-gp-total"><details class="explain"><summary>38<' in page
    assert '<div class="next-gp-value next-gp-rank"><details class="explain"><summary>1<' in page
    assert "now 18" in page and "now 2 of 6" in page and "of 6 ·" in page
    # every number explains itself
    assert "Your NR (rating entry at <bdi>Göteborg GP</bdi>)" in page
    assert "Nordic rating: NR = 1855.5." in page
    assert "The other 5 players, each rated 1400, add 5 × max(0, 1400 − 900)" in page
    assert ">2500<" in page and ">3455.5<" in page and ">20.822<" in page
    assert "M = 0.004 × S + 7 = 0.004 × 3455.5 + 7 = 20.822" in page
    assert "Place 1 gets g1 = floor(M) = floor(20.822) = 20." in page
    assert "The best 5 results count:" in page
    assert "<strong>✔ 20</strong> <bdi>Next GP (place 1)</bdi>" in page
    assert "Total: 38" in page


def test_a_low_place_with_best_n_one_counts_nothing_and_the_rank_stays(client, gp):
    Season.objects.filter(pk=gp.pk).update(settings={"best_n": 1})
    from rankings.services import season_recompute

    season_recompute(season_id=gp.pk, force=True)
    gp.refresh_from_db()
    page = client.get(url(gp, player="p1", place=6, participants=6, field=1400)).content.decode()
    _t, row, _n = by_engine(gp, "p1", 6, 6, 1400)
    assert (row.points, row.rank) == (15, 2)
    assert "Not among the best 1 results: the total does not change." in page
    assert '<div class="next-gp-value next-gp-total"><details class="explain"><summary>15<' in page


def test_the_what_if_computes_in_full_while_the_standings_are_behind(client, gp):
    Season.objects.filter(pk=gp.pk).update(data_version=gp.data_version + 1)
    page = client.get(url(gp, player="p6", place=2, participants=40, field=1100)).content.decode()
    tournament, row, _n = by_engine(gp, "p6", 2, 40, 1100)
    assert f'next-gp-total"><details class="explain"><summary>{row.points}<' in page
    assert f'next-gp-rank"><details class="explain"><summary>{row.rank}<' in page
    assert f"<summary>{tournament.series[1]}<" in page


def test_a_player_without_a_tournament_is_a_debutant_of_the_series_country(client, gp):
    from competitions.models import Player

    Player.objects.create(series=gp.series, key="p9", name="Nova Berg")
    page = client.get(url(gp, player="p9", place=1, participants=2, field=900)).content.decode()
    # S = 1000 − 900 = 100: M = 7.4: 7, 1
    assert "Your NR (no tournament yet: a debutant)" in page
    assert "No rating (debutant): NR = 1000." in page
    assert '<div class="next-gp-value next-gp-total"><details class="explain"><summary>7<' in page
    assert "no points yet" in page and "not ranked yet" in page


def test_the_form_starts_with_the_last_tournament_s_field_and_the_linked_player(client, gp):
    page = client.get(url(gp, player="p2")).content.decode()
    assert '<option value="p2" selected>Björn Sandberg (p2)</option>' in page
    # Göteborg GP: 3 players, S = 1090 + 955.5 + 0.539 × 1910 + 172 − 900 = 2346.99: 900 + S / 3
    assert 'name="participants" value="3"' in page
    assert 'name="field" value="1682"' in page
    assert "next-gp-result" not in page


def test_the_standings_and_the_player_page_link_to_it(client, gp):
    standings = client.get(season_url(gp, "standings")).content.decode()
    assert f'href="{season_url(gp, "next")}"' in standings
    player = client.get(reverse("player", args=["swedish-gp", "p1"])).content.decode()
    assert f'href="{season_url(gp, "next")}?player=p1"' in player


@pytest.mark.parametrize(
    "params,message",
    [
        (
            {"player": "p1", "place": "7", "participants": "6", "field": "1400"},
            "Place 7, but the field has 6 players (places 1 to 6).",
        ),
        (
            {"player": "nobody", "place": "1", "participants": "6", "field": "1400"},
            "Select a valid choice. nobody is not one of the available choices.",
        ),
        ({"place": "1", "participants": "6", "field": "1400"}, "This field is required."),
        (
            {"player": "p1", "place": "x", "participants": "6", "field": "1"},
            "Enter a whole number.",
        ),
        (
            {"player": "p1", "place": "1", "participants": "0", "field": "1400"},
            "Ensure this value is greater than or equal to 1.",
        ),
        (
            {"player": "p1", "place": "1", "participants": "1001", "field": "1400"},
            "Ensure this value is less than or equal to 1000.",
        ),
        (
            {"player": "p1", "place": "1", "participants": "6", "field": "-1"},
            "Ensure this value is greater than or equal to 0.",
        ),
        (
            {"player": "p1", "place": "1", "participants": "6", "field": "5001"},
            "Ensure this value is less than or equal to 5000.",
        ),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(client, gp, params, message):
    response = client.get(season_url(gp, "next"), params)
    assert response.status_code == 400
    page = response.content.decode()
    assert message in page
    assert "next-gp-result" not in page


ODD = ["", " ", "x", "-1", "0", "1.5", "1e9", "NaN", "Infinity", "１", "9" * 400, "<b>", "p1"]


def test_no_input_gives_a_server_error(client, gp):
    for field in ("player", "place", "participants", "field"):
        for value in ODD:
            params = {"player": "p1", "place": "1", "participants": "6", "field": "1400"}
            params[field] = value
            response = client.get(season_url(gp, "next"), params)
            assert response.status_code in (200, 400), (field, value)
            assert "<b>" not in response.content.decode().split("</header>")[-1], (field, value)


EXPECTED_QUERIES = [
    "the series' seasons with their versions (the page cache's key, the season)",
    "the series' players (the choice of a player)",
    "the stored tables (the suggested field; the season's results)",
    "the player's latest placement with its tournament (rating entry and country)",
    "the tournaments (are the stored tables those of the season?)",
]


def test_the_query_count_does_not_grow_with_players(client):
    small = import_competition(big_file(8))
    params = {"player": "x1", "place": 3, "participants": 30, "field": 1500}
    small_count = count_queries(client, url(small, **params))
    large = import_competition(big_file(150), replace=True)
    assert count_queries(client, url(large, **params)) == small_count == len(EXPECTED_QUERIES)
    assert count_queries(client, url(large)) == 3  # the form alone: no season computed
