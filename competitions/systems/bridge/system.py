"""The bridge pool ladder (rules.md §5): its registration in the data layer."""

from django.utils.translation import gettext_lazy as _

from competitions.registry import DemoSeries, SystemSpec, register

from . import demo
from .models import Challenge, ChallengeScore, Pool, PoolMember, StartElo
from .settings import SPEC as SETTINGS

KEY = "bridge-ladder"
SCOPE_ROUND = "round:"


def change_scope(model: type, row) -> str | None:
    """The first round a change of a pool, a member, a challenge or an IMP score reaches: Elo
    is sequential, so that round, every later one and the Elo ranking; earlier rounds stay
    (rankings/systems/bridge/standings.py, update). None (the whole season) for anything
    else."""
    if model is ChallengeScore:
        round_ = row.challenge.round
    elif model in (Pool, PoolMember, Challenge):
        round_ = row.round
    else:
        return None
    if round_.tournament_id is not None:
        return None
    return round_scope(round_.number)


def round_scope(number: int) -> str:
    return f"{SCOPE_ROUND}{number}"


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
            StartElo: lambda o: {o.entry.season_id},
        },
        change_scope=change_scope,
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
