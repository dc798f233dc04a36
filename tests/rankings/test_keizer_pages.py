"""Keizer standings and public pages: the stored lists and the export document (checked by hand),
every number explained on the page, odd names displayed safely, flat query counts."""

import io
import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from rankings.imports import import_competition
from rankings.selectors import standings_document
from rankings.urls_helpers import season_url
from tests.helpers import count_queries
from tests.keizer_data import generated_file, small_file

pytestmark = pytest.mark.django_db

# The small file by hand (n = 6: values 8, 7, 6, 5, 4, 3; start points p4 4 and p6 2.5 set,
# the others their place's value).
# Round 1, valued with the initial list: p1 7, p2 8/6, p3 5/2, p4 3, p5 bye 8/3, p6 0; keys add
# 9/10 of the start points: p1 14.2, p3 7.9, p2 7.63, p4 6.6, p5 6.27, p6 2.25.
# Round 2, everything valued with that list (p1 8, p3 7, p2 6, p4 5, p5 4, p6 3):
# p1 6 + 0 (forfeit loss) = 6; p2 8/6 + 7/6 = 5/2; p3 5/2 + 6 = 17/2; p4 7/2 + 8 (forfeit win)
# = 23/2; p5 8/3 + 2 (absent) = 14/3; p6 0. Keys add 8/10 of the start points.
STANDINGS = [
    {"player": "p4", "rank": 1, "score": 11.5, "value": 8},
    {"player": "p3", "rank": 2, "score": 8.5, "value": 7},
    {"player": "p1", "rank": 3, "score": 6, "value": 6},
    {"player": "p2", "rank": 4, "score": 2.5, "value": 5},
    {"player": "p5", "rank": 5, "score": 14 / 3, "value": 4},
    {"player": "p6", "rank": 6, "score": 0, "value": 3},
]


@pytest.fixture
def season():
    return import_competition(small_file())


def test_the_export_document_has_the_list_after_every_round(season):
    doc = standings_document(season=season)
    assert [r["number"] for r in doc["rounds"]] == [0, 1, 2]
    assert doc["rounds"][0]["ranking"][3:5] == [
        {"player": "p4", "rank": 4, "score": 0, "key": 4, "value": 5},
        {"player": "p5", "rank": 5, "score": 0, "key": 4, "value": 4},  # tie: initial order
    ]
    assert [r["player"] for r in doc["rounds"][1]["ranking"]] == [
        "p1",
        "p3",
        "p2",
        "p4",
        "p5",
        "p6",
    ]
    assert doc["rounds"][1]["ranking"][0] == {
        "player": "p1",
        "rank": 1,
        "score": 7,
        "key": pytest.approx(14.2, abs=1e-12),
        "value": 8,
    }
    assert doc["standings"] == [
        {**row, "score": pytest.approx(row["score"], abs=1e-12)} for row in STANDINGS
    ]
    assert doc["rounds"][2]["ranking"][0]["key"] == pytest.approx(11.5 + 0.8 * 4, abs=1e-12)


def test_export_standings_command_json_and_csv(season):
    out = io.StringIO()
    call_command("export_standings", "de-toren", "2025-2026", stdout=out)
    assert json.loads(out.getvalue()) == standings_document(season=season)


def test_a_closed_season_ends_with_the_list_without_start_points():
    data = small_file()
    data["rounds"].pop()
    data["closed"] = True
    season = import_competition(data)
    doc = standings_document(season=season)
    assert [r["key"] for r in doc["rounds"][-1]["ranking"]] == [
        r["score"] for r in doc["rounds"][-1]["ranking"]
    ]
    assert [r["player"] for r in doc["standings"]] == ["p4", "p3", "p1", "p5", "p2", "p6"]


def page_urls(season):
    return [
        season_url(season),
        season_url(season, "list", 0),
        season_url(season, "list", 1),
        season_url(season, "rounds"),
        season_url(season, "round", 1),
        season_url(season, "round", 3),
        reverse("player", args=[season.series.slug, "p1"]),
        reverse("help"),
    ]


def test_every_page_renders(client, season):
    for url in page_urls(season):
        assert client.get(url).status_code == 200, url
    assert client.get(season_url(season, "list", 3)).status_code == 404
    assert client.get(season_url(season, "round", 4)).status_code == 404
    assert client.get(f"{season_url(season)}rounds/x/").status_code == 404


