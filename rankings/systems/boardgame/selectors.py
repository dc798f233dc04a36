"""Reading a stored tournament without its whole day of tables.

A tournament's stored `data` holds every table of the day (about 1 MB at 2000 players); its page
shows a dozen tables a round and explains the daily totals of the lines shown. On PostgreSQL
these read only that: the data without its tables, then the tables shown and the tables of the
lines explained, by their positions in the stored list (the stored data says where each round's
tables are, each line which tables are its player's), in one query. Elsewhere (SQLite, the
embedded default) they read the whole data and pick the same in Python. Tournaments stored
before the positions were search the day's tables instead."""

import json
from collections import defaultdict

from django.db import connection, models
from django.db.models import Count, OuterRef, Subquery
from django.db.models.expressions import RawSQL

from rankings.models import StandingsRow, StandingsTable
from rankings.selectors import with_rows

from .standings import KIND_TOURNAMENT

_TABLE = StandingsTable._meta.db_table


def _postgres() -> bool:
    return connection.vendor == "postgresql"


def _json(value):
    """A JSON value from a raw query: text, read as the JSONField reads it."""
    return json.loads(value) if isinstance(value, str) else value


class StoredTournament:
    """A stored tournament: `table` (its standings table with `row_details`), `data` (without
    the tables on PostgreSQL) and what a page reads of its tables."""

    def __init__(
        self,
        table: StandingsTable,
        *,
        light: bool,
        first_line: int = 0,
        line_count: int | None = None,
    ):
        self.table = table
        self.light = light
        self.data = table.data
        self.row_details = table.row_details
        self.key = table.key
        # row_details are the lines from first_line on, of line_count (default: all of them)
        self.first_line = first_line
        self.line_count = len(self.row_details) if line_count is None else line_count
        self._at: dict[int, dict] = {}  # the stored tables read so far, by position

    def tables_at(self, positions) -> dict[int, dict]:
        """The stored tables at these positions of the day's list, read in one query (on
        PostgreSQL a JSON path of the positions, so the rest of the day is not unpacked)."""
        wanted = sorted(set(positions))
        if not self.light:
            tables = self._tables()
            return {i: tables[i] for i in wanted if 0 <= i < len(tables)}
        missing = [i for i in wanted if i not in self._at and i >= 0]
        if missing:
            path = "$.tables[" + ", ".join(_ranges(missing)) + "]"
            with connection.cursor() as cursor:
                cursor.execute(
                    f'SELECT jsonb_path_query_array(st.data, %s::jsonpath) FROM "{_TABLE}" st'
                    " WHERE st.id = %s",
                    [path, self.table.pk],
                )
                row = cursor.fetchone()
            found = _json(row[0]) if row else []
            # A path past the end gives nothing for those positions (lax mode): the tables
            # found are the first positions asked for.
            self._at.update(zip(missing, found, strict=False))
        return {i: self._at[i] for i in wanted if i in self._at}

    def positions_shown(
        self, start: int, stop: int, round_number: int | None = None
    ) -> dict[int, list[int]] | None:
        """The positions of the tables [start:stop] of each round (this round only, if given),
        by round number; None for a tournament stored without its rounds' positions."""
        spans = self.data.get("rounds")
        if spans is None:
            return None
        shown: dict[int, list[int]] = {}
        for key, (first, count) in spans.items():
            if round_number is not None and int(key) != round_number:
                continue
            positions = list(range(first, first + count))[start:stop]
            if positions:
                shown[int(key)] = positions
        return shown

    def prefetch(self, start: int, stop: int, round_number: int | None, lines: list[dict]):
        """Read in one query the tables a page shows and those of the lines it explains."""
        shown = self.positions_shown(start, stop, round_number) or {}
        self.tables_at(
            [i for positions in shown.values() for i in positions]
            + [i for line in lines for i in line.get("at") or ()]
        )

    def lines(self, start: int, stop: int) -> list[dict]:
        """The details of the lines at positions start to stop (exclusive)."""
        return list(
            StandingsRow.objects.filter(table=self.table, position__gte=start, position__lt=stop)
            .order_by("position")
            .values_list("detail", flat=True)
        )

    def _tables(self) -> list[dict]:
        return self.data["tables"]

    def round_counts(self) -> dict[int, int]:
        """How many tables each round has, by round number."""
        if "rounds" in self.data:
            return {int(r): count for r, (_first, count) in self.data["rounds"].items()}
        if self.light:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT (t.value->>'round')::int, count(*)"
                    f" FROM \"{_TABLE}\" st, jsonb_array_elements(st.data->'tables') t(value)"
                    " WHERE st.id = %s GROUP BY 1",
                    [self.table.pk],
                )
                return dict(cursor.fetchall())
        counts: dict[int, int] = defaultdict(int)
        for tb in self._tables():
            counts[tb["round"]] += 1
        return dict(counts)

    def tables_shown(
        self, start: int, stop: int, round_number: int | None = None
    ) -> dict[int, list[dict]]:
        """The tables [start:stop] of each round (of this round only, if given), in their
        stored order, by round number."""
        shown: dict[int, list[dict]] = defaultdict(list)
        positions = self.positions_shown(start, stop, round_number)
        if positions is not None:
            tables = self.tables_at([i for found in positions.values() for i in found])
            return {
                number: [tables[i] for i in found if i in tables]
                for number, found in positions.items()
            }
        if not self.light:
            by_round: dict[int, list[dict]] = defaultdict(list)
            for tb in self._tables():
                if round_number is None or tb["round"] == round_number:
                    by_round[tb["round"]].append(tb)
            return {r: tbs[start:stop] for r, tbs in by_round.items() if tbs[start:stop]}
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT e.value FROM ("
                "  SELECT a.value, a.i, row_number() OVER ("
                "    PARTITION BY a.value->'round' ORDER BY a.i) AS n"
                f'  FROM "{_TABLE}" st,'
                "  jsonb_array_elements(st.data->'tables') WITH ORDINALITY AS a(value, i)"
                "  WHERE st.id = %s AND (%s::int IS NULL OR (a.value->>'round')::int = %s::int)) e"
                " WHERE e.n > %s AND e.n <= %s ORDER BY e.i",
                [self.table.pk, round_number, round_number, start, stop],
            )
            for (value,) in cursor.fetchall():
                tb = _json(value)
                shown[tb["round"]].append(tb)
        return dict(shown)

    def seated_in(self, round_number: int) -> set[str]:
        """The players with a table in this round."""
        if not self.light:
            return {
                r["player"]
                for tb in self._tables()
                if tb["round"] == round_number
                for r in tb["results"]
            }
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT r.value->>'player'"
                f" FROM \"{_TABLE}\" st, jsonb_array_elements(st.data->'tables') t(value),"
                " jsonb_array_elements(t.value->'results') r(value)"
                " WHERE st.id = %s AND (t.value->>'round')::int = %s",
                [self.table.pk, round_number],
            )
            return {player for (player,) in cursor.fetchall()}

    def seats_of(self, lines: list[dict]) -> dict[str, list[tuple]]:
        """The tables of these lines' players: (round, table number, game, result)."""
        found: dict[str, list[tuple]] = defaultdict(list)
        lines = list({line["player"]: line for line in lines}.values())  # each player once
        known = [line for line in lines if "at" in line]
        tables = self.tables_at([i for line in known for i in line["at"]])
        for line in known:
            for i in line["at"]:
                tb = tables.get(i)
                for result in tb["results"] if tb else ():
                    if result["player"] == line["player"]:
                        found[line["player"]].append(
                            (tb["round"], tb["number"], tb["game"], result)
                        )
        wanted = {line["player"] for line in lines if "at" not in line}
        if not self.light:
            for tb in self._tables():
                for result in tb["results"]:
                    if result["player"] in wanted:
                        found[result["player"]].append(
                            (tb["round"], tb["number"], tb["game"], result)
                        )
            return found
        if not wanted:
            return found
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT (t.value->>'round')::int, (t.value->>'number')::int, t.value->>'game',"
                " r.value"
                f" FROM \"{_TABLE}\" st, jsonb_array_elements(st.data->'tables') t(value),"
                " jsonb_array_elements(t.value->'results') r(value)"
                " WHERE st.id = %s AND r.value->>'player' = ANY(%s)",
                [self.table.pk, sorted(wanted)],
            )
            for round_, number, game, value in cursor.fetchall():
                result = _json(value)
                found[result["player"]].append((round_, number, game, result))
        return found


