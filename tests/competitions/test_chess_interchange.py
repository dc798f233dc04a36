"""interchange.md chess-bgp: the file imported, exported back the same, faults rejected with their
JSON path and nothing stored; the standings document of rules.md §3's hand-checked example."""

import copy
import io
import json

import pytest
from django.core.management import call_command

from competitions.interchange import FileError, export_competition
from competitions.models import Game, Group, Player, Round, RoundEntry, Season, Tournament
from competitions.systems.chess.models import GroupPlayer
from rankings.imports import import_competition
from rankings.models import StandingsRow, StandingsTable
from tests.chess_files import chess_file, played_chess_file
from tests.helpers import document

pytestmark = pytest.mark.django_db

MODELS = (Season, Tournament, Group, GroupPlayer, Round, Game, RoundEntry, StandingsTable)


def counts() -> dict:
    return {m.__name__: m.objects.count() for m in (*MODELS, StandingsRow)}


def test_import_stores_groups_players_games_and_walkovers():
    season = import_competition(chess_file())
    assert not season.stale
    klyve = season.tournaments.get(key="klyve")
    assert klyve.options == {} and klyve.draw_seed == 11
    assert season.tournaments.get(key="km").options == {"county_championship": True}
    group = klyve.groups.get(name="Gruppe A")
    assert group.scale == "1-half-0"
    assert list(group.members.values_list("player__key", "position", "player_class")) == [
        ("a", 1, "Kadett"),
        ("b", 2, "Kadett"),
        ("c", 3, "Lilleputt"),
        ("d", 4, "Kadett"),
        ("e", 5, "Lilleputt"),
    ]
    assert group.members.get(player__key="a").rating == 1500
    assert Player.objects.get(key="b").born == 2012
    assert group.rounds.count() == 4
    assert RoundEntry.objects.filter(round__group=group, status="walkover").count() == 3
    forfeit = Game.objects.get(round__group=group, round__number=4, result="+-")
    assert {e.colour: e.player.key for e in forfeit.entries.all()} == {
        "white": "b",
        "black": "e",
    }
    # A game without a result: paired, not played yet.
    assert Game.objects.get(round__group__name="Alle", round__number=2).result == ""


def test_export_gives_the_file_back_and_import_of_the_export_stores_the_same():
    season = import_competition(chess_file())
    exported = export_competition(season)
    assert exported == chess_file()
    standings = json.dumps(document(season), sort_keys=True)
    rows = _rows(season)
    again = import_competition(copy.deepcopy(exported), replace=True)  # replaces it whole
    assert export_competition(again) == exported
    assert json.dumps(document(again), sort_keys=True) == standings
    assert _rows(again) == rows


def test_a_replace_of_the_same_file_writes_no_birth_year_again():
    """The file's birth years are compared with the stored ones: replacing a season with the
    same file (or importing a new season of known players) writes no year and no history row."""
    season = import_competition(chess_file())
    history = Player.history.filter(series=season.series).count()
    assert Player.objects.get(series=season.series, key="a").born == 2011
    import_competition(chess_file(), replace=True)
    assert Player.history.filter(series=season.series).count() == history
    changed = chess_file()
    for tournament in changed["tournaments"]:
        for group in tournament["groups"]:
            for entry in group["players"]:
                if entry["player"] == "a":
                    entry["born"] = 2010
    import_competition(changed, replace=True)
    assert Player.objects.get(series=season.series, key="a").born == 2010
    assert Player.history.filter(series=season.series).count() == history + 1


def _rows(season) -> list:
    """Every stored standings line with its table, without the database ids of groups."""
    return [
        (
            r.table.kind,
            r.table.data.get("name", r.table.key),
            r.position,
            r.rank,
            {k: v for k, v in r.detail.items() if k != "group_id"},
        )
        for r in StandingsRow.objects.filter(season=season)
        .select_related("table")
        .order_by("table__kind", "table__position", "position")
    ]


