"""Property: any valid circuit file survives import and export unchanged (interchange.md)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competitions.interchange import export_competition
from competitions.models import Season
from rankings.imports import import_competition

PLAYERS = [f"p{i}" for i in range(1, 13)]


@st.composite
def circuit_files(draw):
    tournaments = []
    for t in range(draw(st.integers(0, 3))):
        rounds = []
        for _ in range(draw(st.integers(0, 3))):
            seated = draw(st.permutations(PLAYERS))[: draw(st.integers(0, len(PLAYERS)))]
            tables, i = [], 0
            while len(seated) - i >= 2:
                size = draw(st.integers(2, min(6, len(seated) - i)))
                results = [
                    {"player": p, "rank": draw(st.integers(1, size))} for p in seated[i : i + size]
                ]
                tables.append(
                    {
                        "game": draw(st.sampled_from(["Catan", "Azul", "Dominion"])),
                        "results": results,
                    }
                )
                i += size
            rounds.append({"tables": tables})
        tournaments.append(
            {
                "id": f"t{t}",
                "name": f"Tournament {t}",
                "date": f"2025-0{t + 1}-01",
                "final": t == 2 and draw(st.booleans()),
                "draw_seed": draw(st.integers(0, 2**40)),
                "rounds": rounds,
            }
        )
    data = {
        "format": "competition/1",
        "system": "boardgame-circuit",
        "series": "prop",
        "season": "2025",
        "name": "Prop 2025",
        "clubs": [{"id": "c1", "name": "Club One"}, {"id": "c2", "name": "Club Two"}],
        "players": [
            {"id": p, "name": f"Player {p}", "club": "c1" if n % 2 else "c2"}
            for n, p in enumerate(PLAYERS)
        ],
        "tournaments": tournaments,
    }
    history = draw(
        st.dictionaries(
            st.sampled_from(PLAYERS),
            st.floats(0, 5000, allow_nan=False).map(lambda f: round(f, 3)),
            max_size=4,
        )
    )
    if history:
        data["history"] = [{"season": "2024", "yearly": history}]
    if draw(st.booleans()):
        data["settings"] = {
            "best_n": draw(st.integers(1, 6)),
            "cap": draw(st.one_of(st.none(), st.integers(0, 80))),
        }
    return data


def normalised(data: dict) -> dict:
    """Export writes the optional parts it knows in full (final flags); compare like with like."""
    data = {
        **data,
        "tournaments": [{**t, "final": bool(t.get("final"))} for t in data["tournaments"]],
    }
    if "history" in data:
        data["history"] = [
            {**h, "yearly": dict(sorted(h["yearly"].items()))} for h in data["history"]
        ]
    return data


@pytest.mark.django_db
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=circuit_files())
def test_import_then_export_gives_the_file_back(data):
    season = import_competition(data, replace=True)
    exported = export_competition(Season.objects.get(pk=season.pk))
    assert normalised(exported) == normalised(data)
