"""Shared fixtures. Tests run against DATABASE_URL (PostgreSQL in CI), SQLite otherwise."""

import os

import pytest

REQUIRE_SERVICES = os.getenv("CLUBSITE_REQUIRE_SERVICES") == "1"


def skip_or_fail(reason: str) -> None:
    """Skip on a machine without the service; fail in CI, where it must be there."""
    if REQUIRE_SERVICES:
        pytest.fail(f"required service missing: {reason}")
    pytest.skip(reason)


@pytest.fixture
def circuit_file():
    """A small but complete board-game competition file (interchange.md)."""
    return {
        "format": "competition/1",
        "system": "boardgame-circuit",
        "series": "belgian-circuit",
        "season": "2025",
        "name": "Belgian board game circuit 2025",
        "clubs": [{"id": "c1", "name": "Spelclub Mechelen"}, {"id": "c2", "name": "Gent Speelt"}],
        "players": [
            {"id": "p1", "name": "An Peeters", "club": "c1"},
            {"id": "p2", "name": "Bert Claes", "club": "c1"},
            {"id": "p3", "name": "Cis Janssens", "club": "c2"},
            {"id": "p4", "name": "Dirk Maes", "club": "c2"},
            {"id": "p5", "name": "Els Wouters", "club": "c2"},
        ],
        "history": [{"season": "2024", "yearly": {"p1": 812.4, "p2": 640}}],
        "previous_participants": [64, 70, 81],
        "tournaments": [
            {
                "id": "t1",
                "name": "Mechelen",
                "date": "2025-02-09",
                "final": False,
                "draw_seed": 12345,
                "rounds": [
                    {
                        "tables": [
                            {
                                "game": "Catan",
                                "results": [
                                    {"player": "p1", "rank": 1},
                                    {"player": "p2", "rank": 2},
                                    {"player": "p3", "rank": 2},
                                    {"player": "p4", "rank": 4},
                                ],
                            }
                        ]
                    },
                    {
                        "tables": [
                            {
                                "game": "Carcassonne",
                                "results": [
                                    {"player": "p5", "rank": 1},
                                    {"player": "p1", "rank": 2},
                                ],
                            }
                        ]
                    },
                ],
            },
            {
                "id": "t2",
                "name": "Gent",
                "date": "2025-03-16",
                "final": False,
                "draw_seed": 777,
                "rounds": [
                    {
                        "tables": [
                            {
                                "game": "Catan",
                                "results": [
                                    {"player": "p3", "rank": 1},
                                    {"player": "p1", "rank": 1},
                                    {"player": "p5", "rank": 3},
                                ],
                            },
                            {
                                "game": "Carcassonne",
                                "results": [
                                    {"player": "p2", "rank": 1},
                                    {"player": "p4", "rank": 2},
                                ],
                            },
                        ]
                    },
                ],
            },
            {
                "id": "final",
                "name": "Final",
                "date": "2025-11-30",
                "final": True,
                "draw_seed": 1,
                "rounds": [
                    {
                        "tables": [
                            {
                                "game": "Catan",
                                "results": [
                                    {"player": "p1", "rank": 2},
                                    {"player": "p3", "rank": 1},
                                ],
                            }
                        ]
                    },
                ],
            },
        ],
    }
