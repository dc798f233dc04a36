"""The benchmark's floors (`bare_load` of scripts/bench/systems/*.py) read a season's result rows
with no ORDER BY: a model's default ordering, which the ORM adds unasked, would make the floor
sort them, and sorting is part of a recompute's work, not of the floor's
(scripts/bench/systems/README.md)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from competitions.models import Season, Series
from tests.conftest import BENCH, BENCH_MODULES


def test_every_system_of_the_bench_is_checked():
    assert BENCH_MODULES == ["bgp", "circuit", "gp", "keizer", "ladder"]


@pytest.mark.django_db
@pytest.mark.parametrize("name", BENCH_MODULES)
def test_a_floor_reads_in_no_order(bench_modules, name):
    module = bench_modules(name)
    series = Series.objects.create(slug=f"floor-{name}", name=name, system="keizer")
    season = Season.objects.create(series=series, label="2025", name="2025")
    with CaptureQueriesContext(connection) as queries:
        module.bare_load(season)
    assert queries.captured_queries
    for query in queries.captured_queries:
        assert "ORDER BY" not in query["sql"].upper(), query["sql"]


# The modules that give a largest size (`largest`, scripts/bench/systems/README.md).
WITH_LARGEST = [
    name
    for name in BENCH_MODULES
    if "\ndef largest(" in (BENCH / "systems" / f"{name}.py").read_text(encoding="utf-8")
]


def test_a_module_gives_a_largest_size():
    assert "circuit" in WITH_LARGEST


@pytest.mark.django_db
@pytest.mark.parametrize("name", WITH_LARGEST)
def test_the_largest_season_bulk_inserted_stores_what_an_import_stores(bench_modules, name):
    """The harness writes a module's largest season with the module's bulk insert and computes
    its standings once, instead of importing it (half the time): the stored standings must be
    those an import gives (small sizes here)."""
    from competitions.interchange import import_competition
    from rankings.models import StandingsTable
    from rankings.services import season_recompute

    module = bench_modules(name)
    data = module.largest(quick=True)
    imported = import_competition(data)
    module.bulk_insert(data, "bulk-largest")
    inserted = Season.objects.get(series__slug="bulk-largest")
    season_recompute(season_id=inserted.pk, force=True)

    def stored(season):
        return {
            (t.kind, t.key): (t.position, t.digest, t.lines_digest)
            for t in StandingsTable.objects.filter(season=season)
        }

    assert stored(imported)
    assert stored(inserted) == stored(imported)


@pytest.mark.django_db
@pytest.mark.parametrize("name", BENCH_MODULES)
def test_the_manager_pages_the_bench_measures_answer_a_manager(bench_modules, name, client):
    """`manage_pages` (the pages where results are entered) name pages that exist: each answers
    200 to a manager of the series, so the bench measures pages, not error answers."""
    from django.contrib.auth import get_user_model

    from competitions.interchange import import_competition

    module = bench_modules(name)
    season = import_competition(module.field(20))
    user = get_user_model().objects.create_user("manager")
    season.series.managers.add(user)
    client.force_login(user)
    pages = module.manage_pages(season)
    names = [page for page, _path in pages]
    assert len(names) == len(set(names)) and {"season", "settings"} <= set(names)
    for page, path in pages:
        assert path.startswith("/manage/"), (page, path)
        assert client.get(path).status_code == 200, (page, path)
