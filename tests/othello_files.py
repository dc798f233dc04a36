"""Othello GP competition files for the tests (interchange.md, othello-gp section)."""

import copy


def example_participants() -> list[dict]:
    """rules.md §2's worked example: series 15, 8, 4, 2, 1, 0; points SE 15, 8, –, 2, 1, 0."""
    return [
        {"player": "p1", "place": 1, "country": "SE", "rating": {"nordic": 1850}},
        {"player": "p2", "place": 2, "country": "SE", "rating": {"ffo": 2100}},
        {
            "player": "p3",
            "place": 3,
            "country": "FR",
            "rating": {"ffo": 1900, "provisional": True, "uncertainty": 350},
        },
        {"player": "p4", "place": 4, "country": "SE", "rating": {}},
        {"player": "p5", "place": 5, "country": "SE", "rating": {"nordic": 880}},
        {"player": "p6", "place": 6, "country": "SE", "rating": {"nordic": 1400}},
    ]


def gp_file(**changes) -> dict:
    """A small GP season: the worked example, a second tournament (in another order, p3 as a
    Swede now) and a tournament not played yet."""
    data = {
        "format": "competition/1",
        "system": "othello-gp",
        "series": "swedish-gp",
        "season": "2025",
        "name": "Swedish Othello GP 2025",
        "clubs": [{"id": "sthlm", "name": "Stockholms Othelloklubb"}],
        "players": [
            {"id": "p1", "name": "Anna Lindqvist", "club": "sthlm"},
            {"id": "p2", "name": "Björn Sandberg", "club": "sthlm"},
            {"id": "p3", "name": "Julien Lefèvre"},
            {"id": "p4", "name": "Elsa Norén"},
            {"id": "p5", "name": "Alva Lind"},
            {"id": "p6", "name": "Oskar Blom"},
        ],
        "tournaments": [
            {
                "id": "t1",
                "name": "Stockholm Open",
                "date": "2025-03-01",
                "participants": example_participants(),
            },
            {
                "id": "t2",
                "name": "Göteborg GP",
                "date": "2025-04-05",
                "participants": [
                    {"player": "p2", "place": 1, "country": "SE", "rating": {"nordic": 1990}},
                    {"player": "p1", "place": 2, "country": "SE", "rating": {"nordic": 1855.5}},
                    {"player": "p3", "place": 3, "country": "SE", "rating": {"ffo": 1910}},
                ],
            },
            {"id": "t3", "name": "Malmö GP", "date": None, "participants": []},
        ],
    }
    data.update(copy.deepcopy(changes))
    return data
