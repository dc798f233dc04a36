"""Chess public pages: they render, every number explains itself, the crosstable downloads in
the federation's layout, strange names stay inert, and the query count does not grow."""

import copy
import io
import re

import openpyxl
import pytest
from django.urls import reverse

from competitions.models import Group
from rankings.imports import import_competition
from rankings.urls_helpers import season_url
from tests.chess_files import chess_file, played_chess_file
from tests.helpers import count_queries

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    return import_competition(played_chess_file())


def group_url(season, name: str = "Gruppe A", tournament: str = "klyve", name_kind="group"):
    group = Group.objects.get(name=name, tournament__key=tournament)
    return season_url(season, name_kind, tournament, group.pk)


def page_urls(season, group: str = "Gruppe A"):
    return [
        season_url(season),
        season_url(season, "tournament", "klyve"),
        group_url(season, name=group),
        season_url(season, "classes"),
        season_url(season, "class", "kadett"),
        reverse("player", args=["telemark-bgp", "a"]),
    ]


def test_every_public_page_renders(client, season):
    for url in [reverse("help"), *page_urls(season)]:
        response = client.get(url)
        assert response.status_code == 200, url


def test_the_crosstable_shows_the_federations_columns_and_explains_its_numbers(client, season):
    """The places' numbers (points, quality, Berger) come right after the name, before the
    birth year and the rounds: a phone shows them without scrolling (issue 46, item 5)."""
    html = client.get(group_url(season)).content.decode()
    headings = re.findall(r'<th[^>]*scope="col">\s*(.*?)\s*</th>', html, re.S)
    assert headings == [
        "Pl",
        "Name (class)",
        "Points",
        "M1",
        "M2",
        "Berger",
        "Born",
        "1",
        "2",
        "3",
        "4",
    ]
    assert "Anna Berg</bdi></a> <span" in html and "(Kadett)" in html
    assert "+H2" in html and "-WO" in html and "=S4" in html
    assert "3½" in html and "6½" in html
    # Anna's M1: her round-2 opponent Eva (1 point) is cut; the explanation names every term.
    assert '<details class="explain"><summary>6½</summary>' in html
    m1 = html.split("<summary>6½</summary>", 1)[1].split("</details>", 1)[0]
    assert "Left out: the lowest." in m1
    struck = re.findall(r'<tr class="text-decoration-line-through[^"]*"><td>(\d)</td>', m1)
    assert struck == ["2"]
    # Berger: "beat Bjørn Dahl (3): 3" and "drew with David Moen (2), half: 1".
    assert "beat <bdi>Bjørn Dahl</bdi> (3): 3" in html
    assert "drew with <bdi>David Moen</bdi> (2), half: 1" in html
    # The points: each round's result and its points.
    assert "walkover (WO)" in html and "forfeit loss" in html and "not played" in html


def test_the_crosstable_downloads_as_csv_and_xlsx(client, season):
    response = client.get(group_url(season), {"_export": "csv"})
    lines = response.content.decode().splitlines()
    assert lines[0] == "Pl,Name (class),Points,M1,M2,Berger,Born,1,2,3,4"
    # A cell that starts with + or = would run in a spreadsheet (+H2 is a formula): quoted.
    assert lines[1] == "1,Anna Berg (Kadett),3.5,6.5,7.5,6.5,2011,'+H2,'+S5,'=H3,'+H4"
    assert lines[3] == "3,David Moen (Kadett),2,5,5,2.5,2011,'=S4,WO,'=S1,"
    xlsx = client.get(group_url(season), {"_export": "xlsx"})
    assert xlsx["Content-Type"].startswith("application/vnd.openxmlformats")
    # The XLSX holds the cells as typed, as text cells (no apostrophe), the numbers as numbers.
    sheet = openpyxl.load_workbook(io.BytesIO(xlsx.content)).active
    rows = [[cell.value for cell in row] for row in sheet.iter_rows()]
    assert rows[1] == [
        1,
        "Anna Berg (Kadett)",
        3.5,
        6.5,
        7.5,
        6.5,
        2011,
        "+H2",
        "+S5",
        "=H3",
        "+H4",
    ]
    assert {cell.data_type for cell in sheet[2][7:11]} == {"s"}  # text, never a formula


