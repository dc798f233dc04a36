"""Read paths of the rankings app."""

from competitions.models import Season

from .models import StandingsTable
from .services import season_recompute, standings_document


def fresh_standings_document(*, season: Season) -> dict:
    """The standings document; recomputed first, here and now, if the stored one is stale."""
    if season.recomputing or not season.standings_tables.exists():
        season_recompute(season_id=season.pk, force=not season.recomputing)
        season.refresh_from_db()
    return standings_document(season=season)


def standings_table(*, season: Season, kind: str, key: str = "") -> StandingsTable | None:
    return StandingsTable.objects.filter(season=season, kind=kind, key=key).first()
