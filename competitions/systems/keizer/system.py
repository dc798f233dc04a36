"""The Keizer club competition (rules.md §4): its registration in the data layer.

Its results are the shared games and round entries (competitions.models.games): one round per
club evening, one entry per player with his attendance, and after the pairing his game (with
colour) or bye. The season's list is its entries (SeasonPlayer.position), with the start points
set by hand (models.StartPoints).
"""

from django.utils.translation import gettext_lazy as _

from competitions.models import Game, Round, RoundEntry
from competitions.registry import DemoSeries, SystemSpec, register

from . import demo
from .models import StartPoints
from .settings import SPEC as SETTINGS

KEY = "keizer"
# A change's scope (SystemSpec.change_scope): the evening (Round pk) it is in.
SCOPE_ROUND = "round:"


def change_scope(model: type, row) -> str | None:
    """What a saved game, round entry or evening reaches: its evening, and the lists from that
    evening on (rankings.systems.keizer.standings.update). Anything else (the season's list,
    its settings, a name): the whole season."""
    if model in (Game, RoundEntry) and row.round_id is not None:
        return f"{SCOPE_ROUND}{row.round_id}"
    if model is Round and row.pk is not None:
        return f"{SCOPE_ROUND}{row.pk}"
    return None


register(
    SystemSpec(
        key=KEY,
        name=_("Keizer club competition"),
        settings=SETTINGS,
        result_models={StartPoints: lambda o: {o.entry.season_id}},
        change_scope=change_scope,
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
