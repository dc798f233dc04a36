"""The cyclic garbage collector held back while bulk work builds many small objects."""

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector held back while an import or a recompute builds its many
    small objects (rows, results, lines, their JSON): reference counting frees them, and the
    few cycles there are do not grow with the season (tests/rankings/test_recompute_cycles.py,
    tests/competitions/test_import_collector.py). Its full collections, which the surviving
    objects set off again and again, walk every object of the process each time: up to a
    quarter of a large season's recompute, and about a fifth of its import. It runs again as
    before afterwards, and collects whatever cycles there were then. Left as it is when the
    caller has it off already."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
