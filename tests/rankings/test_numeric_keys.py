"""Player keys that look like numbers ("1001", as a federation's member numbers often are) stay
keys through every update that reads them back from a stored line's detail: SQLite's JSON
extraction gives "1001" back as the number 1001 unless the key is read as text (KT), which made
an update store lines without their player. The updates must store exactly what a full
recompute stores, on PostgreSQL and on SQLite (the embedded default) alike."""

import json
import re

import pytest
from django.test import TestCase

from competitions.edits import Edit
from competitions.models import Game, Season
from competitions.systems.boardgame.models import Table
from competitions.systems.chess.services import results_save
from rankings.imports import import_competition
from rankings.models import StandingsRow
from rankings.services import season_recompute
from rankings.urls_helpers import season_url
from tests.chess_files import chess_file
from tests.helpers import clear_standings, stored
from tests.rankings.test_boardgame_incremental import LABELS, season_file, swap_ranks

pytestmark = pytest.mark.django_db


def numbered(data: dict, pattern: str) -> dict:
    """The file with every player key matching `pattern` (a JSON string) made a number-like
    key: "a" -> "1001", "p3" -> "1004"."""
    text = json.dumps(data)
    keys = sorted(set(re.findall(pattern, text)))
    numbers = {key: str(1001 + i) for i, key in enumerate(keys)}
    return json.loads(re.sub(pattern, lambda m: f'"{numbers[m.group(1)]}"', text))


def full_recompute_matches(*seasons: Season) -> None:
    incremental = [stored(s) for s in seasons]
    for s in seasons:
        clear_standings(s)
        season_recompute(season_id=s.pk, force=True)
    assert [stored(s) for s in seasons] == incremental


def test_a_chess_update_keeps_number_like_player_keys():
    season = import_competition(numbered(chess_file(), r'"([a-g])"'))
    game = Game.objects.get(round__group__name="Gruppe A", round__number=1, result="1-0")
    with TestCase.captureOnCommitCallbacks(execute=True):
        results_save(round_=game.round, rows=[Edit.sent(game.pk, "0-1")])
    assert not Season.objects.get(pk=season.pk).stale
    assert not StandingsRow.objects.filter(season=season, player__isnull=True).exists()
    full_recompute_matches(season)


def test_a_circuit_update_keeps_number_like_player_keys(client, django_capture_on_commit_callbacks):
    """Number-like player keys, a game called "1846" and a tournament called "2025"."""
    seasons = []
    for k, label in enumerate(LABELS):
        data = numbered(season_file(label, k + 1), r'"(p\d+)"')
        data = json.loads(json.dumps(data).replace('"Azul"', '"1846"'))
        data["tournaments"][0]["name"] = "2025"
        data["series"] = "numbered-circuit"
        with django_capture_on_commit_callbacks(execute=True):
            seasons.append(import_competition(data))
    last = seasons[-1]
    table = Table.objects.filter(round__season=last, round__tournament__key="t1").first()
    with django_capture_on_commit_callbacks(execute=True):
        swap_ranks(table)
    assert not Season.objects.get(pk=last.pk).stale
    lines = StandingsRow.objects.filter(season=last, table__kind="game")
    assert lines.exists() and not lines.filter(player__isnull=True).exists()
    full_recompute_matches(*seasons)
    overview = client.get(season_url(last))
    assert overview.status_code == 200
    text = overview.content.decode()
    assert ">2025<" in text or "2025</a>" in text
    assert "1846" in text
