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