def test_standings_document_of_the_hand_checked_group():
    doc = document(import_competition(played_chess_file()))
    klyve = doc["tournaments"][0]
    assert klyve["id"] == "klyve"
    group = klyve["groups"][0]
    assert group["name"] == "Gruppe A"
    # Each row lists the group's tie-breaks (chess-othello-options.md §1.9): with the default
    # list, today's Monrad columns and Berger under their codes.
    assert group["rows"][0].pop("tiebreaks") == [
        {"code": "MK/C1", "value": 6.5},
        {"code": "MK", "value": 7.5},
        {"code": "BK", "value": 6.5},
    ]
    for row in group["rows"][1:] + klyve["groups"][1]["rows"]:
        assert [t["value"] for t in row.pop("tiebreaks")] == [*row["monrad"], row["berger"]]
    assert group["rows"] == [
        {"player": "a", "place": 1, "points": 3.5, "monrad": [6.5, 7.5], "berger": 6.5,
         "cells": ["+H2", "+S5", "=H3", "+H4"]},
        {"player": "b", "place": 2, "points": 3, "monrad": [5, 5], "berger": 1.5,
         "cells": ["-S1", "+H4", "WO", "WO"]},
        {"player": "d", "place": 3, "points": 2, "monrad": [5, 5], "berger": 2.5,
         "cells": ["=S4", "WO", "=S1", ""]},
        {"player": "c", "place": 4, "points": 1.5, "monrad": [8.5, 9.5], "berger": 2,
         "cells": ["=H3", "-S2", "+H5", "-S1"]},
        {"player": "e", "place": 5, "points": 1, "monrad": [5, 5], "berger": 0,
         "cells": ["WO", "-H1", "-S4", "-WO"]},
    ]  # fmt: skip
    assert klyve["groups"][1]["rows"][0] == {
        "player": "g", "place": 1, "points": 3, "monrad": [0, 1], "berger": 1, "cells": ["+S2"],
    }  # fmt: skip
    # 7 participants: the short scale; Kadett a, b, d by the group order; Lilleputt c, e.
    assert klyve["bgp"] == [
        {"player": "a", "class": "Kadett", "place": 1, "points": 20},
        {"player": "b", "class": "Kadett", "place": 2, "points": 17},
        {"player": "d", "class": "Kadett", "place": 3, "points": 15},
        {"player": "c", "class": "Lilleputt", "place": 1, "points": 20},
        {"player": "e", "class": "Lilleputt", "place": 2, "points": 17},
        {"player": "g", "class": "Miniputt", "place": 1, "points": 20},
        {"player": "f", "class": "Miniputt", "place": 2, "points": 17},
    ]
    # The county championship: 20 to each class winner, 10 to everyone else. b beat a, then c
    # (played_chess_file; with that result to come the group gives no points yet).
    assert doc["tournaments"][1]["bgp"] == [
        {"player": "b", "class": "Kadett", "place": 1, "points": 20},
        {"player": "a", "class": "Kadett", "place": 2, "points": 10},
        {"player": "c", "class": "Lilleputt", "place": 1, "points": 20},
    ]
    assert [
        (r["player"], r["place"], r["cells"]) for r in doc["tournaments"][1]["groups"][0]["rows"]
    ] == [
        ("b", 1, ["+H3", "+S2"]),
        ("c", 2, ["WO", "-H1"]),
        ("a", 3, ["-S1", ""]),
    ]
    assert doc["classes"] == {
        "Kadett": [
            {"player": "b", "rank": 1, "points": 37},
            {"player": "a", "rank": 2, "points": 30},
            {"player": "d", "rank": 3, "points": 15},
        ],
        "Lilleputt": [
            {"player": "c", "rank": 1, "points": 40},
            {"player": "e", "rank": 2, "points": 17},
        ],
        "Miniputt": [
            {"player": "g", "rank": 1, "points": 20},
            {"player": "f", "rank": 2, "points": 17},
        ],
    }


def test_a_group_with_a_result_to_come_gives_no_bgp_points_yet():
    """Issue 46: a group with no games, or a result to come, handed out BGP points at once
    (4 players, 0 rounds: all shared first). It gives none until all its rounds have results;
    the tournament's other groups give theirs."""
    data = chess_file()
    data["tournaments"][0]["groups"].append(
        {
            "name": "Gruppe C",
            "scale": "1-half-0",
            "players": [
                {"player": "h", "class": "Kadett", "born": 2011},
                {"player": "i", "class": "Kadett", "born": 2012},
            ],
            "rounds": [],
        }
    )
    data["players"] += [{"id": "h", "name": "Hanna Lie"}, {"id": "i", "name": "Ivar Lie"}]
    doc = document(import_competition(data))
    klyve, km = doc["tournaments"]
    assert {row["player"] for row in klyve["bgp"]} == {"a", "b", "c", "d", "e", "f", "g"}
    assert km["bgp"] == []  # its round 2 has a game without a result
    assert [row["player"] for row in doc["classes"]["Kadett"]] == ["a", "b", "d"]


