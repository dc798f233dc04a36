"""GET /healthz: is the site able to do its work? For a load balancer or a monitor.

Checks the database, the task broker and a worker (when a broker is configured), and that no
season's standings have lagged behind its results for longer than HEALTH_MAX_STALE_SECONDS.
Answers 200 with the details as JSON when all is well, 503 otherwise. It reads only and names no
competition.

A worker is alive when one that consumes the site's queue answers Celery's broadcast within
HEALTH_WORKER_TIMEOUT seconds. Without that check a dead worker went unnoticed while nothing was
pending, and was noticed only through stale standings after HEALTH_MAX_STALE_SECONDS otherwise.
The answer is kept for HEALTH_WORKER_CACHE_SECONDS in Django's cache, so a load balancer that
polls every second does not send a broadcast through the broker every second: a dead worker is
reported within that many seconds plus the timeout.
"""

import time

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.models import F
from django.http import JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache

from competitions.models import Season
from competitions.registry import find_system


def _database() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # noqa: BLE001  (reported, not raised)
        return False, f"unreachable: {type(exc).__name__}"
    return True, "ok"


def _broker() -> tuple[bool, str]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return True, "none: tasks run in the web process"
    from clubsite.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=3)
    except Exception as exc:  # noqa: BLE001
        return False, f"unreachable: {type(exc).__name__}"
    return True, "ok"


def _worker_answers() -> tuple[bool, str]:
    """Ask the workers which queues they consume; a worker of this site's queue must answer."""
    from clubsite.celery import app

    queue = app.conf.task_default_queue
    timeout = settings.HEALTH_WORKER_TIMEOUT
    try:
        replies = app.control.inspect(timeout=timeout).active_queues() or {}
    except Exception as exc:  # noqa: BLE001  (reported, not raised)
        return False, f"not asked: {type(exc).__name__}"
    for queues in replies.values():
        if any(q.get("name") == queue for q in queues or ()):
            return True, "ok"
    return False, f"no worker of queue {queue!r} answered within {timeout:g} s"


def _worker() -> tuple[bool, str]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return True, "none: tasks run in the web process"
    from clubsite.celery import app

    key = f"clubsite:healthz:worker:{app.conf.task_default_queue}"
    seconds = settings.HEALTH_WORKER_CACHE_SECONDS
    if seconds > 0 and (kept := _cached(cache.get, key)) is not None:
        ok, detail, asked = kept
        return ok, detail if ok else f"{detail} ({round(time.time() - asked)} s ago)"
    ok, detail = _worker_answers()
    if seconds > 0:
        _cached(cache.set, key, (ok, detail, time.time()), seconds)
    return ok, detail


def _cached(operation, *args):
    """A cache that does not answer (a Redis cache down) costs a broadcast, not a 500."""
    try:
        return operation(*args)
    except Exception:  # noqa: BLE001
        return None


def _stale() -> tuple[bool, dict]:
    stale = Season.objects.filter(standings_version__lt=F("data_version")).values_list(
        "series__system", "stale_since"
    )
    since = [s for system, s in stale if (spec := find_system(system)) and spec.available]
    oldest = min((s for s in since if s is not None), default=None)
    age = (timezone.now() - oldest).total_seconds() if oldest else 0
    limit = settings.HEALTH_MAX_STALE_SECONDS
    return age <= limit, {
        "stale_seasons": len(since),
        "oldest_stale_seconds": round(age),
        "limit_seconds": limit,
    }


@never_cache
def healthz(request):
    db_ok, db = _database()
    broker_ok, broker = _broker()
    worker_ok, worker = _worker() if broker_ok else (False, "not asked: no broker")
    stale_ok, stale = _stale() if db_ok else (False, {})
    ok = db_ok and broker_ok and worker_ok and stale_ok
    return JsonResponse(
        {
            "status": "ok" if ok else "failing",
            "database": db,
            "broker": broker,
            "worker": worker,
            **stale,
        },
        status=200 if ok else 503,
    )
