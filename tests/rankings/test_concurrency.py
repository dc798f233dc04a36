"""Two recomputes of one season never interleave (architecture.md: the per-season lock).

PostgreSQL only: the lock is an advisory lock, and SQLite serialises writers anyway. Each test
runs two real threads, each on its own database connection, against committed data.
"""

import time

import pytest
from django.db import connection, transaction

from competitions.registry import get_system
from rankings import services
from rankings.imports import import_competition
from tests.concurrency import Interval, in_two_threads, overlap, timed
from tests.helpers import patch_standings

# Long enough that two unlocked computes started together surely overlap.
COMPUTE_SECONDS = 0.4


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip(f"the per-season lock is a PostgreSQL advisory lock, not {connection.vendor}")


@pytest.fixture
def timed_compute(monkeypatch) -> list[Interval]:
    """Wrap the season's real compute: record (thread, start, end), sleeping inside."""
    intervals: list[Interval] = []
    real_compute = get_system("boardgame-circuit").standings.compute
    patch_standings(
        monkeypatch, "boardgame-circuit", compute=timed(real_compute, intervals, COMPUTE_SECONDS)
    )
    return intervals


def recompute_in_two_threads(season_id: int) -> tuple[dict[str, object], dict[str, BaseException]]:
    """Start two forced recomputes of the season at the same moment; wait for both."""
    return in_two_threads(
        lambda: services.season_recompute(season_id=season_id, force=True), "recompute"
    )


@pytest.mark.django_db(transaction=True)
def test_two_recomputes_of_one_season_never_interleave(circuit_file, timed_compute):
    season = import_competition(circuit_file)
    timed_compute.clear()

    results, errors = recompute_in_two_threads(season.pk)

    assert errors == {}
    assert results == {"recompute-1": True, "recompute-2": True}
    first, second = sorted(timed_compute, key=lambda i: i.start)
    assert {first.thread, second.thread} == {"recompute-1", "recompute-2"}
    assert not overlap(first, second), f"{first} and {second} overlap"
    assert first.end <= second.start
    season.refresh_from_db()
    assert season.standings_version == season.data_version


@pytest.mark.django_db(transaction=True)
def test_without_the_lock_two_recomputes_do_interleave(circuit_file, timed_compute, monkeypatch):
    """Proves the test above is not vacuous: only the lock keeps the computes apart."""
    season = import_competition(circuit_file)
    timed_compute.clear()
    monkeypatch.setattr(services, "_lock_season", lambda season_id, **_kw: None)

    _results, errors = recompute_in_two_threads(season.pk)

    first, second = sorted(timed_compute, key=lambda i: i.start)
    assert {first.thread, second.thread} == {"recompute-1", "recompute-2"}
    assert overlap(first, second), f"{first} and {second} did not overlap"
    # Unlocked, the later writer may also trip over the rows the other one just stored.
    assert all(type(exc).__name__ == "IntegrityError" for exc in errors.values()), errors


@pytest.mark.django_db(transaction=True)
def test_a_recompute_waits_for_the_lock_at_most_the_timeout(circuit_file, settings):
    """A recompute stuck behind another one gives up (the task retries later) instead of
    holding a worker for ever."""
    from django.db import connections

    season = import_competition(circuit_file)
    settings.RECOMPUTE_LOCK_TIMEOUT = 0.3
    holder = connections.create_connection("default")
    try:
        with holder.cursor() as cursor:
            cursor.execute("BEGIN")
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s)", [services.recompute_lock_key(season.pk)]
            )
            started = time.monotonic()
            with pytest.raises(services.RecomputeBusy):
                services.season_recompute(season_id=season.pk, force=True)
            assert 0.3 <= time.monotonic() - started < 5
            cursor.execute("ROLLBACK")
    finally:
        holder.close()
    assert services.season_recompute(season_id=season.pk, force=True), "free again"


def _synchronous_commit() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        return cursor.fetchone()[0]


@pytest.fixture
def seen_in_recompute(monkeypatch) -> list[str]:
    """The connection's synchronous_commit while the recompute claims its version (inside its
    transaction)."""
    seen: list[str] = []
    real_claim = services._claim

    def claim(*args, **kwargs):
        seen.append(_synchronous_commit())
        return real_claim(*args, **kwargs)

    monkeypatch.setattr(services, "_claim", claim)
    return seen


@pytest.mark.django_db(transaction=True)
def test_a_recompute_in_its_own_transaction_commits_without_waiting_for_the_disk(
    circuit_file, seen_in_recompute
):
    season = import_competition(circuit_file)
    seen_in_recompute.clear()
    assert services.season_recompute(season_id=season.pk, force=True)
    assert seen_in_recompute == ["off"]
    assert _synchronous_commit() == "on", "for that transaction only"
    season.refresh_from_db()
    assert season.standings_version == season.data_version


@pytest.mark.django_db(transaction=True)
def test_a_recompute_inside_a_callers_transaction_leaves_its_commit_as_it_was(
    circuit_file, seen_in_recompute
):
    """The caller's own writes share that commit: they must wait for the disk as usual."""
    season = import_competition(circuit_file)
    seen_in_recompute.clear()
    with transaction.atomic():
        assert services.season_recompute(season_id=season.pk, force=True)
        assert _synchronous_commit() == "on"
    assert seen_in_recompute == ["on"]
