"""/healthz and the Celery worker, with a real Redis broker and a real worker process: healthy
while a worker of the site's queue answers, failing soon after it died, even with nothing
pending (before, a dead worker went unnoticed until standings had been stale for 600 s).

Needs CELERY_TEST_BROKER_URL and PostgreSQL, as tests/rankings/test_celery_worker.py does.
"""

import time
import uuid
from collections.abc import Iterator

import pytest
from django.core.cache import cache

from clubsite.celery import app as celery_app
from tests.rankings.worker_harness import Worker, celery_through_broker, forget_queue, worker_env

pytestmark = pytest.mark.django_db


@pytest.fixture
def queue(broker_url) -> Iterator[str]:
    name = f"clubsite-test-{uuid.uuid4().hex[:12]}"
    with celery_through_broker(broker_url, name):
        yield name
    forget_queue(broker_url, name)


@pytest.fixture
def worker(queue, broker_url, worker_database_url, tmp_path) -> Iterator[Worker]:
    w = Worker(queue, tmp_path / "worker.log")
    w.start(worker_env(broker_url, worker_database_url, queue))
    try:
        w.wait_ready()
        yield w
    finally:
        w.stop()


@pytest.fixture
def with_broker(settings):
    """/healthz as the site runs with CELERY_BROKER_URL set; quick timings for the test."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.HEALTH_WORKER_TIMEOUT = 1
    settings.HEALTH_WORKER_CACHE_SECONDS = 2
    cache.clear()
    yield settings
    cache.clear()


@pytest.mark.celery_worker
def test_healthz_is_ok_while_the_worker_answers_and_fails_within_seconds_once_it_died(
    with_broker, worker, client
):
    worker.wait_idle()  # the reconcile a worker runs at start (a solo worker answers between tasks)
    ok = client.get("/healthz")
    assert ok.status_code == 200, ok.json()

    worker.kill()  # SIGKILL: nothing pending, nothing stale; only the worker is gone
    died = time.monotonic()
    while (answer := client.get("/healthz")).status_code == 200:
        assert time.monotonic() - died < 10, "a dead worker still reported healthy after 10 s"
        time.sleep(0.2)
    assert answer.status_code == 503
    assert answer.json()["status"] == "failing"
    assert "no worker of queue" in answer.json()["worker"]
    assert answer.json()["stale_seasons"] == 0 and answer.json()["database"] == "ok"
    assert ok.json()["worker"] == "ok"
    # Within the kept answer's lifetime plus the timeout (2 + 1 s here, with room for a slow
    # machine; the defaults give 15 + 1 s, well under a minute).
    assert time.monotonic() - died < 2 + 1 + 4


@pytest.mark.celery_worker
def test_healthz_without_a_worker_fails_and_asks_the_broker_once_per_cache_period(
    with_broker, queue, client, monkeypatch
):
    asked = []
    broadcast = celery_app.control.broadcast

    def counting(*args, **kwargs):
        asked.append(args[0] if args else kwargs.get("command"))
        return broadcast(*args, **kwargs)

    monkeypatch.setattr(celery_app.control, "broadcast", counting)
    answers = [client.get("/healthz") for _ in range(5)]
    assert [a.status_code for a in answers] == [503] * 5
    assert asked == ["active_queues"]  # one broadcast, the next four answers kept
    time.sleep(2.1)
    assert client.get("/healthz").status_code == 503
    assert asked == ["active_queues"] * 2


def test_healthz_of_the_embedded_default_asks_no_worker(client, settings, monkeypatch):
    """Eager Celery, no broker (a fresh checkout's `make run`): ok, and nothing broadcast."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    monkeypatch.setattr(
        celery_app.control, "broadcast", lambda *a, **k: pytest.fail("broadcast sent")
    )
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json()["worker"] == "none: tasks run in the web process"
