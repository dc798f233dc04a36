"""Read paths of the rankings app. Reads never write: a stale season shows its stored
standings, with their state (`standings_state`)."""

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from django.db import connection, connections, models
from django.db.models import (
    Case,
    CharField,
    F,
    FilteredRelation,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.expressions import RawSQL
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce

from competitions.models import Season
from competitions.registry import SystemSpec, find_system, get_system

from .models import StandingsRow, StandingsTable

FRESH, STALE, NONE, UNAVAILABLE = "fresh", "stale", "none", "unavailable"


@dataclass(frozen=True)
class StandingsState:
    """What a page says about its standings: `fresh`, `stale` (being recomputed), `none` (not
    computed yet) or `unavailable` (the system has no standings yet)."""

    state: str
    computed_at: object = None

    @property
    def refreshing(self) -> bool:
        return self.state == STALE


def standings_state(season: Season, spec: SystemSpec | None = None) -> StandingsState:
    spec = spec or get_system(season.system)
    if not spec.available:
        return StandingsState(UNAVAILABLE)
    if season.standings_computed_at is None:
        return StandingsState(STALE if season.stale else NONE)
    return StandingsState(STALE if season.stale else FRESH, season.standings_computed_at)


def with_rows(tables: list[StandingsTable], *, limit: int | None = None, start: int = 0) -> list:
    """Attach each table's row details, in rank order, as `row_details` (one query): those
    at positions start to limit (exclusive) if given."""
    rows = StandingsRow.objects.filter(table__in=tables).order_by("table_id", "position")
    if limit is not None:
        rows = rows.filter(position__lt=limit)
    if start:
        rows = rows.filter(position__gte=start)
    details: dict[int, list[dict]] = defaultdict(list)
    for table_id, detail in rows.values_list("table_id", "detail"):
        details[table_id].append(detail)
    for table in tables:
        table.row_details = details[table.pk]
    return tables


def stored_tables(
    season: Season, kinds: Iterable[str] | None = None, *, rows_limit: int | None = None
) -> list[StandingsTable]:
    """The season's stored tables (of these kinds), in kind and position order, with rows."""
    tables = StandingsTable.objects.filter(season=season).order_by("kind", "position")
    if kinds is not None:
        tables = tables.filter(kind__in=list(kinds))
    return with_rows(list(tables), limit=rows_limit)


def standings_table(*, season: Season, kind: str, key: str = "") -> StandingsTable | None:
    table = StandingsTable.objects.filter(season=season, kind=kind, key=key).first()
    return with_rows([table])[0] if table is not None else None


def standings_document(*, season: Season) -> dict:
    """The export_standings document of interchange.md, from the stored standings."""
    spec = get_system(season.system)
    return spec.standings.document(season, stored_tables(season))


def table_data_subset(keys) -> RawSQL | None:
    """An annotation: a stored table's `data` with only these keys, read once per table (a
    table's whole data can be large, e.g. every table of a tournament day); None where the
    database has no such function (read the keys one by one, or the whole data)."""
    if connection.vendor != "postgresql":
        return None
    table = StandingsTable._meta.db_table
    return RawSQL(
        "(SELECT coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb) "
        f'FROM jsonb_each("{table}"."data") e WHERE e.key = ANY(%s))',
        [list(keys)],
        output_field=models.JSONField(),
    )


def player_rows(*, player) -> list[StandingsRow]:
    """Every stored standings line of the player, across seasons and systems (one query).

    Where the player's system names the keys its player section reads
    (`Pages.player_table_keys`), each line's `table.data` holds only those (PostgreSQL)."""
    rows = (
        StandingsRow.objects.filter(player=player)
        .select_related("table", "season__series")
        .order_by("-season__label", "table__kind", "table__position")
    )
    spec = find_system(player.series.system) if player.series_id else None
    keys = spec.pages.player_table_keys if spec and spec.pages else None
    subset = table_data_subset(keys) if keys is not None else None
    if subset is None:
        return list(rows)
    found = list(rows.defer("table__data").annotate(table_data=subset))
    for row in found:
        row.table.data = row.table_data
    return found


def rows_in_chunks(queryset, chunk_size: int) -> Iterator[tuple]:
    """A `values_list` queryset's rows as tuples, made into Python objects `chunk_size` rows
    at a time (Django's converters applied), from one query on an ordinary cursor: a single
    round trip, holding a chunk's Python objects at a time, where `.iterator()` on PostgreSQL
    opens a server-side cursor and fetches each chunk in a round trip of its own. The
    database's client library holds the whole result meanwhile, outside Python's heap: the
    resident size grew by 2.8 MiB for 25,000 result rows of seven narrow columns (about 115
    bytes a row; a 2000-player season of the bench), where the same rows as Python tuples take
    7.0 MiB; for results of up to a few hundred thousand rows, not millions."""
    compiler = queryset.query.get_compiler(queryset.db)
    sql, params = compiler.as_sql()
    with connections[queryset.db].cursor() as cursor:
        cursor.execute(sql, params)
        chunks = iter(lambda: cursor.fetchmany(chunk_size), [])
        yield from compiler.results_iter(chunks, tuple_expected=True)


def in_turn(rows: Iterator[tuple], keys: Iterable) -> Iterator[list[tuple]]:
    """The rows of each key in turn (a row's key is its first value), from rows sorted in the
    keys' order: e.g. one query of a season's results read in chunks in its tournaments'
    order, so a recompute holds one tournament's rows at a time. A key without rows gives an
    empty list; a row out of turn (the query's order and the keys' disagree) is an error."""
    rows = iter(rows)
    pending = next(rows, None)
    for key in keys:
        found = []
        while pending is not None and pending[0] == key:
            found.append(pending)
            pending = next(rows, None)
        yield found
    if pending is not None:
        raise RuntimeError(f"rows of {pending[0]!r} out of turn")


def lines_of(*, season: Season, kind: str, key: str | None = "") -> QuerySet[StandingsRow]:
    """The lines of the season's stored table (kind, key), of every table of the kind if key
    is None, in table and rank order (the model's: a django-tables2 table shows no column as
    sorted), each with its player's `name`, `club` (the club the player represented in the
    season, else the player's own) and `player_key`: the rows a public table
    (rankings.tables.LinesTable) orders by a column and reads a page of."""
    entry = FilteredRelation(
        "player__entries", condition=Q(player__entries__season_id=F("season_id"))
    )
    text = CharField()
    tables = StandingsTable.objects.filter(season=season, kind=kind)
    if key is None:
        rows = StandingsRow.objects.filter(season=season, table__kind=kind)
    else:
        # The table's id found once (a subquery): the lines are then read by the index on
        # (table, position), not by joining every line of the season to its table.
        table = tables.filter(key=key).values("pk")[:1]
        rows = StandingsRow.objects.filter(table_id=Subquery(table))
    return rows.annotate(entry=entry).annotate(
        player_key=Coalesce("player__key", KT("detail__player"), output_field=text),
        name=Coalesce("player__name", KT("detail__player"), output_field=text),
        club=Case(
            When(entry__id__isnull=False, then=Coalesce("entry__club__name", Value(""))),
            default=Coalesce("player__club__name", Value("")),
            output_field=text,
        ),
    )