def test_the_group_page_offers_xlsx_first_and_says_why_the_csv_quotes(client, season):
    html = client.get(group_url(season)).content.decode()
    assert html.index("_export=xlsx") < html.index("_export=csv")
    assert "In the CSV, a text starting with =, +, - or @ begins with an apostrophe" in html


def test_the_tournament_page_shows_bgp_points_per_class_with_their_reason(client, season):
    html = client.get(season_url(season, "tournament", "klyve")).content.decode()
    assert "Kadett" in html and "Lilleputt" in html and "Miniputt" in html
    assert "7 participants, the short scale: 20, 17, 15, 13, 11, 10, 9, 8, 7, 6" in html
    county = client.get(season_url(season, "tournament", "km")).content.decode()
    assert "Kretsmesterskap" in county
    assert "20 to each class winner, 10 to everyone else" in county


def test_the_class_standings_list_the_tournaments_that_counted(client, season):
    html = client.get(season_url(season, "classes")).content.decode()
    assert "Klyve BGP</bdi></a> 17 · <a" in html and "Kretsmesterskap</bdi></a> 20" in html
    csv = client.get(season_url(season, "class", "kadett"), {"_export": "csv"}).content.decode()
    assert csv.splitlines()[:2] == [
        "#,Player,Club,BGP points,Tournaments",
        '1,Bjørn Dahl,Skien Sjakklubb,37,"Klyve BGP 17, Kretsmesterskap 20"',
    ]


def test_the_player_page_shows_the_groups_and_bgp(client, season):
    html = client.get(reverse("player", args=["telemark-bgp", "b"])).content.decode()
    assert "Gruppe A" in html and "Alle" in html
    assert "<bdi>Kadett</bdi>: #1 with 37 BGP points" in html


def test_unknown_pages_are_404(client, season):
    group = Group.objects.get(name="Gruppe A")
    assert client.get(season_url(season, "tournament", "nope")).status_code == 404
    assert client.get(season_url(season, "group", "km", group.pk)).status_code == 404
    assert client.get(season_url(season, "group", "klyve", 99999)).status_code == 404
    assert client.get(season_url(season, "class", "senior")).status_code == 404


def test_strange_names_are_shown_inert(client):
    data = chess_file()
    strange = "<script>alert('x')</script> / = Ζωή 张伟 " + "y" * 150
    data["players"][0]["name"] = strange
    data["tournaments"][0]["groups"][0]["name"] = "A/B = <b>C</b>"
    data["tournaments"][0]["groups"][0]["players"][0]["class"] = "<i>K</i> 张"
    season = import_competition(data)
    for url in page_urls(season, group="A/B = <b>C</b>"):
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert "<script>alert" not in html and "<b>C</b>" not in html and "<i>K</i>" not in html


