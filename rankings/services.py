"""Write paths of the rankings app: running a season's recompute and storing its standings.

A change to results bumps the season's `data_version` and, after commit, sends one task carrying
that version (rankings.scheduling). The task is idempotent by the version: it does nothing when
standings of that version (or a newer one) are stored already, so duplicate or late messages are
harmless.
"""

import hashlib
import json
import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import orjson
from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from competitions.models import Player, Season, Series
from competitions.registry import find_system
from competitions.signals import results_changed

from .models import StaleScope, StandingsRow, StandingsTable
from .systems import ComputedRow, ComputedTable, Update

logger = logging.getLogger(__name__)

# Namespace of the PostgreSQL advisory lock taken per season (see recompute_lock_key).
RECOMPUTE_LOCK_NAMESPACE = 7301


class RecomputeBusy(RuntimeError):
    """Another recompute of the season held its lock for longer than the lock timeout."""


def recompute_lock_key(season_id: int) -> int:
    """The season's PostgreSQL advisory lock key: one bigint, our namespace in the high bits."""
    return (RECOMPUTE_LOCK_NAMESPACE << 40) + season_id % (1 << 40)


def _lock_season(season_id: int, *, own_transaction: bool) -> None:
    """Wait for the season's recompute lock, at most RECOMPUTE_LOCK_TIMEOUT seconds.

    An advisory lock instead of a row lock: result entry keeps writing the season row
    (data_version) while a recompute runs, and must not wait for it. On SQLite the database
    lock serialises the writes, and the version guard in `_store` keeps the newest.

    `own_transaction`: the recompute's transaction is its own (not part of a caller's), and
    its commit does not wait for the disk (`synchronous_commit` off for this transaction, set
    in the same statement). The standings are derived from results committed before, by their
    own transactions, which wait as usual; a database crash can lose only the last moment's
    recomputes, all or nothing each, and leaves those seasons stale (their standings version
    behind their data version), which the periodic reconcile task recomputes."""
    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + settings.RECOMPUTE_LOCK_TIMEOUT
    sql = "SELECT pg_try_advisory_xact_lock(%s)"
    if own_transaction:
        sql += ", set_config('synchronous_commit', 'off', true)"
    with connection.cursor() as cursor:
        while True:
            cursor.execute(sql, [recompute_lock_key(season_id)])
            if cursor.fetchone()[0]:
                return
            if time.monotonic() > deadline:
                raise RecomputeBusy(f"season {season_id}: recompute lock not free")
            time.sleep(0.05)


# Rows written per batch: bounds the memory a recompute holds beyond its own results.
ROW_BATCH = 500


def _claim(season: Season, version: int, *, force: bool) -> bool:
    """The version guard first: it also takes the row's write lock, so of two recomputes the
    one that read the newer data always stores last. The season is up to date afterwards
    unless results changed again while this recompute ran (stale_since kept then).

    One statement written out: the ORM's update with a conditional expression cost as much
    again to build as to run, at every recompute and every change."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Season._meta.db_table} SET standings_version = %s, "
            "standings_computed_at = %s, "
            "stale_since = CASE WHEN data_version <= %s THEN NULL ELSE stale_since END, "
            "recompute_error = '' "
            f"WHERE id = %s AND standings_version {'<=' if force else '<'} %s",
            [
                version,
                connection.ops.adapt_datetimefield_value(timezone.now()),
                version,
                season.pk,
                version,
            ],
        )
        return cursor.rowcount > 0


def _dumps_bytes(value) -> bytes:
    """Compact JSON of a stored value, as UTF-8. orjson writes the same JSON as json.dumps
    about ten times faster (the store of a large season encodes tens of thousands of rows);
    what it does not take (an integer beyond 64 bits) goes through json.dumps, which also
    refuses NaN."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except (orjson.JSONEncodeError, TypeError):
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return text.encode()


def _dumps(value) -> str:
    """`_dumps_bytes` as text."""
    return _dumps_bytes(value).decode()


def _digest(text: str) -> int:
    """A 64-bit hash of a stored JSON text (a row's detail, a table's data), kept beside it: an
    update compares the hashes of what it computed with the stored ones instead of reading and
    parsing the stored JSON."""
    return int.from_bytes(
        hashlib.blake2b(text.encode(), digest_size=8).digest(), "big", signed=True
    )


