"""A real Celery worker for tests: a subprocess on a queue of its own, sharing the test
database (PostgreSQL) and a throwaway Redis database as broker."""

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from kombu import pools

from clubsite.celery import app as celery_app
from competitions.models import Season
from competitions.systems.boardgame.models import Seat
from rankings.services import recompute_lock_key

START_TIMEOUT = 30  # seconds until the worker says it is ready
DONE_TIMEOUT = 20  # seconds until the worker has stored the standings of the last change


class Worker:
    """A `celery worker` subprocess consuming one queue of its own."""

    def __init__(self, queue: str, log_path: Path) -> None:
        self.queue = queue
        self.nodename = f"{queue}@{socket.gethostname()}"
        self.log_path = log_path
        self.process: subprocess.Popen | None = None

    def start(self, env: dict[str, str], pool: str = "solo") -> None:
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "clubsite",
            "worker",
            f"--pool={pool}",
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

    def children(self) -> list[int]:
        """The pids of the worker's pool processes (prefork)."""
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in path.read_text().split()]

    def kill(self) -> None:
        """SIGKILL the whole worker, pool processes too: no warm shutdown, nothing given back."""
        for pid in [*self.children(), self.process.pid]:
            os.kill(pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()  # warm shutdown
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


def worker_env(broker_url: str, database_url: str, queue: str, **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "clubsite.settings",
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker_url,
        "CELERY_QUEUE": queue,
        "PYTHONUNBUFFERED": "1",
        **extra,
    }


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


# --- helpers ---------------------------------------------------------------------------------


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
