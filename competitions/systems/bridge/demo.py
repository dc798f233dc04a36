"""Demo data of the bridge pool ladder (rules.md §5): a BBO ladder of four pools over three rounds.

`ladder_files(seed)` returns the competition file (interchange.md) of one season, drawn from one
seeded `random.Random`: the same seed always gives the same file. It includes the club's own
example pool, "Roi de Cœur" (djchili74, Tolie, HanLaporte, Rudolf101, Coolerb): its first two
challenges are the club's worked example (everyone at 1250, challenge 1 in that order gives +50,
+25, 0, -25, -50; in challenge 2 HanLaporte wins all four duels, 1250 -> 1300).

Rounds 1 and 2 are played in full; their pools follow from promotion and relegation. Before round
3 a player leaves (his place is filled from the pool below), a newcomer joins at the bottom and two
players swap pools by hand, with their reasons. Round 3 is in progress: two of its three challenges
are played.
"""

import random
from decimal import Decimal

from . import ladder
from .ladder import LadderData, RoundData
from .settings import parse_settings

SYSTEM = "bridge-ladder"
SERIES = "bbo-ladder"
SERIES_NAME = "BBO pool ladder"
SEASONS = ("2026",)
POOL_NAMES = ["As de Pique", "Dame de Carreau", "Valet de Trèfle", "Roi de Cœur"]
CHALLENGES = 3
NO_SHOW_RATE = 0.06

CLUB_POOL = ["djchili74", "Tolie", "HanLaporte", "Rudolf101", "Coolerb"]
# Pools 1 to 3 of the first round, strongest first; pool 4 is the club's own example pool.
OTHERS = [
    "PiqueDame", "Ouest42", "Sans-Atout", "Marguerite.V", "ChicaneNord",
    "Jojo_Lyon", "Le Mort", "Bébert13", "Zhang Wei 张伟", "Mamie_Bridge",
    "Νίκος", "Contre&Sur", "Tournesol", "Rubicon59", "Kiki la Fiche",
]  # fmt: skip
JOINER = "Clémence_B"
JOINER_START_ELO = 1180
CLUBS = [("c1", "Bridge Club du Roi de Cœur")]

# The club's worked example (rules.md §5): challenge 1 in the listed order, then HanLaporte first.
CLUB_CHALLENGE_1 = {"djchili74": 9.5, "Tolie": 4.2, "HanLaporte": 0.3, "Rudolf101": -3.1,
                    "Coolerb": -10.9}  # fmt: skip
CLUB_CHALLENGE_2 = {"HanLaporte": 12.4, "djchili74": 2.0, "Tolie": -1.5, "Rudolf101": -4.6,
                    "Coolerb": -8.3}  # fmt: skip


def ladder_files(seed: int = 2026) -> list[dict]:
    """The competition file of the demo ladder's one season."""
    rng = random.Random(seed)
    names = OTHERS + CLUB_POOL + [JOINER]
    keys = {name: f"b{i:02d}" for i, name in enumerate(names, start=1)}
    skill = {keys[name]: rng.gauss(0, 1) + (1.2 - 0.2 * (i // 5)) for i, name in enumerate(names)}
    first = [[keys[n] for n in OTHERS[i : i + 5]] for i in range(0, len(OTHERS), 5)]
    first.append([keys[n] for n in CLUB_POOL])
    settings_raw = {"pool_names": POOL_NAMES}
    data: dict = {
        "format": "competition/1",
        "system": SYSTEM,
        "series": SERIES,
        "season": SEASONS[0],
        "name": f"{SERIES_NAME} {SEASONS[0]}",
        "settings": settings_raw,
        "clubs": [{"id": c, "name": name} for c, name in CLUBS],
        "players": [{"id": keys[n], "name": n, "club": CLUBS[0][0]} for n in names],
        "pools": first,
        "start_elo": {keys[JOINER]: JOINER_START_ELO},
        "rounds": [],
    }
    in_ladder = [k for pool in first for k in pool]
    club = {keys[n] for n in CLUB_POOL}
    for number in (1, 2):
        challenges = []
        for c in range(CHALLENGES):
            imps = _challenge(rng, in_ladder, skill)
            if number == 1 and c < 2:
                fixed = CLUB_CHALLENGE_1 if c == 0 else CLUB_CHALLENGE_2
                imps = {k: v for k, v in imps.items() if k not in club}
                imps.update({keys[n]: v for n, v in fixed.items()})
            challenges.append({"imps": imps})
        data["rounds"].append({"number": number, "challenges": challenges})
    third = _third_round(data, keys)
    challenges = [
        {"imps": _challenge(rng, [k for pool in third["pools"] for k in pool], skill)}
        for _ in range(CHALLENGES - 1)
    ]
    third["challenges"] = challenges + [{"imps": {}}]
    data["rounds"].append(third)
    return [data]


def _challenge(rng: random.Random, players: list[str], skill: dict[str, float]) -> dict:
    """IMPs of one challenge: skill and luck, one decimal, now and then a player does not play."""
    return {
        key: round(rng.gauss(3 * skill[key], 8), 1)
        for key in players
        if rng.random() >= NO_SHOW_RATE
    }


def _third_round(data: dict, keys: dict[str, str]) -> dict:
    """Round 3's pools: the moves of round 2, a leaver, a joiner and a swap by hand."""
    settings = parse_settings(data["settings"])
    state = ladder.state(
        LadderData(
            settings=settings,
            start_elo={},
            rounds=[
                RoundData(
                    number=r["number"],
                    pools=data["pools"] if r["number"] == 1 else None,
                    challenges=[
                        {k: Decimal(repr(v)) for k, v in c["imps"].items()} for c in r["challenges"]
                    ],
                )
                for r in data["rounds"]
            ],
        )
    )
    moved = state.next_pools
    leaver = moved[1][2]  # a player who would have stayed in pool 2
    pools = ladder.reshape(
        moved, leaving={leaver}, joining=[keys[JOINER]], pool_size=settings.pool_size
    )
    names = {p["id"]: p["name"] for p in data["players"]}
    reasons = {keys[JOINER]: "Joined the ladder; start Elo 1180 by the club."}
    where = {key: k for k, pool in enumerate(moved) for key in pool}
    for k, pool in enumerate(pools):
        for key in pool:
            if key in where and where[key] != k:
                reasons[key] = f"Fills the place of {names[leaver]}, who left the ladder."
    a, b = pools[0][-1], pools[1][0]
    pools[0][-1], pools[1][0] = b, a
    swap = "Swapped by hand: {} cannot play pool 1's challenges this month (holiday)."
    reasons[a] = reasons[b] = swap.format(names[a])
    return {"number": 3, "pools": pools, "reasons": reasons}
