"""The board-game circuit (rules.md §1): its registration in the data layer."""

from django.utils.translation import gettext_lazy as _

from competitions.registry import DemoSeries, SystemSpec, register

from . import demo
from .models import HistoricTotal, Seat, Table
from .settings import SPEC as SETTINGS

KEY = "boardgame-circuit"

register(
    SystemSpec(
        key=KEY,
        name=_("Board-game circuit"),
        settings=SETTINGS,
        result_models={
            HistoricTotal: lambda o: {o.season_id},
            Table: lambda o: {o.round.season_id},
            Seat: lambda o: {o.round.season_id},
        },
        # The cap reads the previous season, LUDO the two before.
        reads_earlier_seasons=2,
        file_section="competitions.systems.boardgame.interchange",
        manage_urls=("competitions.systems.boardgame.urls",),
        manage_panel="competitions.systems.boardgame.views.season_panel",
        admin="competitions.systems.boardgame.admin",
        demo=DemoSeries(
            slug=demo.SERIES,
            name=demo.SERIES_NAME,
            files=demo.circuit_files,
            last_season=demo.SEASONS[-1],
        ),
    )
)
