"""The keizer section of the competition file (interchange.md): the round trip, what is stored,
and bad files rejected with their JSON path and nothing stored."""

import copy
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competitions.interchange import FileError, export_competition
from competitions.models import Game, Round, RoundEntry, Season, SeasonPlayer
from rankings.imports import import_competition
from tests.keizer_data import generated_file, small_file

pytestmark = pytest.mark.django_db


def test_import_stores_the_list_the_evenings_and_what_everybody_did():
    season = import_competition(small_file())
    entries = list(
        season.entries.order_by("position").values_list("player__key", "keizer_start__start_points")
    )
    assert [key for key, _sp in entries] == ["p1", "p2", "p3", "p4", "p5", "p6"]
    assert dict(entries)["p4"] == 4 and dict(entries)["p6"] == 2.5 and dict(entries)["p1"] is None
    assert list(Round.objects.filter(season=season).values_list("number", flat=True)) == [1, 2, 3]
    first = Round.objects.get(season=season, number=1)
    statuses = dict(first.entries.values_list("player__key", "status"))
    assert statuses == {"p1": "played", "p2": "played", "p3": "played", "p4": "played", "p5": "bye"}
    board_one = first.games.get(board=1)
    assert dict(board_one.entries.values_list("colour", "player__key")) == {
        "white": "p1",
        "black": "p2",
    }
    assert Game.objects.get(round__number=2, board=1).manual
    third = Round.objects.get(season=season, number=3)
    assert sorted(third.entries.filter(status="present").values_list("player__key", flat=True)) == [
        "p1",
        "p3",
        "p4",
        "p5",
        "p6",
    ]
    assert third.entries.get(volunteer_bye=True).player.key == "p5"
    assert not season.stale  # standings are up to date when the import returns


def test_export_gives_the_file_back():
    assert export_competition(import_competition(small_file())) == small_file()


def test_import_of_the_export_stores_the_same():
    first = export_competition(import_competition(small_file()))
    again = export_competition(import_competition(copy.deepcopy(first), replace=True))
    assert again == first


@given(st.integers(2, 14), st.integers(0, 8), st.integers(0, 10**6))
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_round_trip_of_generated_seasons(players, rounds, seed):
    data = generated_file(players, rounds, seed=seed, series=f"gen{seed}")
    data["players"][0]["start_points"] = 12.25
    exported = export_competition(import_competition(copy.deepcopy(data), replace=True))
    for got, want in zip(exported["rounds"], data["rounds"], strict=True):
        for key in ("bye", "absent", "external", "unexcused", "present"):
            assert sorted(got[key]) == sorted(want[key])
        assert got["games"] == want["games"]
    assert export_competition(import_competition(copy.deepcopy(exported), replace=True)) == exported


def test_the_export_command_writes_the_file():
    import_competition(small_file())
    out = io.StringIO()
    call_command("export_competition", "de-toren", "2025-2026", stdout=out)
    assert json.loads(out.getvalue()) == small_file()


def mutated(change) -> dict:
    data = small_file()
    change(data)
    return data


def set_(path, value):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


BAD_FILES = [
    (set_(("rounds", 0, "number"), 2), "rounds[0].number", "expected round 1"),
    (set_(("rounds", 0, "games", 0, "white"), "zz"), "rounds[0].games[0].white", "unknown player"),
    (
        set_(("rounds", 0, "games", 0, "result"), "2-0"),
        "rounds[0].games[0].result",
        "unknown result",
    ),
    (set_(("rounds", 0, "bye"), ["p5", "p1"]), "rounds[0].bye[1]", "appears twice in round 1"),
    (
        set_(("rounds", 0, "games", 1, "black"), "p3"),
        "rounds[0].games[1].black",
        "appears twice",
    ),
    (
        set_(("rounds", 0, "present"), ["p1", "p2", "p3", "p4", "p5", "p6"]),
        "rounds[0].present[5]",
        "neither plays nor has the bye",
    ),
    (
        set_(("rounds", 0, "present"), ["p1", "p2", "p3", "p4"]),
        "rounds[0].present",
        "not listed as present",
    ),
    (
        set_(("rounds", 1, "games"), []),
        "rounds[1].present",
        "only the last round may wait",
    ),
    (
        set_(("rounds", 0, "games", 0, "result"), ""),
        "rounds[0].games[0].result",
        "only the last round may have games without a result",
    ),
    (set_(("players", 5, "start_points"), "x"), "players[5].start_points", "expected a number"),
    (set_(("players", 5, "start_points"), 1.23456), "players[5].start_points", "4 decimals"),
    (set_(("rounds", 2, "volunteer"), "p2"), "rounds[2].volunteer", "not present"),
    (set_(("closed",), True), "closed", "unfinished"),
    (set_(("settings",), {"points_loss": "3"}), "settings.points_loss", "fraction from 0 to 2"),
    (set_(("settings",), {"preset": "nope"}), "settings.preset", "must be one of"),
    (set_(("settings",), {"value_ratio": "1"}), "settings.value_ratio", "above 1"),
    (set_(("settings",), {"withdrawn_credit": "5/4"}), "settings.withdrawn_credit", "from 0 to 1"),
    (set_(("settings",), {"rematch_gap": 101}), "settings.rematch_gap", "from 0 to 100"),
    (
        set_(("rounds", 1), {"number": 2, "date": None}),
        "rounds[1]",
        "without games or attendance",
    ),
    (set_(("rounds", 0, "date"), "4 Sep"), "rounds[0].date", "not a date"),
    (
        set_(("rounds", 0, "games", 0, "manual"), "yes"),
        "rounds[0].games[0].manual",
        "true or false",
    ),
]


@pytest.mark.parametrize("change,path,message", BAD_FILES)
def test_a_bad_file_is_rejected_with_its_path_and_nothing_is_stored(change, path, message):
    with pytest.raises(FileError) as caught:
        import_competition(mutated(change))
    assert caught.value.path == path
    assert message in caught.value.message
    assert Season.objects.count() == 0
    assert Round.objects.count() == Game.objects.count() == RoundEntry.objects.count() == 0
    assert SeasonPlayer.objects.count() == 0


def test_a_bad_file_leaves_the_stored_season_alone():
    season = import_competition(small_file())
    before = export_competition(season)
    with pytest.raises(FileError):
        import_competition(mutated(set_(("rounds", 0, "games", 0, "result"), "2-0")))
    assert export_competition(Season.objects.get()) == before


def test_the_import_command_names_the_path(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(mutated(set_(("rounds", 0, "bye"), ["p5", "p1"]))))
    with pytest.raises(CommandError, match=r"rounds\[0\]\.bye\[1\]"):
        call_command("import_competition", str(path))
