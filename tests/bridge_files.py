"""Competition files of the bridge ladder for the tests (interchange.md, bridge-ladder)."""

import random

CLUB = ["djchili74", "Tolie", "HanLaporte", "Rudolf101", "Coolerb"]


def ladder_file(
    *,
    series: str = "bbo",
    pools: list[list[str]] | None = None,
    rounds: list[dict] | None = None,
    extra_players: list[dict] | None = None,
    settings: dict | None = None,
) -> dict:
    """A ladder file whose players are those of its pools (named after their ids)."""
    pools = pools if pools is not None else []
    data = {
        "format": "competition/1",
        "system": "bridge-ladder",
        "series": series,
        "season": "2026",
        "name": "BBO ladder 2026",
        "clubs": [{"id": "c1", "name": "Roi de Cœur"}],
        "players": [{"id": p, "name": p, "club": "c1"} for pool in pools for p in pool]
        + (extra_players or []),
        "pools": pools,
        "rounds": rounds or [],
    }
    if settings:
        data["settings"] = settings
    return data


def big_ladder(pools: int, rounds: int, *, series: str = "big", seed: int = 1) -> dict:
    """`pools` full pools of 5 over `rounds` rounds of 3 played challenges, a few no-shows."""
    rng = random.Random(seed)
    players = [f"q{i}" for i in range(5 * pools)]
    first = [players[i : i + 5] for i in range(0, len(players), 5)]
    played = [
        {
            "number": number,
            "challenges": [
                {
                    "imps": {
                        p: rng.randint(-3000, 3000) / 100 for p in players if rng.random() > 0.05
                    }
                }
                for _ in range(3)
            ],
        }
        for number in range(1, rounds + 1)
    ]
    return ladder_file(series=series, pools=first, rounds=played)
