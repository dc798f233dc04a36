from celery import shared_task

from .services import season_recompute


@shared_task(name="rankings.recompute_season")
def recompute_season(season_id: int) -> bool:
    return season_recompute(season_id=season_id)
