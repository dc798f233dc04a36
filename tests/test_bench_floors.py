"""The benchmark's floors (`bare_load` of scripts/bench/systems/*.py) read a season's result rows
with no ORDER BY: a model's default ordering, which the ORM adds unasked, would make the floor
sort them, and sorting is part of a recompute's work, not of the floor's
(scripts/bench/systems/README.md)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from competitions.models import Season, Series
from tests.conftest import BENCH_MODULES


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
