"""Demo data of the chess groups (rules.md §3): a Norwegian youth BGP season.

`season_files(seed)` is a pure function: the same seed gives the same competition file
(interchange.md). The season has three tournaments with several groups on both points scales,
BGP classes by birth year, walkovers (odd groups), a few forfeits and a player who misses a
round, and a county championship ("Kretsmesterskap") as the last tournament.
"""

import random
from dataclasses import dataclass

SYSTEM = "chess-bgp"
SERIES = "telemark-bgp"
SERIES_NAME = "Telemark barne-grand-prix"
SEASONS = ("2025/26",)
SEASON_YEAR = 2025

CLUBS = (
    ("skien", "Skien Sjakklubb"),
    ("porsgrunn", "Porsgrunn Sjakklubb"),
    ("notodden", "Notodden Sjakklubb"),
    ("bo", "Bø Sjakklubb"),
)
FIRST_NAMES = (
    "Emma", "Nora", "Sofie", "Ella", "Olivia", "Ingrid", "Sara", "Maja", "Leah", "Frida",
    "Jakob", "Emil", "Noah", "Oliver", "Filip", "William", "Lucas", "Liam", "Henrik", "Oskar",
    "Aksel", "Magnus", "Tobias", "Elias", "Isak", "Mathias", "Sander", "Håkon", "Sigurd", "Ylva",
    "Tiril", "Åse", "Øystein", "Kasper", "Vetle", "Eirik",
)  # fmt: skip
LAST_NAMES = (
    "Hansen", "Johansen", "Olsen", "Larsen", "Andersen", "Pedersen", "Nilsen", "Kristiansen",
    "Jensen", "Karlsen", "Johnsen", "Pettersen", "Eriksen", "Berg", "Haugen", "Hagen",
    "Johannessen", "Andreassen", "Jacobsen", "Dahl", "Jørgensen", "Halvorsen", "Lund", "Sørensen",
    "Bakken", "Moen", "Gundersen", "Strand", "Solberg", "Svendsen",
)  # fmt: skip
ROSTER = 64

# (class, oldest and youngest birth year in season 2025/26)
CLASSES = (
    ("Junior", 2006, 2009),
    ("Kadett", 2010, 2012),
    ("Lilleputt", 2013, 2014),
    ("Miniputt", 2015, 2016),
    ("Knøtt", 2017, 2019),
)

# (id, name, date, county championship, groups: (name, scale, rounds, classes, size range))
TOURNAMENTS = (
    (
        "klyve",
        "Klyve BGP",
        "2025-10-04",
        False,
        (
            ("Gruppe A", "1-half-0", 5, ("Junior", "Kadett"), (10, 12)),
            ("Gruppe B", "3-2-1", 5, ("Lilleputt", "Miniputt"), (11, 13)),
            ("Gruppe C", "3-2-1", 5, ("Knøtt",), (7, 9)),
        ),
    ),
    (
        "porsgrunn",
        "Porsgrunn BGP",
        "2025-11-15",
        False,
        (
            ("Gruppe A", "1-half-0", 7, ("Junior", "Kadett", "Lilleputt"), (14, 16)),
            ("Gruppe B", "3-2-1", 6, ("Lilleputt", "Miniputt", "Knøtt"), (15, 17)),
        ),
    ),
    (
        "km",
        "Kretsmesterskap Telemark",
        "2026-01-17",
        True,
        (
            ("Eldre", "1-half-0", 6, ("Junior", "Kadett"), (9, 11)),
            ("Yngre", "3-2-1", 6, ("Lilleputt", "Miniputt", "Knøtt"), (13, 15)),
        ),
    ),
)
FORFEIT_RATE = 0.02
MISS_RATE = 0.03


@dataclass
class _Player:
    key: str
    name: str
    club: str
    born: int
    player_class: str
    strength: int  # hidden playing strength; the rating is it with noise
    rating: int | None