# Lines hashed per JSON text (`_lines_digest`): a table given as `RowsOf` never has more of its
# details made at once, and no table's whole text is held.
DIGEST_CHUNK = 100


def _lines_digest(rows: Iterable[ComputedRow]) -> int:
    """A 64-bit hash of a table's lines in order (player, rank, points and detail as computed):
    kept on the table, so a recompute that computes the same lines leaves them without
    reading them, and without encoding them one by one. The lines are hashed as JSON texts
    of `DIGEST_CHUNK` lines each: a text per line joined with the line's other fields cost
    twice as much."""
    hasher = hashlib.blake2b(digest_size=8)
    chunk: list[tuple] = []
    for row in rows:
        points = None if row.points is None else float(row.points)
        chunk.append((row.player, row.rank, points, row.detail))  # a JSON array, as a list
        if len(chunk) == DIGEST_CHUNK:
            hasher.update(_dumps_bytes(chunk))
            chunk = []
    hasher.update(_dumps_bytes(chunk))
    return int.from_bytes(hasher.digest(), "big", signed=True)


@dataclass
class _Held:
    """A computed table as the store holds it until it is written, with the hashes of its data
    and lines. `data` and `rows` are None when they are as stored: a recompute that finds a
    table as stored holds nothing of it but its hashes."""

    kind: str
    key: str
    position: int
    data: dict | None
    digest: int
    lines_digest: int
    rows: Sequence[ComputedRow] | None


def _held(table: ComputedTable, stored: tuple | None = None) -> _Held:
    """The table as `_Held`; `stored`: the stored table's index entry (`_stored_tables`), whose
    hashes say what is as stored and left out."""
    digest = _digest(_dumps(table.data))
    lines = _lines_digest(table.rows)
    data = rows = None
    if stored is None or stored[2] != digest:
        data = table.data
    if stored is None or stored[3] != lines:
        rows = table.rows
    return _Held(table.kind, table.key, table.position, data, digest, lines, rows)


def _line(
    table_id: int, season_id: int, player_id: int | None, position: int, row: ComputedRow
) -> StandingsRow:
    """A stored line of its table, with the digest of its detail."""
    return StandingsRow(
        table_id=table_id,
        season_id=season_id,
        player_id=player_id,
        position=position,
        rank=row.rank,
        points=row.points,
        detail=row.detail,
        digest=_digest(_dumps(row.detail)),
    )


def _write_rows(rows: Iterable[StandingsRow]) -> None:
    StandingsRow.objects.bulk_create(rows, batch_size=ROW_BATCH)


def _write_tables(season: Season, batch: list[_Held]) -> list[int]:
    """Insert a batch of tables and give their ids."""
    tables = StandingsTable.objects.bulk_create(
        StandingsTable(
            season=season,
            kind=t.kind,
            key=t.key,
            position=t.position,
            data=t.data,
            digest=t.digest,
            lines_digest=t.lines_digest,
        )
        for t in batch
    )
    return [t.pk for t in tables]


def _insert(
    season: Season,
    computed: Iterable[ComputedTable | _Held],
    *,
    ids: dict[str, int] | None = None,
) -> int:
    """Insert the tables and their rows, a batch of tables at a time (the computed tables may
    come from a generator, so a recompute need not hold them all). Returns the rows written.
    The tables come as computed or as `_held` gives them already (with their rows); `ids`:
    the players' ids by key known so far, added to here."""
    ids = {} if ids is None else ids
    written = 0
    batch: list[_Held] = []
    size = 0

    def flush() -> None:
        nonlocal written
        if not batch:
            return
        _player_ids(season, batch, ids)  # only those of keys not met in an earlier batch
        table_ids = _write_tables(season, batch)
        written += _write_lines(season, zip(table_ids, batch, strict=True), ids)
        batch.clear()

    for table in computed:
        held = table if isinstance(table, _Held) else _held(table)
        batch.append(held)
        size += len(held.rows) + 1
        if size >= ROW_BATCH:
            flush()
            size = 0
    flush()
    return written


def _player_ids(season: Season, tables: Iterable[_Held], ids: dict[str, int]) -> None:
    """Add to `ids` the ids of the players of these tables' lines that it lacks (1 query)."""
    missing = {
        row.player
        for t in tables
        for row in t.rows
        if row.player is not None and row.player not in ids
    }
    if missing:
        ids.update(
            Player.objects.filter(series_id=season.series_id, key__in=missing).values_list(
                "key", "pk"
            )
        )


