"""rankings.selectors.in_turn: the rows of each key in turn from rows sorted in the keys' order
(a recompute reads a season's results in chunks and holds one tournament's at a time); and
rows_in_chunks, which gives such rows a chunk at a time from one query."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import given
from hypothesis import strategies as st

from competitions.systems.othello.models import Placement
from rankings.imports import import_competition
from rankings.selectors import in_turn, rows_in_chunks
from tests.othello_files import gp_file


@given(
    keys=st.lists(st.integers(0, 50), unique=True, max_size=8),
    counts=st.lists(st.integers(0, 4), min_size=8, max_size=8),
)
def test_each_key_gets_its_rows_in_turn(keys, counts):
    rows = [(key, f"{key}-{i}") for key, n in zip(keys, counts, strict=False) for i in range(n)]
    groups = list(in_turn(iter(rows), keys))
    assert groups == [[row for row in rows if row[0] == key] for key in keys]


def test_rows_out_of_turn_are_an_error():
    with pytest.raises(RuntimeError, match="out of turn"):
        list(in_turn([(2, "b"), (1, "a")], [1, 2]))
    with pytest.raises(RuntimeError, match="out of turn"):
        list(in_turn([(1, "a"), (3, "c")], [1, 2]))  # a key nobody asked for


@pytest.mark.django_db
def test_rows_in_chunks_gives_the_queryset_s_rows_in_one_query():
    """rows_in_chunks: the same rows and Python types as the queryset itself (Django's
    converters applied: decimals and booleans on SQLite too), in one query whatever the chunk."""
    season = import_competition(gp_file())
    rows = (
        Placement.objects.filter(tournament__season=season)
        .values_list("player__key", "place", "nordic", "ffo", "provisional")
        .order_by("tournament_id", "place")
    )
    expected = list(rows)
    assert len(expected) > 3 and any(r[2] is not None for r in expected)
    for chunk in (1, 2, 1000):
        with CaptureQueriesContext(connection) as queries:
            found = list(rows_in_chunks(rows, chunk))
        assert found == expected
        assert [tuple(map(type, r)) for r in found] == [tuple(map(type, r)) for r in expected]
        assert len(queries) == 1
