"""The fixed part of a recompute: what a full recompute of a season with no results costs (the
lock, the season read, the version claim, the stored index, the system's reads of its
tournaments or rounds, finding nothing, and the commit), timed side by side with a season's
floor. Used by the skeletons of this folder; not part of `make bench`."""

from contextlib import contextmanager


@contextmanager
def empty_season(like):
    """A season of `like`'s system and settings in a series of its own, without results,
    deleted afterwards (with its series, the stored standings and anything else of it)."""
    from competitions.models import Season, Series

    series = Series.objects.create(
        slug=f"{like.series.slug}-empty",
        name=f"{like.series.name} (empty)",
        system=like.series.system,
    )
    try:
        yield Season.objects.create(
            series=series, label=like.label, name=f"{like.name} (empty)", settings=like.settings
        )
    finally:
        series.delete()


def fixed_vs_load(like, floor, runs: int = 3) -> list[float]:
    """A full recompute of an empty season of `like`'s system ÷ `floor` (a callable), `runs`
    times, each the ratio of medians measured side by side."""
    from common import side_by_side

    from rankings.services import season_recompute

    ratios = []
    with empty_season(like) as empty:
        season_recompute(season_id=empty.pk, force=True)  # stored once, as the measured season
        for _ in range(runs):
            t_empty, t_floor = side_by_side(
                lambda: season_recompute(season_id=empty.pk, force=True), floor
            )
            ratios.append(t_empty / t_floor)
    return ratios
