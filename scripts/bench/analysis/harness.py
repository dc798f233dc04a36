"""What the analyses of this folder share (not part of `make bench`): the bench's environment
(its database, DEBUG off, tasks in process), the app loaded as the bench loads it, and the
report of a skeleton beside the floor, the real full recompute and the fixed part.

The fixed part is what a full recompute of a season with no results costs (the lock, the season
read, the version claim, the stored index, the system's reads of its tournaments or rounds,
finding nothing, and the commit): no amount of per-line work removes it.

Import it first: it sets the environment before Django is loaded."""

import importlib
import os
import statistics
import sys
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parent / "systems")]
os.environ["DATABASE_URL"] = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/clubsite_bench"
)
os.environ["CELERY_BROKER_URL"] = ""
os.environ["DEBUG"] = "false"  # as the bench runs
os.environ.setdefault("LOG_LEVEL", "WARNING")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")


def load_app() -> None:
    """The app loaded and frozen as the bench loads it, before what needs it."""
    importlib.import_module("clubsite.wsgi")


@contextmanager
def empty_season(like):
    """A season of `like`'s system and settings in a series of its own, without results,
    deleted afterwards (with its series, the stored standings and anything else of it)."""
    from competitions.models import Season, Series

    slug = f"{like.series.slug}-empty"
    Series.objects.filter(slug=slug).delete()  # left by a run that was stopped halfway
    series = Series.objects.create(
        slug=slug,
        name=f"{like.series.name} (empty)",
        system=like.series.system,
    )
    try:
        yield Season.objects.create(
            series=series, label=like.label, name=f"{like.name} (empty)", settings=like.settings
        )
    finally:
        series.delete()


def report(
    season,
    skeletons: dict[str, Callable[[], object]],
    floor: Callable[[], object],
) -> None:
    """Print each skeleton (`<name>_vs_load`), the real full recompute and the fixed part (a
    full recompute of an empty season of the same system), each ÷ the floor: three ratios of
    medians measured side by side for each, and their median."""
    from common import side_by_side

    from rankings.services import season_recompute

    def recompute(season_id: int) -> Callable[[], object]:
        return lambda: season_recompute(season_id=season_id, force=True)

    def ratios(func: Callable[[], object]) -> list[float]:
        found = []
        for _ in range(3):
            t_func, t_floor = side_by_side(func, floor)
            found.append(t_func / t_floor)
        return found

    figures = {f"{name}_vs_load": ratios(func) for name, func in skeletons.items()}
    figures["recompute_vs_load"] = ratios(recompute(season.pk))
    with empty_season(season) as empty:
        recompute(empty.pk)()  # stored once, as the measured season's standings are
        figures["empty_season_vs_load"] = ratios(recompute(empty.pk))
    for name, runs in figures.items():
        shown = " ".join(f"{r:.2f}" for r in runs)
        print(f"{name}: {statistics.median(runs):.2f}  # runs: {shown}")
