"""The othello-gp section of the competition file and its standings export (interchange.md):
golden values, the round trip, faults located by their JSON path with nothing stored."""

import copy
import csv
import io
import json
import zipfile

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competitions.interchange import FileError, export_competition
from competitions.models import Player, Season, SeasonPlayer, Series, Tournament
from competitions.systems.othello.models import Placement
from rankings.exports import csv_archive, csv_tables
from rankings.imports import import_competition, import_file
from rankings.models import StandingsRow, StandingsTable
from rankings.selectors import standings_document
from tests.othello_files import example_participants, gp_file

pytestmark = pytest.mark.django_db

MODELS = (Series, Season, Player, SeasonPlayer, Tournament, Placement, StandingsTable, StandingsRow)


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def export_standings(fmt: str = "json") -> str:
    out = io.StringIO()
    call_command("export_standings", "swedish-gp", "2025", "--format", fmt, stdout=out)
    return out.getvalue()


# --- golden values ----------------------------------------------------------------------------


def test_the_worked_example_in_the_standings_export():
    import_competition(gp_file())
    doc = json.loads(export_standings())
    assert set(doc) == {"tournaments", "standings"}
    t1 = doc["tournaments"][0]
    assert t1 == {
        "id": "t1",
        "participants": 6,
        "ranking_sum": 2088.3,
        "max_points": 15.3532,
        "series": [15, 8, 4, 2, 1, 0],
        "points": [
            {"player": "p1", "place": 1, "points": 15},
            {"player": "p2", "place": 2, "points": 8},
            {"player": "p3", "place": 3, "points": None},
            {"player": "p4", "place": 4, "points": 2},
            {"player": "p5", "place": 5, "points": 1},
            {"player": "p6", "place": 6, "points": 0},
        ],
    }


def test_second_tournament_and_season_standings():
    import_competition(gp_file())
    doc = json.loads(export_standings())
    t2 = doc["tournaments"][1]
    # NR 1990, 1855.5, 0.539 * 1910 + 172 = 1201.49: S = 2346.99, M = 16.38796, x = M^(-1/2)
    assert t2["ranking_sum"] == pytest.approx(2346.99, abs=1e-9)
    assert t2["max_points"] == pytest.approx(16.38796, abs=1e-9)
    assert t2["series"] == [16, 3, 0]
    assert [p["points"] for p in t2["points"]] == [16, 3, 0]
    t3 = doc["tournaments"][2]
    assert t3 == {
        "id": "t3",
        "participants": 0,
        "ranking_sum": 0,
        "max_points": 7,
        "series": [],
        "points": [],
    }
    assert doc["standings"] == [
        {"player": "p2", "rank": 1, "points": 24, "counted": ["t1", "t2"]},
        {"player": "p1", "rank": 2, "points": 18, "counted": ["t1", "t2"]},
        {"player": "p4", "rank": 3, "points": 2, "counted": ["t1"]},
        {"player": "p5", "rank": 4, "points": 1, "counted": ["t1"]},
        {"player": "p3", "rank": 5, "points": 0, "counted": ["t2"]},
        {"player": "p6", "rank": 5, "points": 0, "counted": ["t1"]},
    ]


def test_settings_change_the_numbers():
    import_competition(gp_file(settings={"best_n": 1, "max_factor": 0.005, "max_base": 5}))
    doc = json.loads(export_standings())
    t1 = doc["tournaments"][0]
    assert t1["max_points"] == pytest.approx(15.4415, abs=1e-12)  # 0.005 * 2088.3 + 5
    assert doc["standings"][0] == {"player": "p2", "rank": 1, "points": 16, "counted": ["t2"]}


def test_csv_export_has_one_table_per_standings_table():
    import_competition(gp_file())
    archive = zipfile.ZipFile(
        io.BytesIO(csv_archive(csv_tables("othello-gp", json.loads(export_standings()))))
    )
    assert sorted(archive.namelist()) == [
        "standings.csv",
        "tournament-t1-points.csv",
        "tournament-t2-points.csv",
        "tournament-t3-points.csv",
        "tournaments.csv",
    ]
    rows = list(csv.DictReader(io.StringIO(archive.read("tournaments.csv").decode())))
    assert rows[0] == {
        "id": "t1",
        "participants": "6",
        "ranking_sum": "2088.3",
        "max_points": "15.3532",
        "series": "15 8 4 2 1 0",
    }
    points = archive.read("tournament-t1-points.csv").decode().splitlines()
    assert points[0] == "player,place,points" and points[3] == "p3,3,"
    assert (
        archive.read("tournament-t3-points.csv").decode() == "player,place,points\r\n"
    )  # CRLF: a CR or LF inside a cell is quoted


