"""A replacing import writes only what differs (competitions.sync), in bulk, with history."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from competitions.models import Player, Season, SeasonPlayer
from competitions.registry import registered
from rankings.imports import import_file
from tests.dummy import system as dummy

pytestmark = pytest.mark.django_db


@pytest.fixture
def entry_list():
    with registered(dummy.SPEC, standings=dummy.STANDINGS) as spec:
        yield spec


def entry_file(players: int, **changes) -> dict:
    data = {
        "format": "competition/1",
        "system": "entry-list",
        "series": "entries",
        "season": "2026",
        "name": "Entry list 2026",
        "clubs": [{"id": "c1", "name": "Club"}],
        "players": [{"id": f"p{i}", "name": f"Player {i}", "club": "c1"} for i in range(players)],
    }
    data.update(changes)
    return data


def history_rows() -> int:
    return sum(model.history.count() for model in (Player, SeasonPlayer, Season))


def test_replacing_with_the_same_file_writes_nothing(
    entry_list, django_capture_on_commit_callbacks
):
    first = import_file(entry_file(30)).season
    version = Season.objects.get(pk=first.pk).data_version
    history = history_rows()

    with django_capture_on_commit_callbacks(execute=True):
        result = import_file(entry_file(30), replace=True)

    assert result.season.pk == first.pk, "the season keeps its row"
    assert result.changes.none
    assert result.changes.summary() == []
    assert history_rows() == history, "no change history for no change"
    assert Season.objects.get(pk=first.pk).data_version == version, "nothing to recompute"


def test_a_corrected_file_writes_only_its_corrections(entry_list):
    import_file(entry_file(30))
    data = entry_file(30)
    data["players"][3]["name"] = "Renamed"
    data["players"] = data["players"][:-1] + [{"id": "new", "name": "Newcomer"}]
    data["players"][0], data["players"][1] = data["players"][1], data["players"][0]

    result = import_file(data, replace=True)

    lines = "\n".join(result.changes.summary())
    assert "1 added, 1 changed, 0 removed" in lines  # players: the newcomer, the renamed one
    assert "added: new" in lines and "changed: p3" in lines
    # season entries: the newcomer added; p0 and p1 swapped places (changed); p29 removed
    assert "1 added, 2 changed, 1 removed" in lines
    assert "removed: p29" in lines
    entries = SeasonPlayer.objects.filter(season=result.season)
    assert entries.count() == 30
    assert entries.get(player__key="p1").position == 0
    assert Player.objects.filter(series__slug="entries", key="p29").exists(), "kept in the series"
    removed = SeasonPlayer.history.filter(history_type="-")
    assert removed.count() == 1 and removed.get().player.key == "p29"


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite splits bulk inserts by its variable limit"
)
def test_import_queries_do_not_grow_with_the_players(entry_list):
    counts = []
    for players, slug in ((20, "small"), (200, "large")):
        with CaptureQueriesContext(connection) as queries:
            import_file(entry_file(players, series=slug))
        counts.append(len(queries))
    assert counts[0] == counts[1]
