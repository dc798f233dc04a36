"""The competition-file commands of interchange.md, run through `call_command`.

import_competition, export_competition and export_standings (JSON and CSV) for the board-game
circuit, with golden standings worked out by hand from rules.md §1 for the `circuit_file` fixture.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import sys
import zipfile

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from competitions.models import (
    Club,
    Player,
    Round,
    Season,
    SeasonPlayer,
    Series,
    Tournament,
)
from competitions.systems.boardgame.models import HistoricTotal, Seat, Table
from rankings.exports import csv_archive, csv_tables
from rankings.imports import import_competition
from rankings.models import StandingsRow, StandingsTable
from rankings.selectors import standings_document
from tests.helpers import approx, stored

pytestmark = pytest.mark.django_db

SERIES = "belgian-circuit"
SEASON = "2025"


# --- helpers ----------------------------------------------------------------------------------


def write_file(tmp_path, data, name: str = "competition.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def import_file(tmp_path, data, name: str = "competition.json", *options: str) -> str:
    out = io.StringIO()
    call_command("import_competition", write_file(tmp_path, data, name), *options, stdout=out)
    return out.getvalue()


def export_competition(series: str = SERIES, season: str = SEASON) -> dict:
    out = io.StringIO()
    call_command("export_competition", series, season, stdout=out)
    return json.loads(out.getvalue())


def export_standings(series: str = SERIES, season: str = SEASON) -> dict:
    out = io.StringIO()
    call_command("export_standings", series, season, "--format", "json", stdout=out)
    return json.loads(out.getvalue())


MODELS = (
    Series,
    Season,
    Club,
    Player,
    SeasonPlayer,
    HistoricTotal,
    Tournament,
    Round,
    Table,
    Seat,
    StandingsTable,
    StandingsRow,
)


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def stored_standings(series: str = SERIES, season: str = SEASON) -> str:
    return stored(Season.objects.get(series__slug=series, label=season))


def snapshot(series: str = SERIES, season: str = SEASON) -> dict:
    """Everything a failed import must leave as it was."""
    return {
        "counts": counts(),
        "file": export_competition(series, season),
        "stored": stored_standings(series, season),
        "standings": export_standings(series, season),
        "season_pk": Season.objects.get(series__slug=series, label=season).pk,
    }


# --- 1. round trip ----------------------------------------------------------------------------


def with_missing_dates_as_null(data: dict) -> dict:
    """The only thing export may add to a file that has every other field: `date: null`."""
    expected = copy.deepcopy(data)
    for t in expected.get("tournaments", []):
        t.setdefault("date", None)
    return expected


def as_series(data: dict, series: str) -> dict:
    copied = copy.deepcopy(data)
    copied["series"] = series
    return copied


def test_round_trip_export_equals_input(tmp_path, circuit_file):
    message = import_file(tmp_path, circuit_file)
    assert SERIES in message and SEASON in message

    first = export_competition()
    expected = with_missing_dates_as_null(circuit_file)
    # Field by field first, for a readable failure; then the whole document.
    assert set(first) == set(expected)
    for key in expected:
        if key == "tournaments":
            continue
        assert first[key] == expected[key], key
    assert len(first["tournaments"]) == len(expected["tournaments"])
    for got, want in zip(first["tournaments"], expected["tournaments"], strict=True):
        assert set(got) == set(want), want["id"]
        for key in want:
            assert got[key] == want[key], (want["id"], key)
    assert first == expected


def test_round_trip_import_of_the_export_stores_the_same(tmp_path, circuit_file):
    """import(export(x)) into a second series (no replacement involved): same file, same
    standings."""
    import_file(tmp_path, circuit_file)
    first = export_competition()
    import_file(tmp_path, as_series(first, "copy"), "export.json")
    assert export_competition("copy", SEASON) == as_series(first, "copy")
    assert export_standings("copy", SEASON) == export_standings()
    assert stored_standings("copy", SEASON) == stored_standings()


def test_round_trip_reimport_in_place_is_stable(tmp_path, circuit_file):
    import_file(tmp_path, circuit_file)
    first = export_competition()
    standings_before = stored_standings()
    document_before = export_standings()

    report = import_file(tmp_path, first, "export.json", "--replace")
    assert "Replaced belgian-circuit 2025." in report and "No results change." in report
    second = export_competition()
    assert second == first
    assert stored_standings() == standings_before
    assert export_standings() == document_before
    assert counts()["Season"] == 1
    assert counts()["Series"] == 1


def test_round_trip_of_a_minimal_file_with_settings(tmp_path):
    """Optional fields left out (dates, final flags, draw seeds, clubs, history): the export may
    fill in defaults, but holds everything the input has, and import(export(x)) is stable."""
    data = {
        "format": "competition/1",
        "system": "boardgame-circuit",
        "series": "mini",
        "season": "2026",
        "name": "Mini circuit 2026",
        "settings": {"best_n": 4, "cap": None, "final_table_size": {"Catan": 2}},
        "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        "tournaments": [
            {
                "id": "t1",
                "name": "Only",
                "rounds": [
                    {
                        "tables": [
                            {
                                "game": "Catan",
                                "results": [{"player": "a", "rank": 1}, {"player": "b", "rank": 2}],
                            }
                        ]
                    }
                ],
            }
        ],
    }
    import_file(tmp_path, data)
    first = export_competition("mini", "2026")
    for key in ("format", "system", "series", "season", "name", "settings", "players"):
        assert first[key] == data[key], key
    assert first.get("clubs", []) == []
    (t,) = first["tournaments"]
    assert t["id"] == "t1" and t["name"] == "Only" and t["date"] is None
    assert t.get("final", False) is False
    assert t["rounds"] == data["tournaments"][0]["rounds"]
    standings = export_standings("mini", "2026")
    # settings.cap null = no cap: X - P + 1 with X = 2.
    assert [r["bonus"] for r in standings["tournaments"][0]["standings"]] == [2, 1]

    import_file(tmp_path, as_series(first, "mini-copy"), "export.json")
    assert export_competition("mini-copy", "2026") == as_series(first, "mini-copy")
    assert export_standings("mini-copy", "2026") == standings


# --- 2. import replaces the season whole ------------------------------------------------------


def test_import_replaces_the_season_whole(tmp_path, circuit_file):
    import_file(tmp_path, circuit_file)
    assert set(Tournament.objects.values_list("key", flat=True)) == {"t1", "t2", "final"}

    changed = copy.deepcopy(circuit_file)
    changed["name"] = "Belgian board game circuit 2025 (corrected)"
    del changed["tournaments"][1]  # t2 is gone
    del changed["history"]
    changed["tournaments"][0]["rounds"] = changed["tournaments"][0]["rounds"][:1]
    report = import_file(tmp_path, changed, "changed.json", "--replace")
    # t1 lost its round 2 table, t2 its two tables; nothing added or changed
    assert "tables: 0 added, 0 changed, 3 removed." in report
    assert "removed: t2 round 1 table 2" in report

    assert Season.objects.count() == 1
    assert set(Tournament.objects.values_list("key", flat=True)) == {"t1", "final"}
    assert Round.objects.count() == 2
    assert Seat.objects.count() == 4 + 2
    assert HistoricTotal.objects.count() == 0
    assert export_competition() == with_missing_dates_as_null(changed)

    standings = export_standings()
    assert [t["id"] for t in standings["tournaments"]] == ["t1", "final"]
    assert all("t2" not in row["counted"] for row in standings["yearly"])
    assert set(standings["games"]) == {"Catan"}  # Carcassonne was only played in t1 r2 and t2
    # Without the history, LUDO equals the yearly ranking.
    assert {r["player"]: r["points"] for r in standings["ludo"]} == {
        r["player"]: r["points"] for r in standings["yearly"]
    }


@pytest.mark.django_db(transaction=True)
def test_stored_previous_season_gives_the_cap_and_ludo(tmp_path, circuit_file):
    """interchange.md: the cap comes from the stored previous season before
    previous_participants; rules.md §1.4: yearly(Y-1) of a stored season. Importing the older
    season afterwards brings the later one up to date (transaction=True: on_commit fires)."""
    newer = copy.deepcopy(circuit_file)
    del newer["history"]  # previous_participants [64, 70, 81] stays: cap 70 while 2024 is absent
    older = copy.deepcopy(circuit_file)
    older["season"] = "2024"
    older["name"] = "Belgian board game circuit 2024"
    del older["history"], older["previous_participants"]

    import_file(tmp_path, newer, "2025.json")
    assert {t["cap"] for t in export_standings()["tournaments"]} == {70}

    import_file(tmp_path, older, "2024.json")
    # 2024 has no earlier data: no cap.
    assert {t["cap"] for t in export_standings(SERIES, "2024")["tournaments"]} == {None}
    doc = export_standings()
    # 2024's regular tournaments t1 and t2 had 5 participants each: average 5, /10 = 0.5,
    # half up 1, *10 -> C = 10 (bonuses unchanged, X = 5 <= 10).
    assert {t["cap"] for t in doc["tournaments"]} == {10}
    assert rows_of(doc["yearly"], "player", "rank", "points", "counted") == approx_rows(
        GOLDEN_YEARLY
    )
    # 2024 is the same competition, so LUDO = 2/3 * yearly + yearly = 5/3 * yearly.
    assert rows_of(doc["ludo"], "player", "rank", "points") == approx_rows(
        [(p, rank, pts * 5 / 3) for p, rank, pts, _counted in GOLDEN_YEARLY]
    )


# --- 3. bad input -----------------------------------------------------------------------------


def _rank_7(d):
    d["tournaments"][0]["rounds"][0]["tables"][0]["results"][2]["rank"] = 7


def _unknown_player(d):
    d["tournaments"][0]["rounds"][0]["tables"][0]["results"][3]["player"] = "p9"


def _twice_in_round(d):
    # t2 round 1: p1 sits at the Catan table and now also at the Carcassonne table.
    d["tournaments"][1]["rounds"][0]["tables"][1]["results"][0]["player"] = "p1"


def _one_player_table(d):
    d["tournaments"][0]["rounds"][1]["tables"][0]["results"] = [{"player": "p5", "rank": 1}]


def _rank_0(d):
    d["tournaments"][0]["rounds"][0]["tables"][0]["results"][0]["rank"] = 0


def _rank_text(d):
    d["tournaments"][0]["rounds"][0]["tables"][0]["results"][1]["rank"] = "2"


def _duplicate_tournament(d):
    d["tournaments"][1]["id"] = "t1"


def _two_finals(d):
    d["tournaments"][1]["final"] = True


def _too_many_rounds(d):
    rounds = d["tournaments"][0]["rounds"]
    rounds.extend(copy.deepcopy(rounds))  # 4 rounds, rounds_per_tournament is 3


def _unknown_setting(d):
    d["settings"] = {"best_n": 5, "best_of": 5}


def _wrong_format(d):
    d["format"] = "competition/2"


def _unknown_system(d):
    d["system"] = "poker"


def _unknown_club(d):
    d["players"][2]["club"] = "c9"


def _invalid_date(d):
    d["tournaments"][1]["date"] = "2025-02-30"


# (id, mutation, exact JSON path, fragments of the fault that the message must hold)
FAULTS = [
    (
        "rank-7-at-table-of-4",
        _rank_7,
        "tournaments[0].rounds[0].tables[0].results[2].rank",
        ["rank 7 at a table of 4"],
    ),
    (
        "unknown-player",
        _unknown_player,
        "tournaments[0].rounds[0].tables[0].results[3].player",
        ["unknown player", "p9"],
    ),
    (
        "player-twice-in-round",
        _twice_in_round,
        "tournaments[1].rounds[0].tables[1].results[0].player",
        ["p1", "already plays", "tournaments[1].rounds[0].tables[0]"],
    ),
    (
        "table-with-one-player",
        _one_player_table,
        "tournaments[0].rounds[1].tables[0].results",
        ["at least 2 players"],
    ),
    (
        "rank-0",
        _rank_0,
        "tournaments[0].rounds[0].tables[0].results[0].rank",
        ["rank 0 at a table of 4"],
    ),
    (
        "rank-as-text",
        _rank_text,
        "tournaments[0].rounds[0].tables[0].results[1].rank",
        ["whole number", "'2'"],
    ),
    (
        "duplicate-tournament-id",
        _duplicate_tournament,
        "tournaments[1].id",
        ["duplicate tournament id", "t1"],
    ),
    (
        "two-finals",
        _two_finals,
        "tournaments[2].final",
        ["one final", "tournaments[1]"],
    ),
    (
        "too-many-rounds",
        _too_many_rounds,
        "tournaments[0].rounds",
        ["4 rounds", "at most 3", "rounds_per_tournament"],
    ),
    ("unknown-setting", _unknown_setting, "settings.best_of", ["unknown setting", "best_of"]),
    ("wrong-format", _wrong_format, "format", ["unsupported format", "competition/2"]),
    ("unknown-system", _unknown_system, "system", ["unknown system", "poker"]),
    ("unknown-club", _unknown_club, "players[2].club", ["unknown club", "c9"]),
    ("invalid-date", _invalid_date, "tournaments[1].date", ["2025-02-30", "not a date"]),
]


def assert_names_fault(message: str, path: str, fragments: list[str]) -> None:
    assert message.startswith(f"{path}: "), message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


def _fault_params():
    for name, mutate, path, fragments in FAULTS:
        yield pytest.param(mutate, path, fragments, False, id=f"{name}-new-season")
        yield pytest.param(mutate, path, fragments, True, id=f"{name}-replacement")


@pytest.mark.parametrize(("mutate", "path", "fragments", "replace"), list(_fault_params()))
def test_bad_file_is_rejected_and_stores_nothing(
    tmp_path, circuit_file, mutate, path, fragments, replace
):
    if replace:
        import_file(tmp_path, circuit_file, "good.json")
        before = snapshot()
    else:
        before = {"counts": counts()}
    bad = copy.deepcopy(circuit_file)
    mutate(bad)

    with pytest.raises(CommandError) as caught:
        import_file(tmp_path, bad, "bad.json", *(["--replace"] if replace else []))
    assert_names_fault(str(caught.value), path, fragments)

    if replace:
        assert snapshot() == before
    else:
        assert counts() == before["counts"]
        assert not Series.objects.exists()


def _date_without_dashes(d):
    d["tournaments"][1]["date"] = "20250316"  # Python 3.11's fromisoformat accepts this


def _history_nan(d):
    d["history"][0]["yearly"]["p1"] = float("nan")  # json.dumps writes NaN, json.loads reads it


def _history_too_large(d):
    d["history"][0]["yearly"]["p1"] = 1e300


def _draw_seed_too_large(d):
    d["tournaments"][0]["draw_seed"] = 2**70


@pytest.mark.parametrize(
    ("mutate", "path", "fragments"),
    [
        pytest.param(
            _date_without_dashes,
            "tournaments[1].date",
            ["20250316"],
            id="date-without-dashes",
        ),
        pytest.param(
            _history_nan,
            "history[0].yearly.p1",
            ["number"],
            id="history-nan",
        ),
        pytest.param(
            _history_too_large,
            "history[0].yearly.p1",
            ["number"],
            id="history-too-large",
        ),
        pytest.param(
            _draw_seed_too_large,
            "tournaments[0].draw_seed",
            [],
            id="draw-seed-too-large",
        ),
    ],
)
def test_bad_value_is_rejected_with_its_path(tmp_path, circuit_file, mutate, path, fragments):
    import_file(tmp_path, circuit_file, "good.json")
    before = snapshot()
    bad = copy.deepcopy(circuit_file)
    mutate(bad)
    with pytest.raises(CommandError) as caught:
        import_file(tmp_path, bad, "bad.json", "--replace")
    assert_names_fault(str(caught.value), path, fragments)
    assert snapshot() == before


def test_history_totals_keep_their_precision(tmp_path, circuit_file):
    data = copy.deepcopy(circuit_file)
    data["history"][0]["yearly"]["p2"] = 587.9166666666666
    import_file(tmp_path, data)
    assert export_competition()["history"] == data["history"]


@pytest.mark.parametrize("replace", [False, True], ids=["new-season", "replacement"])
def test_invalid_json_names_line_and_column(tmp_path, circuit_file, replace):
    if replace:
        import_file(tmp_path, circuit_file, "good.json")
        before = snapshot()
    else:
        before = {"counts": counts()}
    path = tmp_path / "broken.json"
    path.write_text('{"format": "competition/1",\n  "system": ,\n}', encoding="utf-8")

    with pytest.raises(CommandError) as caught:
        call_command("import_competition", str(path), stdout=io.StringIO())
    message = str(caught.value)
    assert "JSON" in message
    assert "line 2" in message and "column 13" in message, message

    if replace:
        assert snapshot() == before
    else:
        assert counts() == before["counts"]


def test_missing_file(tmp_path):
    before = counts()
    missing = tmp_path / "no-such-file.json"
    with pytest.raises(CommandError) as caught:
        call_command("import_competition", str(missing), stdout=io.StringIO())
    message = str(caught.value)
    assert str(missing) in message
    assert "No such file" in message
    assert counts() == before


def test_series_of_another_system_is_refused(tmp_path, circuit_file):
    Series.objects.create(slug=SERIES, name="Belgian Othello GP", system="othello-gp")
    before = counts()
    with pytest.raises(CommandError) as caught:
        import_file(tmp_path, circuit_file)
    assert_names_fault(str(caught.value), "system", [SERIES, "othello-gp"])
    assert counts() == before
    assert Series.objects.get(slug=SERIES).system == "othello-gp"


# --- 4. export_standings --format json: shape and golden values -------------------------------

TOURNAMENT_KEYS = {"id", "participants", "cap", "standings", "tables", "ceremony"}
STANDING_KEYS = {"player", "rank", "daily", "bonus", "points"}
TABLE_KEYS = {"round", "game", "results"}
RESULT_KEYS = {"player", "rank", "placement", "bonus", "fraction", "score"}
YEARLY_KEYS = {"player", "rank", "points", "counted"}
LUDO_KEYS = {"player", "rank", "points"}
GAME_KEYS = {"player", "rank", "points", "played", "finalist"}


def is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def test_standings_json_shape(tmp_path, circuit_file):
    import_file(tmp_path, circuit_file)
    doc = export_standings()

    assert set(doc) == {"tournaments", "yearly", "ludo", "games"}
    for t in doc["tournaments"]:
        assert set(t) == TOURNAMENT_KEYS
        assert isinstance(t["id"], str)
        assert isinstance(t["participants"], int)
        assert t["cap"] is None or is_number(t["cap"])
        for row in t["standings"]:
            assert set(row) == STANDING_KEYS
            assert isinstance(row["player"], str) and isinstance(row["rank"], int)
            assert all(is_number(row[k]) for k in ("daily", "bonus", "points"))
        ranks = [r["rank"] for r in t["standings"]]
        assert ranks == sorted(ranks)
        for table in t["tables"]:
            assert set(table) == TABLE_KEYS
            assert isinstance(table["round"], int) and isinstance(table["game"], str)
            for result in table["results"]:
                assert set(result) == RESULT_KEYS
                assert all(
                    is_number(result[k])
                    for k in ("rank", "placement", "bonus", "fraction", "score")
                )
            table_ranks = [r["rank"] for r in table["results"]]
            assert table_ranks == sorted(table_ranks)
        for entry in t["ceremony"]:
            assert entry["step"] in {"winner", "club", "place", "draw"}
            if entry["step"] == "club":
                assert set(entry) == {"step", "club"}
            else:
                assert set(entry) == {"step", "player"}
    for key, keys in (("yearly", YEARLY_KEYS), ("ludo", LUDO_KEYS)):
        for row in doc[key]:
            assert set(row) == keys
            assert is_number(row["points"]) and isinstance(row["rank"], int)
        ranks = [r["rank"] for r in doc[key]]
        assert ranks == sorted(ranks)
    for row in doc["yearly"]:
        assert isinstance(row["counted"], list)
        assert all(isinstance(k, str) for k in row["counted"])
    assert isinstance(doc["games"], dict)
    for rows in doc["games"].values():
        for row in rows:
            assert set(row) == GAME_KEYS
            assert is_number(row["points"]) and isinstance(row["played"], int)
            assert isinstance(row["finalist"], bool)
        ranks = [r["rank"] for r in rows]
        assert ranks == sorted(ranks)


def rows_of(rows: list[dict], *fields: str) -> list[tuple]:
    return [tuple(r[f] for f in fields) for r in rows]


def approx_rows(rows: list[tuple]) -> list[tuple]:
    return [tuple(approx(v) if isinstance(v, float) else v for v in row) for row in rows]


# Golden values, worked out by hand from rules.md §1 for the circuit_file fixture.
#
# Cap (§1.2): no stored 2024 season, so previous_participants [64, 70, 81]: average 215/3 = 71.67,
# /10 = 7.167, half up 7, *10 -> C = 70. Every tournament here has X <= 5 < 70: bonus = X - P + 1.
#
# Round scores (§1.1), score = placement 100*(x-p)/(x-1) + win bonus x + placement/(50x):
# t1 r1 Catan, x=4, ranks p1 1, p2 2, p3 2, p4 4: places 1, 2.5, 2.5, 4
#    placement 100, 50, 50, 0; bonus 4, 0, 0, 0; fraction .5, .25, .25, 0
#    -> p1 104.5, p2 50.25, p3 50.25, p4 0
# t1 r2 Carcassonne, x=2, p5 1, p1 2: placement 100, 0; bonus 2, 0; fraction 1, 0 -> p5 103, p1 0
# t2 r1 Catan, x=3, p3 1, p1 1, p5 3: places 1.5, 1.5, 3; placement 75, 75, 0; bonus 3, 3, 0;
#    fraction 75/150 = .5, .5, 0 -> p1 78.5, p3 78.5, p5 0
# t2 r1 Carcassonne, x=2, p2 1, p4 2 -> p2 103, p4 0
# final r1 Catan, x=2, p3 1, p1 2 -> p3 103, p1 0
#
# Daily (§1.2), X = 5, bonus 5 - P + 1:
# t1: p1 104.5 (P1, +5 = 109.5), p5 103 (P2, +4 = 107), p2 50.25 (P3, +3 = 53.25),
#     p3 50.25 (P3, +3 = 53.25), p4 0 (P5, +1 = 1)
# t2: p2 103 (P1, +5 = 108), p1 78.5 (P2, +4 = 82.5), p3 78.5 (P2, +4 = 82.5),
#     p4 0 (P4, +2 = 2), p5 0 (P4, +2 = 2)
# final, X = 2: p3 103 (P1, +2 = 105), p1 0 (P2, +1 = 1)
#
# Ceremony: P10 = min(10, half_up(X/10)): X = 5 -> half_up(0.5) = 1, X = 2 -> 0: no "place" step.
# Interclub (best 3 daily totals): t1 c1 = p1 104.5 + p2 50.25 = 154.75 against
# c2 = p5 103 + p3 50.25 + p4 0 = 153.25 -> c1; t2 c1 = 103 + 78.5 = 181.5, c2 = 78.5 -> c1;
# final c2 = 103, c1 = 0 -> c2.
#
# Yearly (§1.3, best 5 regular + final): p1 109.5 + 82.5 + 1 = 193; p2 53.25 + 108 = 161.25;
# p3 53.25 + 82.5 + 105 = 240.75; p4 1 + 2 = 3; p5 107 + 2 = 109.
# -> p3 240.75, p1 193, p2 161.25, p5 109, p4 3.
#
# LUDO (§1.4): history 2024 p1 812.4, p2 640, nothing for 2023:
# p1 2*812.4/3 + 193 = 541.6 + 193 = 734.6; p2 2*640/3 + 161.25 = 426.666.. + 161.25 = 587.91666..;
# p3 240.75; p5 109; p4 3.
#
# Per game (§1.5, regular tournaments only; divided by max(N, 3) + 1 = 4 for N <= 3):
# Catan: p1 (104.5 + 78.5)/4 = 45.75 (N 2); p3 (50.25 + 78.5)/4 = 32.1875 (N 2);
#        p2 50.25/4 = 12.5625 (N 1); p4 0 (N 1); p5 0 (N 1). The final's Catan table does not count.
#        Ranks 1, 2, 3, 4, 4: five finalists for 4 seats (tie on the last seat).
# Carcassonne: p2 103/4 = 25.75, p5 103/4 = 25.75, p1 0, p4 0: ranks 1, 1, 3, 3, all finalists.

GOLDEN_TOURNAMENTS = {
    "t1": {
        "participants": 5,
        "cap": 70,
        "standings": [
            ("p1", 1, 104.5, 5, 109.5),
            ("p5", 2, 103, 4, 107),
            ("p2", 3, 50.25, 3, 53.25),
            ("p3", 3, 50.25, 3, 53.25),
            ("p4", 5, 0, 1, 1),
        ],
        "tables": [
            (
                1,
                "Catan",
                [
                    ("p1", 1, 100, 4, 0.5, 104.5),
                    ("p2", 2, 50, 0, 0.25, 50.25),
                    ("p3", 2, 50, 0, 0.25, 50.25),
                    ("p4", 4, 0, 0, 0, 0),
                ],
            ),
            (2, "Carcassonne", [("p5", 1, 100, 2, 1, 103), ("p1", 2, 0, 0, 0, 0)]),
        ],
        "ceremony_head": [("winner", "p1"), ("club", "c1")],
        "drawn": {"p2", "p3", "p4", "p5"},
    },
    "t2": {
        "participants": 5,
        "cap": 70,
        "standings": [
            ("p2", 1, 103, 5, 108),
            ("p1", 2, 78.5, 4, 82.5),
            ("p3", 2, 78.5, 4, 82.5),
            ("p4", 4, 0, 2, 2),
            ("p5", 4, 0, 2, 2),
        ],
        "tables": [
            (
                1,
                "Catan",
                [
                    ("p1", 1, 75, 3, 0.5, 78.5),
                    ("p3", 1, 75, 3, 0.5, 78.5),
                    ("p5", 3, 0, 0, 0, 0),
                ],
            ),
            (1, "Carcassonne", [("p2", 1, 100, 2, 1, 103), ("p4", 2, 0, 0, 0, 0)]),
        ],
        "ceremony_head": [("winner", "p2"), ("club", "c1")],
        "drawn": {"p1", "p3", "p4", "p5"},
    },
    "final": {
        "participants": 2,
        "cap": 70,
        "standings": [("p3", 1, 103, 2, 105), ("p1", 2, 0, 1, 1)],
        "tables": [(1, "Catan", [("p3", 1, 100, 2, 1, 103), ("p1", 2, 0, 0, 0, 0)])],
        "ceremony_head": [("winner", "p3"), ("club", "c2")],
        "drawn": {"p1"},
    },
}

GOLDEN_YEARLY = [
    ("p3", 1, 240.75, ["t1", "t2", "final"]),
    ("p1", 2, 193, ["t1", "t2", "final"]),
    ("p2", 3, 161.25, ["t1", "t2"]),
    ("p5", 4, 109, ["t1", "t2"]),
    ("p4", 5, 3, ["t1", "t2"]),
]

GOLDEN_LUDO = [
    ("p1", 1, 2 * 812.4 / 3 + 193),  # 734.6
    ("p2", 2, 2 * 640 / 3 + 161.25),  # 587.91666...
    ("p3", 3, 240.75),
    ("p5", 4, 109),
    ("p4", 5, 3),
]

GOLDEN_GAMES = {
    "Catan": [
        ("p1", 1, 45.75, 2, True),
        ("p3", 2, 32.1875, 2, True),
        ("p2", 3, 12.5625, 1, True),
        ("p4", 4, 0, 1, True),
        ("p5", 4, 0, 1, True),
    ],
    "Carcassonne": [
        ("p2", 1, 25.75, 1, True),
        ("p5", 1, 25.75, 1, True),
        ("p1", 3, 0, 1, True),
        ("p4", 3, 0, 1, True),
    ],
}


def test_standings_json_golden_values(tmp_path, circuit_file):
    import_file(tmp_path, circuit_file)
    doc = export_standings()

    assert [t["id"] for t in doc["tournaments"]] == ["t1", "t2", "final"]
    for t in doc["tournaments"]:
        want = GOLDEN_TOURNAMENTS[t["id"]]
        assert t["participants"] == want["participants"]
        assert t["cap"] == want["cap"]
        assert rows_of(t["standings"], "player", "rank", "daily", "bonus", "points") == approx_rows(
            want["standings"]
        )
        assert len(t["tables"]) == len(want["tables"])
        for table, (round_, game, results) in zip(t["tables"], want["tables"], strict=True):
            assert (table["round"], table["game"]) == (round_, game)
            assert rows_of(
                table["results"], "player", "rank", "placement", "bonus", "fraction", "score"
            ) == approx_rows(results)
        ceremony = [(c["step"], c.get("player", c.get("club"))) for c in t["ceremony"]]
        head = want["ceremony_head"]
        assert ceremony[: len(head)] == head
        rest = ceremony[len(head) :]
        assert all(step == "draw" for step, _who in rest)
        assert sorted(who for _step, who in rest) == sorted(want["drawn"])

    assert rows_of(doc["yearly"], "player", "rank", "points", "counted") == approx_rows(
        GOLDEN_YEARLY
    )
    assert rows_of(doc["ludo"], "player", "rank", "points") == approx_rows(GOLDEN_LUDO)
    assert set(doc["games"]) == set(GOLDEN_GAMES)
    for game, rows in GOLDEN_GAMES.items():
        assert rows_of(
            doc["games"][game], "player", "rank", "points", "played", "finalist"
        ) == approx_rows(rows), game


def test_standings_json_numbers_at_full_precision(tmp_path, circuit_file):
    import_file(tmp_path, circuit_file)
    out = io.StringIO()
    call_command("export_standings", SERIES, SEASON, stdout=out)  # json is the default
    doc = json.loads(out.getvalue())
    p2 = next(r for r in doc["ludo"] if r["player"] == "p2")
    # 587.916666...: at least 9 significant digits, not rounded for display
    assert isinstance(p2["points"], float)
    assert abs(p2["points"] - (2 * 640 / 3 + 161.25)) < 1e-9


# --- 5. export_standings --format csv ---------------------------------------------------------

CSV_HEADERS = {
    "tournaments.csv": ["id", "participants", "cap"],
    "yearly.csv": ["player", "rank", "points", "counted"],
    "ludo.csv": ["player", "rank", "points"],
    "game-catan.csv": ["player", "rank", "points", "played", "finalist"],
    "game-carcassonne.csv": ["player", "rank", "points", "played", "finalist"],
}
for _t in ("t1", "t2", "final"):
    CSV_HEADERS[f"tournament-{_t}-standings.csv"] = ["player", "rank", "daily", "bonus", "points"]
    CSV_HEADERS[f"tournament-{_t}-tables.csv"] = [
        "round",
        "game",
        "player",
        "rank",
        "placement",
        "bonus",
        "fraction",
        "score",
    ]
    CSV_HEADERS[f"tournament-{_t}-ceremony.csv"] = ["step", "player", "club"]


def read_csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_standings_csv_zip_from_the_command(tmp_path, circuit_file, capsysbinary):
    import_file(tmp_path, circuit_file)
    capsysbinary.readouterr()
    call_command("export_standings", SERIES, SEASON, "--format", "csv")
    sys.stdout.flush()
    data = capsysbinary.readouterr().out
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = {name: archive.read(name).decode("utf-8") for name in archive.namelist()}

    assert set(members) == set(CSV_HEADERS)
    for name, header in CSV_HEADERS.items():
        assert read_csv(members[name])[0] == header, name

    yearly = read_csv(members["yearly.csv"])[1:]
    assert [(r[0], int(r[1]), float(r[2]), r[3].split()) for r in yearly] == approx_rows(
        GOLDEN_YEARLY
    )
    ludo = read_csv(members["ludo.csv"])[1:]
    assert [(r[0], int(r[1]), float(r[2])) for r in ludo] == approx_rows(GOLDEN_LUDO)
    catan = read_csv(members["game-catan.csv"])[1:]
    assert [(r[0], int(r[1]), float(r[2]), int(r[3]), r[4]) for r in catan] == approx_rows(
        [
            (p, rank, pts, n, "true" if f else "false")
            for p, rank, pts, n, f in GOLDEN_GAMES["Catan"]
        ]
    )
    tournaments = read_csv(members["tournaments.csv"])[1:]
    assert tournaments == [["t1", "5", "70"], ["t2", "5", "70"], ["final", "2", "70"]]
    t1_tables = read_csv(members["tournament-t1-tables.csv"])[1:]
    assert [(r[0], r[1], r[2], float(r[7])) for r in t1_tables] == approx_rows(
        [
            ("1", "Catan", "p1", 104.5),
            ("1", "Catan", "p2", 50.25),
            ("1", "Catan", "p3", 50.25),
            ("1", "Catan", "p4", 0),
            ("2", "Carcassonne", "p5", 103),
            ("2", "Carcassonne", "p1", 0),
        ]
    )
    ceremony = read_csv(members["tournament-final-ceremony.csv"])[1:]
    assert ceremony == [["winner", "p3", ""], ["club", "", "c2"], ["draw", "p1", ""]]


def test_standings_csv_tables_match_the_json_document(tmp_path, circuit_file):
    import_file(tmp_path, circuit_file)
    season = Season.objects.get(series__slug=SERIES, label=SEASON)
    document = standings_document(season=season)
    tables = csv_tables(season.system, document)
    assert set(tables) == set(CSV_HEADERS)
    for name, header in CSV_HEADERS.items():
        assert read_csv(tables[name])[0] == header, name
    # One data row per JSON row.
    assert len(read_csv(tables["yearly.csv"])) == 1 + len(document["yearly"])
    assert len(read_csv(tables["tournament-t2-standings.csv"])) == 1 + 5
    with zipfile.ZipFile(io.BytesIO(csv_archive(tables))) as archive:
        assert sorted(archive.namelist()) == sorted(tables)
        assert archive.read("ludo.csv").decode("utf-8") == tables["ludo.csv"]


def test_standings_csv_header_of_an_empty_table(tmp_path, circuit_file):
    data = copy.deepcopy(circuit_file)
    data["tournaments"].insert(
        2, {"id": "t3", "name": "Cancelled", "date": "2025-06-01", "rounds": []}
    )
    import_file(tmp_path, data)
    season = Season.objects.get(series__slug=SERIES, label=SEASON)
    tables = csv_tables(season.system, standings_document(season=season))
    assert (
        read_csv(tables["tournament-t3-standings.csv"])[0]
        == CSV_HEADERS["tournament-t1-standings.csv"]
    )
    assert (
        read_csv(tables["tournament-t3-tables.csv"])[0] == CSV_HEADERS["tournament-t1-tables.csv"]
    )
    assert (
        read_csv(tables["tournament-t3-ceremony.csv"])[0]
        == CSV_HEADERS["tournament-t1-ceremony.csv"]
    )


# --- 6. unknown series / season -----------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["export_competition"],
        ["export_standings"],
        ["export_standings", "--format", "csv"],
    ],
    ids=["export_competition", "export_standings-json", "export_standings-csv"],
)
@pytest.mark.parametrize(
    ("series", "season"), [("no-such-series", SEASON), (SERIES, "1999")], ids=["series", "season"]
)
def test_export_of_unknown_series_or_season(tmp_path, circuit_file, command, series, season):
    import_file(tmp_path, circuit_file)
    name, *options = command
    with pytest.raises(CommandError) as caught:
        call_command(name, series, season, *options, stdout=io.StringIO())
    message = str(caught.value)
    assert series in message and season in message, message


# --- 7. stdin ---------------------------------------------------------------------------------


def stdin_of(text: str) -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8")


def test_import_from_stdin(monkeypatch, circuit_file):
    monkeypatch.setattr(sys, "stdin", stdin_of(json.dumps(circuit_file)))
    out = io.StringIO()
    call_command("import_competition", "-", stdout=out)
    assert SERIES in out.getvalue()
    assert export_competition() == with_missing_dates_as_null(circuit_file)
    assert export_standings()["yearly"][0]["player"] == "p3"


def test_import_from_stdin_with_bad_json(monkeypatch):
    monkeypatch.setattr(sys, "stdin", stdin_of("{not json"))
    with pytest.raises(CommandError) as caught:
        call_command("import_competition", "-", stdout=io.StringIO())
    assert "line 1" in str(caught.value) and "column 2" in str(caught.value)
    assert not Season.objects.exists()


def test_a_file_s_game_titles_are_one_game_whatever_their_case_and_spaces(circuit_file):
    data = copy.deepcopy(circuit_file)
    tables = [
        table
        for t in data["tournaments"]
        for round_ in t["rounds"]
        for table in round_["tables"]
        if table["game"] == "Catan"
    ]
    assert len(tables) >= 2
    tables[1]["game"] = "  CATAN "
    season = import_competition(data)
    games = set(Table.objects.filter(round__season=season).values_list("game", flat=True))
    assert "Catan" in games and "  CATAN " not in games and "CATAN" not in games
