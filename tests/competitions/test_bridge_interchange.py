"""The bridge-ladder section of the competition file and its standings export (interchange.md)."""

import copy
import io
import json
import zipfile

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competitions.interchange import FileError, export_competition
from competitions.models import Round, Season, SeasonPlayer
from competitions.systems.bridge.models import ChallengeScore, Pool, PoolMember
from competitions.systems.bridge.selectors import ladder_data
from rankings.exports import csv_tables
from rankings.imports import import_competition
from rankings.selectors import standings_document
from tests.helpers import fresh

pytestmark = pytest.mark.django_db

CLUB = ["djchili74", "Tolie", "HanLaporte", "Rudolf101", "Coolerb"]
OTHERS = ["a1", "a2", "a3", "a4", "a5"]


@pytest.fixture
def ladder_file() -> dict:
    """Two pools; round 1 opens with the club's worked example in pool 2; round 2 follows from
    the moves; round 3 gives its pools (a swap by hand, with reasons) and is under way."""
    return {
        "format": "competition/1",
        "system": "bridge-ladder",
        "series": "bbo",
        "season": "2026",
        "name": "BBO ladder 2026",
        "clubs": [{"id": "c1", "name": "Roi de Cœur"}],
        "players": [{"id": p, "name": p, "club": "c1"} for p in OTHERS + CLUB]
        + [{"id": "x", "name": "Not on the ladder"}],
        "pools": [OTHERS, CLUB],
        "start_elo": {"a1": 1310},
        "rounds": [
            {
                "number": 1,
                "challenges": [
                    {
                        "imps": {
                            "djchili74": 9.5,
                            "Tolie": 4,
                            "HanLaporte": 0.3,
                            "Rudolf101": -3,
                            "Coolerb": -10.25,
                            "a1": 5,
                            "a2": 5,
                        }
                    },  # fmt: skip
                    {
                        "imps": {
                            "HanLaporte": 12,
                            "djchili74": 2,
                            "Tolie": -1.5,
                            "Rudolf101": -4,
                            "Coolerb": -8,
                            "a3": 1,
                        }
                    },  # fmt: skip
                    {"imps": {}},
                ],
            },
            {"number": 2, "challenges": [{"imps": {"a1": 3, "HanLaporte": -2}}]},
            {
                "number": 3,
                "pools": [
                    ["a1", "a2", "HanLaporte", "djchili74", "a5"],
                    ["a3", "a4", "Tolie", "Rudolf101", "Coolerb"],
                ],
                "reasons": {"a5": "Swapped by hand: holiday", "a3": "Swapped by hand: holiday"},
                "challenges": [{"imps": {"a5": 0}}],
            },
        ],
    }


def standings(season: Season) -> dict:
    return standings_document(season=fresh(season))


def test_import_then_export_gives_the_file_back(ladder_file):
    season = import_competition(copy.deepcopy(ladder_file))
    exported = export_competition(fresh(season))
    # Round 2's pools follow from round 1's moves, so the export leaves them out as the file did.
    assert exported == ladder_file
    entry = SeasonPlayer.objects.get(season=season, player__key="a1")
    assert entry.ladder_start.start_elo == 1310
    assert PoolMember.objects.filter(round__season=season).count() == 30
    assert ChallengeScore.objects.filter(challenge__round__season=season).count() == 16


def test_rounds_without_pools_get_the_pools_of_the_moves(ladder_file):
    season = import_competition(ladder_file)
    data = ladder_data(season)
    # Round 1, pool 2 (the club's pool): HanLaporte 12.3, djchili74 11.5, Tolie 2.5, Rudolf101
    # -7, Coolerb -18.25; pool 1: a1 5, a2 5 (a1 is higher rated), a3 1, a4 0, a5 0 (equal Elo:
    # the one listed first goes first).
    assert data.rounds[1].pools == [
        ["a1", "a2", "a3", "HanLaporte", "djchili74"],
        ["a4", "a5", "Tolie", "Rudolf101", "Coolerb"],
    ]


