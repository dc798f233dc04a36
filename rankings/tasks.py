"""Celery tasks: thin wrappers over the services, carrying ids and versions, not objects."""

from celery import shared_task

from competitions.models import Season

from .services import RecomputeBusy, season_recompute


@shared_task(
    name="rankings.recompute_season",
    autoretry_for=(RecomputeBusy,),
    retry_backoff=True,
    max_retries=10,
)
def recompute_season(season_id: int, data_version: int | None = None) -> bool:
    """Recompute the season unless standings of `data_version` (or newer) are stored already:
    a duplicate or late message does nothing."""
    if data_version is not None:
        stored = (
            Season.objects.filter(pk=season_id).values_list("standings_version", flat=True).first()
        )
        if stored is None or stored >= data_version:
            return False
    return season_recompute(season_id=season_id)
