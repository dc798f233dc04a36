"""The pipeline with the real thing: a Redis broker and a Celery worker process.

Needs CELERY_TEST_BROKER_URL (a Redis URL) and PostgreSQL: the worker is a separate process and
must see the data the test commits, in the pytest-django test database. Missing either skips
here and fails in CI (CLUBSITE_REQUIRE_SERVICES=1).
"""

import sys
import uuid
from collections.abc import Iterator

import pytest
from django.db import transaction

from rankings.imports import import_competition
from rankings.services import season_recompute
from tests.helpers import daily, stored
from tests.rankings.worker_harness import (
    Worker,
    celery_through_broker,
    forget_queue,
    season_locked,
    set_rank,
    wait_until_current,
    worker_env,
)

pytestmark = pytest.mark.celery_worker


@pytest.fixture(scope="module")
def worker(broker_url, worker_database_url, tmp_path_factory) -> Iterator[Worker]:
    queue = f"clubsite-test-{uuid.uuid4().hex[:12]}"
    w = Worker(queue, tmp_path_factory.mktemp("celery-worker") / "worker.log")
    env = worker_env(broker_url, worker_database_url, queue)
    try:
        with celery_through_broker(broker_url, queue):
            w.start(env)
            w.wait_ready()
            yield w
            w.wait_idle()
    finally:
        w.stop()
        forget_queue(broker_url, queue)


@pytest.fixture(autouse=True)
def worker_log_on_failure(request, worker) -> Iterator[None]:
    """Show what the worker logged during a failed test (pytest only shows the test's output)."""
    offset = len(worker.log())
    failed_before = request.session.testsfailed
    yield
    worker.wait_idle()  # no task of this test may run into the next test's (flushed) data
    if request.session.testsfailed > failed_before:
        reporter = request.config.pluginmanager.get_plugin("terminalreporter")
        text = worker.log()[offset:]
        if reporter is not None:
            reporter.write_sep("-", f"celery worker log during {request.node.name}")
            reporter.write_line(text)
        else:
            sys.stderr.write(text)


# --- tests ------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_worker_stores_the_standings_of_a_result_changed_through_the_orm(worker, circuit_file):
    season = import_competition(circuit_file)  # recomputes in this process before returning
    worker.wait_idle()
    assert daily(season, "t1", "p1") == pytest.approx(104.5)

    # Holding the lock keeps the worker from finishing before the page state is checked. It
    # also proves the work is not done here: an eager recompute would get this session's lock.
    with season_locked(season.pk):
        with transaction.atomic():
            set_rank(season, "t1", 2, "p1", 1)  # ties p5 for first at a table of 2
        season.refresh_from_db()
        assert season.stale
        assert season.data_version > season.standings_version
        assert daily(season, "t1", "p1") == pytest.approx(104.5)

    season = wait_until_current(worker, season)
    # rules.md §1.1: round 1 Catan ranks 1,2,2,4 -> 104.5; round 2 tie for first of 2:
    # placement 50 + win bonus 2 + fraction 1/2 -> 52.5. Daily total 157.
    assert daily(season, "t1", "p1") == pytest.approx(157)
    assert daily(season, "t1", "p5") == pytest.approx(52.5)
    assert not season.stale


@pytest.mark.django_db(transaction=True)
def test_quick_successive_changes_end_in_the_state_a_synchronous_recompute_gives(
    worker, circuit_file
):
    season = import_competition(circuit_file)
    worker.wait_idle()
    changes = [
        ("t1", 2, "p1", 1),
        ("t1", 1, "p4", 3),
        ("t2", 1, "p5", 1),
        ("t1", 2, "p1", 2),
        ("t2", 1, "p4", 1),
        ("t1", 1, "p2", 1),
        ("final", 1, "p1", 1),
    ]
    for tournament, round_number, player, rank in changes:
        with transaction.atomic():
            set_rank(season, tournament, round_number, player, rank)

    season = wait_until_current(worker, season)
    worker.wait_idle()
    season.refresh_from_db()
    assert season.standings_version == season.data_version
    by_worker = stored(season)

    assert season_recompute(season_id=season.pk, force=True)  # in this process, same data
    assert stored(season) == by_worker
    # rules.md §1.1, t1 after the changes: Catan ranks p1 1, p2 1, p3 2, p4 3 -> p1 and p2 at
    # place 1.5 of 4: 250/3 + 4 + 5/12 = 87.75 each; Carcassonne back to p5 1, p1 2 -> p1 + 0.
    assert daily(season, "t1", "p1") == pytest.approx(87.75)
    assert daily(season, "t1", "p2") == pytest.approx(87.75)