def _write_lines(season: Season, tables: Iterable[tuple[int, _Held]], ids: dict[str, int]) -> int:
    """Write every line of these (stored table id, table) pairs; `ids`: the players' ids by
    key. Returns the count."""
    count = 0

    def lines():
        # A generator: bulk_create takes a batch of rows at a time, never all at once.
        nonlocal count
        for table_id, t in tables:
            for position, row in enumerate(t.rows):
                count += 1
                player_id = ids.get(row.player) if row.player is not None else None
                yield _line(table_id, season.pk, player_id, position, row)

    _write_rows(lines())
    return count


def _delete_tables(season: Season, keys: Iterable[tuple[str, str]] | None = None) -> None:
    """Delete the season's stored tables (only those of these kinds and keys), rows first.

    Plain DELETE statements: nothing listens to these rows' deletion and the rows go first, so
    Django's collector (which would read every table's JSON to delete it) has nothing to do."""
    tables = StandingsTable.objects.filter(season=season)
    rows = StandingsRow.objects.filter(season=season)
    if keys is not None:
        keys = list(keys)
        if not keys:
            return
        match = Q()
        for kind, key in keys:
            match |= Q(kind=kind, key=key)
        tables = tables.filter(match)
        rows = rows.filter(table__in=tables.values("pk"))
    rows._raw_delete(rows.db)
    tables._raw_delete(tables.db)


def _store(
    season: Season,
    version: int,
    computed: Iterable[ComputedTable],
    *,
    force: bool,
    rewrite: bool = False,
) -> bool:
    if not _claim(season, version, force=force):
        return False
    if rewrite:
        _delete_tables(season)
    stored = {} if rewrite else _stored_tables(season)
    if stored:
        _rewrite(season, computed, stored)
    else:
        _insert(season, computed)
    return True


def _stored_tables(
    season: Season, keys: Iterable[tuple[str, str]] | None = None
) -> dict[tuple[str, str], tuple]:
    """(kind, key) → (id, position, digest, lines digest) of the season's stored tables (only
    those of these kinds and keys): their index, not their data. Written out, as `_claim`."""
    q = connection.ops.quote_name
    sql = (
        f"SELECT {q('kind')}, {q('key')}, id, position, digest, lines_digest "
        f"FROM {q(StandingsTable._meta.db_table)} WHERE season_id = %s"
    )
    params: list = [season.pk]
    if keys is not None:
        keys = list(keys)
        if not keys:
            return {}
        match = f"({q('kind')} = %s AND {q('key')} = %s)"
        sql += " AND (" + " OR ".join([match] * len(keys)) + ")"
        params.extend(part for pair in keys for part in pair)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return {(kind, key): tuple(rest) for kind, key, *rest in cursor.fetchall()}


def _rewrite(season: Season, computed: Iterable[ComputedTable], stored: dict) -> None:
    """A full recompute over stored standings writes only what differs, as an update does
    (`_replace`): the tables computed are compared a batch at a time with the stored ones of
    the same kind and key (the computed tables may come from a generator, so the recompute
    still holds only a batch); a table whose lines differ is written whole (`_replace_rows`,
    `whole`), those computed anew are inserted, and the stored tables the recompute no longer
    gives are deleted. A recompute of results that did not change (`manage.py
    recompute`, a replace-import of the same file, a change an update cannot place) leaves
    every row as it was instead of deleting and writing the season again; one where everything
    changed (new settings) writes every line, as before."""
    left = dict(stored)
    batch: list[_Held] = []
    size = 0
    ids: dict[str, int] = {}  # the players' ids by key, looked up once a recompute

    def flush() -> None:
        kept = [t for t in batch if (t.kind, t.key) in stored]
        fresh = [t for t in batch if (t.kind, t.key) not in stored]
        if kept:
            _replace_rows(season, kept, stored, whole=True, ids=ids)
        if fresh:
            _insert(season, fresh, ids=ids)
        batch.clear()

    for table in computed:
        # A table as stored is held without its data and lines (`_held`).
        held = _held(table, left.pop((table.kind, table.key), None))
        batch.append(held)
        if held.data is not None or held.rows is not None:
            size += len(table.rows)  # a batch holds about ROW_BATCH lines' worth, as before
        size += 1
        if size >= ROW_BATCH:
            flush()
            size = 0
    flush()
    if left:
        ids = [found[0] for found in left.values()]
        rows = StandingsRow.objects.filter(season=season, table_id__in=ids)
        rows._raw_delete(rows.db)
        tables = StandingsTable.objects.filter(pk__in=ids)
        tables._raw_delete(tables.db)


