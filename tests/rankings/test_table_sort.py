"""The public rankings are django-tables2 tables of stored standings lines: a reader sorts
them by a column (?sort=) and pages through them (?page=), the database doing both; a
sorted page reads no more than an unsorted one; names are written escaped."""

import copy
import csv
import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rankings.imports import import_competition
from rankings.urls_helpers import season_url
from tests.rankings.test_pages import big_file

pytestmark = pytest.mark.django_db


def lines(response) -> list[tuple[str, str, str]]:
    """(rank, name, first number) of each line of the page's ranking (its first table with
    rows linking to players), whitespace between tags ignored."""
    assert response.status_code == 200
    html = re.sub(r">\s+<", "><", response.content.decode())
    body = html.split("table-hover", 2)[1]  # up to the next such table
    found = re.findall(
        r'<tr class="(?:even|odd)"><td class="[^"]*\bcol-rank\b[^"]*">(\d+)</td>'
        r'<td class="col-name"><a href="[^"]+"><bdi>([^<]+)</bdi></a></td>'
        r"(?:<td [^>]*>(?:<bdi>)?[^<]*(?:</bdi>)?</td>)?"
        r'<td class="[^"]*\btext-nowrap\b[^"]*">'
        r"(?:<details class=\"explain\"><summary>)?([^<]+)<",
        body,
    )
    return found


@pytest.fixture
def big(circuit_file):
    return import_competition(big_file(circuit_file, 120))


def test_pages_of_a_ranking_follow_each_other_without_gaps_or_repeats(client, big):
    url = season_url(big, "tournament", "big")
    shown = []
    for page in (1, 2, 3, 4, 5):  # a day of more than 50 lines: 25 a page
        found = lines(client.get(f"{url}?page={page}"))
        assert len(found) == (25 if page < 5 else 20)
        shown += found
    assert [int(rank) for rank, _name, _n in shown] == sorted(
        int(rank) for rank, _name, _n in shown
    )
    assert len({name for _rank, name, _n in shown}) == 120
    # A page past the last shows the last, as django-tables2 does.
    assert lines(client.get(f"{url}?page=9")) == shown[100:]
    assert lines(client.get(f"{url}?per_page=50&page=3")) == shown[100:]


@pytest.mark.parametrize("column", ["daily", "-daily", "points", "-points", "player", "-rank"])
def test_a_column_sorts_every_page_of_the_ranking(client, big, column):
    url = season_url(big, "tournament", "big")
    shown = []
    for page in (1, 2, 3, 4, 5):
        shown += lines(client.get(f"{url}?sort={column}&page={page}"))
    assert len({name for _rank, name, _n in shown}) == 120  # each line once
    descending = column.startswith("-")
    if column.lstrip("-") == "player":
        names = [name for _rank, name, _n in shown]
        assert names == sorted(names, reverse=descending)
    elif column.lstrip("-") == "rank":
        ranks = [int(rank) for rank, _name, _n in shown]
        assert ranks == sorted(ranks, reverse=descending)
    else:
        # the first number shown is the tournament points; sorted by them or by the daily
        # total (the points less the bonus, in the same order at one table size), it is ordered
        values = [float(n) for _rank, _name, n in shown]
        assert values == sorted(values, reverse=descending)
        assert values[0] != values[-1]


def test_yearly_ranking_sorted_by_points_and_by_club(client, season):
    url = season_url(season, "yearly")
    by_points = lines(client.get(f"{url}?sort=points"))
    assert [float(n) for _r, _name, n in by_points] == sorted(
        float(n) for _r, _name, n in by_points
    )
    assert len(by_points) == 5
    html = client.get(f"{url}?sort=-club").content.decode()
    clubs = re.findall(r'<td class="d-none d-md-table-cell"><bdi>([^<]+)</bdi></td>', html)
    assert clubs == sorted(clubs, reverse=True) and set(clubs) == {
        "Spelclub Mechelen",
        "Gent Speelt",
    }


def test_names_sort_regardless_of_case_with_ties_in_rank_order(client, circuit_file):
    names = ["Zoë Maes", "adam Janssens", "Bert Wouters", "emma Peeters", "Carl Claes"]
    for player, name in zip(circuit_file["players"], names, strict=True):
        player["name"] = name
    season = import_competition(circuit_file)
    url = season_url(season, "yearly")
    reader = ["adam Janssens", "Bert Wouters", "Carl Claes", "emma Peeters", "Zoë Maes"]
    assert [name for _r, name, _n in lines(client.get(f"{url}?sort=player"))] == reader
    assert [name for _r, name, _n in lines(client.get(f"{url}?sort=-player"))] == reader[::-1]
    # a club's players in rank order, whichever way the clubs go
    for query in ("?sort=club", "?sort=-club"):
        html = re.sub(r">\s+<", "><", client.get(url + query).content.decode())
        by_club = re.findall(
            r'<td class="[^"]*\bcol-rank\b[^"]*">(\d+)</td>'
            r'<td class="col-name"><a [^>]+><bdi>[^<]+</bdi></a></td>'
            r'<td class="d-none d-md-table-cell"><bdi>([^<]+)</bdi></td>',
            html,
        )
        assert len(by_club) == 5
        for club in {c for _r, c in by_club}:
            ranks = [int(r) for r, c in by_club if c == club]
            assert ranks == sorted(ranks)


def test_a_sorted_page_reads_as_much_as_an_unsorted_one_whatever_the_players(client, circuit_file):
    """The database sorts and slices: a sorted page of 40 players and one of 400 make the
    same queries (before, a sorted ranking read every line and every name)."""
    counts = []
    for players, series in ((40, "small"), (400, "large")):
        data = big_file(circuit_file, players)
        data["series"] = series
        season = import_competition(data)
        for name, args in (("tournament", ("big",)), ("yearly", ()), ("game", ("catan",))):
            url = season_url(season, name, *args)
            for query in ("", "?sort=-points", "?sort=player&page=2"):
                client.get(url + query)  # caches warmed
                with CaptureQueriesContext(connection) as ctx:
                    assert client.get(url + query).status_code == 200
                counts.append((players, name, query, len(ctx.captured_queries)))
    small = [(n, q, c) for p, n, q, c in counts if p == 40]
    large = [(n, q, c) for p, n, q, c in counts if p == 400]
    assert small == large
    by_page = {(n, q): c for n, q, c in small}
    for name in ("tournament", "yearly", "game"):
        assert by_page[(name, "?sort=-points")] == by_page[(name, "")]


def test_hostile_names_and_clubs_are_written_escaped(client, circuit_file):
    data = copy.deepcopy(circuit_file)
    data["players"][0]["name"] = '<script>alert("x")</script> & Co'
    data["clubs"][0]["name"] = "<b>Club</b>"
    season = import_competition(data)
    for name, args in (("tournament", ("t1",)), ("yearly", ()), ("ludo", ()), ("game", ("catan",))):
        for query in ("", "?sort=player"):
            html = client.get(season_url(season, name, *args) + query).content.decode()
            assert "<script>alert" not in html and "<b>Club</b>" not in html, name
            assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co" in html, name
    assert "&lt;b&gt;Club&lt;/b&gt;" in html or name == "game"


def test_a_sorted_download_has_every_line_in_that_order(client, big):
    url = season_url(big, "tournament", "big")
    response = client.get(f"{url}?sort=-points&_export=csv")
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert len(rows) == 1 + 120
    points = [float(r[-1]) for r in rows[1:]]
    assert points == sorted(points, reverse=True)