def test_export_standings_command_writes_json_and_csv():
    import_competition(played_chess_file())
    out = io.StringIO()
    call_command("export_standings", "telemark-bgp", "2025/26", stdout=out)
    assert json.loads(out.getvalue())["classes"]["Kadett"][0]["player"] == "b"


def group_a(data: dict) -> dict:
    return data["tournaments"][0]["groups"][0]


def with_change(change) -> dict:
    data = chess_file()
    change(data)
    return data


BAD_FILES = [
    (
        lambda d: d["tournaments"][0].update(id="klyve/2025"),
        "tournaments[0].id",
        "only letters, digits, - and _",
    ),
    (
        lambda d: d["players"][2].update(id="c/3"),
        "players[2].id",
        "not a valid id",
    ),
    (
        lambda d: group_a(d)["rounds"][0].append({"walkover": "zz"}),
        "tournaments[0].groups[0].rounds[0][3].walkover",
        "unknown player",
    ),
    (
        lambda d: group_a(d)["rounds"][0].append({"walkover": "f"}),
        "tournaments[0].groups[0].rounds[0][3].walkover",
        "not a player of this group",
    ),
    (
        lambda d: group_a(d)["rounds"][1].append({"walkover": "a"}),
        "tournaments[0].groups[0].rounds[1][3].walkover",
        "already plays at tournaments[0].groups[0].rounds[1][0].black",
    ),
    (
        lambda d: group_a(d)["rounds"][0][0].update(result="2-0"),
        "tournaments[0].groups[0].rounds[0][0].result",
        "unknown result",
    ),
    (
        lambda d: group_a(d).update(scale="2-1-0"),
        "tournaments[0].groups[0].scale",
        "unknown scale",
    ),
    (
        lambda d: d["tournaments"][1]["groups"][0]["players"][1].update(born=2013),
        "tournaments[1].groups[0].players[1].born",
        "born in 2012 according to tournaments[0].groups[0].players[1].born",
    ),
    (
        lambda d: d["tournaments"][0]["groups"][1].update(name="Gruppe A"),
        "tournaments[0].groups[1].name",
        "duplicate group name",
    ),
    (
        lambda d: group_a(d)["players"].append({"player": "a"}),
        "tournaments[0].groups[0].players[5].player",
        "listed twice",
    ),
    (
        lambda d: group_a(d)["players"][0].update(rating=9999),
        "tournaments[0].groups[0].players[0].rating",
        "at most 4000",
    ),
    (
        lambda d: group_a(d)["players"][0].update({"class": "K" * 51}),
        "tournaments[0].groups[0].players[0].class",
        "longer than 50",
    ),
    (
        lambda d: group_a(d)["rounds"][0].append({"walkover": "x", "white": "a"}),
        "tournaments[0].groups[0].rounds[0][3].white",
        "only the player",
    ),
    (
        lambda d: group_a(d)["rounds"].append({"white": "a"}),
        "tournaments[0].groups[0].rounds[4]",
        "expected a list",
    ),
    (
        lambda d: d["tournaments"][1].update(county_championship="yes"),
        "tournaments[1].county_championship",
        "true or false",
    ),
    (
        lambda d: d.update(settings={"bgp_small": "20 17 x"}),
        "settings.bgp_small",
        "whole numbers",
    ),
    (
        lambda d: d.update(settings={"monrad_long_from": 1}),
        "settings.monrad_long_from",
        "from 2 to 100",
    ),
]


@pytest.mark.parametrize("change,path,message", BAD_FILES)
def test_a_bad_file_is_rejected_with_its_path_and_stores_nothing(change, path, message):
    before = counts()
    with pytest.raises(FileError) as error:
        import_competition(with_change(change))
    assert error.value.path == path
    assert message in error.value.message
    assert counts() == before


def test_settings_change_the_scales_and_the_monrad_rule():
    data = chess_file(settings={"bgp_small": "25 20", "bgp_further": 1, "monrad_long_from": 4})
    doc = document(import_competition(data))
    assert [r["points"] for r in doc["tournaments"][0]["bgp"][:3]] == [25, 20, 1]
    # 4 rounds count as "7 or more" now: three Monrad columns.
    assert doc["tournaments"][0]["groups"][0]["rows"][0]["monrad"] == [5, 6.5, 7.5]
