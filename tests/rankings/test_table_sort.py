"""A reader sorting a public table by a column of text gets the order of a list of people
("Émile" beside "Emma", not after "Zoë" as code points put it); numbers and empty cells sort
as django-tables2 sorts them."""

import re

import django_tables2 as tables
import pytest
from django_tables2.data import TableListData
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.interchange import import_competition
from competitions.text import name_order
from rankings.tables import BaseTable, ClubColumn, FoldedListData, PlayerColumn
from rankings.urls_helpers import season_url

NAMES = ["Zoë Maes", "Émile Claes", "Emma Peeters", "adam Janssens", "Bert Wouters"]
READER_ORDER = ["adam Janssens", "Bert Wouters", "Émile Claes", "Emma Peeters", "Zoë Maes"]


class Standings(BaseTable):
    rank = tables.Column()
    player = PlayerColumn()
    club = ClubColumn()
    points = tables.Column()


def rows():
    return [
        {"rank": i + 1, "name": name, "club": club, "points": points}
        for i, (name, club, points) in enumerate(
            zip(
                NAMES,
                ["Örebro", "ålesund", "Arendal", "Zwolle", "émmen"],
                [7, None, -2, 7, 0],
                strict=True,
            )
        )
    ]


def order(table, column="name"):
    return [row.record[column] for row in table.rows]


def test_names_sort_as_a_list_of_people_reads_them_both_ways():
    assert order(Standings(rows(), order_by="player")) == READER_ORDER
    assert order(Standings(rows(), order_by="-player")) == READER_ORDER[::-1]


def test_clubs_too():
    assert order(Standings(rows(), order_by="club"), "club") == [
        "ålesund", "Arendal", "émmen", "Örebro", "Zwolle",
    ]  # fmt: skip


def test_numbers_sort_by_value_with_empty_cells_first_and_ties_kept_in_their_order():
    assert order(Standings(rows(), order_by="points"), "points") == [None, -2, 0, 7, 7]
    table = Standings(rows(), order_by=("-points", "player"))
    assert order(table) == [
        "adam Janssens", "Zoë Maes", "Bert Wouters", "Emma Peeters", "Émile Claes",
    ]  # fmt: skip


def test_the_table_reads_its_rows_through_the_folding_container():
    assert isinstance(Standings(rows()).data, FoldedListData)


cells = st.one_of(st.none(), st.integers(-50, 50), st.fractions(max_denominator=7))


class Plain(tables.Table):
    a = tables.Column()
    b = tables.Column()


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.fixed_dictionaries({"a": cells, "b": cells, "n": st.integers()}), max_size=12),
    st.sampled_from([("a",), ("-a",), ("a", "b"), ("-b", "a"), ("b", "-a")]),
)
def test_numbers_and_empty_cells_sort_exactly_as_django_tables2_sorts_them(data, by):
    class Ours(BaseTable):
        a = tables.Column()
        b = tables.Column()

    theirs = Plain(TableListData([dict(r) for r in data]), order_by=by)
    assert [r.record["n"] for r in Ours([dict(r) for r in data], order_by=by).rows] == [
        r.record["n"] for r in theirs.rows
    ]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=8), max_size=12))
def test_any_names_sort_in_name_order(names):
    table = Standings([{"name": n} for n in names], order_by="player")
    assert order(table) == sorted(names, key=name_order)


@pytest.mark.django_db
def test_a_public_standings_page_sorted_by_player(client, circuit_file):
    for player, name in zip(circuit_file["players"], NAMES, strict=True):
        player["name"] = name
    season = import_competition(circuit_file)
    page = client.get(season_url(season, "tournament", "t1") + "?sort=player")
    assert page.status_code == 200
    daily = page.content.decode().split("table-hover")[1]  # the page's first table
    daily = re.sub(r">\s+<", "><", daily)
    line = r'<tr class="\w+"><td class="fw-semibold text-end">\d+</td><td ><a href="[^"]+">([^<]+)<'
    shown = re.findall(line, daily)
    assert sorted(shown) == sorted(NAMES)
    assert shown == READER_ORDER


def test_a_column_of_values_without_an_order_still_sorts_as_django_tables2_does():
    class Odd(BaseTable):
        parts = tables.Column()

    data = [{"parts": {"a": 1}, "n": 1}, {"parts": None, "n": 2}, {"parts": {"b": 2}, "n": 3}]
    # empty first, then the two dicts in their order (a dict has no order): no error
    assert [r.record["n"] for r in Odd(data, order_by="parts").rows] == [2, 1, 3]
