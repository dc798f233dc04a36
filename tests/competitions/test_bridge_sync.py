"""Bridge ladder files replace a stored season writing only what differs (competitions.sync)."""

import copy

import pytest

from competitions.interchange import export_competition
from competitions.models import Season
from competitions.systems.bridge.models import ChallengeScore, PoolMember
from rankings.imports import import_file
from tests.bridge_files import big_ladder

pytestmark = pytest.mark.django_db


def history_rows() -> int:
    return ChallengeScore.history.count() + PoolMember.history.count()


def test_replacing_with_the_same_file_writes_nothing(django_capture_on_commit_callbacks):
    data = big_ladder(3, 3, series="same", seed=3)
    first = import_file(copy.deepcopy(data)).season
    version = Season.objects.get(pk=first.pk).data_version
    history = history_rows()
    with django_capture_on_commit_callbacks(execute=True):
        result = import_file(copy.deepcopy(data), replace=True)
    assert result.season.pk == first.pk
    assert result.changes.none
    assert history_rows() == history
    assert Season.objects.get(pk=first.pk).data_version == version


def test_a_corrected_file_writes_only_its_corrections(django_capture_on_commit_callbacks):
    data = big_ladder(3, 3, series="fix", seed=4)
    season = import_file(copy.deepcopy(data)).season
    fixed = copy.deepcopy(data)
    imps = fixed["rounds"][1]["challenges"][0]["imps"]
    player = next(iter(imps))
    imps[player] = 77  # no generated score is a whole 77
    dropped = next(iter(fixed["rounds"][2]["challenges"][2]["imps"]))
    del fixed["rounds"][2]["challenges"][2]["imps"][dropped]
    with django_capture_on_commit_callbacks(execute=True):
        result = import_file(copy.deepcopy(fixed), replace=True)
    lines = "\n".join(result.changes.summary())
    assert "0 added, 1 changed, 1 removed" in lines, lines
    assert result.season.pk == season.pk
    # the stored season is the file, and its standings are up to date
    exported = export_competition(season)
    assert exported["rounds"][1]["challenges"][0]["imps"][player] == imps[player]
    assert dropped not in exported["rounds"][2]["challenges"][2]["imps"]
    season.refresh_from_db()
    assert not season.stale
