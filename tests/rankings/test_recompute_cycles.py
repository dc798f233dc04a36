"""A recompute leaves no reference cycles behind.

It pauses the cyclic garbage collector (`competitions.collector.gc_paused`) and relies on reference
counting to free what it builds. A cycle through the stack's frames undoes that: an exception
kept in a local variable (Django's `Query.setup_joins` keeps the FieldError it catches when a
JSON key is named as a path, "data__exact") holds its traceback, the traceback its frames, and
each frame its caller and every local, so everything the recompute had built waited for one
collection afterwards (some 260,000 objects, about 70 ms, after a circuit update at 2000
players). `competitions.fields.json_value` names a key without the error.

Each system's benchmark data (its small size) is recomputed in full, with every line written,
and after each of the benchmark's changes (the update), with the collector paused and every
unreachable object kept for the count. What Django itself leaves (a recursive closure of its
`select_related` compiler: three objects a query) and the eager task's result of a chain are a
few objects whatever the size; a frame or an exception among them is the fault above.
"""

import gc

import pytest

from competitions.interchange import import_competition
from competitions.models import Season
from rankings.services import season_recompute
from tests.conftest import BENCH_MODULES

FEW = 40


def unreachable(func) -> list:
    """What becomes unreachable but is not freed by reference counting while func runs."""
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        func()
        gc.collect()
    finally:
        gc.set_debug(0)
        if was_enabled:
            gc.enable()
    found = list(gc.garbage)
    gc.garbage.clear()
    return found


def assert_no_cycles(found: list, what: str, few: int = FEW) -> None:
    frames = [
        f"{o.f_code.co_filename}:{o.f_lineno} {o.f_code.co_name}"
        for o in found
        if type(o).__name__ == "frame"
    ]
    errors = [repr(o)[:200] for o in found if issubclass(type(o), BaseException)]
    assert not errors, f"{what}: exceptions in reference cycles: {errors}"
    assert not frames, f"{what}: frames in reference cycles: {frames}"
    assert len(found) <= few, f"{what}: {len(found)} objects in reference cycles"


@pytest.mark.django_db
@pytest.mark.parametrize("name", BENCH_MODULES)
def test_a_recompute_and_an_update_leave_no_reference_cycles(bench_modules, name):
    module = bench_modules(name)
    seasons = [import_competition(data) for data in module.federation(quick=True)]
    for season in seasons:  # in label order, as the site does
        season_recompute(season_id=season.pk, force=True)
    season = seasons[-1]
    assert_no_cycles(unreachable(lambda: season_recompute(season_id=season.pk, force=True)), "full")
    assert_no_cycles(
        unreachable(lambda: season_recompute(season_id=season.pk, rewrite=True)), "rewrite"
    )
    for label, target in module.changes(seasons):
        changed = target[0] if isinstance(target, tuple) else target
        module.change(target)()
        changed.refresh_from_db()
        assert changed.stale, label  # the update below has something to do
        version = changed.data_version
        found = unreachable(lambda pk=changed.pk: season_recompute(season_id=pk))
        assert Season.objects.get(pk=changed.pk).standings_version == version, label
        assert_no_cycles(found, label)


def test_json_value_names_a_key_and_refuses_a_bare_field():
    from django.db.models.fields.json import KeyTransform

    from competitions.fields import json_value

    expression = json_value("data__cap_source__counts")
    assert isinstance(expression, KeyTransform)
    assert expression.key_name == "counts"
    assert expression.lhs.key_name == "cap_source"
    with pytest.raises(ValueError, match="names no key"):
        json_value("data")


@pytest.mark.django_db
def test_json_value_reads_what_the_path_string_reads():
    from competitions.fields import json_value
    from competitions.models import Series
    from rankings.models import StandingsTable

    series = Series.objects.create(slug="json-value", name="json value", system="keizer")
    season = Season.objects.create(series=series, label="2025", name="2025")
    data = {"exact": {"p1": "7/3", "p2": 1}, "cap": None, "name": "Azul", "n": [1, 2.5]}
    StandingsTable.objects.create(season=season, kind="k", key="a", data=data)
    rows = StandingsTable.objects.filter(season=season)
    for key in ("exact", "cap", "name", "n"):
        path = rows.values_list(f"data__{key}", flat=True).get()
        assert rows.values_list(json_value(f"data__{key}"), flat=True).get() == path == data[key]