def test_standings_export_the_club_example_at_full_precision(ladder_file):
    season = import_competition(ladder_file)
    doc = standings(season)
    assert list(doc) == ["rounds", "elo", "next_pools"]
    first = doc["rounds"][0]
    assert first["number"] == 1
    assert len(first["elo_after"]) == 3
    club_after = {p: first["elo_after"][0][p] for p in CLUB}
    assert club_after == {
        "djchili74": 1300.0,
        "Tolie": 1275.0,
        "HanLaporte": 1250.0,
        "Rudolf101": 1225.0,
        "Coolerb": 1200.0,
    }
    assert first["elo_after"][1]["HanLaporte"] == 1300.0
    assert first["elo_after"][2] == first["elo_after"][1]  # an empty challenge changes nothing
    assert first["elo_after"][0]["a1"] > 1310  # a1 started at 1310 and drew a2 at the top
    pools = first["pools"]
    assert [p["pool"] for p in pools] == [1, 2]
    assert pools[1]["rows"][0] == {
        "player": "HanLaporte",
        "rank": 1,
        "imps": 12.3,
        "elo": 1300.0,
        "move": "up",
    }
    assert [r["move"] for r in pools[0]["rows"]] == ["stay"] * 3 + ["down"] * 2
    assert [r["player"] for r in pools[1]["rows"]] == [
        "HanLaporte",
        "djchili74",
        "Tolie",
        "Rudolf101",
        "Coolerb",
    ]
    assert pools[1]["rows"][4]["imps"] == -18.25
    elo = doc["elo"]
    assert [list(row) for row in elo] == [["player", "rank", "elo"]] * 10
    assert [r["elo"] for r in elo] == sorted((r["elo"] for r in elo), reverse=True)
    assert sorted(key for pool in doc["next_pools"] for key in pool) == sorted(OTHERS + CLUB)
    assert [len(pool) for pool in doc["next_pools"]] == [5, 5]


def test_standings_download_as_csv_tables_with_the_field_names(ladder_file):
    season = import_competition(ladder_file)
    tables = csv_tables("bridge-ladder", standings(season))
    assert set(tables) == {"rounds.csv", "elo-after.csv", "elo.csv", "next-pools.csv"}
    assert tables["rounds.csv"].splitlines()[0] == "round,pool,player,rank,imps,elo,move"
    assert tables["elo-after.csv"].splitlines()[0] == "round,challenge,player,elo"
    # a1 (1310) draws a2 and beats the three who did not play, each expecting 0.5855:
    # 25 * (3.5 - 4 * 0.58551) = +28.95
    assert tables["elo-after.csv"].splitlines()[1].startswith("1,1,a1,1338.95013213")
    assert len(tables["rounds.csv"].splitlines()) == 1 + 30
    assert tables["next-pools.csv"].splitlines()[0] == "pool,player"


def test_export_standings_command_writes_json_and_a_csv_archive(ladder_file):
    import_competition(ladder_file)
    out = io.StringIO()
    call_command("export_standings", "bbo", "2026", stdout=out)
    assert json.loads(out.getvalue())["rounds"][0]["elo_after"][1]["HanLaporte"] == 1300.0


# --- faults ---------------------------------------------------------------------------------------


def set_in(data: dict, path: list, value) -> dict:
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


FAULTS = [
    (["rounds", 0, "challenges", 0, "imps", "Tolie"], "4", "rounds[0].challenges[0].imps.Tolie",
     "expected IMPs"),
    (["rounds", 0, "challenges", 0, "imps", "Tolie"], 4.125, "rounds[0].challenges[0].imps.Tolie",
     "at most 2 decimals"),
    (["rounds", 0, "challenges", 0, "imps", "Tolie"], True, "rounds[0].challenges[0].imps.Tolie",
     "expected IMPs"),
    (["rounds", 0, "challenges", 0, "imps", "Tolie"], 1e9, "rounds[0].challenges[0].imps.Tolie",
     "below"),
    (["rounds", 0, "challenges", 1, "imps", "x"], 3, "rounds[0].challenges[1].imps.x",
     "x is not in a pool of round 1"),
    (["rounds", 1, "challenges", 0, "imps", "ghost"], 3, "rounds[1].challenges[0].imps.ghost",
     "unknown player 'ghost'"),
    (["pools", 1, 4], "a1", "pools[1][4]", "a1 is in pools[0] already"),
    (["pools", 0], OTHERS + ["x"], "pools[0]", "6 players, but a pool has at most 5"),
    (["pools", 0], [], "pools[0]", "at least one player"),
    (["rounds", 1, "number"], 3, "rounds[1].number", "expected 2"),
    (["rounds", 0, "challenges"], [{"imps": {}}] * 4, "rounds[0].challenges",
     "4 challenges, but a round has at most 3"),
    (["rounds", 0, "pools"], [CLUB, OTHERS], "rounds[0].pools", "the file's \"pools\""),
    (["rounds", 2, "reasons", "x"], "why", "rounds[2].reasons.x", "x is not in a pool of round 3"),
    (["rounds", 2, "pools", 1, 0], "a1", "rounds[2].pools[1][0]", "a1 is in rounds[2].pools[0]"),
    (["start_elo", "a1"], -1, "start_elo.a1", "at least 0"),
    (["start_elo", "a1"], 1310.12345, "start_elo.a1", "at most 4 decimals"),
    (["start_elo", "nobody"], 1200, "start_elo.nobody", "unknown player"),
    (["rounds", 0, "challenges", 0, "imps"], [], "rounds[0].challenges[0].imps", "expected an"),
]  # fmt: skip


