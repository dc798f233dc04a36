"""The chess demo: a BGP season of three tournaments with several groups on both scales, BGP
classes, a county championship and walkovers; loaded by `load_demo`, every page answers."""

from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from competitions.models import Season
from competitions.systems.chess.demo import SERIES, season_files
from rankings.urls_helpers import season_url
from tests.helpers import patch_spec


@pytest.fixture(scope="module")
def files():
    return season_files()


def test_the_demo_is_deterministic(files):
    assert season_files() == files
    assert season_files(7) != files


def test_the_demo_season_has_what_the_issue_asks_for(files):
    assert len(files) == 1
    data = files[0]
    tournaments = data["tournaments"]
    assert len(tournaments) == 3
    assert [t["county_championship"] for t in tournaments] == [False, False, True]
    groups = [g for t in tournaments for g in t["groups"]]
    assert all(len(t["groups"]) >= 2 for t in tournaments)
    assert {g["scale"] for g in groups} == {"1-half-0", "3-2-1"}
    assert any(len(g["rounds"]) >= 7 for g in groups) and any(len(g["rounds"]) < 7 for g in groups)
    classes = Counter(p["class"] for g in groups for p in g["players"])
    assert len(classes) >= 4
    entries = [e for g in groups for r in g["rounds"] for e in r]
    assert sum("walkover" in e for e in entries) >= 5
    assert any(e.get("result") in ("+-", "-+") for e in entries)
    known = {p["id"] for p in data["players"]}
    for g in groups:
        members = {p["player"] for p in g["players"]}
        assert members <= known
        for r in g["rounds"]:
            seen = [e.get("walkover") or e["white"] for e in r] + [
                e["black"] for e in r if "black" in e
            ]
            assert len(seen) == len(set(seen)) and set(seen) <= members
            pairs = {frozenset((e["white"], e["black"])) for e in r if "white" in e}
            assert len(pairs) == len([e for e in r if "white" in e])


@pytest.mark.django_db(transaction=True)
def test_load_demo_loads_the_season_and_every_page_answers(monkeypatch, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from competitions.registry import all_systems

    for spec in all_systems():
        if spec.key != "chess-bgp" and spec.demo is not None:
            patch_spec(monkeypatch, spec.key, demo=None)
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert f"Imported {SERIES} 2025/26." in out.getvalue()
    season = Season.objects.select_related("series").get(series__slug=SERIES)
    assert not season.stale
    client = Client()
    urls = [season_url(season), season_url(season, "classes")]
    for tournament in season.tournaments.prefetch_related("groups"):
        urls.append(season_url(season, "tournament", tournament.key))
        for group in tournament.groups.all():
            urls.append(season_url(season, "group", tournament.key, group.pk))
            urls.append(season_url(season, "group_trf", tournament.key, group.pk))
    for url in urls:
        assert client.get(url).status_code == 200, url
    assert "Kretsmesterskap" in client.get(season_url(season)).content.decode()
