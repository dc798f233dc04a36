"""The Othello Grand Prix (rules.md §2): its registration in the data layer."""

from django.utils.translation import gettext_lazy as _

from competitions.registry import DemoSeries, SystemSpec, register

from . import demo
from .models import Placement
from .scopes import change_scope
from .settings import SPEC as SETTINGS
from .settings import TOURNAMENT_OPTIONS

KEY = "othello-gp"

register(
    SystemSpec(
        key=KEY,
        name=_("Othello Grand Prix"),
        settings=SETTINGS,
        tournament_options=TOURNAMENT_OPTIONS,
        result_models={Placement: lambda o: {o.tournament.season_id}},
        change_scope=change_scope,
        file_section="competitions.systems.othello.interchange",
        manage_urls=("competitions.systems.othello.urls",),
        manage_panel="competitions.systems.othello.views.season_panel",
        admin="competitions.systems.othello.admin",
        demo=DemoSeries(
            slug=demo.SERIES,
            name=demo.SERIES_NAME,
            files=demo.gp_files,
            last_season=demo.SEASONS[-1],
        ),
    )
)
