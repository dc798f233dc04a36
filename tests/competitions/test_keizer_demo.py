"""The Keizer demo season (competitions/systems/keizer/demo.py): a club season of about 30
players and 20 evenings with absences, externals, byes, a late entrant, ready to pair evening 21."""

import io
import json
from collections import Counter

import pytest
from django.core.management import call_command

from competitions.interchange import export_competition
from competitions.models import Series
from competitions.systems.keizer import demo
from rankings.imports import import_competition
from rankings.selectors import standings_document


@pytest.fixture(scope="module")
def data() -> dict:
    (only,) = demo.club_files()
    return only


def test_the_generator_is_deterministic(data):
    assert demo.club_files() == [data]
    assert demo.club_files(7) != [data]


def test_a_club_season_with_every_kind_of_evening(data):
    assert 28 <= len(data["players"]) <= 32
    played = [r for r in data["rounds"] if r["games"]]
    assert len(played) == 20
    counts = Counter()
    for evening in data["rounds"]:
        for kind in ("bye", "absent", "external", "unexcused"):
            counts[kind] += len(evening[kind])
        counts["volunteer"] += "volunteer" in evening
        counts["forfeit"] += sum(g["result"] in ("+-", "-+") for g in evening["games"])
    assert all(counts[k] > 0 for k in ("bye", "absent", "external", "unexcused", "volunteer"))
    assert counts["forfeit"] >= 1
    waiting = data["rounds"][-1]
    assert waiting["number"] == 21 and waiting["present"] and not waiting["games"]


def test_a_late_entrant_with_start_points_by_hand(data):
    late = data["players"][-1]
    assert "start_points" in late
    first_evening = next(
        r["number"]
        for r in data["rounds"]
        if any(late["id"] in r[k] for k in ("present", "absent", "external", "unexcused"))
    )
    assert first_evening == demo.LATE_ENTRANT_FROM


@pytest.mark.django_db
def test_the_demo_loads_and_its_next_evening_can_be_paired(data, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("load_demo", stdout=io.StringIO())
    series = Series.objects.get(slug=demo.SERIES)
    assert series.managers.filter(username="secretary").exists()
    season = series.seasons.get()
    assert len(standings_document(season=season)["rounds"]) == 21  # the lists after 0..20
    out = io.StringIO()
    call_command("pair_round", demo.SERIES, demo.SEASON, stdout=out)
    pairing = json.loads(out.getvalue())
    assert pairing["round"] == 21 and pairing["pairs"]
    seated = [p for pair in pairing["pairs"] for p in (pair["white"], pair["black"])]
    assert sorted(seated + ([pairing["bye"]] if pairing["bye"] else [])) == sorted(
        data["rounds"][-1]["present"]
    )


@pytest.mark.django_db
def test_the_demo_file_round_trips(data):
    exported = export_competition(import_competition(json.loads(json.dumps(data))))
    assert exported["players"] == data["players"]
    assert [r["games"] for r in exported["rounds"]] == [r["games"] for r in data["rounds"]]