def season_files(seed: int = 2026) -> list[dict]:
    """The competition file of the demo season."""
    rng = random.Random(seed)
    players = _players(rng)
    tournaments = [_tournament(rng, players, *spec) for spec in TOURNAMENTS]
    used = {p["player"] for t in tournaments for g in t["groups"] for p in g["players"]}
    roster = [p for p in players if p.key in used]
    return [
        {
            "format": "competition/1",
            "system": SYSTEM,
            "series": SERIES,
            "season": SEASONS[0],
            "name": f"{SERIES_NAME} {SEASONS[0]}",
            "clubs": [{"id": key, "name": name} for key, name in CLUBS],
            "players": [{"id": p.key, "name": p.name, "club": p.club} for p in roster],
            "tournaments": tournaments,
        }
    ]


def _players(rng: random.Random) -> list[_Player]:
    names: set[str] = set()
    players = []
    for n in range(1, ROSTER + 1):
        name = ""
        while not name or name in names:
            name = f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
        names.add(name)
        player_class, oldest, youngest = CLASSES[min(4, int(rng.random() ** 0.8 * 5))]
        born = rng.randint(oldest, youngest)
        strength = int(1700 - 70 * (born - 2006) + rng.gauss(0, 150))
        rated = born <= 2014 or rng.random() < 0.3
        players.append(
            _Player(
                key=f"p{n}",
                name=name,
                club=rng.choice(CLUBS)[0],
                born=born,
                player_class=player_class,
                strength=strength,
                rating=max(600, strength + int(rng.gauss(0, 60))) if rated else None,
            )
        )
    return players


def _tournament(rng, players, key, name, date, county, groups) -> dict:
    taken: set[str] = set()
    out_groups = []
    for group_name, scale, rounds, classes, (low, high) in groups:
        pool = [p for p in players if p.player_class in classes and p.key not in taken]
        members = rng.sample(pool, min(len(pool), rng.randint(low, high)))
        taken.update(p.key for p in members)
        # Start numbers by rating, the unrated last (in the demo's own lot).
        members.sort(key=lambda p: (p.rating is None, -(p.rating or 0), rng.random()))
        out_groups.append(
            {
                "name": group_name,
                "scale": scale,
                "players": [
                    {"player": p.key, "class": p.player_class, "born": p.born}
                    | ({"rating": p.rating} if p.rating is not None else {})
                    for p in members
                ],
                "rounds": _rounds(rng, members, rounds),
            }
        )
    return {
        "id": key,
        "name": name,
        "date": date,
        "county_championship": county,
        "draw_seed": rng.randrange(2**31),
        "groups": out_groups,
    }


def _rounds(rng: random.Random, members: list[_Player], count: int) -> list[list[dict]]:
    """A round-robin schedule (circle method) cut to `count` rounds: no rematches; in an odd
    group the player without an opponent gets the walkover."""
    seats: list[_Player | None] = list(members)
    if len(seats) % 2:
        seats.append(None)
    rounds = []
    for _ in range(min(count, len(seats) - 1)):
        games: list[dict] = []
        walkovers: list[dict] = []
        half = len(seats) // 2
        for i in range(half):
            a, b = seats[i], seats[-1 - i]
            if a is None or b is None:
                lone = a or b
                if lone is not None:
                    walkovers.append({"walkover": lone.key})
                continue
            white, black = (a, b) if rng.random() < 0.5 else (b, a)
            if rng.random() < MISS_RATE:
                continue  # a player missed the round: the pair has no entry
            games.append(
                {"white": white.key, "black": black.key, "result": _result(rng, white, black)}
            )
        rounds.append(games + walkovers)
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return rounds


def _result(rng: random.Random, white: _Player, black: _Player) -> str:
    if rng.random() < FORFEIT_RATE:
        return rng.choice(["+-", "-+"])
    expected = 1 / (1 + 10 ** ((black.strength - white.strength - 30) / 400))
    draw = 0.18
    roll = rng.random()
    if roll < expected - draw / 2:
        return "1-0"
    if roll < expected + draw / 2:
        return "1/2-1/2"
    return "0-1"
