"""The WSGI entry point (clubsite.wsgi, what gunicorn loads) freezes what the app loaded for the
garbage collector, and the app it hands over still serves. Run in a process of its own: freezing
the test process would change how the rest of the suite collects."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import gc, json
from wsgiref.util import setup_testing_defaults
import clubsite.wsgi
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
}))
"""


def test_the_wsgi_app_freezes_what_it_loaded_and_still_serves(tmp_path):
    clean = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ENV", "SECRET_KEY")}
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={
            **clean,
            "DJANGO_SETTINGS_MODULE": "clubsite.settings",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "CELERY_BROKER_URL": "",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    probe = json.loads(done.stdout.strip().splitlines()[-1])
    assert probe["status"].startswith("200"), probe
    assert probe["help"], probe
    # Django, the app and its libraries: tens of thousands of objects the collector no longer
    # walks; what a request adds afterwards is a small part of it.
    assert probe["frozen"] > 50_000, probe
    assert probe["walked"] < probe["frozen"] / 4, probe
