"""GET /healthz: is the site able to do its work? For a load balancer or a monitor.

Checks the database, the task broker (when one is configured), and that no season's standings
have lagged behind its results for longer than HEALTH_MAX_STALE_SECONDS. Answers 200 with the
details as JSON when all is well, 503 otherwise. It reads only and names no competition.
"""

from django.conf import settings
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
    stale_ok, stale = _stale() if db_ok else (False, {})
    ok = db_ok and broker_ok and stale_ok
    return JsonResponse(
        {"status": "ok" if ok else "failing", "database": db, "broker": broker, **stale},
        status=200 if ok else 503,
    )