def _store_update(season: Season, version: int, update: Update) -> bool:
    if not _claim(season, version, force=False):
        return False
    _delete_tables(season, update.remove)
    _replace(season, update.tables)
    return True


def _replace(season: Season, tables: list[ComputedTable]) -> None:
    """Store these tables over those of the same kind and key, writing only what differs: a
    changed result moves a few lines (in the benchmark, two ranks swapped at one table change
    40 of the 1,350 lines the update recomputes), so the lines equal to the stored ones stay as
    they are and only the others are deleted and written again. Lines are matched by player
    (the n-th line of a player with the n-th), lines without a player by position, and compared
    by position, rank, points and the hash of their detail (`digest`); a table's data by its
    hash; a table whose data and lines hash are as stored is left without reading its lines.
    Lines stored without a hash are written again."""
    if not tables:
        return
    stored = _stored_tables(season, [(t.kind, t.key) for t in tables])
    held = [_held(t, stored.get((t.kind, t.key))) for t in tables]
    fresh = [t for t in held if (t.kind, t.key) not in stored]
    kept = [t for t in held if (t.kind, t.key) in stored]
    if kept:
        _replace_rows(season, kept, stored)
    if fresh:
        _insert(season, fresh)


def _line_key(player_id: int | None, position: int, seen: dict) -> tuple:
    """Which stored line a line replaces: (player, how many of the player's lines came before
    it in the table), or (None, position) for a line without a player."""
    if player_id is None:
        return (None, position)
    seen[player_id] = seen.get(player_id, -1) + 1
    return (player_id, seen[player_id])


def _replace_rows(
    season: Season,
    tables: list[_Held],
    stored: dict,
    *,
    whole: bool = False,
    ids: dict[str, int] | None = None,
) -> None:
    """Write the lines and data of these stored tables that differ from what is stored.
    A table whose data, position and lines hash (`_lines_digest`) are as stored is left
    without reading its lines; the lines of the others are matched with the stored ones
    (an update: a change moves a few lines of a table), or with `whole` (a full recompute,
    where a table that differs has often changed throughout, as after new settings) deleted
    and written again without reading them. `ids`: the players' ids by key known so far,
    added to here."""
    changed_data: list[tuple] = []
    moved: list[tuple] = []
    differing: list[tuple[_Held, int]] = []
    for t in tables:
        pk, position, digest, lines_digest = stored[(t.kind, t.key)]
        if digest != t.digest:
            changed_data.append((t.position, t.data, t.digest, t.lines_digest, pk))
        elif position != t.position or lines_digest != t.lines_digest:
            moved.append((t.position, t.lines_digest, pk))
        if lines_digest != t.lines_digest:
            differing.append((t, pk))
    if changed_data or moved:
        _update_tables(changed_data, moved)
    if differing and whole:
        rows = StandingsRow.objects.filter(table_id__in=[pk for _t, pk in differing])
        rows._raw_delete(rows.db)
        ids = {} if ids is None else ids
        _player_ids(season, (t for t, _pk in differing), ids)
        _write_lines(season, ((pk, t) for t, pk in differing), ids)
    elif differing:
        _replace_lines(season, differing)