@pytest.mark.parametrize("path,value,where,message", FAULTS)
def test_bad_files_are_refused_with_the_json_path_and_nothing_is_stored(
    ladder_file, path, value, where, message
):
    bad = set_in(copy.deepcopy(ladder_file), path, value)
    with pytest.raises(FileError) as caught:
        import_competition(bad)
    assert caught.value.path == where
    assert message in caught.value.message
    assert not Season.objects.exists()
    assert not Round.objects.exists() and not Pool.objects.exists()


def test_rounds_need_the_first_pools(ladder_file):
    del ladder_file["pools"]
    with pytest.raises(FileError) as caught:
        import_competition(ladder_file)
    assert caught.value.path == "pools"


def test_a_ladder_not_set_up_yet_is_a_valid_file(ladder_file):
    del ladder_file["pools"], ladder_file["rounds"], ladder_file["start_elo"]
    season = import_competition(ladder_file)
    assert export_competition(fresh(season))["rounds"] == []
    assert standings(season) == {"rounds": [], "elo": [], "next_pools": []}


def test_settings_are_checked_against_each_other(ladder_file):
    ladder_file["settings"] = {"pool_size": 3, "moves": 2}
    with pytest.raises(FileError) as caught:
        import_competition(ladder_file)
    assert caught.value.path == "settings.moves"


# --- the round trip, as a property ------------------------------------------------------------

KEYS = [f"p{i}" for i in range(1, 16)]


@st.composite
def ladder_files(draw):
    n = draw(st.integers(2, len(KEYS)))
    players = draw(st.permutations(KEYS))[:n]
    size = draw(st.integers(2, 5))
    pools = [players[i : i + size] for i in range(0, n, size)]
    rounds = []
    in_ladder = list(players)
    for number in range(1, draw(st.integers(0, 3)) + 1):
        entry: dict = {"number": number}
        if number > 1 and draw(st.booleans()):
            shuffled = draw(st.permutations(in_ladder))
            entry["pools"] = [shuffled[i : i + size] for i in range(0, len(shuffled), size)]
            if draw(st.booleans()):
                # Any text but NUL and lone surrogates, which an import refuses with an error
                # (PostgreSQL text cannot hold NUL; tests/test_data_safety.py). Hypothesis
                # leaves surrogates out by itself only when given no exclusions.
                text = st.characters(exclude_characters="\x00", exclude_categories=("Cs",))
                reason = draw(st.text(text, max_size=20))
                entry["reasons"] = {shuffled[0]: reason.strip() or "moved"}
        entry["challenges"] = [
            {
                "imps": {
                    p: draw(
                        st.one_of(
                            st.integers(-50, 50), st.integers(-5000, 5000).map(lambda v: v / 100)
                        )
                    )  # fmt: skip
                    for p in draw(st.lists(st.sampled_from(players), unique=True))
                }
            }
            for _ in range(draw(st.integers(0, 3)))
        ]
        rounds.append(entry)
    data = {
        "format": "competition/1",
        "system": "bridge-ladder",
        "series": "prop",
        "season": "2026",
        "name": "Prop 2026",
        "settings": {"pool_size": 5, "moves": draw(st.integers(1, 2))},
        "clubs": [],
        "players": [{"id": p, "name": f"Player {p}"} for p in KEYS],
        "pools": pools if rounds or draw(st.booleans()) else [],
        "rounds": rounds,
    }
    start = {p: draw(st.integers(800, 1800)) for p in draw(st.lists(st.sampled_from(KEYS)))}
    if start:
        data["start_elo"] = start
    return data


def stored_ladder(season: Season):
    data = ladder_data(season)
    return (
        [(r.number, r.pools, r.challenges, r.reasons) for r in data.rounds],
        data.start_elo,
        data.settings,
    )


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=ladder_files())
def test_import_of_the_export_stores_the_same_ladder(data):
    first = import_competition(copy.deepcopy(data))
    exported = export_competition(fresh(first))
    second = import_competition({**exported, "series": "prop-again"})
    assert stored_ladder(second) == stored_ladder(first)
    assert standings(second) == standings(first)
    Season.objects.all().delete()


def test_csv_archive_of_the_download_holds_every_table(client, ladder_file):
    import_competition(ladder_file)
    response = client.get("/bbo/2026/standings.zip")
    names = zipfile.ZipFile(io.BytesIO(response.content)).namelist()
    assert {"elo-after.csv", "elo.csv", "next-pools.csv", "rounds.csv"} <= set(names)