def _ranges(positions: list[int]) -> list[str]:
    """Sorted positions as JSON path subscripts: runs written "a to b" (0, 1, 2, 7 -> "0 to 2",
    "7")."""
    runs: list[list[int]] = []
    for i in positions:
        if runs and runs[-1][1] == i - 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return [str(a) if a == b else f"{a} to {b}" for a, b in runs]


def stored_tournament(season, key: str, lines=None) -> StoredTournament | None:
    """The season's stored tournament `key` with its lines, or None. With `lines` (a function
    of the number of lines giving a slice), only the lines of that slice are read:
    `row_details` holds them, from `first_line`, and `line_count` says how many there are."""
    tables = StandingsTable.objects.filter(season=season, kind=KIND_TOURNAMENT, key=key)
    tables = tables.annotate(
        line_count=Subquery(
            StandingsRow.objects.filter(table=OuterRef("pk"))
            .order_by()
            .values("table")
            .annotate(n=Count("pk"))
            .values("n")[:1]
        )
    )
    light = _postgres()
    if light:
        # Without the day's tables and the exact numbers of the season's aggregates (which
        # no page shows): a tenth of the stored data.
        tables = tables.defer("data").annotate(
            light_data=RawSQL(
                f'"{_TABLE}"."data" - %s::text[]',
                (["tables", "exact"],),
                output_field=models.JSONField(),
            ),
        )
    table = tables.first()
    if table is None:
        return None
    if light:
        table.data = table.light_data
    count = table.line_count or 0
    window = lines(count) if lines is not None else slice(None)
    start, stop, _step = window.indices(count)
    with_rows([table], start=start, limit=stop if stop < count else None)
    stored = StoredTournament(table, light=light, first_line=start, line_count=count)
    if light and "played" not in table.data:  # stored before "played" was
        table.data["played"] = max(stored.round_counts(), default=0)
    return stored
