"""Youth chess groups and BGP points (rules.md §3): its registration in the data layer."""

from django.utils.translation import gettext_lazy as _

from competitions.registry import BOOL, DemoSeries, Setting, SettingsSpec, SystemSpec, register

from . import demo
from .models import GroupPlayer
from .settings import SPEC as SETTINGS

KEY = "chess-bgp"

register(
    SystemSpec(
        key=KEY,
        name=_("Chess groups and BGP points"),
        settings=SETTINGS,
        tournament_options=SettingsSpec(
            fields=(Setting("county_championship", _("County championship"), BOOL, False),)
        ),
        result_models={GroupPlayer: lambda o: {o.group.tournament.season_id}},
        file_section="competitions.systems.chess.interchange",
        manage_urls=("competitions.systems.chess.urls",),
        manage_panel="competitions.systems.chess.views.season_panel",
        admin="competitions.systems.chess.admin",
        demo=DemoSeries(
            slug=demo.SERIES,
            name=demo.SERIES_NAME,
            files=demo.season_files,
            last_season=demo.SEASONS[-1],
        ),
    )
)
