import os

from celery import Celery
from celery.signals import worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")

app = Celery("clubsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_ready.connect
def reconcile_on_start(sender=None, **kwargs) -> None:
    """A worker that starts catches up with whatever was lost while none ran."""
    app.send_task("rankings.reconcile")
