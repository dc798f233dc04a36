"""rankings.selectors.in_turn: the rows of each key in turn from rows sorted in the keys' order
(a recompute reads a season's results in chunks and holds one tournament's at a time)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankings.selectors import in_turn


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
