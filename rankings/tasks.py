"""Celery tasks: thin wrappers over the services, carrying ids and versions, not objects."""

import logging

from celery import shared_task
from django.db import OperationalError

from .services import RecomputeBusy, record_recompute_error, season_recompute, stale_seasons

logger = logging.getLogger(__name__)


@shared_task(
    name="rankings.recompute_season",
    # A lock held too long, a deadlock, a serialisation failure, "database is locked": try again.
    autoretry_for=(RecomputeBusy, OperationalError),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=10,
)
def recompute_season(season_id: int, data_version: int | None = None) -> bool:
    """Recompute the season unless standings of `data_version` (or newer) are stored already:
    a duplicate or late message does nothing (checked in the recompute's first read)."""
    try:
        return season_recompute(season_id=season_id, unless_stored=data_version)
    except (RecomputeBusy, OperationalError):
        raise
    except Exception as exc:
        record_recompute_error(season_id, f"The recompute failed: {type(exc).__name__}: {exc}")
        raise


@shared_task(name="rankings.reconcile")
def reconcile() -> int:
    """Send a recompute for every season whose standings lag behind its results: run
    periodically (celery beat) and when a worker starts, so lost tasks heal by themselves."""
    stale = stale_seasons()
    for season_id, version in stale:
        recompute_season.delay(season_id, version)
    if stale:
        logger.info("reconcile: %s stale season(s) sent for recompute", len(stale))
    return len(stale)
