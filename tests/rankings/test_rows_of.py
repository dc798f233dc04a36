"""RowsOf: a table's rows made as they are read (rankings.systems)."""

from rankings.systems import ComputedRow, ComputedTable, RowsOf


def make(item):
    made.append(item)
    player, points = item
    return ComputedRow(player=player, rank=None, points=points, detail={"points": points})


made: list = []


def test_rows_are_made_as_they_are_read_and_read_like_a_list():
    made.clear()
    items = [("a", 3), ("b", 2), ("c", 1)]
    rows = RowsOf(items, make)
    assert made == []  # nothing made up front
    assert len(rows) == 3
    assert rows[1].player == "b" and made == [("b", 2)]
    assert [r.player for r in rows[:2]] == ["a", "b"]
    listed = [make(item) for item in items]
    made.clear()
    iterator = iter(rows)
    assert next(iterator).detail == {"points": 3}
    assert made == [("a", 3)]  # one at a time
    assert rows == listed and listed == rows
    assert ComputedTable(kind="k", rows=rows) == ComputedTable(kind="k", rows=listed)
    assert rows != listed[:2]