def _replace_lines(season: Season, tables: list[tuple[_Held, int]]) -> None:
    """The lines of these tables (with their stored ids) that differ from the stored ones,
    deleted and written again: matched by player (the n-th line of a player with the n-th),
    lines without a player by position, and compared by position, rank, points and the hash
    of their detail."""
    table_ids = [pk for _t, pk in tables]
    old: dict[int, dict[tuple, tuple]] = {pk: {} for pk in table_ids}
    seen: dict[int, dict] = {pk: {} for pk in table_ids}
    ids: dict[str, int] = {}  # the players' ids by key: those of the stored lines, then others
    for pk, table_id, player_id, player_key, position, rank, points, digest in (
        StandingsRow.objects.filter(season=season, table_id__in=table_ids)
        .order_by("table_id", "position")
        .values_list(
            "pk", "table_id", "player_id", "player__key", "position", "rank", "points", "digest"
        )
    ):
        key = _line_key(player_id, position, seen[table_id])
        old[table_id][key] = (pk, position, rank, points, digest)
        if player_id is not None:
            ids[player_key] = player_id
    keys = {row.player for t, _pk in tables for row in t.rows if row.player is not None}
    keys -= ids.keys()
    if keys:
        ids.update(
            Player.objects.filter(series_id=season.series_id, key__in=keys).values_list("key", "pk")
        )
    gone: list[int] = []
    written: list[StandingsRow] = []
    for t, table_id in tables:
        lines = old[table_id]
        seen_new: dict = {}
        for position, row in enumerate(t.rows):
            player_id = ids.get(row.player) if row.player is not None else None
            line = _line(table_id, season.pk, player_id, position, row)
            before = lines.pop(_line_key(player_id, position, seen_new), None)
            if before is not None:
                if before[1:] == (position, row.rank, row.points, line.digest):
                    continue
                gone.append(before[0])
            written.append(line)
        gone.extend(line[0] for line in lines.values())
    if gone:
        rows = StandingsRow.objects.filter(pk__in=gone)
        rows._raw_delete(rows.db)
    if written:
        _write_rows(written)


def _update_tables(changed: list[tuple], moved: list[tuple] = ()) -> None:
    """Give stored tables a new position, data, digest and lines digest: `changed` holds
    (position, data, digest, lines digest, id) each; `moved` (position, lines digest, id) of
    tables whose data stays."""
    if changed:
        StandingsTable.objects.bulk_update(
            [
                StandingsTable(
                    pk=pk, position=position, data=data, digest=digest, lines_digest=lines_digest
                )
                for position, data, digest, lines_digest, pk in changed
            ],
            ["position", "data", "digest", "lines_digest"],
            batch_size=ROW_BATCH,
        )
    if moved:
        StandingsTable.objects.bulk_update(
            [
                StandingsTable(pk=pk, position=position, lines_digest=lines_digest)
                for position, lines_digest, pk in moved
            ],
            ["position", "lines_digest"],
            batch_size=ROW_BATCH,
        )


def later_seasons(*, series_id: int, label: str) -> list[int]:
    """The seasons after this one in its series that read it: as many as its system's
    `reads_earlier_seasons`, by label."""
    system = Series.objects.filter(pk=series_id).values_list("system", flat=True).first()
    spec = find_system(system) if system else None
    count = spec.reads_earlier_seasons if spec else 0
    if not count:
        return []
    return list(
        Season.objects.filter(series_id=series_id, label__gt=label)
        .order_by("label")
        .values_list("pk", flat=True)[:count]
    )


def _earlier_seasons(series_id: int, label: str, count: int) -> list[int]:
    if count <= 0:
        return []  # no query for a system that reads no earlier season
    return list(
        Season.objects.filter(series_id=series_id, label__lt=label)
        .order_by("-label")
        .values_list("pk", flat=True)[:count]
    )


def _pass_on(season: Season, spec) -> None:
    """When what later seasons read of this one changed, recompute them (after commit)."""
    if not spec.reads_earlier_seasons or spec.standings.carry is None:
        return
    later = later_seasons(series_id=season.series_id, label=season.label)
    if not later:
        # No season reads this one yet (the current season, as a rule): nothing to compare,
        # and the digest is forgotten; a season added later notes it when it first reads this
        # one (`_note_read`).
        if season.standings_carry:
            Season.objects.filter(pk=season.pk).update(standings_carry="")
        return
    digest = spec.standings.carry(season)
    if digest == season.standings_carry:
        return
    Season.objects.filter(pk=season.pk).update(standings_carry=digest)
    # Through the signal that bulk writers send: its receiver marks them and sends their tasks
    # after commit (rankings.signals; this module is below the task module).
    results_changed.send(sender=Season, season_ids=set(later), scope="earlier")


