"""Replacing a stored Keizer season by a file writes only what differs (competitions.sync): the
same file writes nothing, a corrected result writes that game, and the stored standings stay
those of the file."""

import copy

import pytest

from competitions.interchange import export_competition
from competitions.models import Game, RoundEntry, Season
from rankings.imports import import_competition, import_file
from rankings.services import season_recompute
from tests.helpers import stored
from tests.keizer_data import generated_file, small_file

pytestmark = pytest.mark.django_db


def ids(model, season):
    return set(model.objects.filter(round__season=season).values_list("pk", flat=True))


def test_the_same_file_again_writes_nothing():
    data = generated_file(12, 6, seed=5, series="sync")
    season = import_competition(copy.deepcopy(data))
    games, entries = ids(Game, season), ids(RoundEntry, season)
    version = Season.objects.get(pk=season.pk).data_version
    result = import_file(copy.deepcopy(data), replace=True)
    assert result.changes.none
    assert ids(Game, season) == games and ids(RoundEntry, season) == entries
    assert Season.objects.get(pk=season.pk).data_version == version  # nothing to recompute


def test_a_corrected_file_writes_only_its_corrections():
    data = small_file()
    season = import_competition(copy.deepcopy(data))
    games, entries = ids(Game, season), ids(RoundEntry, season)
    data["rounds"][0]["games"][0]["result"] = "0-1"
    data["players"][3]["start_points"] = 5
    del data["players"][5]["start_points"]
    result = import_file(copy.deepcopy(data), replace=True)
    changed = {c.name: (c.added, c.changed, c.removed) for c in result.changes.changes}
    assert changed["games"] == ([], ["1 1"], [])
    assert changed["start points"] == ([], ["p4"], ["p6"])
    assert changed["round entries"] == ([], [], [])
    assert ids(Game, season) == games and ids(RoundEntry, season) == entries
    assert export_competition(season) == data
    assert not Season.objects.get(pk=season.pk).stale
    incremental = stored(season)
    season_recompute(season_id=season.pk, force=True)
    assert stored(season) == incremental


def test_a_replace_moves_players_between_evenings_and_closes_the_season():
    data = generated_file(8, 4, seed=2, series="sync-moves")
    import_competition(copy.deepcopy(data))
    other = generated_file(8, 3, seed=9, series="sync-moves")
    other["closed"] = True
    season = import_competition(copy.deepcopy(other), replace=True)
    assert export_competition(season) == export_competition(
        import_competition({**copy.deepcopy(other), "series": "sync-fresh"})
    ) | {"series": "sync-moves"}
    assert Season.objects.get(pk=season.pk).closed
    reopened = {**copy.deepcopy(other), "closed": False}
    result = import_file(reopened, replace=True)
    assert not result.changes.none
    assert not Season.objects.get(pk=season.pk).closed
