"""An import holds the cyclic garbage collector back while it stores a season
(`competitions.collector.gc_paused`, as a recompute does), gives it back as it found it, after
a refused file too, and builds no reference cycles that would wait for it meanwhile."""

import copy
import gc

import pytest

from competitions import interchange
from competitions.interchange import FileError, import_competition
from tests.conftest import BENCH_MODULES
from tests.rankings.test_recompute_cycles import assert_no_cycles, unreachable


@pytest.mark.django_db
def test_an_import_rests_the_collector_and_gives_it_back(circuit_file, monkeypatch):
    seen = []
    storing = interchange._import

    def watched(*args, **kwargs):
        seen.append(gc.isenabled())
        return storing(*args, **kwargs)

    monkeypatch.setattr(interchange, "_import", watched)
    assert gc.isenabled()
    import_competition(copy.deepcopy(circuit_file))
    assert seen == [False] and gc.isenabled()

    # The season exists: refused inside the paused part, and the collector is back.
    with pytest.raises(FileError, match="--replace"):
        import_competition(copy.deepcopy(circuit_file))
    assert seen == [False, False] and gc.isenabled()

    gc.disable()
    try:
        import_competition(copy.deepcopy(circuit_file), replace=True)
        assert not gc.isenabled()  # left off, as the caller had it
    finally:
        gc.enable()
    assert seen == [False, False, False]


# What an import leaves for the collector whatever the file's size: simple_history makes a
# manager class at each read of `Model.history` (about 12 objects in a cycle each), a few per
# model written, not per row.
HISTORY_MANAGERS = 300


@pytest.mark.django_db
@pytest.mark.parametrize("name", BENCH_MODULES)
def test_an_import_and_a_replace_leave_no_reference_cycles_that_grow(bench_modules, name):
    """Each system's benchmark field of 50 players and of 200, imported and then replaced
    (with the standings the import brings up to date): no frame or exception in a cycle, and
    no more in cycles for 200 players than for 50."""
    module = bench_modules(name)
    left = {}
    for players in (50, 200):
        data = module.field(players)
        for replace in (False, True):
            found = unreachable(
                lambda d=data, r=replace: import_competition(copy.deepcopy(d), replace=r)
            )
            what = f"{name}, {players} players{' --replace' if replace else ''}"
            assert_no_cycles(found, what, few=left.get(replace, HISTORY_MANAGERS))
            left.setdefault(replace, len(found))
