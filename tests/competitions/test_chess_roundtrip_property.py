"""Property: any valid chess-bgp file survives import and export unchanged (interchange.md), and
the stored standings keep rules.md §3's invariants (points awarded = points summed)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competitions.interchange import export_competition
from competitions.models import Season
from rankings.imports import import_competition
from tests.helpers import document

PLAYERS = [f"p{i}" for i in range(1, 11)]
RESULTS = ["1-0", "0-1", "1/2-1/2", "+-", "-+", None]


@st.composite
def chess_files(draw):
    tournaments = []
    for t in range(draw(st.integers(0, 2))):
        groups = []
        available = list(draw(st.permutations(PLAYERS)))
        for g in range(draw(st.integers(0, 2))):
            size = draw(st.integers(0, len(available)))
            members, available = available[:size], available[size:]
            rounds = []
            for _ in range(draw(st.integers(0, 4))):
                order = draw(st.permutations(members)) if members else []
                playing = draw(st.integers(0, len(order)))
                entries = []
                for i in range(0, playing - 1, 2):
                    game = {"white": order[i], "black": order[i + 1]}
                    result = draw(st.sampled_from(RESULTS))
                    if result:
                        game["result"] = result
                    entries.append(game)
                rest = order[2 * len(entries) :]
                if rest and draw(st.booleans()):
                    entries.append({"walkover": rest[0]})
                rounds.append(entries)
            players = []
            for p in members:
                row = {"player": p, "class": draw(st.sampled_from(["Kadett", "Lilleputt", ""]))}
                row["born"] = 2000 + int(p[1:])  # one year per player, whatever the group
                if draw(st.booleans()):
                    row["rating"] = draw(st.integers(0, 4000))
                players.append(row)
            groups.append(
                {
                    "name": f"Gruppe {g}",
                    "scale": draw(st.sampled_from(["1-half-0", "3-2-1"])),
                    "players": players,
                    "rounds": rounds,
                }
            )
        tournaments.append(
            {
                "id": f"t{t}",
                "name": f"Turnering {t}",
                "date": f"2025-0{t + 1}-01",
                "county_championship": draw(st.booleans()),
                "draw_seed": draw(st.integers(0, 2**40)),
                "groups": groups,
            }
        )
    return {
        "format": "competition/1",
        "system": "chess-bgp",
        "series": "prop",
        "season": "2025/26",
        "name": "Prop 2025/26",
        "clubs": [],
        "players": [{"id": p, "name": f"Spiller {p}"} for p in PLAYERS],
        "tournaments": tournaments,
    }


WIN = {"1-half-0": 1, "3-2-1": 3}
AWARDED = {
    "1-half-0": {"1-0": 1, "0-1": 1, "1/2-1/2": 1, "+-": 1, "-+": 1, None: 0},
    "3-2-1": {"1-0": 4, "0-1": 4, "1/2-1/2": 4, "+-": 3, "-+": 3, None: 0},
}


@pytest.mark.django_db
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=chess_files())
def test_import_then_export_gives_the_file_back_and_points_add_up(data):
    season = import_competition(data, replace=True)
    exported = export_competition(Season.objects.get(pk=season.pk))
    assert exported == data
    doc = document(season)
    for t_in, t_out in zip(data["tournaments"], doc["tournaments"], strict=True):
        for g_in, g_out in zip(t_in["groups"], t_out["groups"], strict=True):
            scale = g_in["scale"]
            awarded = sum(
                AWARDED[scale][e.get("result")] if "white" in e else WIN[scale]
                for r in g_in["rounds"]
                for e in r
            )
            assert sum(r["points"] for r in g_out["rows"]) == awarded
            places = [r["place"] for r in g_out["rows"]]
            assert places == sorted(places)
