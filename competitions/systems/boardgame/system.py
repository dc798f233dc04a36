"""The board-game circuit (rules.md §1): its registration in the data layer."""

from django.utils.translation import gettext_lazy as _

from competitions.models import Round
from competitions.registry import DemoSeries, SystemSpec, register

from . import demo
from .models import FinalTournament, HistoricTotal, PreviousParticipants, Seat, Table
from .settings import SPEC as SETTINGS

KEY = "boardgame-circuit"


def tournament_scope(tournament_id: int) -> str:
    """The scope of a change within one tournament (rankings.systems.boardgame.standings)."""
    return f"t:{tournament_id}"


def change_scope(model, row) -> str | None:
    """What one changed table or seat reaches: its tournament ("t:<pk>"), and from there the
    season's aggregates (rankings.systems.boardgame.standings.update). Anything else (an
    imported total) recomputes the whole season."""
    if model not in (Seat, Table) or not row.round_id:
        return None
    tournament_id = (
        Round.objects.filter(pk=row.round_id).values_list("tournament_id", flat=True).first()
    )
    return tournament_scope(tournament_id) if tournament_id else None


register(
    SystemSpec(
        key=KEY,
        name=_("Board-game circuit"),
        settings=SETTINGS,
        result_models={
            HistoricTotal: lambda o: {o.season_id},
            FinalTournament: lambda o: {o.season_id},
            PreviousParticipants: lambda o: {o.season_id},
            Table: lambda o: {o.round.season_id},
            Seat: lambda o: {o.round.season_id},
        },
        # The cap reads the previous season, LUDO the two before.
        reads_earlier_seasons=2,
        change_scope=change_scope,
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
