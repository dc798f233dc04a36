"""Competition files of the chess system (interchange.md chess-bgp) for the tests."""

import copy


def chess_file(**changes) -> dict:
    """Two tournaments: Klyve with the five-player group of rules.md §3's hand-checked example
    (a WO, a forfeit and a round not played) and a 3-2-1 group; a county championship."""
    data = {
        "format": "competition/1",
        "system": "chess-bgp",
        "series": "telemark-bgp",
        "season": "2025/26",
        "name": "Telemark BGP 2025/26",
        "clubs": [{"id": "c1", "name": "Skien Sjakklubb"}],
        "players": [
            {"id": "a", "name": "Anna Berg", "club": "c1"},
            {"id": "b", "name": "Bjørn Dahl", "club": "c1"},
            {"id": "c", "name": "Cecilie Lund"},
            {"id": "d", "name": "David Moen"},
            {"id": "e", "name": "Eva Strand"},
            {"id": "f", "name": "Frida Haugen"},
            {"id": "g", "name": "Gustav Olsen"},
        ],
        "tournaments": [
            {
                "id": "klyve",
                "name": "Klyve BGP",
                "date": "2025-10-04",
                "county_championship": False,
                "draw_seed": 11,
                "groups": [
                    {
                        "name": "Gruppe A",
                        "scale": "1-half-0",
                        "players": [
                            {"player": "a", "class": "Kadett", "born": 2011, "rating": 1500},
                            {"player": "b", "class": "Kadett", "born": 2012},
                            {"player": "c", "class": "Lilleputt", "born": 2014},
                            {"player": "d", "class": "Kadett", "born": 2011},
                            {"player": "e", "class": "Lilleputt", "born": 2013},
                        ],
                        "rounds": [
                            [
                                {"white": "a", "black": "b", "result": "1-0"},
                                {"white": "c", "black": "d", "result": "1/2-1/2"},
                                {"walkover": "e"},
                            ],
                            [
                                {"white": "e", "black": "a", "result": "0-1"},
                                {"white": "b", "black": "c", "result": "1-0"},
                                {"walkover": "d"},
                            ],
                            [
                                {"white": "a", "black": "d", "result": "1/2-1/2"},
                                {"white": "c", "black": "e", "result": "1-0"},
                                {"walkover": "b"},
                            ],
                            [
                                {"white": "a", "black": "c", "result": "1-0"},
                                {"white": "b", "black": "e", "result": "+-"},
                            ],
                        ],
                    },
                    {
                        "name": "Gruppe B",
                        "scale": "3-2-1",
                        "players": [
                            {"player": "f", "class": "Miniputt", "born": 2016},
                            {"player": "g", "class": "Miniputt", "born": 2016},
                        ],
                        "rounds": [[{"white": "f", "black": "g", "result": "0-1"}]],
                    },
                ],
            },
            {
                "id": "km",
                "name": "Kretsmesterskap",
                "date": "2026-01-17",
                "county_championship": True,
                "draw_seed": 12,
                "groups": [
                    {
                        "name": "Alle",
                        "scale": "1-half-0",
                        "players": [
                            {"player": "a", "class": "Kadett", "born": 2011},
                            {"player": "b", "class": "Kadett", "born": 2012},
                            {"player": "c", "class": "Lilleputt", "born": 2014},
                        ],
                        "rounds": [
                            [{"white": "b", "black": "a", "result": "1-0"}, {"walkover": "c"}],
                            [{"white": "c", "black": "b"}],
                        ],
                    }
                ],
            },
        ],
    }
    data.update(copy.deepcopy(changes))
    return data


def played_chess_file(**changes) -> dict:
    """`chess_file` with the Kretsmesterskap's last game played (c loses to b): every group
    played, so every group gives its BGP points (rules.md §3: a group with a result to come
    gives none yet). The classes' orders are those of `chess_file`."""
    data = chess_file(**changes)
    data["tournaments"][1]["groups"][0]["rounds"][1][0]["result"] = "0-1"
    return data
