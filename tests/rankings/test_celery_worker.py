"""The pipeline with the real thing: a Redis broker and a Celery worker process.

Needs CELERY_TEST_BROKER_URL (a Redis URL) and PostgreSQL: the worker is a separate process and
must see the data the test commits, in the pytest-django test database. Missing either skips
here and fails in CI (CLUBSITE_REQUIRE_SERVICES=1).
"""

import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection, transaction
from kombu import pools

from clubsite.celery import app as celery_app
from competitions.interchange import import_competition
from competitions.models import Season
from competitions.systems.boardgame.models import Seat
from rankings.services import recompute_lock_key, season_recompute
from tests.conftest import skip_or_fail
from tests.helpers import daily, stored

pytestmark = pytest.mark.celery_worker

START_TIMEOUT = 30  # seconds until the worker says it is ready
DONE_TIMEOUT = 20  # seconds until the worker has stored the standings of the last change


# --- the worker -------------------------------------------------------------------------------


class Worker:
    """A `celery worker` subprocess consuming one queue of its own."""

    def __init__(self, queue: str, log_path: Path) -> None:
        self.queue = queue
        self.nodename = f"{queue}@{socket.gethostname()}"
        self.log_path = log_path
        self.process: subprocess.Popen | None = None

    def start(self, env: dict[str, str]) -> None:
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "clubsite",
            "worker",
            "--pool=solo",
            "--concurrency=1",
            "-Q",
            self.queue,
            f"--hostname={self.nodename}",
            "--without-mingle",
            "--without-gossip",
            "--loglevel=INFO",
        ]
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                command,
                cwd=settings.BASE_DIR,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def fail(self, message: str) -> None:
        pytest.fail(f"{message}\n--- celery worker log ({self.log_path}) ---\n{self.log()}")

    def check_alive(self) -> None:
        if self.process is None or self.process.poll() is not None:
            code = None if self.process is None else self.process.returncode
            self.fail(f"the celery worker exited (code {code})")

    def wait_ready(self) -> None:
        """Until the worker answers a ping through the broker, sent with this process's Celery
        configuration: that proves both sides use the same broker. (Not the "ready." log line:
        the settings keep the `celery` loggers at WARNING.)"""
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            self.check_alive()
            replies = celery_app.control.ping(destination=[self.nodename], timeout=0.5)
            if any(self.nodename in reply for reply in replies):
                return
            if time.monotonic() > deadline:
                self.fail(f"the celery worker did not answer a ping within {START_TIMEOUT} s")

    def queued(self) -> int:
        with celery_app.connection_for_write() as conn:
            return conn.default_channel.queue_declare(queue=self.queue).message_count

    def wait_idle(self, timeout: float = DONE_TIMEOUT) -> None:
        """Until nothing is queued, reserved or running (a solo worker answers between tasks)."""
        deadline = time.monotonic() + timeout
        while True:
            self.check_alive()
            if self.queued() == 0:
                inspect = celery_app.control.inspect(destination=[self.nodename], timeout=2)
                active = (inspect.active() or {}).get(self.nodename)
                reserved = (inspect.reserved() or {}).get(self.nodename)
                if active == [] and reserved == []:
                    return
            if time.monotonic() > deadline:
                self.fail(f"the celery worker was still busy after {timeout} s")
            time.sleep(0.1)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()  # warm shutdown
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def broker_url() -> str:
    url = os.getenv("CELERY_TEST_BROKER_URL", "")
    if not url:
        skip_or_fail("CELERY_TEST_BROKER_URL is not set (a Redis URL for a throwaway database)")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2).ping()
    except redis.RedisError as exc:
        skip_or_fail(f"no Redis answers at CELERY_TEST_BROKER_URL ({exc})")
    return url


@pytest.fixture(scope="module")
def worker_database_url(django_db_setup) -> str:
    """The pytest-django test database, as a DATABASE_URL for the worker process."""
    if connection.vendor != "postgresql":
        skip_or_fail(
            "the worker process shares the test database only on PostgreSQL, "
            f"not on {connection.vendor}"
        )
    db = connection.settings_dict
    user = quote(db["USER"] or "", safe="")
    if db["PASSWORD"]:
        user += ":" + quote(db["PASSWORD"], safe="")
    host = db["HOST"] or "localhost"
    port = db["PORT"] or "5432"
    return f"postgres://{user}@{host}:{port}/{quote(db['NAME'], safe='')}"


def forget_queue(url: str, queue: str) -> None:
    """Remove the queue's keys (messages, kombu's bindings) from the test broker's database."""
    import redis

    client = redis.Redis.from_url(url, socket_timeout=5)
    keys = list(client.scan_iter(match=f"*{queue}*"))
    if keys:
        client.delete(*keys)


@contextmanager
def celery_through_broker(url: str, queue: str) -> Iterator[None]:
    """Point this process's (already configured) Celery app at the broker and the queue.

    override_settings cannot do it: the app read the settings once. Besides the three settings,
    the app caches the broker connection pool and, on `app.amqp`, the default queue and router.
    """
    conf = celery_app.conf
    saved = {key: conf[key] for key in ("task_always_eager", "broker_url", "task_default_queue")}

    def drop_cached_connections() -> None:
        pools.reset()  # kombu's process-wide connection and producer pools, closed and emptied
        celery_app._pool = None
        celery_app.__dict__.pop("amqp", None)

    conf.update(task_always_eager=False, broker_url=url, task_default_queue=queue)
    drop_cached_connections()
    try:
        assert celery_app.amqp.default_queue.name == queue
        yield
    finally:
        drop_cached_connections()
        conf.update(saved)


@pytest.fixture(scope="module")
def worker(broker_url, worker_database_url, tmp_path_factory) -> Iterator[Worker]:
    queue = f"clubsite-test-{uuid.uuid4().hex[:12]}"
    w = Worker(queue, tmp_path_factory.mktemp("celery-worker") / "worker.log")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "clubsite.settings",
        "DATABASE_URL": worker_database_url,
        "CELERY_BROKER_URL": broker_url,
        "CELERY_QUEUE": queue,
        "PYTHONUNBUFFERED": "1",
    }
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


# --- helpers ----------------------------------------------------------------------------------


@contextmanager
def season_locked(season_id: int) -> Iterator[None]:
    """Hold the season's recompute lock here, as a running recompute would."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s)", [recompute_lock_key(season_id)])
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [recompute_lock_key(season_id)])


def wait_until_current(worker: Worker, season: Season) -> Season:
    deadline = time.monotonic() + DONE_TIMEOUT
    while True:
        season.refresh_from_db()
        if season.standings_version == season.data_version:
            return season
        worker.check_alive()
        if time.monotonic() > deadline:
            worker.fail(
                f"standings still at version {season.standings_version}, data at "
                f"{season.data_version} after {DONE_TIMEOUT} s"
            )
        time.sleep(0.1)


def set_rank(season: Season, tournament: str, round_number: int, player: str, rank: int) -> None:
    seat = Seat.objects.get(
        round__season=season,
        round__tournament__key=tournament,
        round__number=round_number,
        player__key=player,
    )
    seat.rank = rank
    seat.save()


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
