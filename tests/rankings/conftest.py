"""Fixtures of the tests with a real Celery worker (see worker_harness.py)."""

from urllib.parse import quote

import pytest
from django.db import connection

from tests.conftest import skip_or_fail


@pytest.fixture(scope="module")
def broker_url() -> str:
    import os

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


@pytest.fixture
def recomputed(monkeypatch) -> list[tuple[int, str, str]]:
    """(season id, kind, key) of every table an incremental update of the test recomputed or
    removed: what a change reached, whether or not its lines came out different (the store
    writes only the lines that did)."""
    from rankings import services

    found: list[tuple[int, str, str]] = []
    real = services._store_update

    def spy(season, version, update):
        found.extend((season.pk, t.kind, t.key) for t in update.tables)
        found.extend((season.pk, kind, key) for kind, key in update.remove)
        return real(season, version, update)

    monkeypatch.setattr(services, "_store_update", spy)
    return found


def reached(found: list[tuple[int, str, str]], season) -> set[tuple[str, str]]:
    """The (kind, key) of the season's tables among `found` (the `recomputed` fixture)."""
    return {(kind, key) for season_id, kind, key in found if season_id == season.pk}
