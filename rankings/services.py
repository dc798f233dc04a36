"""Write paths of the rankings app: running a season's recompute and storing its standings.

A change to results bumps the season's `data_version` and, after commit, sends one task carrying
that version (rankings.scheduling). The task is idempotent by the version: it does nothing when
standings of that version (or a newer one) are stored already, so duplicate or late messages are
harmless.
"""

import logging
import time

from django.conf import settings
from django.db import connection, models, transaction
from django.db.models import Case, F, Value, When
from django.utils import timezone

from competitions.models import Player, Season
from competitions.registry import find_system

from .models import StandingsRow, StandingsTable
from .systems import ComputedTable

logger = logging.getLogger(__name__)

# Namespace of the PostgreSQL advisory lock taken per season (see recompute_lock_key).
RECOMPUTE_LOCK_NAMESPACE = 7301


class RecomputeBusy(RuntimeError):
    """Another recompute of the season held its lock for longer than the lock timeout."""


def recompute_lock_key(season_id: int) -> int:
    """The season's PostgreSQL advisory lock key: one bigint, our namespace in the high bits."""
    return (RECOMPUTE_LOCK_NAMESPACE << 40) + season_id % (1 << 40)


def _lock_season(season_id: int) -> None:
    """Wait for the season's recompute lock, at most RECOMPUTE_LOCK_TIMEOUT seconds.

    An advisory lock instead of a row lock: result entry keeps writing the season row
    (data_version) while a recompute runs, and must not wait for it. On SQLite the database
    lock serialises the writes, and the version guard in `_store` keeps the newest."""
    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + settings.RECOMPUTE_LOCK_TIMEOUT
    with connection.cursor() as cursor:
        while True:
            cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [recompute_lock_key(season_id)])
            if cursor.fetchone()[0]:
                return
            if time.monotonic() > deadline:
                raise RecomputeBusy(f"season {season_id}: recompute lock not free")
            time.sleep(0.05)


def _store(season: Season, version: int, computed: list[ComputedTable], *, force: bool) -> bool:
    # The version guard first: it also takes the row's write lock, so of two recomputes the one
    # that read the newer data always stores last.
    guard = {"standings_version__lte" if force else "standings_version__lt": version}
    claimed = Season.objects.filter(pk=season.pk, **guard).update(
        standings_version=version,
        standings_computed_at=timezone.now(),
        # Up to date unless results changed again while this recompute ran.
        stale_since=Case(
            When(data_version__lte=version, then=Value(None)),
            default=F("stale_since"),
            output_field=models.DateTimeField(),
        ),
        recompute_error="",
    )
    if not claimed:
        return False
    StandingsTable.objects.filter(season=season).delete()
    tables = StandingsTable.objects.bulk_create(
        StandingsTable(season=season, kind=t.kind, key=t.key, position=t.position, data=t.data)
        for t in computed
    )
    keys = {row.player for t in computed for row in t.rows if row.player is not None}
    ids = dict(
        Player.objects.filter(series_id=season.series_id, key__in=keys).values_list("key", "pk")
    )
    StandingsRow.objects.bulk_create(
        (
            StandingsRow(
                table=table,
                season=season,
                player_id=ids.get(row.player) if row.player is not None else None,
                position=position,
                rank=row.rank,
                points=row.points,
                detail=row.detail,
            )
            for table, t in zip(tables, computed, strict=True)
            for position, row in enumerate(t.rows)
        ),
        batch_size=2000,
    )
    return True


def season_recompute(*, season_id: int, force: bool = False) -> bool:
    """Recompute every standings table of the season in full and store it.

    Returns False when there was nothing to do (the season is gone, its system has no
    standings yet, or standings of the current data version are stored already).
    """
    with transaction.atomic():
        _lock_season(season_id)
        season = Season.objects.select_related("series").filter(pk=season_id).first()
        if season is None:
            return False
        spec = find_system(season.system)
        if spec is None or spec.standings is None:
            return False
        if not force and not season.stale:
            return False
        version = season.data_version
        computed = spec.standings.compute(season)
        if not _store(season, version, computed, force=force):
            return False
    logger.info("recomputed season %s (data version %s)", season_id, version)
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
