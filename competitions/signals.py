"""What this app tells the apps above it, without importing them.

`rankings` connects to these in its AppConfig.ready: it marks seasons stale and schedules their
recompute, nothing else. A caller that promises up-to-date standings (the import command) calls
the recompute itself.
"""

import threading
from contextlib import contextmanager

from django.dispatch import Signal

# Sent inside the transaction that changed results of these seasons (kwargs: season_ids, and
# optionally scope: what part changed, see rankings.models.StaleScope; default everything), by
# writers that bypass the model signals (bulk imports).
results_changed = Signal()

_bulk = threading.local()


@contextmanager
def bulk_write():
    """For bulk writers (the importer) that send `results_changed` themselves, once, instead
    of one model signal per row."""
    previous = getattr(_bulk, "value", False)
    _bulk.value = True
    try:
        yield
    finally:
        _bulk.value = previous


def in_bulk_write() -> bool:
    return getattr(_bulk, "value", False)
