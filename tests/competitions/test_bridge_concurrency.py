""" "Start next round" is idempotent under concurrency: two managers pressing it at the same
moment start the round once and move nobody twice.

PostgreSQL only (SQLite serialises writers anyway). Each test runs two real threads, each on its
own database connection, against committed data.
"""

import pytest
from django.db import connection

from competitions.models import Round
from competitions.systems.bridge import services
from competitions.systems.bridge.models import PoolMember
from competitions.systems.bridge.selectors import ladder_data
from rankings.imports import import_competition
from tests.bridge_files import big_ladder
from tests.concurrency import Interval, in_two_threads, overlap, timed

# Long enough that two unguarded starts begun together surely overlap.
PLAN_SECONDS = 0.4


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip(
            f"row locks and concurrent connections need PostgreSQL, not {connection.vendor}"
        )


@pytest.fixture
def timed_plan(monkeypatch) -> list[Interval]:
    """Wrap the real planning of the next round: record (thread, start, end), sleeping inside."""
    intervals: list[Interval] = []
    monkeypatch.setattr(
        services, "next_round_plan", timed(services.next_round_plan, intervals, PLAN_SECONDS)
    )
    return intervals


def start_in_two_threads(season) -> tuple[dict[str, object], dict[str, BaseException]]:
    return in_two_threads(lambda: services.next_round_start(season=season, number=4), "manager")


def assert_started_once(season, results, errors) -> None:
    assert errors == {}
    started = [r for r in results.values() if r is not None]
    assert len(started) == 1 and isinstance(started[0], Round)
    assert list(results.values()).count(None) == 1
    assert Round.objects.filter(season=season, number=4).count() == 1
    members = PoolMember.objects.filter(round__season=season, round__number=4)
    keys = list(members.values_list("player__key", flat=True))
    assert len(keys) == len(set(keys)) == 30  # everyone in exactly one pool, once
    rounds = ladder_data(season).rounds
    assert [len(p) for p in rounds[3].pools] == [len(p) for p in rounds[2].pools]


@pytest.mark.django_db(transaction=True)
def test_two_managers_starting_the_next_round_at_once_start_it_once(timed_plan):
    season = import_competition(big_ladder(6, 3, series="race"))

    results, errors = start_in_two_threads(season)

    assert_started_once(season, results, errors)
    # The second start waited for the first (the season's row lock), then found round 4.
    assert len(timed_plan) == 1, "the second start never planned: it saw the round started"


@pytest.mark.django_db(transaction=True)
def test_without_the_lock_the_database_still_refuses_a_second_round(timed_plan, monkeypatch):
    """Proves the test above is not vacuous: unlocked, both starts plan at the same time, and
    only the database's one-round-number-per-season keeps the second one out."""
    season = import_competition(big_ladder(6, 3, series="race"))
    monkeypatch.setattr(services, "_lock", lambda season: None)

    results, errors = start_in_two_threads(season)

    first, second = sorted(timed_plan, key=lambda i: i.start)
    assert overlap(first, second), f"{first} and {second} did not overlap"
    assert_started_once(season, results, errors)