def test_a_score_opens_its_breakdown(client, season):
    html = client.get(season_url(season)).content.decode()
    # p4's score after round 2: drew with Bram Visser (value 7 in the list after round 1) and
    # won by forfeit against Jan de Vries (8).
    assert '<details class="explain"><summary>11.50</summary>' in html
    assert "drew with <a" in html and "won by forfeit against <a" in html
    assert "Bram Visser</bdi></a>" in html
    assert "the list after round 1, the list round 2 was paired from" in html
    assert "Start points 4 × weight 0.8 = 3.20. Ranking key = 11.50 + 3.20 = 14.70." in html
    # In Dutch every number of the sentence has a decimal comma, the weight too ("0.8" before).
    dutch = client.get(season_url(season), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "4 × gewicht 0,8 = 3,20. Rangscore = 11,50 + 3,20 = 14,70." in dutch


def test_the_evening_page_shows_pairings_results_and_who_did_what(client, season):
    html = client.get(season_url(season, "round", 2)).content.decode()
    assert "Anouk Bakker" in html and "0-1" in html and "manual pair" in html
    assert "Absent with notice" in html and "Henk Mulder" in html
    waiting = client.get(season_url(season, "round", 3)).content.decode()
    assert "Attendance taken, not paired yet" in waiting and "Late Entrant" in waiting


def test_lists_and_evenings_link_to_the_next_one_only_where_it_is_stored(client, season):
    """A list or an evening page reads only what it shows (the list after round k reads
    rounds 1..k): its "next" link is there only when the next list or evening is stored."""

    def page(*parts):
        response = client.get(season_url(season, *parts))
        assert response.status_code == 200
        return response.content.decode()

    after_1 = page("list", 1)
    assert f'href="{season_url(season, "list", 2)}"' in after_1
    # p1's score after round 1: won against Bram Visser, nothing of round 2 yet.
    assert "Score after round 1" in after_1 and "won against <a" in after_1
    assert "lost by forfeit to" not in after_1  # p1's round 2
    assert f'href="{season_url(season, "list", 3)}"' not in page("list", 2)
    assert f'href="{season_url(season, "round", 2)}"' in page("round", 1)
    assert f'href="{season_url(season, "round", 3)}"' in page("round", 2)
    assert f'href="{season_url(season, "round", 4)}"' not in page("round", 3)


def test_the_player_page_has_every_game_colours_and_the_rank_chart(client, season):
    html = client.get(reverse("player", args=["de-toren", "p1"])).content.decode()
    assert "lost by forfeit to" in html and "won against" in html
    assert 'data-chart="keizer-rank-' in html and "chart.umd.min.js" in html
    assert '"reverse": true' in html  # rank 1 at the top
    assert "W B" in html  # white in round 1, black in round 2


def test_a_players_places_are_read_from_every_list(season):
    """player_places gives the player's line of each list: its place, score and value, for
    every player (one who is in no list: none)."""
    from rankings.models import StandingsTable
    from rankings.systems.keizer.selectors import player_places

    lists = list(StandingsTable.objects.filter(season=season, kind="list").order_by("position"))
    assert len(lists) > 1
    keys = {line[0] for t in lists for line in t.data["ranking"]}
    for key in sorted(keys) + ["nobody", "p1' OR '1'='1"]:
        expected = [
            {
                "after": t.position,
                "rank": i + 1,
                "score": line[1],
                "value": t.data["top"] - t.data["step"] * i,
            }
            for t in lists
            for i, line in enumerate(t.data["ranking"])
            if line[0] == key
        ]
        assert player_places(season, key) == expected, key
    assert any(isinstance(p["score"], float) for k in keys for p in player_places(season, k))


def test_the_evenings_of_some_players_are_picked_out_of_every_evening(season):
    """evenings_of gives each played evening with only the games and attendance of the
    players asked for; an evening not played yet whole. Also for evenings stored with their
    games as objects (before they were stored as arrays), and for some evenings only."""
    from rankings.models import StandingsTable
    from rankings.systems.keizer import selectors, standings

    def expected(players, numbers=None):
        found = selectors.round_tables(season, numbers)
        for t in found:
            if t.data.get("counted"):
                t.data = standings.only_players(t.data, set(players))
        return [(t.key, t.position, t.data) for t in found]

    def got(players, numbers=None):
        found = selectors.evenings_of(season, players, numbers)
        return [(t.key, t.position, t.data) for t in found]

    cases = [[], ["p1"], ["p4", "p5"], ["p2", "p6", "nobody"], ["p1' OR '1'='1"]]
    for players in cases:
        assert got(players) == expected(players), players
        assert got(players, [2, 3]) == expected(players, [2, 3]), players
    one = got(["p5"])
    assert [len(data["games"]) for _k, _p, data in one] == [0, 0, 0]
    assert one[0][2]["bye"] == ["p5"] and one[1][2]["absent"] == ["p5"]
    assert one[2][2]["present"] == ["p1", "p3", "p4", "p5", "p6"]  # evening 3: not played
    assert got(["p1"])[1][2]["games"] == [
        {"board": 2, "white": "p4", "black": "p1", "result": "+-", "manual": False}
    ]
    # More players than a page shows (a download): the evenings whole.
    many = [f"x{i}" for i in range(selectors.PICK_UP_TO)] + ["p1"]
    assert got(many) == [(t.key, t.position, t.data) for t in selectors.round_tables(season)]
    # Evenings stored with their games as objects.
    for t in StandingsTable.objects.filter(season=season, kind="round"):
        t.data = standings.evening_data(t.data)
        t.save(update_fields=["data"])
    stored = StandingsTable.objects.filter(season=season, kind="round").order_by("position")
    assert isinstance(stored[0].data["games"][0], dict)
    for players in cases:
        assert got(players) == expected(players), players


ODD_NAMES = [
    "A/B = C",
    "<script>alert(1)</script>",
    "Γιώργος Παπαδόπουλος",
    "王小明",
    "x" * 200,
]


def test_odd_names_display_safely(client):
    data = small_file()
    for player, name in zip(data["players"], ODD_NAMES, strict=False):
        player["name"] = name
    season = import_competition(data)
    for url in page_urls(season):
        response = client.get(url)
        assert response.status_code == 200, url
        assert b"<script>alert(1)</script>" not in response.content


# The page cache's key (rankings.pagecache): the series' seasons with their versions; the view
# finds its season and the season switcher's list among them.
SEASON = "the series' seasons with their series (the cache key, the season, the switcher)"
EVENINGS = "its stored evenings"
PLAYERS = "names and clubs of the players shown, and their clubs of this season"
EXPECTED_QUERIES = {
    "overview": [SEASON, "the newest two lists", EVENINGS, PLAYERS],
    "list": [
        SEASON,
        "the list shown, the one before and the one after",
        EVENINGS,
        PLAYERS,
    ],
    "evenings": [SEASON, EVENINGS],
    "evening": [SEASON, EVENINGS, "the list it was paired from", PLAYERS],
    "player": [
        "the series' seasons with their versions (the page cache's key)",
        "the player with series and club",
        "all the player's rows with their tables",
        "the newest two lists",
        "his place in every list",
        EVENINGS,
        PLAYERS,
    ],
}


def test_page_query_counts_do_not_grow_with_players(client):
    def urls(season):
        return [
            season_url(season),
            season_url(season, "list", 3),
            season_url(season, "rounds"),
            season_url(season, "round", 3),
            reverse("player", args=[season.series.slug, "p2"]),
        ]

    small = import_competition(generated_file(8, 6, series="small"))
    large = import_competition(generated_file(60, 6, series="large"))
    small_counts = [count_queries(client, url) for url in urls(small)]
    large_counts = [count_queries(client, url) for url in urls(large)]
    assert large_counts == small_counts
    assert large_counts == [len(queries) for queries in EXPECTED_QUERIES.values()]


def test_the_ranking_downloads_as_csv(client, season):
    response = client.get(season_url(season), {"_export": "csv"})
    lines = response.content.decode().splitlines()
    assert lines[0].startswith("#,Player,Score,Value,Games")
    assert lines[1].startswith("1,Eva Smit,11.5,8,1")


def test_long_lists_and_evenings_are_paginated_and_download_whole(client):
    from rankings.systems.keizer.views import PER_PAGE, WHOLE

    players = WHOLE + 30
    season = import_competition(generated_file(players, 2, series="big"))
    first = client.get(season_url(season)).content.decode()
    assert first.count('class="explain"') == 3 * PER_PAGE  # score, value and key per line
    assert "?page=2" in first
    pages = -(-players // PER_PAGE)
    last = client.get(season_url(season), {"page": pages}).content.decode()
    assert last.count('class="explain"') == 3 * (players - (pages - 1) * PER_PAGE)
    evening = client.get(season_url(season, "round", 1)).content.decode()
    assert evening.count("<tr") <= WHOLE + 2  # games of an evening: a club's evening whole
    csv = client.get(season_url(season), {"_export": "csv"}).content.decode()
    assert len(csv.strip().splitlines()) == 1 + players
    # An explanation names every opponent, also those on another page of the list.
    links = re.findall(r'<a href="/big/players/(p\d+)/"><bdi>([^<]*)</bdi></a>', first)
    assert len({key for key, _name in links}) > PER_PAGE
    assert all(name == f"Player {key}" for key, name in links), links
    club = import_competition(generated_file(WHOLE, 2, series="club-size"))
    whole = client.get(season_url(club)).content.decode()
    assert whole.count('class="explain"') == 3 * WHOLE and "?page=2" not in whole
