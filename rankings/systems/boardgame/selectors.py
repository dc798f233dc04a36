"""Reading a stored tournament without its whole day of tables.

A tournament's stored `data` holds every table of the day (about 1 MB at 2000 players); its page
shows a dozen tables a round and explains the daily totals of the lines shown. On PostgreSQL
these read only that: the data without its tables (with each round's number of tables), the
tables shown and the seats of the players whose lines are explained. Elsewhere (SQLite, the
embedded default) they read the whole data and pick the same in Python."""

from collections import defaultdict

from django.db import connection
from django.db.models import Count, OuterRef, Subquery
from django.db.models.expressions import RawSQL

from competitions.fields import JSONField, loads
from rankings.models import StandingsRow, StandingsTable
from rankings.selectors import with_rows

from .standings import KIND_TOURNAMENT

_TABLE = StandingsTable._meta.db_table


def _postgres() -> bool:
    return connection.vendor == "postgresql"


def _json(value):
    """A JSON value from a raw query: text, read as the JSONField reads it."""
    return loads(value) if isinstance(value, str) else value


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
        if self.light:
            return {int(r): n for r, n in (self.table.round_counts or {}).items()}
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

    def seats_of(self, players) -> dict[str, list[tuple]]:
        """Each of these players' tables: (round, table number, game, result)."""
        wanted = set(players)
        found: dict[str, list[tuple]] = defaultdict(list)
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
        tables = tables.defer("data").annotate(
            light_data=RawSQL(f'"{_TABLE}"."data" - %s', ("tables",), output_field=JSONField()),
            round_counts=RawSQL(
                "(SELECT jsonb_object_agg(r, n) FROM (SELECT t.value->>'round' AS r,"
                f' count(*) AS n FROM jsonb_array_elements("{_TABLE}"."data"->\'tables\') t'
                " GROUP BY 1) c)",
                (),
                output_field=JSONField(),
            ),
        )
    table = tables.first()
    if table is None:
        return None
    if light:
        table.data = table.light_data
        if "played" not in table.data:  # stored before "played" was
            table.data["played"] = max((int(r) for r in table.round_counts or {}), default=0)
    count = table.line_count or 0
    window = lines(count) if lines is not None else slice(None)
    start, stop, _step = window.indices(count)
    with_rows([table], start=start, limit=stop if stop < count else None)
    return StoredTournament(table, light=light, first_line=start, line_count=count)
