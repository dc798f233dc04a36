"""Demo data for every competition system that has one (`manage.py load_demo`).

Each entry names the series it fills and a pure generator of its competition files
(interchange.md), in the order they must be imported (earlier seasons first).
"""

from collections.abc import Callable
from dataclasses import dataclass

from . import boardgame


@dataclass(frozen=True)
class DemoSeries:
    system: str
    slug: str
    name: str
    files: Callable[[], list[dict]]
    # The season whose presence means the demo is loaded already (the last one imported).
    last_season: str


DEMOS: tuple[DemoSeries, ...] = (
    DemoSeries(
        system=boardgame.SYSTEM,
        slug=boardgame.SERIES,
        name=boardgame.SERIES_NAME,
        files=boardgame.circuit_files,
        last_season=boardgame.SEASONS[-1],
    ),
)
