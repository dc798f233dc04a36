"""The Celery app freezes what the worker's parent loaded before it forks its pool's processes
(`clubsite.celery.freeze_before_fork`), so their collections leave the shared memory pages
alone. Run in a process of its own: freezing the test process would change how the rest of the
suite collects. tests/rankings/test_convergence.py runs a real prefork worker with it."""

from tests.helpers import run_probe

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
    probe = run_probe(
        PROBE,
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "CELERY_BROKER_URL": "redis://127.0.0.1:6379/15",
        },
    )
    assert probe["task"], probe
    assert probe["before"] == 0, probe
    # Django, the app, its tasks and Celery: tens of thousands of objects.
    assert probe["after"] > 50_000, probe
