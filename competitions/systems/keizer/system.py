"""The Keizer club competition (rules.md §4): its registration in the data layer.

Its results are the shared games and round entries (competitions.models.games): one round per
club evening, one entry per player with his attendance, and after the pairing his game (with
colour) or bye. The season's list is its entries (SeasonPlayer.position, start_points).
"""

from django.utils.translation import gettext_lazy as _

from competitions.registry import DemoSeries, SystemSpec, register

from . import demo
from .settings import SPEC as SETTINGS

KEY = "keizer"

register(
    SystemSpec(
        key=KEY,
        name=_("Keizer club competition"),
        settings=SETTINGS,
        file_section="competitions.systems.keizer.interchange",
        manage_urls=("competitions.systems.keizer.urls",),
        manage_panel="competitions.systems.keizer.views.season_panel",
        admin="competitions.systems.keizer.admin",
        demo=DemoSeries(
            slug=demo.SERIES,
            name=demo.SERIES_NAME,
            files=demo.club_files,
            last_season=demo.SEASON,
        ),
    )
)
