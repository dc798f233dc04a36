"""Bridge ladder: one changed result recomputes its round, the later rounds and the Elo ranking
(Elo is sequential), starting from the exact ratings stored with the round before; the stored
standings are exactly those of a full recompute."""

from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competitions.edits import Edit
from competitions.models import Round
from competitions.systems.bridge.ladder import state
from competitions.systems.bridge.models import ChallengeScore, Pool, PoolMember
from competitions.systems.bridge.selectors import ladder_data
from competitions.systems.bridge.services import members_swap, pool_scores_save
from rankings.imports import import_competition
from rankings.models import StandingsTable
from rankings.services import season_recompute
from rankings.systems.bridge.standings import stored_next_pools
from tests.bridge_files import big_ladder
from tests.helpers import clear_standings
from tests.rankings.conftest import reached

pytestmark = pytest.mark.django_db


def stored(season) -> dict:
    return {
        (t.kind, t.key): (
            t.position,
            t.data,
            [(r.player_id, r.rank, r.points, r.detail) for r in t.rows.order_by("position")],
        )
        for t in StandingsTable.objects.filter(season=season).prefetch_related("rows")
    }


def table_ids(season) -> dict:
    return dict(
        ((kind, key), pk)
        for kind, key, pk in StandingsTable.objects.filter(season=season).values_list(
            "kind", "key", "pk"
        )
    )


def assert_same_as_full(season) -> None:
    incremental = stored(season)
    clear_standings(season)
    season_recompute(season_id=season.pk, force=True)
    assert stored(season) == incremental


@pytest.fixture(scope="module")
def ladder_file():
    return big_ladder(4, 5, series="inc", seed=7)


def change_score(season, number, pool_number, delta, capture):
    round_ = Round.objects.get(season=season, number=number)
    pool = Pool.objects.get(round=round_, number=pool_number)
    member = pool.members.order_by("position").first()
    score = ChallengeScore.objects.filter(
        challenge__round=round_, challenge__number=2, player_id=member.player_id
    ).first()
    imps = (score.imps if score else Decimal(0)) + delta
    with capture(execute=True):
        pool_scores_save(pool=pool, rows=[Edit.sent((member.player_id, 2), imps)], challenges=3)


def test_a_changed_score_recomputes_its_round_the_later_ones_and_the_elo_ranking(
    ladder_file, recomputed, django_capture_on_commit_callbacks
):
    season = import_competition(ladder_file)
    before = set(table_ids(season))
    change_score(season, 3, 2, Decimal(40), django_capture_on_commit_callbacks)
    season.refresh_from_db()
    assert not season.stale
    assert set(table_ids(season)) == before
    kept = before - reached(recomputed, season)
    assert kept == {("round", "1"), ("round", "2"), ("carry", "1"), ("carry", "2")}
    assert_same_as_full(season)


def test_a_manual_move_recomputes_from_its_round(
    ladder_file, recomputed, django_capture_on_commit_callbacks
):
    season = import_competition(ladder_file)
    before = set(table_ids(season))
    round_ = Round.objects.get(season=season, number=4)
    first = PoolMember.objects.get(round=round_, pool__number=1, position=0)
    second = PoolMember.objects.get(round=round_, pool__number=2, position=0)
    with django_capture_on_commit_callbacks(execute=True):
        members_swap(first=first, second=second, reason="test")
    assert before - reached(recomputed, season) == {
        (kind, str(n)) for kind in ("round", "carry") for n in (1, 2, 3)
    }
    assert_same_as_full(season)


@given(
    changes=st.lists(
        st.tuples(
            st.integers(min_value=1, max_value=5),
            st.integers(min_value=1, max_value=4),
            st.integers(min_value=-30, max_value=30),
        ),
        min_size=1,
        max_size=3,
    )
)
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
def test_incremental_updates_store_exactly_what_a_full_recompute_stores(
    ladder_file, django_capture_on_commit_callbacks, changes
):
    season = import_competition(
        {**ladder_file, "series": f"inc-{abs(hash(tuple(changes))) % 10**9}"}
    )
    for number, pool, delta in changes:
        change_score(season, number, pool, Decimal(delta), django_capture_on_commit_callbacks)
        # The pools the last round's moves give, as the next-round page reads them stored,
        # are those the engine gives over the whole season.
        assert stored_next_pools(season.pk, 5) == state(ladder_data(season)).next_pools
    assert_same_as_full(season)


def test_a_carry_stored_without_rounds_played_gets_one_full_recompute_then_updates(
    ladder_file, recomputed, django_capture_on_commit_callbacks
):
    """Carries stored before they counted the rounds each player has played: the first change
    recomputes the whole season (which stores the counts), the next one only its rounds."""
    season = import_competition(ladder_file)
    for table in StandingsTable.objects.filter(season=season, kind="carry"):
        table.data.pop("played")
        table.save(update_fields=["data"])
    change_score(season, 3, 2, Decimal(40), django_capture_on_commit_callbacks)
    assert reached(recomputed, season) == set()  # no update: a full recompute
    assert all(
        "played" in t.data for t in StandingsTable.objects.filter(season=season, kind="carry")
    )
    recomputed.clear()
    change_score(season, 3, 2, Decimal(-40), django_capture_on_commit_callbacks)
    assert ("round", "3") in reached(recomputed, season)
    assert ("round", "1") not in reached(recomputed, season)
    elo = StandingsTable.objects.get(season=season, kind="elo")
    rounds = Round.objects.filter(season=season).count()
    assert {row.detail["rounds"] for row in elo.rows.all()} == {rounds}  # everyone, every round
    assert_same_as_full(season)
