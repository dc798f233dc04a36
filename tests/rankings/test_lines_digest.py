"""The hash of a table's lines (rankings.services._lines_digest), which decides whether a
recompute writes a table's lines again: equal lines hash alike, any difference shows."""

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from rankings.services import _lines_digest
from rankings.systems import ComputedRow, RowsOf

details = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
rows = st.builds(
    ComputedRow,
    player=st.none() | st.text(max_size=6),
    rank=st.none() | st.integers(0, 50),
    points=st.none() | st.integers(-100, 100),
    detail=st.dictionaries(st.text(max_size=4), details, max_size=3),
)


@given(st.lists(rows, max_size=6))
def test_equal_lines_hash_alike_whatever_holds_them(lines):
    copies = [ComputedRow(r.player, r.rank, r.points, dict(r.detail)) for r in lines]
    assert _lines_digest(lines) == _lines_digest(copies)
    assert _lines_digest(lines) == _lines_digest(RowsOf(lines, lambda row: row))


@given(st.lists(rows, min_size=1, max_size=6), st.data())
def test_a_changed_field_or_order_changes_the_hash(lines, data):
    i = data.draw(st.integers(0, len(lines) - 1))
    row = lines[i]
    field = data.draw(st.sampled_from(["player", "rank", "points", "detail"]))
    other = data.draw(
        {
            "player": st.none() | st.text(max_size=6),
            "rank": st.none() | st.integers(0, 50),
            "points": st.none() | st.integers(-100, 100),
            "detail": st.dictionaries(st.text(max_size=4), details, max_size=3),
        }[field].filter(lambda value: value != getattr(row, field))
    )
    changed = list(lines)
    changed[i] = ComputedRow(**{**row.__dict__, field: other})
    assert _lines_digest(changed) != _lines_digest(lines)
    if len(lines) > 1 and lines[0] != lines[-1]:
        assert _lines_digest(lines[::-1]) != _lines_digest(lines)


def test_points_hash_by_value_and_huge_integers_are_hashed_too():
    def line(points, detail=None):
        return [ComputedRow("a", 1, points, detail or {})]

    assert _lines_digest(line(3)) == _lines_digest(line(Fraction(3))) == _lines_digest(line(3.0))
    assert _lines_digest(line(Fraction(1, 3))) != _lines_digest(line(Fraction(1, 4)))
    # An integer beyond 64 bits (orjson refuses it) goes through json.dumps, and still counts.
    assert _lines_digest(line(1, {"n": 2**70})) != _lines_digest(line(1, {"n": 2**70 + 1}))
