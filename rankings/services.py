"""Write paths of the rankings app: scheduling and running a season's full recompute."""

import logging

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from competitions.models import Season

from .models import StandingsTable
from .registry import SYSTEMS, get_system

logger = logging.getLogger(__name__)

# Namespace of the PostgreSQL advisory lock taken per season (see recompute_lock_key).
RECOMPUTE_LOCK_NAMESPACE = 7301


class _EnqueueRecompute:
    """An on_commit callback that sends the recompute task; comparable so a transaction sends
    one task per season however many rows it changed."""

    def __init__(self, season_id: int) -> None:
        self.season_id = season_id
        self.sent = False
        self.__qualname__ = f"recompute of season {season_id}"  # Django logs failures by it

    def __call__(self) -> None:
        from .tasks import recompute_season

        self.sent = True
        recompute_season.delay(self.season_id)


def _already_scheduled(season_id: int) -> bool:
    conn = transaction.get_connection()
    if not conn.in_atomic_block:
        return False
    return any(
        isinstance(func, _EnqueueRecompute) and func.season_id == season_id and not func.sent
        for _, func, _robust in conn.run_on_commit
    )


def seasons_affected(*, season_ids: set[int]) -> list[int]:
    """The seasons whose standings read these seasons: themselves, and for systems that read
    earlier seasons (the board-game cap and LUDO) every later season of the same series."""
    result = set(season_ids)
    rows = Season.objects.filter(pk__in=season_ids).values_list(
        "series_id", "label", "series__system"
    )
    for series_id, label, system in rows:
        spec = SYSTEMS.get(system)
        if spec and spec.depends_on_previous:
            result.update(
                Season.objects.filter(series_id=series_id, label__gt=label).values_list(
                    "pk", flat=True
                )
            )
    return sorted(result)


def season_recompute_request(*, season_ids: set[int]) -> None:
    """Mark the seasons' standings stale and send one recompute task each after commit.

    Every change bumps data_version, even when a task is already scheduled in this transaction:
    a recompute run meanwhile (e.g. by an import inside the same transaction) must not make the
    later change look computed.
    """
    affected = seasons_affected(season_ids=season_ids)
    Season.objects.filter(pk__in=affected).update(data_version=F("data_version") + 1)
    for sid in affected:
        if not _already_scheduled(sid):
            transaction.on_commit(_EnqueueRecompute(sid), robust=True)


def recompute_lock_key(season_id: int) -> int:
    """The season's PostgreSQL advisory lock key: one bigint, our namespace in the high bits."""
    return (RECOMPUTE_LOCK_NAMESPACE << 40) + season_id % (1 << 40)


def _lock_season(season_id: int) -> None:
    # An advisory lock instead of a row lock: result entry keeps writing the season row
    # (data_version) while a recompute runs, and must not wait for it.
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [recompute_lock_key(season_id)])


def season_recompute(*, season_id: int, force: bool = False) -> bool:
    """Recompute every standings table of the season in full and store it.

    Returns False when there was nothing to do (the season is gone, its system has no engine
    yet, or a recompute already stored standings of the current data version).
    """
    with transaction.atomic():
        _lock_season(season_id)
        season = Season.objects.select_related("series").filter(pk=season_id).first()
        if season is None:
            return False
        if not force and season.standings_version >= season.data_version:
            return False
        spec = SYSTEMS.get(season.system)
        if spec is None:
            return False
        version = season.data_version
        tables = spec.standings_module().compute(season)
        StandingsTable.objects.filter(season=season).delete()
        StandingsTable.objects.bulk_create(tables)
        Season.objects.filter(pk=season_id).update(
            standings_version=version, standings_computed_at=timezone.now()
        )
    logger.info("recomputed season %s (data version %s)", season_id, version)
    return True


def standings_document(*, season: Season) -> dict:
    return get_system(season.system).standings_module().document(season)
