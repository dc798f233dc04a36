"""Demo data of the Othello GP (competitions/systems/othello/demo.py) and its load_demo."""

from io import StringIO

import pytest
from django.core.management import call_command

from competitions.models import Series
from competitions.registry import all_systems
from competitions.systems.othello.demo import SERIES, SERIES_NAME, gp_files
from rankings.selectors import standings_document
from tests.helpers import patch_spec


@pytest.fixture(scope="module")
def files() -> list[dict]:
    return gp_files()


def test_generator_is_deterministic(files):
    assert gp_files() == files
    assert gp_files(7) != files


def test_one_season_of_six_tournaments_with_every_kind_of_participant(files):
    (data,) = files
    assert (data["system"], data["series"], data["season"]) == ("othello-gp", SERIES, "2025")
    assert len(data["tournaments"]) == 6
    entries = [e for t in data["tournaments"] for e in t["participants"]]
    assert any(e["country"] != "SE" for e in entries)  # foreign players
    assert any(e["rating"].get("provisional") for e in entries)  # provisional FFO ratings
    assert any(e["rating"] == {} for e in entries)  # debutants
    assert any("ffo" in e["rating"] and e["country"] == "SE" for e in entries)  # Swedes in FFO
    assert [t.get("sm", False) for t in data["tournaments"]] == [False] * 5 + [True]
    assert sum(1 for t in data["tournaments"] if t.get("egp")) == 1
    for t in data["tournaments"]:
        places = sorted(e["place"] for e in t["participants"])
        assert places == list(range(1, len(places) + 1))
        assert len({e["player"] for e in t["participants"]}) == len(places)
    names = [p["name"] for p in data["players"]]
    assert len(names) == len(set(names))


@pytest.mark.django_db(transaction=True)
def test_load_demo_loads_the_gp_with_its_standings(monkeypatch, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    for spec in all_systems():
        if spec.key != "othello-gp" and spec.demo is not None:
            patch_spec(monkeypatch, spec.key, demo=None)
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert "Imported swedish-othello-gp 2025." in out.getvalue()
    series = Series.objects.get(slug=SERIES)
    assert series.name == SERIES_NAME
    season = series.seasons.get()
    assert not season.stale
    doc = standings_document(season=season)
    assert len(doc["tournaments"]) == 6 and doc["standings"]
    egp_only = "p26"  # Greta Olofsson plays only the European GP: her points do not count
    egp = next(t for t in doc["tournaments"] if t["id"] == "t4")
    assert any(p["player"] == egp_only and p["points"] for p in egp["points"])
    assert egp_only not in {row["player"] for row in doc["standings"]}
    again = StringIO()
    call_command("load_demo", stdout=again)
    assert "skipped" in again.getvalue()
