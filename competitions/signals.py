"""What this app tells the apps above it, without importing them.

`rankings` connects to these in its AppConfig.ready: it marks seasons stale, schedules their
recompute, and brings standings up to date on request.
"""

import threading
from contextlib import contextmanager

from django.dispatch import Signal

# Sent inside the transaction that changed results of these seasons (kwargs: season_ids, and
# optionally scope: what part changed, see rankings.models.StaleScope; default everything), by
# writers that bypass the model signals (bulk imports).
results_changed = Signal()

# Sent after commit by a writer that promises up-to-date standings when it returns (the
# importer); receivers bring the season's standings up to date now (kwargs: season_id).
standings_wanted = Signal()

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