# --- the round trip -----------------------------------------------------------------------------


def test_round_trip_export_equals_input():
    data = gp_file()
    season = import_competition(copy.deepcopy(data))
    assert export_competition(Season.objects.get(pk=season.pk)) == data


def test_round_trip_keeps_flags_and_decimals():
    data = gp_file(settings={"sm_tiebreak": True, "egp_rule": True, "country": "NO"})
    data["tournaments"][0]["sm"] = True
    data["tournaments"][1]["egp"] = True
    data["tournaments"][1]["participants"][1]["rating"] = {
        "ffo": 2001.25,
        "provisional": True,
        "uncertainty": 87.5,
        "nordic": 1700.05,
    }
    season = import_competition(copy.deepcopy(data))
    exported = export_competition(Season.objects.get(pk=season.pk))
    assert exported == data
    assert Tournament.objects.get(key="t1").options == {"sm": True}


ratings = st.one_of(
    st.just({}),
    st.builds(lambda r: {"nordic": r}, st.integers(0, 3000)),
    st.builds(lambda r: {"ffo": r}, st.decimals(0, 3000, places=2).map(lambda d: float(d))),
    st.builds(
        lambda r, u: {"ffo": r, "provisional": True, "uncertainty": u},
        st.integers(1000, 3000),
        st.integers(0, 600),
    ),
)
PLAYERS = [f"p{i}" for i in range(1, 10)]


@st.composite
def gp_files(draw):
    tournaments = []
    for i in range(draw(st.integers(0, 4))):
        players = draw(st.permutations(PLAYERS))[: draw(st.integers(0, len(PLAYERS)))]
        places = draw(st.permutations(list(range(1, len(players) + 1))))
        flag = draw(st.sampled_from([{}, {"sm": True}, {"egp": True}])) if i else {}
        tournaments.append(
            {
                "id": f"t{i}",
                "name": f"GP {i}",
                "date": f"2025-0{i + 1}-01",
                **flag,
                "participants": sorted(
                    (
                        {
                            "player": p,
                            "place": place,
                            "country": draw(st.sampled_from(["SE", "FI", "FR"])),
                            "rating": draw(ratings),
                        }
                        for p, place in zip(players, places, strict=True)
                    ),
                    key=lambda entry: entry["place"],
                ),
            }
        )
    if sum(1 for t in tournaments if t.get("sm")) > 1:
        for t in tournaments[1:]:
            t.pop("sm", None)
    return gp_file(
        tournaments=tournaments,
        players=[{"id": p, "name": f"Player {p}"} for p in PLAYERS],
        clubs=[],
    )


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=gp_files())
def test_import_then_export_gives_the_file_back(data):
    season = import_competition(copy.deepcopy(data), replace=True)
    exported = export_competition(Season.objects.get(pk=season.pk))
    assert exported == data
    again = import_competition(copy.deepcopy(exported), replace=True)
    assert export_competition(Season.objects.get(pk=again.pk)) == data


# --- faults: the JSON path, and nothing stored --------------------------------------------------


def with_participant(index: int, **changes) -> dict:
    data = gp_file()
    entry = data["tournaments"][0]["participants"][index]
    for key, value in changes.items():
        if value is ...:
            entry.pop(key, None)
        else:
            entry[key] = value
    return data


