"""What the concurrency tests share: two real threads started at the same moment, each on its
own database connection, and the intervals a wrapped function ran in."""

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.db import connection


@dataclass(frozen=True)
class Interval:
    thread: str
    start: float
    end: float


def overlap(a: Interval, b: Interval) -> bool:
    return a.start < b.end and b.start < a.end


def timed(func: Callable, intervals: list[Interval], seconds: float) -> Callable:
    """`func`, sleeping `seconds` first and recording (thread, start, end) of each call."""

    def wrapped(*args, **kwargs):
        start = time.monotonic()
        try:
            time.sleep(seconds)
            return func(*args, **kwargs)
        finally:
            intervals.append(Interval(threading.current_thread().name, start, time.monotonic()))

    return wrapped


def in_two_threads(
    work: Callable[[], object], name: str
) -> tuple[dict[str, object], dict[str, BaseException]]:
    """Run `work` in two threads (`name-1`, `name-2`) released at the same moment; wait for
    both. Returns their results and their errors by thread name."""
    barrier = threading.Barrier(2)
    results: dict[str, object] = {}
    errors: dict[str, BaseException] = {}

    def run() -> None:
        thread = threading.current_thread().name
        try:
            barrier.wait(timeout=10)
            results[thread] = work()
        except BaseException as exc:  # noqa: BLE001  (reported by the test)
            errors[thread] = exc
        finally:
            connection.close()  # this thread's connection, or the test database cannot go

    threads = [threading.Thread(target=run, name=f"{name}-{i}") for i in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
        assert not thread.is_alive(), f"{thread.name} still running after 60 s"
    return results, errors
