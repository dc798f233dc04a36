"""Demo data of the bridge ladder (competitions/systems/bridge/demo.py): four pools over three
rounds, with the club's own example pool, loaded by `manage.py load_demo`."""

from io import StringIO

import pytest
from django.core.management import call_command

from competitions.interchange import export_competition
from competitions.models import Season
from competitions.systems.bridge.demo import CLUB_POOL, POOL_NAMES, SERIES, ladder_files
from rankings.selectors import standings_document
from tests.helpers import patch_spec

pytestmark = pytest.mark.django_db


def test_the_generator_is_deterministic():
    assert ladder_files() == ladder_files()
    assert ladder_files(7) != ladder_files()


def test_four_pools_over_three_rounds_with_the_clubs_own_pool():
    (data,) = ladder_files()
    names = {p["id"]: p["name"] for p in data["players"]}
    assert [len(pool) for pool in data["pools"]] == [5, 5, 5, 5]
    assert [names[key] for key in data["pools"][3]] == CLUB_POOL
    assert data["settings"]["pool_names"][3] == "Roi de Cœur" == POOL_NAMES[3]
    assert [r["number"] for r in data["rounds"]] == [1, 2, 3]
    assert "pools" not in data["rounds"][1]  # round 2 follows from the moves
    third = data["rounds"][2]
    assert [len(pool) for pool in third["pools"]] == [5, 5, 5, 5]
    assert len(third["reasons"]) >= 4  # a joiner, who filled a leaver's place, a swap
    assert [bool(c["imps"]) for c in third["challenges"]] == [True, True, False]


def test_load_demo_stores_the_ladder_and_the_clubs_worked_example_holds(monkeypatch, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    patch_spec(monkeypatch, "boardgame-circuit", demo=None)
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert f"Imported {SERIES} 2026." in out.getvalue()
    season = Season.objects.get(series__slug=SERIES)
    assert not season.stale
    doc = standings_document(season=season)
    names = {p.key: p.name for p in season.series.players.all()}
    keys = {name: key for key, name in names.items()}
    first = doc["rounds"][0]["elo_after"]
    assert [first[0][keys[n]] for n in CLUB_POOL] == [1300.0, 1275.0, 1250.0, 1225.0, 1200.0]
    assert first[1][keys["HanLaporte"]] == 1300.0
    assert len(doc["rounds"]) == 3 and len(doc["next_pools"]) == 4
    assert export_competition(season) == ladder_files()[0] | {"name": season.name}
