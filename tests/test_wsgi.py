"""The WSGI entry point (clubsite.wsgi, what gunicorn loads) freezes what the app loaded for the
garbage collector, opens no connection while it loads (gunicorn's --preload loads it once before
the workers fork, and a connection made then would be shared by every worker), and the app it
hands over still serves. Run in a process of its own: freezing the test process would change how
the rest of the suite collects."""

import os
import secrets
from urllib.parse import urlsplit

import pytest

from tests.helpers import run_probe

LOADED = """
import gc, os
import clubsite.wsgi
from django.db import connections


def sockets():
    if not os.path.isdir("/proc/self/fd"):
        return None
    found = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            found += os.readlink(f"/proc/self/fd/{fd}").startswith("socket:")
        except OSError:
            pass
    return found


loaded = {
    "connections": sum(c.connection is not None for c in connections.all()),
    "sockets": sockets(),
    "frozen": gc.get_freeze_count(),
}
"""

PROBE = (
    LOADED
    + """
import json
from wsgiref.util import setup_testing_defaults
environ = {"PATH_INFO": "/help/", "HTTP_HOST": "localhost"}
setup_testing_defaults(environ)
status = []
body = b"".join(clubsite.wsgi.application(environ, lambda s, h, e=None: status.append(s)))
gc.collect()
print(json.dumps({
    "frozen": gc.get_freeze_count(),
    "walked": len(gc.get_objects()),
    "status": status[0],
    "help": b"<h1" in body,
    "loaded": loaded,
}))
"""
)


def test_the_wsgi_app_freezes_what_it_loaded_connects_nowhere_and_still_serves(tmp_path):
    probe = run_probe(
        PROBE,
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            # A real broker's address: a connection made while loading would be a socket.
            "CELERY_BROKER_URL": "redis://127.0.0.1:6379/15",
        },
    )
    assert probe["status"].startswith("200"), probe
    assert probe["help"], probe
    # Django, the app and its libraries: tens of thousands of objects the collector no longer
    # walks; what a request adds afterwards is a small part of it.
    assert probe["frozen"] > 50_000, probe
    assert probe["walked"] < probe["frozen"] / 4, probe
    # Loaded as gunicorn's master loads it under --preload: no database connection, no socket
    # (the broker's included; Linux only).
    assert probe["loaded"]["connections"] == 0, probe
    assert probe["loaded"]["sockets"] in (0, None), probe


def test_under_production_settings_loading_the_app_connects_nowhere(tmp_path):
    """As the image's gunicorn loads it (DJANGO_ENV=production), with the database of the test
    run when it is PostgreSQL (a connection would be a socket) and a broker's address."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    probe = run_probe(
        LOADED + "\nimport json\nprint(json.dumps(loaded))",
        {
            "DJANGO_ENV": "production",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "clubs.example.org",
            "DATABASE_URL": url,
            "CELERY_BROKER_URL": "redis://127.0.0.1:6379/15",
        },
    )
    assert probe["connections"] == 0, probe
    assert probe["sockets"] in (0, None), probe
    assert probe["frozen"] > 50_000, probe


KEPT = """
import json
import clubsite.wsgi
from django.core.signals import request_finished, request_started
from django.db import connection

pids = []
for _ in range(2):  # two requests as the handler brackets them (close_old_connections)
    request_started.send(sender=None)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pids.append(cursor.fetchone()[0])
    request_finished.send(sender=None)
print(json.dumps({"pids": pids, "open": connection.connection is not None}))
"""


def test_under_production_settings_a_connection_serves_the_next_request_too():
    """A cached public page still reads its season's versions: under a crowd a new PostgreSQL
    connection per request halved the requests per second (issue 45's rps_vs_trivial). As
    deployed without CONN_MAX_AGE set, the second request finds the first one's connection."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        pytest.skip("a kept connection is PostgreSQL's (SQLite opens a file)")
    # The server's own database, which every server has (the probe reads no table).
    url = urlsplit(url)._replace(path="/postgres").geturl()
    env = {
        "DJANGO_ENV": "production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "clubs.example.org",
        "DATABASE_URL": url,
    }
    kept = run_probe(KEPT, env)
    assert kept["open"] and kept["pids"][0] == kept["pids"][1], kept
    # The development default closes it after each request (runserver's threads).
    closed = run_probe(KEPT, {"DATABASE_URL": url})
    assert not closed["open"] and closed["pids"][0] != closed["pids"][1], closed
