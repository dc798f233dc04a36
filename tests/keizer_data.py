"""Keizer test data: a small competition file (interchange.md) and a generated season."""

import copy
import random


def small_file() -> dict:
    """Five players and a late entrant; two evenings played (a bye, a forfeit, an absence, a
    manual pair), the third with its attendance taken and a volunteer for the bye."""
    return copy.deepcopy(
        {
            "format": "competition/1",
            "system": "keizer",
            "series": "de-toren",
            "season": "2025-2026",
            "name": "De Toren interne competitie 2025-2026",
            "clubs": [{"id": "c1", "name": "De Toren"}],
            "players": [
                {"id": "p1", "name": "Jan de Vries", "club": "c1"},
                {"id": "p2", "name": "Anouk Bakker", "club": "c1"},
                {"id": "p3", "name": "Bram Visser", "club": "c1"},
                {"id": "p4", "name": "Eva Smit", "club": "c1", "start_points": 4},
                {"id": "p5", "name": "Henk Mulder", "club": "c1"},
                {"id": "p6", "name": "Late Entrant", "start_points": 2.5},
            ],
            "rounds": [
                {
                    "number": 1,
                    "date": "2025-09-04",
                    "games": [
                        {"white": "p1", "black": "p2", "result": "1-0"},
                        {"white": "p3", "black": "p4", "result": "1/2-1/2"},
                    ],
                    "bye": ["p5"],
                    "absent": [],
                    "external": [],
                    "unexcused": [],
                    "present": ["p1", "p2", "p3", "p4", "p5"],
                },
                {
                    "number": 2,
                    "date": "2025-09-11",
                    "games": [
                        {"white": "p2", "black": "p3", "result": "0-1", "manual": True},
                        {"white": "p4", "black": "p1", "result": "+-"},
                    ],
                    "bye": [],
                    "absent": ["p5"],
                    "external": [],
                    "unexcused": [],
                    "present": ["p1", "p2", "p3", "p4"],
                },
                {
                    "number": 3,
                    "date": "2025-09-18",
                    "games": [],
                    "bye": [],
                    "absent": [],
                    "external": ["p2"],
                    "unexcused": [],
                    "present": ["p1", "p3", "p4", "p5", "p6"],
                    "volunteer": "p5",
                },
            ],
            "closed": False,
        }
    )


def generated_file(
    players: int = 20, rounds: int = 12, *, seed: int = 1, series: str = "gen"
) -> dict:
    """A season of random evenings (attendance of every kind, byes, forfeits), all played."""
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(1, players + 1)]
    out_rounds = []
    for number in range(1, rounds + 1):
        order = ids[:]
        rng.shuffle(order)
        lists = {"absent": [], "external": [], "unexcused": []}
        present = []
        for p in order:
            roll = rng.random()
            if roll < 0.1:
                lists["absent"].append(p)
            elif roll < 0.15:
                lists["external"].append(p)
            elif roll < 0.18:
                lists["unexcused"].append(p)
            else:
                present.append(p)
        bye = [present.pop()] if len(present) % 2 else []
        games = [
            {
                "white": present[i],
                "black": present[i + 1],
                "result": rng.choice(["1-0", "0-1", "1/2-1/2", "1-0", "0-1", "+-"]),
            }
            for i in range(0, len(present), 2)
        ]
        out_rounds.append(
            {
                "number": number,
                "date": f"2025-{1 + (number - 1) // 4:02d}-{1 + 7 * ((number - 1) % 4):02d}",
                "games": games,
                "bye": bye,
                **lists,
                "present": present + bye,
            }
        )
    return {
        "format": "competition/1",
        "system": "keizer",
        "series": series,
        "season": "2025",
        "name": f"Generated {players}x{rounds}",
        "players": [{"id": p, "name": f"Player {p}"} for p in ids],
        "rounds": out_rounds,
        "closed": False,
    }
