"""`manage.py pair_round` (interchange.md) on a Keizer season: the JSON, --save, and the errors
of a season that cannot be paired now, whose system does not pair, or whose system pairs
elsewhere (a youth-chess season pairs each group on its page)."""

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from competitions.models import Game, Round
from competitions.systems.keizer.services import attendance_save
from rankings.imports import import_competition
from tests.chess_files import chess_file
from tests.keizer_data import small_file

pytestmark = pytest.mark.django_db

# The list after round 2 of the small file (see tests/rankings/test_keizer_pages.py): p4, p3,
# p1, p2, p5, p6. Present: p1, p3, p4, p5, p6; p5 volunteers. p4-p3 met in round 1, so p4
# gets p6; then p3-p1. Colours: equal balances and nobody alone with black last, so the
# higher-ranked has white.
EXPECTED = {
    "round": 3,
    "pairs": [
        {"white": "p4", "black": "p6", "manual": False},
        {"white": "p3", "black": "p1", "manual": False},
    ],
    "bye": "p5",
    "relaxed": [],
}


def pair_round(*args: str) -> dict:
    out = io.StringIO()
    call_command("pair_round", *args, stdout=out)
    return json.loads(out.getvalue())


def test_pair_round_prints_the_pairing_and_stores_nothing():
    import_competition(small_file())
    assert pair_round("de-toren", "2025-2026") == EXPECTED
    assert not Game.objects.filter(round__number=3).exists()


def test_pair_round_save_stores_the_games_and_the_bye():
    import_competition(small_file())
    assert pair_round("de-toren", "2025-2026", "--save") == EXPECTED
    third = Round.objects.get(number=3)
    games = [
        dict(g.entries.values_list("colour", "player__key")) for g in third.games.order_by("board")
    ]
    assert games == [{"white": "p4", "black": "p6"}, {"white": "p3", "black": "p1"}]
    assert third.entries.get(status="bye").player.key == "p5"
    assert not third.entries.filter(status="present").exists()
    with pytest.raises(CommandError, match="No evening is waiting"):
        pair_round("de-toren", "2025-2026")


def test_an_evening_cannot_be_paired_before_every_earlier_result_is_in():
    data = small_file()
    data["rounds"][1]["games"][0].pop("result")
    data["rounds"].pop()
    season = import_competition(data)
    attendance_save(
        season=season,
        number=3,
        date=None,
        statuses={e: "present" for e in season.entries.all()},
    )
    with pytest.raises(CommandError, match="Enter every result of evening 2 first"):
        pair_round("de-toren", "2025-2026")


def test_other_systems_and_unknown_seasons_get_a_clear_error(circuit_file):
    import_competition(circuit_file)
    with pytest.raises(CommandError, match="not paired by this application"):
        pair_round("belgian-circuit", "2025")
    with pytest.raises(CommandError, match="no season"):
        pair_round("de-toren", "1999")


def test_a_youth_chess_season_is_refused_in_one_line_naming_where_it_is_paired():
    """It used to crash with a TypeError (the chess pairing needs a group)."""
    season = import_competition(chess_file())
    with pytest.raises(CommandError) as refused:
        pair_round(season.series.slug, season.label)
    message = str(refused.value)
    assert "\n" not in message
    assert "not paired by pair_round" in message and "group" in message
    assert not Round.objects.filter(season=season, number__gt=4).exists()