P = "tournaments[0].participants"
FAULTS = [
    (with_participant(2, place=2), f"{P}[2].place", "place 2 appears twice"),
    (with_participant(2, place=7), f"{P}[2].place", "place 7 in a tournament of 6"),
    (with_participant(2, place=0), f"{P}[2].place", "at least 1"),
    (with_participant(2, place="3"), f"{P}[2].place", "a whole number"),
    (with_participant(3, rating=...), f"{P}[3].rating", "missing"),
    (with_participant(3, rating=None), f"{P}[3].rating", "expected an object"),
    (with_participant(3, rating={"nordci": 1850}), f"{P}[3].rating.nordci", "unknown rating"),
    (with_participant(3, rating={"nordic": -5}), f"{P}[3].rating.nordic", "from 0 to 5000"),
    (with_participant(3, rating={"nordic": 1850.123}), f"{P}[3].rating.nordic", "2 decimals"),
    (with_participant(3, rating={"ffo": "1850"}), f"{P}[3].rating.ffo", "a number"),
    (
        with_participant(3, rating={"ffo": 1900, "provisional": 1}),
        f"{P}[3].rating.provisional",
        "true or false",
    ),
    (
        with_participant(3, rating={"ffo": 1900, "uncertainty": 9000}),
        f"{P}[3].rating.uncertainty",
        "from 0 to 2000",
    ),
    (with_participant(1, country="se"), f"{P}[1].country", "two capital letters"),
    (with_participant(1, country=...), f"{P}[1].country", "missing"),
    (with_participant(1, player="p1"), f"{P}[1].player", "listed twice"),
    (with_participant(1, player="nobody"), f"{P}[1].player", "unknown player"),
    (
        gp_file(tournaments=[{"id": "t", "name": "T", "sm": True, "egp": True}]),
        "tournaments[0].egp",
        "both",
    ),
    (
        gp_file(
            tournaments=[{"id": "a", "name": "A", "sm": True}, {"id": "b", "name": "B", "sm": True}]
        ),
        "tournaments[1].sm",
        "one Swedish championship",
    ),
    (gp_file(tournaments=[{"id": "t/1", "name": "T"}]), "tournaments[0].id", "only letters"),
    (gp_file(tournaments=[{"id": "..", "name": "T"}]), "tournaments[0].id", "only letters"),
    (
        gp_file(tournaments=[{"id": "a", "name": "A", "participants": {}}]),
        "tournaments[0].participants",
        "a list",
    ),
    (gp_file(settings={"country": "Sweden"}), "settings.country", "at most 2"),
    (gp_file(settings={"country": "se"}), "settings.country", "two capital letters"),
    (gp_file(settings={"max_base": 1}), "settings.max_base", "from 2 to 1000"),
    (gp_file(settings={"max_factor": "0.004"}), "settings.max_factor", "a number"),
]


@pytest.mark.parametrize("data,path,message", FAULTS, ids=[f[1] + ":" + f[2] for f in FAULTS])
def test_a_faulty_file_is_refused_with_its_path_and_nothing_is_stored(data, path, message):
    before = counts()
    with pytest.raises(FileError) as caught:
        import_competition(data)
    assert caught.value.path == path
    assert message in caught.value.message
    assert counts() == before


def test_a_faulty_replacement_leaves_the_stored_season_alone(tmp_path):
    import_competition(gp_file())
    season = Season.objects.get()
    before = (counts(), export_competition(season), standings_document(season=season))
    broken = with_participant(0, place=6)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    with pytest.raises(CommandError) as caught:
        call_command("import_competition", str(path), "--replace", stdout=io.StringIO())
    assert f"{P}[5].place: place 6 appears twice" in str(caught.value)
    season = Season.objects.get()
    assert (counts(), export_competition(season), standings_document(season=season)) == before


def test_example_participants_are_the_rules_example():
    assert [p["rating"] for p in example_participants()][2] == {
        "ffo": 1900,
        "provisional": True,
        "uncertainty": 350,
    }


# --- a replacing import writes only what differs ------------------------------------------------


def test_a_replacing_import_writes_only_what_differs():
    data = gp_file()
    season = import_competition(copy.deepcopy(data))
    ids = dict(Placement.objects.filter(tournament__season=season).values_list("pk", "place"))
    history = Placement.history.count()

    # The same file again: nothing written, the standings kept.
    result = import_file(copy.deepcopy(data), replace=True)
    assert result.changes.none
    assert Placement.history.count() == history

    # Two places swapped, one participant gone, one tournament renamed.
    t1 = data["tournaments"][0]["participants"]
    t1[0]["place"], t1[1]["place"] = t1[1]["place"], t1[0]["place"]
    gone = t1.pop()
    data["tournaments"][0]["name"] = "Stockholm Open (corrected)"
    result = import_file(copy.deepcopy(data), replace=True)
    assert result.season.pk == season.pk
    summary = "\n".join(result.changes.summary())
    assert "2 changed" in summary and "1 removed" in summary
    stored = {
        (p.tournament.key, p.player.key): p.place
        for p in Placement.objects.filter(tournament__season=season).select_related(
            "tournament", "player"
        )
    }
    assert stored[("t1", t1[0]["player"])] == t1[0]["place"]
    assert stored[("t1", t1[1]["player"])] == t1[1]["place"]
    assert ("t1", gone["player"]) not in stored
    # every other row kept its pk
    kept = dict(Placement.objects.filter(tournament__season=season).values_list("pk", "place"))
    assert len(set(kept) & set(ids)) == len(ids) - 1
    assert Tournament.objects.get(season=season, key="t1").name == "Stockholm Open (corrected)"
    assert (
        export_competition(season)["tournaments"]
        == export_competition(import_competition(copy.deepcopy({**data, "series": "fresh-gp"})))[
            "tournaments"
        ]
    )
