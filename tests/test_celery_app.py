"""The Celery app freezes what the worker's parent loaded before it forks its pool's processes
(`clubsite.celery.freeze_before_fork`), so their collections leave the shared memory pages
alone. Run in a process of its own: freezing the test process would change how the rest of the
suite collects. tests/rankings/test_convergence.py runs a real prefork worker with it."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import gc, json
from celery.signals import worker_before_create_process, worker_init
from clubsite.celery import app
# What a worker's parent does before it starts its pool: Django set up, the tasks imported.
app.loader.init_worker()
worker_init.send(sender=None)
app.loader.import_default_modules()
before = gc.get_freeze_count()
worker_before_create_process.send(sender=None, pool=None)
print(json.dumps({
    "before": before,
    "after": gc.get_freeze_count(),
    "task": "rankings.recompute_season" in app.tasks,
}))
"""


def test_the_worker_freezes_what_it_loaded_before_it_forks(tmp_path):
    clean = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ENV", "SECRET_KEY")}
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={
            **clean,
            "DJANGO_SETTINGS_MODULE": "clubsite.settings",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "CELERY_BROKER_URL": "redis://127.0.0.1:6379/15",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    probe = json.loads(done.stdout.strip().splitlines()[-1])
    assert probe["task"], probe
    assert probe["before"] == 0, probe
    # Django, the app, its tasks and Celery: tens of thousands of objects.
    assert probe["after"] > 50_000, probe
