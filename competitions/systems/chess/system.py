"""Youth chess groups and BGP points (rules.md §3): its registration in the data layer."""

from django.utils.translation import gettext_lazy as _

from competitions.models import Game, Group, Round, RoundEntry
from competitions.registry import DemoSeries, SystemSpec, register

from . import demo
from .models import GroupPlayer
from .settings import GROUP_OPTIONS, TOURNAMENT_OPTIONS
from .settings import SPEC as SETTINGS

KEY = "chess-bgp"
TOURNAMENT_SCOPE = "t:"


def change_scope(model: type, row) -> str | None:
    """The tournament a changed row reaches (`t:<tournament id>`, see
    rankings.systems.chess.standings.update): a group, its players, its rounds, games and
    walkovers. None (the whole season) for anything else, or a row whose parent is gone."""
    if model is Group:
        return f"{TOURNAMENT_SCOPE}{row.tournament_id}"
    if model is Round:
        if row.group_id and row.tournament_id:
            return f"{TOURNAMENT_SCOPE}{row.tournament_id}"
        return None
    if model is GroupPlayer:
        found = Group.objects.filter(pk=row.group_id).values_list("tournament_id", flat=True)
    elif model in (Game, RoundEntry):
        if model.round.is_cached(row):  # e.g. a round's games saved from the round
            return change_scope(Round, row.round)
        found = Round.objects.filter(pk=row.round_id, group__isnull=False).values_list(
            "tournament_id", flat=True
        )
    else:
        return None
    tournament = found.first()
    return f"{TOURNAMENT_SCOPE}{tournament}" if tournament else None


register(
    SystemSpec(
        key=KEY,
        name=_("Chess groups and BGP points"),
        settings=SETTINGS,
        tournament_options=TOURNAMENT_OPTIONS,
        group_options=GROUP_OPTIONS,
        group_page="competitions.systems.chess.views.group_page",
        result_models={GroupPlayer: lambda o: {o.group.tournament.season_id}},
        change_scope=change_scope,
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
