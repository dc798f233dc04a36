"""chess-othello-options.md §1 through the stored standings: a group's own tie-break list ranks
it (and so moves its BGP points), the crosstable shows one column per code with its acronym and
explanation, the export carries the values, and half-point byes are counted and shown."""

import re

import pytest

from competitions.models import Group, Season
from rankings.imports import import_competition
from rankings.selectors import standings_document
from rankings.urls_helpers import season_url
from tests.chess_files import played_chess_file

pytestmark = pytest.mark.django_db

DRAW = "1/2-1/2"


def example_1a(**group) -> dict:
    """Worked example 1A as a tournament of its own: B and D tie on 2½ points; NSF puts B 2nd,
    FIDE-SWISS (fide2023) D 2nd. All six in one class, so the places are BGP places too."""
    data = played_chess_file()
    data["players"] += [{"id": k, "name": f"Player {k.upper()}"} for k in "uvwxyz"]
    a, b, c, d, e, f = "uvwxyz"
    data["tournaments"].append(
        {
            "id": "ex1a",
            "name": "Example 1A",
            "date": "2026-02-01",
            "draw_seed": 5,
            "groups": [
                {
                    "name": "Swiss",
                    "scale": "1-half-0",
                    **group,
                    "players": [{"player": p, "class": "Junior"} for p in "uvwxyz"],
                    "rounds": [
                        [
                            {"white": a, "black": b, "result": "1-0"},
                            {"white": c, "black": d, "result": DRAW},
                            {"white": e, "black": f, "result": "0-1"},
                        ],
                        [
                            {"white": f, "black": a, "result": "0-1"},
                            {"white": d, "black": e, "result": "+-"},
                            {"white": b, "black": c, "result": "1-0"},
                        ],
                        [
                            {"white": a, "black": d, "result": DRAW},
                            {"white": f, "black": b, "result": "0-1"},
                            {"walkover": c},
                        ],
                        [
                            {"white": c, "black": a, "result": "0-1"},
                            {"white": d, "black": b, "result": DRAW},
                            {"walkover": e},
                        ],
                    ],
                }
            ],
        }
    )
    return data


def rows_of(season: Season) -> list[dict]:
    doc = standings_document(season=season)
    tournament = next(t for t in doc["tournaments"] if t["id"] == "ex1a")
    return tournament["groups"][0]["rows"]


def bgp_of(season: Season) -> dict[str, int]:
    doc = standings_document(season=season)
    tournament = next(t for t in doc["tournaments"] if t["id"] == "ex1a")
    return {r["player"]: r["points"] for r in tournament["bgp"]}


def test_the_default_list_ranks_as_today_and_exports_its_codes():
    season = import_competition(example_1a())
    rows = rows_of(season)
    assert [(r["place"], r["player"]) for r in rows][:3] == [(1, "u"), (2, "v"), (3, "x")]
    b = next(r for r in rows if r["player"] == "v")
    assert b["monrad"] == [7.5, 8.5] and b["berger"] == 3.75
    assert b["tiebreaks"] == [
        {"code": "MK/C1", "value": 7.5},
        {"code": "MK", "value": 8.5},
        {"code": "BK", "value": 3.75},
    ]
    assert list(b) == ["player", "place", "points", "monrad", "berger", "tiebreaks", "cells"]


def test_a_group_switched_to_fide_swiss_changes_places_and_bgp_points():
    season = import_competition(example_1a())
    before = bgp_of(season)
    season = import_competition(example_1a(tiebreaks="FIDE-SWISS"), replace=True)
    rows = rows_of(season)
    assert [(r["place"], r["player"]) for r in rows] == [
        (1, "u"),
        (2, "x"),
        (3, "v"),
        (4, "w"),
        (5, "z"),
        (6, "y"),
    ]
    d = next(r for r in rows if r["player"] == "x")
    assert d["tiebreaks"][:3] == [
        {"code": "BH/C1", "value": 8.5},
        {"code": "BH", "value": 10},
        {"code": "SB", "value": 6.25},
    ]
    assert [t["code"] for t in d["tiebreaks"]] == ["BH/C1", "BH", "SB", "PS", "DE", "WIN", "BWG"]
    assert d["tiebreaks"][4] == {"code": "DE", "value": None}  # not tied at that point
    after = bgp_of(season)
    assert (before["v"], before["x"]) == (17, 15)
    assert (after["v"], after["x"]) == (15, 17)