def big_file(players: int) -> dict:
    """A tournament with one group of `players`, three rounds, everybody playing."""
    data = chess_file()
    keys = [f"x{i}" for i in range(players)]
    data["players"] += [{"id": k, "name": f"Extra Player {k}"} for k in keys]
    rounds = []
    for r in range(3):
        order = keys[r:] + keys[:r]
        rounds.append(
            [
                {"white": order[i], "black": order[players - 1 - i], "result": "1-0"}
                for i in range(players // 2)
            ]
        )
    data["tournaments"].append(
        {
            "id": "big",
            "name": "Big",
            "date": "2026-03-01",
            "groups": [
                {
                    "name": "Stor",
                    "players": [{"player": k, "class": "Kadett", "born": 2011} for k in keys],
                    "rounds": rounds,
                }
            ],
        }
    )
    return data


# The queries of each public page for an anonymous visitor (no session), one comment each.
# The page cache's key (rankings.pagecache): the series' seasons with their versions; the view
# finds its season and the season switcher's list among them.
SEASON = "the series' seasons with their series (the cache key, the season, the switcher)"
TABLES = "the standings table(s) shown"
ROWS = "their rows, in rank order"
PLAYERS = "names and clubs of the players shown, and their clubs of this season"
EXPECTED_QUERIES = {
    "season": [SEASON, TABLES, ROWS, PLAYERS],
    "tournament": [SEASON, TABLES, ROWS, PLAYERS],
    "group": [SEASON, TABLES, ROWS, PLAYERS],
    "classes": [
        SEASON,
        TABLES,
        "each class's first lines, with their names and clubs",
        "the tournament names",
        "the groups whose BGP points are still to come (the tournaments' stored data)",
    ],
    "class": [
        SEASON,
        TABLES,
        "the tournament names",
        "how many lines the class has",
        "a page of its lines, with their names and clubs",
        "the groups whose BGP points are still to come (the tournaments' stored data)",
        "which of them have a player of the class (while groups are to come)",
    ],
    "player": [
        "the series' seasons with their versions (the page cache's key)",
        "the player with series and club",
        "all the player's rows with their tables",
    ],
}


def big_urls(season):
    return [
        season_url(season),
        season_url(season, "tournament", "big"),
        group_url(season, name="Stor", tournament="big"),
        season_url(season, "classes"),
        season_url(season, "class", "kadett"),
        reverse("player", args=["telemark-bgp", "x1"]),
    ]


def test_page_query_counts_do_not_grow_with_players(client):
    small = import_competition(big_file(8))
    small_counts = [count_queries(client, url) for url in big_urls(small)]
    large = import_competition(copy.deepcopy(big_file(70)), replace=True)
    large_counts = [count_queries(client, url) for url in big_urls(large)]
    assert large_counts == small_counts
    assert large_counts == [len(queries) for queries in EXPECTED_QUERIES.values()]


def test_with_seven_rounds_or_more_each_monrad_column_names_what_it_leaves_out(client):
    # The club's threshold set to 4 rounds: Anna's 4 rounds make three Monrad columns.
    season = import_competition(chess_file(settings={"monrad_long_from": 4}))
    html = client.get(group_url(season)).content.decode()
    row = html.split("Anna Berg</bdi></a>", 1)[1].split("</tr>\n", 1)[0]
    columns = re.findall(r"<summary>([^<]*)</summary>(.*?)</details>", row, re.S)
    monrad = [(shown, body) for shown, body in columns if "Left out" in body]
    assert [shown for shown, _body in monrad] == ["5", "6½", "7½"]

    def struck(body):
        return re.findall(r'<tr class="text-decoration-line-through[^"]*"><td>(\d)</td>', body)

    # Eva (1 point, round 2) and Cecilie (1½, round 4) are the two lowest.
    assert [struck(body) for _shown, body in monrad] == [["2", "4"], ["2"], []]


def test_a_tournament_with_a_result_to_come_says_its_bgp_points_are_provisional(client):
    """Its group Alle has a game without a result: no BGP points from it yet, and the page
    says why (issue 46)."""
    season = import_competition(chess_file())
    html = client.get(season_url(season, "tournament", "km")).content.decode()
    assert 'id="bgp-waiting"' in html
    assert "Provisional: group \u2068Alle\u2069 has rounds to play or results to come" in html
    played = client.get(season_url(season, "tournament", "klyve")).content.decode()
    assert 'id="bgp-waiting"' not in played


def test_the_season_bgp_standings_name_the_groups_whose_points_are_still_to_come(client):
    """The county championship's group Alle has a result to come: it gives no BGP points yet
    (8bb8b53), and the season's BGP standings say so, naming it with its tournament, linked
    to the tournament's page, which says the same (issue 46 item 3). A class page names it
    only when a player of that class is in it; once played, the note is gone."""
    season = import_competition(chess_file())
    note = "Provisional: these standings do not yet count the BGP points of groups with rounds"
    km = season_url(season, "tournament", "km")
    for url in (season_url(season, "classes"), season_url(season), class_url(season, "lilleputt")):
        html = client.get(url).content.decode()
        assert 'id="bgp-provisional"' in html, url
        assert note in html
        assert (
            f'<bdi>Alle</bdi> (<a class="alert-link" href="{km}"><bdi>Kretsmesterskap</bdi></a>)'
            in html
        )
        assert "Klyve BGP</a>" not in html  # played
    # Miniputt's players (Gruppe B of Klyve) are not in Alle.
    assert 'id="bgp-provisional"' not in client.get(class_url(season, "miniputt")).content.decode()

    played = import_competition(played_chess_file(), replace=True)
    for url in (season_url(played, "classes"), season_url(played), class_url(played, "lilleputt")):
        assert 'id="bgp-provisional"' not in client.get(url).content.decode(), url


def class_url(season, slug: str) -> str:
    return season_url(season, "class", slug)
