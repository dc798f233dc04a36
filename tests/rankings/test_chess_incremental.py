"""One changed result recomputes only its tournament (SystemSpec.change_scope, Standings.update),
and the standings it stores are exactly those of a full recompute."""

import pytest
from django.test import TestCase
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competitions.edits import Edit
from competitions.models import Game, Group, Season
from competitions.systems.chess.models import GroupPlayer
from competitions.systems.chess.services import results_save
from rankings.imports import import_competition
from rankings.models import StandingsTable
from rankings.services import season_recompute
from tests.chess_files import chess_file
from tests.competitions.test_chess_roundtrip_property import chess_files
from tests.helpers import clear_standings
from tests.rankings.conftest import reached

pytestmark = pytest.mark.django_db

RESULTS = ["1-0", "0-1", "1/2-1/2", "+-", "-+", ""]


def snapshot(season) -> list:
    """Every stored table with its rows, without database ids."""
    return [
        (
            t.kind,
            t.key,
            t.position,
            t.data,
            list(
                t.rows.order_by("position").values_list(
                    "player_id", "position", "rank", "points", "detail"
                )
            ),
        )
        for t in StandingsTable.objects.filter(season=season).order_by("kind", "position", "key")
    ]


def table_ids(season) -> dict:
    return {
        (kind, key): pk
        for kind, key, pk in StandingsTable.objects.filter(season=season).values_list(
            "kind", "key", "pk"
        )
    }


def test_a_changed_result_rewrites_only_its_tournament_and_the_classes_it_moves(recomputed):
    season = import_competition(chess_file())
    before = table_ids(season)
    game = Game.objects.get(round__group__name="Gruppe A", round__number=1, result="1-0")
    with TestCase.captureOnCommitCallbacks(execute=True):
        results_save(round_=game.round, rows=[Edit.sent(game.pk, "0-1")])
    assert table_ids(season).keys() == before.keys()
    assert not Season.objects.get(pk=season.pk).stale
    changed = reached(recomputed, season)
    # Klyve's groups and BGP table; the other tournament (km) stays as stored.
    assert ("bgp", "klyve") in changed and ("bgp", "km") not in changed
    km = {
        ("group", str(pk))
        for pk in Group.objects.filter(tournament__key="km").values_list("pk", flat=True)
    }
    klyve = {
        ("group", str(pk))
        for pk in Group.objects.filter(tournament__key="klyve").values_list("pk", flat=True)
    }
    assert km and not km & changed
    assert klyve <= changed
    incremental = snapshot(season)
    clear_standings(season)
    season_recompute(season_id=season.pk, force=True)
    assert snapshot(season) == incremental


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    data=chess_files(),
    changes=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 5)), max_size=4),
    classes=st.lists(
        st.tuples(st.integers(0, 10**6), st.sampled_from(["Kadett", "Lilleputt", "Junior", ""])),
        max_size=2,
    ),
)
def test_incremental_updates_store_exactly_what_a_full_recompute_stores(data, changes, classes):
    season = import_competition(data, replace=True)
    season_recompute(season_id=season.pk, force=True)
    games = list(Game.objects.filter(round__season=season).order_by("pk"))
    members = list(GroupPlayer.objects.filter(group__tournament__season=season).order_by("pk"))
    with TestCase.captureOnCommitCallbacks(execute=True):
        for pick, result in changes:
            if games:
                game = games[pick % len(games)]
                results_save(round_=game.round, rows=[Edit.sent(game.pk, RESULTS[result])])
    with TestCase.captureOnCommitCallbacks(execute=True):
        for pick, name in classes:
            if members:
                member = members[pick % len(members)]
                member.player_class = name
                member.save(update_fields=["player_class"])
    assert not Season.objects.get(pk=season.pk).stale
    incremental = snapshot(season)
    clear_standings(season)
    season_recompute(season_id=season.pk, force=True)
    assert snapshot(season) == incremental
