"""Standings always converge, whatever is lost on the way: a broker that is down when a result
is saved, a worker killed while it recomputes, a pool process killed mid-task. Real Redis, real
worker processes (SIGKILL by PID), the PostgreSQL test database."""

import time
import uuid
from collections.abc import Iterator

import pytest
from django.db import transaction

from competitions.models import Season
from rankings.imports import import_competition
from tests.helpers import daily
from tests.rankings.worker_harness import (
    Worker,
    celery_through_broker,
    forget_queue,
    season_locked,
    set_rank,
    wait_until_current,
    worker_env,
)

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

DEAD_BROKER = "redis://127.0.0.1:1/0"  # nothing listens on port 1


@pytest.fixture
def queue(broker_url) -> Iterator[str]:
    name = f"clubsite-converge-{uuid.uuid4().hex[:12]}"
    yield name
    forget_queue(broker_url, name)


@pytest.fixture
def workers(tmp_path, broker_url, worker_database_url, queue) -> Iterator[callable]:
    """Start workers on the test's queue (each fires the reconcile as it becomes ready)."""
    started: list[Worker] = []

    def start(pool: str = "solo") -> Worker:
        w = Worker(queue, tmp_path / f"worker-{len(started)}.log")
        w.start(worker_env(broker_url, worker_database_url, queue), pool=pool)
        started.append(w)
        w.wait_ready()
        return w

    with celery_through_broker(broker_url, queue):
        yield start
    for w in started:
        w.stop()


def wait_for(condition, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} after {timeout} s")
        time.sleep(0.1)


def test_a_change_saved_while_the_broker_is_down_converges_once_a_worker_runs(
    workers, circuit_file
):
    season = import_competition(circuit_file)  # computed in this process before it returns
    with celery_through_broker(DEAD_BROKER, "unreachable"):
        with transaction.atomic():
            set_rank(season, "t1", 2, "p1", 1)  # the commit's send fails: the broker is down
    season.refresh_from_db()
    assert season.stale
    assert season.enqueued_version < season.data_version, "the failed send gave its claim back"
    assert "could not be reached" in season.recompute_error
    assert daily(season, "t1", "p1") == pytest.approx(104.5)  # the old standings stay

    worker = workers()  # the broker is back; the starting worker reconciles
    season = wait_until_current(worker, season)
    assert daily(season, "t1", "p1") == pytest.approx(157)
    assert season.recompute_error == "" and season.stale_since is None


def test_a_worker_killed_while_it_recomputes_loses_nothing(workers, circuit_file):
    season = import_competition(circuit_file)
    first = workers()
    first.wait_idle()
    with season_locked(season.pk):  # the recompute waits here, as behind a slow one
        with transaction.atomic():
            set_rank(season, "t1", 2, "p1", 1)
        wait_for(lambda: "recompute_season" in first.log(), "the worker never got the task")
        first.kill()
    season.refresh_from_db()
    assert season.stale, "the killed worker stored nothing"

    second = workers()
    season = wait_until_current(second, season)
    assert daily(season, "t1", "p1") == pytest.approx(157)


def test_a_pool_process_killed_mid_task_gives_the_task_back(workers, circuit_file):
    season = import_competition(circuit_file)
    worker = workers(pool="prefork")
    worker.wait_idle()
    with season_locked(season.pk):
        with transaction.atomic():
            set_rank(season, "t1", 2, "p1", 1)
        wait_for(lambda: "recompute_season" in worker.log(), "the worker never got the task")
        (child,) = worker.children()
        import os
        import signal

        os.kill(child, signal.SIGKILL)
        wait_for(lambda: worker.children() not in ([], [child]), "no new pool process")
    # No reconcile runs here: the task itself comes back (acks late, rejected on worker lost).
    season = wait_until_current(worker, season)
    assert daily(season, "t1", "p1") == pytest.approx(157)
    assert Season.objects.get(pk=season.pk).recompute_error == ""
