"""Chess pages of a large field show a page of rows at a time (a crosstable, a class of a
tournament's BGP points, a class's standings) or each class's leaders (all classes); downloads
still hold every row, and the query counts stay those of a small field."""

import copy
import re

import pytest

from rankings.imports import import_competition
from rankings.systems.chess import views
from rankings.urls_helpers import season_url
from tests.helpers import without_csrf
from tests.rankings.test_chess_pages import big_file, big_urls, count_queries, group_url

pytestmark = pytest.mark.django_db


def rows(html: str) -> int:
    """The rows of a table (explanations hold tables of their own): of the crosstable by its
    round cells (three rounds), of a BGP table by its links to groups."""
    cells = html.count('class="cell text-center')
    return cells // 3 if cells else html.count("/groups/")


@pytest.fixture
def big():
    return import_competition(copy.deepcopy(big_file(130)))


def test_the_crosstable_shows_a_page_of_rows_and_downloads_every_row(client, big):
    url = group_url(big, name="Stor", tournament="big")
    first = client.get(url).content.decode()
    assert rows(first) == views.GROUP_PER_PAGE
    assert "?page=2" in first
    pages = -(-130 // views.GROUP_PER_PAGE)
    last = client.get(url, {"page": pages}).content.decode()
    assert rows(last) == 130 - (pages - 1) * views.GROUP_PER_PAGE
    # A page out of range shows the last one, as django-tables2 does; per_page stays.
    assert rows(client.get(url, {"page": 99, "per_page": 500}).content.decode()) == rows(last)
    csv = client.get(url, {"_export": "csv"}).content.decode().splitlines()
    assert len(csv) == 1 + 130


def test_a_crosstable_page_explains_its_numbers_with_the_opponents_of_other_pages(client, big):
    html = client.get(group_url(big, name="Stor", tournament="big"), {"page": 5}).content.decode()
    # Every opponent named in the explanations by name (a name not looked up shows its key).
    assert "<summary>" in html
    assert not re.findall(r"<td>x\d+</td>", html)


def test_the_classes_page_shows_each_class_s_leaders_and_links_to_all(client, big):
    html = client.get(season_url(big, "classes")).content.decode()
    kadett = html.split(">Kadett<", 1)[1].split('class="card shadow-sm"', 1)[0]
    assert kadett.count("<tr") - 1 <= views.CLASS_PREVIEW + 1
    assert "All 133 players" in kadett  # the big group's 130 and three of the small file


def test_the_class_page_and_tournament_classes_paginate(client, big):
    html = client.get(season_url(big, "class", "kadett")).content.decode()
    assert "?page=2" in html
    tournament = client.get(season_url(big, "tournament", "big")).content.decode()
    assert "kadett-page=2" in tournament
    second = client.get(season_url(big, "tournament", "big"), {"kadett-page": 2}).content.decode()
    kadett = second.split(">Kadett<", 1)[1]
    assert rows(kadett.split("</table>", 1)[0]) == views.BGP_PER_PAGE


def test_query_counts_of_a_paginated_field_equal_those_of_a_small_one(client):
    small = import_competition(big_file(8))
    small_counts = [count_queries(client, url) for url in big_urls(small)]
    large = import_competition(copy.deepcopy(big_file(130)), replace=True)
    assert [count_queries(client, url) for url in big_urls(large)] == small_counts
    pages = [
        group_url(large, name="Stor", tournament="big") + "?page=2",
        season_url(large, "class", "kadett") + "?page=2",
        season_url(large, "tournament", "big") + "?kadett-page=3",
    ]
    assert [count_queries(client, url) for url in pages] == [
        small_counts[2],
        small_counts[4],
        small_counts[1],
    ]


def test_a_crosstable_stored_before_the_compact_rows_still_shows(client):
    from rankings.models import StandingsRow
    from tests.chess_files import chess_file

    season = import_competition(chess_file())
    for row in StandingsRow.objects.filter(season=season, table__kind="group"):
        d = row.detail
        d["results"] = [
            {"kind": k, "points": 0, "opponent": o, "colour": None}
            for k, o in zip(d.pop("kinds"), d.pop("opponents"), strict=True)
        ]
        d["terms"] = [
            {"round": n, "opponent": r["opponent"], "value": v, "cut": c}
            for n, (r, v, c) in enumerate(
                zip(d["results"], d["terms"], d.pop("cuts"), strict=True), 1
            )
        ]
        d["berger_terms"] = []
        row.save()
    response = client.get(group_url(season))
    assert response.status_code == 200
    assert "Anna Berg" in response.content.decode()


def test_a_tournament_stored_before_the_class_index_still_shows_every_class(client, big):
    from rankings.models import StandingsTable

    url = season_url(big, "tournament", "big")
    indexed = client.get(url, {"kadett-page": 2}).content.decode()
    table = StandingsTable.objects.get(season=big, kind="bgp", key="big")
    del table.data["classes"]
    table.save()
    again = client.get(url, {"kadett-page": 2}).content.decode()

    assert without_csrf(again) == without_csrf(indexed)
