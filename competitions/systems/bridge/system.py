"""The bridge pool ladder (rules.md §5): its registration in the data layer."""

from django.utils.translation import gettext_lazy as _

from competitions.registry import DemoSeries, SystemSpec, register

from . import demo
from .models import Challenge, ChallengeScore, Pool, PoolMember
from .settings import SPEC as SETTINGS

KEY = "bridge-ladder"

register(
    SystemSpec(
        key=KEY,
        name=_("Bridge pool ladder"),
        settings=SETTINGS,
        result_models={
            Pool: lambda o: {o.round.season_id},
            PoolMember: lambda o: {o.round.season_id},
            Challenge: lambda o: {o.round.season_id},
            ChallengeScore: lambda o: {o.challenge.round.season_id},
        },
        file_section="competitions.systems.bridge.interchange",
        manage_urls=("competitions.systems.bridge.urls",),
        manage_panel="competitions.systems.bridge.views.season_panel",
        admin="competitions.systems.bridge.admin",
        demo=DemoSeries(
            slug=demo.SERIES,
            name=demo.SERIES_NAME,
            files=demo.ladder_files,
            last_season=demo.SEASONS[-1],
        ),
    )
)