def _note_read(spec, earlier_ids: list[int]) -> None:
    """Seasons about to be read by a later one that hold no digest of what it reads (no later
    season read them since their last recompute, `_pass_on`) get it now: their next change
    then recomputes the later seasons only if it changes what they read."""
    if not earlier_ids or spec.standings.carry is None:
        return
    for earlier in Season.objects.filter(pk__in=earlier_ids, standings_carry=""):
        digest = spec.standings.carry(earlier)
        Season.objects.filter(pk=earlier.pk, standings_carry="").update(standings_carry=digest)


def ensure_current(season_id: int) -> None:
    """Bring a season's standings up to date now if its results changed since (a season that
    a later one reads)."""
    if Season.objects.filter(pk=season_id, standings_version__lt=F("data_version")).exists():
        season_recompute(season_id=season_id)


def season_recompute(
    *, season_id: int, force: bool = False, rewrite: bool = False, unless_stored: int | None = None
) -> bool:
    """Bring the season's stored standings up to date: only what changed since they were
    stored (`Standings.update`) when the system can, else the whole season; `force` always
    computes the whole season. A full recompute writes only the tables and lines that differ
    from the stored ones (by their hashes); `rewrite` (implies `force`) deletes the stored
    standings and writes them all again, a repair for standings changed by hand in the
    database.

    Returns False when there was nothing to do (the season is gone, its system has no
    standings yet, standings of the current data version are stored already, or standings of
    data version `unless_stored` or newer are: a task's duplicate or late message).
    """
    force = force or rewrite
    # What is needed before the lock, and only that (the season is read whole once locked).
    # Written out, as `_claim`: the ORM took longer to build it than to run it.
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT r.system, s.series_id, s.label, s.standings_version "
            f"FROM {Season._meta.db_table} s JOIN {Series._meta.db_table} r "
            "ON r.id = s.series_id WHERE s.id = %s",
            [season_id],
        )
        head = cursor.fetchone()
    if head is None:
        return False
    system, series_id, label, standings_version = head
    if unless_stored is not None and standings_version >= unless_stored:
        return False
    spec = find_system(system)
    if spec is None or spec.standings is None:
        return False
    # The seasons this one reads first, each in its own transaction (always in label order, so
    # two recomputes never wait for each other's locks).
    earlier_ids = _earlier_seasons(series_id, label, spec.reads_earlier_seasons)
    for earlier in reversed(earlier_ids):
        ensure_current(earlier)
    _note_read(spec, earlier_ids)
    own_transaction = not connection.in_atomic_block
    with transaction.atomic():
        _lock_season(season_id, own_transaction=own_transaction)
        try:
            season = Season.objects.select_related("series").get(pk=season_id)
        except Season.DoesNotExist:
            return False
        if not force and not season.stale:
            return False
        version = season.data_version
        with connection.cursor() as cursor:  # written out, as `_claim`
            cursor.execute(
                f"SELECT id, scope FROM {StaleScope._meta.db_table} WHERE season_id = %s",
                [season.pk],
            )
            scopes = cursor.fetchall()
        found = frozenset(scope for _pk, scope in scopes)
        update = None
        if (
            not force
            and spec.standings.update is not None
            and season.standings_version > 0
            and "*" not in found
        ):
            update = spec.standings.update(season, found)
        if update is not None:
            stored = _store_update(season, version, update)
        else:
            stored = _store(
                season, version, spec.standings.compute(season), force=force, rewrite=rewrite
            )
        if not stored:
            return False
        if scopes:  # the scopes this recompute read (not those a change added since)
            done = StaleScope.objects.filter(pk__in=[pk for pk, _scope in scopes])
            done._raw_delete(done.db)
        _pass_on(season, spec)
    logger.info(
        "recomputed season %s (data version %s, %s)",
        season_id,
        version,
        "in full" if update is None else f"{len(update.tables)} table(s) updated",
    )
    return True


def record_recompute_error(season_id: int, message: str) -> None:
    """Why the season's standings could not be brought up to date (shown to its managers)."""
    Season.objects.filter(pk=season_id).update(recompute_error=message[:2000])


def stale_seasons() -> list[tuple[int, int]]:
    """(season id, data version) of every season whose stored standings lag behind its results,
    among the systems that have standings."""
    rows = Season.objects.filter(standings_version__lt=F("data_version")).values_list(
        "pk", "data_version", "series__system"
    )
    return [
        (pk, version)
        for pk, version, system in rows
        if (spec := find_system(system)) is not None and spec.available
    ]
