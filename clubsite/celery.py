import gc
import os

from celery import Celery
from celery.signals import worker_before_create_process, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")

app = Celery("clubsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_ready.connect
def reconcile_on_start(sender=None, **kwargs) -> None:
    """A worker that starts catches up with whatever was lost while none ran."""
    app.send_task("rankings.reconcile")


@worker_before_create_process.connect
def freeze_before_fork(**kwargs) -> None:
    """The worker's parent has loaded Django, the app and its tasks when it forks its pool's
    processes: frozen for the garbage collector first, those objects are never walked by the
    children's collections, which would otherwise copy the memory pages they share with the
    parent. Two processes recomputing every bench season twice took 191-214 MB (PSS) instead
    of 219-240 (docs/performance.md, twenty-first round); freezing in each child after the fork
    saved nothing. The parent forks only at start and to replace a process that died."""
    gc.collect()
    gc.freeze()