def test_the_season_list_and_a_tournament_list_apply_and_the_group_list_wins():
    data = example_1a()
    data["settings"] = {"tiebreaks": "FIDE-SWISS"}
    season = import_competition(data)
    assert [r["player"] for r in rows_of(season)][1:3] == ["x", "v"]
    data["settings"]["unplayed_rounds"] = "fide2026"
    season = import_competition(data, replace=True)
    assert [r["player"] for r in rows_of(season)][1:3] == ["v", "x"]  # the 2026 cap
    data = example_1a(tiebreaks="NSF")
    data["tournaments"][-1]["tiebreaks"] = "FIDE-SWISS"
    season = import_competition(data, replace=True)
    assert [r["player"] for r in rows_of(season)][1:3] == ["v", "x"]


def test_the_crosstable_shows_one_column_per_code_with_its_explanation(client):
    season = import_competition(example_1a(tiebreaks="FIDE-SWISS"))
    group = Group.objects.get(name="Swiss")
    html = client.get(season_url(season, "group", "ex1a", group.pk)).content.decode()
    headings = re.findall(r'<th[^>]*scope="col"[^>]*>\s*(.*?)\s*</th>', html, re.S)
    # After the points, before the birth year and the rounds (issue 46, item 5: a phone).
    assert headings[2:10] == ["Points", "BH/C1", "BH", "SB", "PS", "DE", "WIN", "BWG"]
    assert 'title="Buchholz: the sum of the opponents' in html
    assert "Tie-breaks after points, in order:" in html
    # E's BH/C1 (3½): the forfeit loss and the absence are dummies worth his own 1 point; one
    # of those (a round of his own choice) is the one cut.
    bodies = re.findall(r"<summary>3½</summary>(.*?)</details>", html, re.S)
    body = next(b for b in bodies if "Buchholz" in b)
    assert "dummy" in body and "16.2.4" in body and "16.2.3" in body and "16.2.1" in body
    assert "dummy opponent with the player&#x27;s own final points" in body
    assert len(re.findall(r'<tr class="text-decoration-line-through', body)) == 1


def test_a_half_point_bye_counts_a_draw_shows_and_round_trips():
    data = example_1a()
    rounds = data["tournaments"][-1]["groups"][0]["rounds"]
    rounds[3] = [r for r in rounds[3] if r.get("walkover") != "y"] + [{"half_bye": "y"}]
    season = import_competition(data)
    rows = rows_of(season)
    e = next(r for r in rows if r["player"] == "y")
    assert e["points"] == 0.5 and e["cells"][3] == "=BYE"
    from competitions.interchange import export_competition

    exported = export_competition(season)
    written = next(t for t in exported["tournaments"] if t["id"] == "ex1a")
    assert {"half_bye": "y"} in written["groups"][0]["rounds"][3]


def test_the_file_carries_a_tournaments_and_a_groups_own_list_and_refuses_a_wrong_one():
    from competitions.interchange import FileError, export_competition
    from competitions.models import Tournament

    data = example_1a(tiebreaks="FIDE-SWISS", format="monrad")
    data["tournaments"][-1]["tiebreaks"] = "BH/C1 BH"
    season = import_competition(data)
    assert Group.objects.get(name="Swiss").options == {
        "tiebreaks": "FIDE-SWISS",
        "format": "monrad",
    }
    assert Tournament.objects.get(key="ex1a").options == {"tiebreaks": "BH/C1 BH"}
    written = next(t for t in export_competition(season)["tournaments"] if t["id"] == "ex1a")
    assert written["tiebreaks"] == "BH/C1 BH"
    assert (written["groups"][0]["tiebreaks"], written["groups"][0]["format"]) == (
        "FIDE-SWISS",
        "monrad",
    )
    klyve = next(t for t in export_competition(season)["tournaments"] if t["id"] == "klyve")
    assert "tiebreaks" not in klyve and "tiebreaks" not in klyve["groups"][0]
    bad = example_1a(tiebreaks="BH BH")
    with pytest.raises(FileError) as refused:
        import_competition(bad, replace=True)
    assert "tournaments[2].groups[0].tiebreaks" in str(refused.value)
    assert "BH is listed twice" in str(refused.value)
    assert Group.objects.get(name="Swiss").options["tiebreaks"] == "FIDE-SWISS"  # unchanged


def test_the_csv_tables_write_the_tiebreaks_as_code_value_words():
    from rankings.systems.chess.standings import flat_tables

    season = import_competition(example_1a(tiebreaks="FIDE-SWISS"))
    fields, rows = flat_tables(standings_document(season=season))["tournament-ex1a-Swiss"]
    assert "tiebreaks" in fields
    d = next(r for r in rows if r["player"] == "x")
    assert d["tiebreaks"][:2] == ["BH/C1=8.5", "BH=10"] and "DE=-" in d["tiebreaks"]
