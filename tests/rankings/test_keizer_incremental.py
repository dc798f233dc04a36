"""One changed result of a Keizer season recomputes only what it reaches (rankings.systems.keizer.
standings.update): the evening, the lists from that evening on. Whatever the changes, the stored
standings are exactly those of a full recompute."""

import itertools
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competitions.models import Game, Round, RoundEntry, Season
from competitions.systems.keizer import services
from rankings.imports import import_competition
from rankings.models import StandingsTable
from rankings.services import season_recompute
from tests.helpers import clear_standings, stored
from tests.keizer_data import generated_file
from tests.rankings.conftest import reached

pytestmark = pytest.mark.django_db

RESULTS = ["1-0", "0-1", "1/2-1/2", "+-", "-+", ""]
NOT_PLAYING = [RoundEntry.Status.ABSENT, RoundEntry.Status.EXTERNAL, RoundEntry.Status.UNEXCUSED]
names = itertools.count()


def table_ids(season: Season) -> dict[tuple[str, str], int]:
    return {
        (kind, key): pk
        for kind, key, pk in StandingsTable.objects.filter(season=season).values_list(
            "kind", "key", "pk"
        )
    }


def full_recompute(season: Season) -> str:
    clear_standings(season)
    season_recompute(season_id=season.pk, force=True)
    return stored(season)


def test_a_changed_result_rewrites_only_the_lists_from_its_evening_on(
    recomputed,
    django_capture_on_commit_callbacks,
):
    season = import_competition(generated_file(12, 8, seed=3, series="incremental"))
    before = table_ids(season)
    game = Game.objects.filter(round__season=season, round__number=5).order_by("board").first()
    with django_capture_on_commit_callbacks(execute=True):
        services.game_result_set(game=game, result="1/2-1/2" if game.result != "1/2-1/2" else "1-0")
    after = table_ids(season)
    assert after.keys() == before.keys()
    kept = set(before) - reached(recomputed, season)
    assert kept == {("list", str(k)) for k in range(5)} | {
        ("round", str(n)) for n in (1, 2, 3, 4, 6, 7, 8)
    }
    assert not Season.objects.get(pk=season.pk).stale
    incremental = stored(season)
    assert incremental == full_recompute(season)


change = st.one_of(
    st.tuples(st.just("result"), st.integers(0, 9), st.integers(0, 20), st.sampled_from(RESULTS)),
    st.tuples(
        st.just("status"), st.integers(0, 9), st.integers(0, 20), st.sampled_from(NOT_PLAYING)
    ),
    st.tuples(st.just("date"), st.integers(0, 9), st.integers(0, 20), st.integers(1, 3)),
)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 1000), changes=st.lists(change, min_size=1, max_size=4))
def test_incremental_updates_store_exactly_what_a_full_recompute_stores(
    django_capture_on_commit_callbacks, seed, changes
):
    season = import_competition(generated_file(10, 7, seed=seed, series=f"prop-{next(names)}"))
    rounds = list(Round.objects.filter(season=season).order_by("number"))
    for what, evening, index, value in changes:
        round_ = rounds[evening % len(rounds)]
        with django_capture_on_commit_callbacks(execute=True):
            if what == "result":
                games = list(round_.games.order_by("board"))
                if not games:
                    continue
                services.game_result_set(game=games[index % len(games)], result=value)
            elif what == "status":
                entries = list(round_.entries.filter(status__in=NOT_PLAYING).order_by("pk"))
                if not entries:
                    continue
                entry = entries[index % len(entries)]
                entry.status = value
                entry.save()
            else:
                round_.date = round_.date + timedelta(days=value)
                round_.save()
        assert not Season.objects.get(pk=season.pk).stale
    incremental = stored(season)
    assert incremental == full_recompute(season)


def test_attendance_pairing_and_undo_update_from_their_evening(
    recomputed, django_capture_on_commit_callbacks
):
    from pairings.systems.keizer.pairing import pair_next_round, save

    season = import_competition(generated_file(11, 4, seed=8, series="evening-by-evening"))
    entries = list(season.entries.select_related("player"))
    statuses = {e: "present" for e in entries}
    statuses[entries[2]] = "absent"
    with django_capture_on_commit_callbacks(execute=True):
        services.attendance_save(season=season, number=5, date=None, statuses=statuses)
    before = table_ids(season)
    recomputed.clear()
    with django_capture_on_commit_callbacks(execute=True):
        save(season, pair_next_round(season))
    round_ = Round.objects.get(season=season, number=5)
    assert set(before) - reached(recomputed, season) >= {("list", str(k)) for k in range(4)}
    assert stored(season) == full_recompute(season)
    with django_capture_on_commit_callbacks(execute=True):
        services.round_pairing_undo(round_=round_)
    assert stored(season) == full_recompute(season)


def test_two_volunteers_of_an_evening_load_as_the_greater_key_whatever_the_row_order():
    """The evenings are read in no order: of two players both marked as the evening's
    volunteer for the bye (nothing in the database forbids it), the greater key is it, as when
    the rows came sorted by key."""
    from rankings.systems.keizer.standings import load_rounds

    season = import_competition(generated_file(8, 2, seed=4, series=f"vol-{next(names)}"))
    first = Round.objects.get(season=season, number=1)
    entries = list(RoundEntry.objects.filter(round=first).order_by("player__key"))
    RoundEntry.objects.filter(round=first).update(volunteer_bye=False)
    chosen = [entries[1], entries[-1]]
    for order in (chosen, list(reversed(chosen))):
        for entry in order:  # the row written last tends to come last in a plain read
            RoundEntry.objects.filter(pk=entry.pk).update(volunteer_bye=True)
        evening = next(r for r in load_rounds(season) if r["number"] == 1)
        assert evening["volunteer"] == max(e.player.key for e in chosen)
        RoundEntry.objects.filter(round=first).update(volunteer_bye=False)
