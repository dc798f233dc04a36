"""Demo data of the board-game circuit (rules.md §1): three seasons of a Belgian circuit.

`circuit_files(seed)` is a pure function: it returns the competition files (interchange.md) of
seasons 2023, 2024 and 2025, in that order, drawn from one seeded `random.Random`. The same seed
always gives the same files, lot-draw seeds included, so the demo standings are reproducible.
2025 is a season in progress: six regular tournaments played, two more and the final scheduled.
"""

import datetime
import random
from collections.abc import Sequence
from dataclasses import dataclass

SYSTEM = "boardgame-circuit"
SERIES = "belgian-circuit"
SERIES_NAME = "Belgian board game circuit"
SEASONS = ("2023", "2024", "2025")
IN_PROGRESS = "2025"
PLAYED_IN_PROGRESS = 6  # regular tournaments already played in the season in progress
REGULAR_MONTHS = (1, 2, 3, 4, 5, 6, 9, 10)  # one regular tournament a month, no summer ones
FINAL_MONTH = 11
ROUNDS = 3
# Participants per regular tournament of 2022, the season before the first stored one (its cap).
PREVIOUS_PARTICIPANTS = [52, 47, 61, 58, 44, 50, 49, 55]
TIE_RATE = 0.05  # share of tables with a shared rank
SKIP_RATE = 0.03  # chance that a participant sits out a given round

# (id, name, language of its members' names, relative size)
CLUBS: tuple[tuple[str, str, str, int], ...] = (
    ("c1", "Spelclub Mechelen", "nl", 12),
    ("c2", "De Dobbelsteen Gent", "nl", 11),
    ("c3", "Ludiek Leuven", "nl", 10),
    ("c4", "Antwerpse Spelvrienden", "nl", 10),
    ("c5", "Brugse Bordspelers", "nl", 7),
    ("c6", "Hasselt Speelt", "nl", 7),
    ("c7", "Les Joueurs Namurois", "fr", 7),
    ("c8", "Cercle Ludique Liégeois", "fr", 6),
)

FIRST_NAMES = {
    "nl": (
        "An", "Annelies", "Bart", "Bert", "Dirk", "Dries", "Els", "Evi", "Frederik", "Gert",
        "Griet", "Hanne", "Hilde", "Ines", "Jan", "Jef", "Joris", "Karel", "Katrien", "Kobe",
        "Koen", "Lien", "Lotte", "Marleen", "Nele", "Pieter", "Raf", "Ruben", "Sander", "Sofie",
        "Stijn", "Tine", "Tom", "Veerle", "Wim", "Wout",
    ),
    "fr": (
        "Anne", "Aurélie", "Camille", "Céline", "François", "Geoffrey", "Hélène", "Jérôme",
        "Julien", "Laurence", "Luc", "Marie", "Mathieu", "Nathalie", "Olivier", "Pascale",
        "Quentin", "Sébastien", "Sophie", "Thierry", "Valérie",
    ),
}  # fmt: skip
LAST_NAMES = {
    "nl": (
        "Peeters", "Janssens", "Maes", "Jacobs", "Mertens", "Willems", "Claes", "Goossens",
        "Wouters", "De Smet", "Vermeulen", "Van den Broeck", "De Backer", "Michiels", "Hermans",
        "Declercq", "Verstraeten", "Van Damme", "Coppens", "Aerts", "Lemmens", "Stevens",
        "Verhoeven", "Van Acker", "De Wilde", "Smets", "Pauwels", "Geerts",
    ),
    "fr": (
        "Dubois", "Lambert", "Dupont", "Martin", "Simon", "Laurent", "Lejeune", "Leclercq",
        "Renard", "Fontaine", "Collignon", "Lemaire", "Henrard", "Gilson", "Delvaux", "Hubert",
        "Dethier", "Piron", "Mathy",
    ),
}  # fmt: skip

# Table games and the table sizes they are played with at the circuit.
GAMES: tuple[tuple[str, int, int], ...] = (
    ("Catan", 3, 4),
    ("Carcassonne", 3, 5),
    ("Ticket to Ride", 3, 5),
    ("7 Wonders", 3, 6),
    ("Azul", 3, 4),
    ("Splendor", 3, 4),
    ("Terraforming Mars", 3, 5),
    ("Dominion", 3, 4),
)
TOWNS = (
    "Mechelen", "Gent", "Leuven", "Antwerpen", "Brugge", "Hasselt", "Namur", "Liège",
    "Kortrijk", "Aalst", "Oostende", "Genk", "Sint-Niklaas", "Turnhout", "Mons", "Lier",
    "Roeselare", "Wavre",
)  # fmt: skip
FINAL_NAME = "Finale Brussel"

# Players: p1..p64 play from 2023; 4 join in 2024 and 4 in 2025; some leave after a season.
FIRST_ROSTER = 64
JOINING = {"2024": 4, "2025": 4}
LEAVING = {"2023": 4, "2024": 3}  # leave after that season
CLUB_CHANGES = {"2025": 2}  # players who play for another club from that season on


@dataclass
class _Player:
    key: str
    name: str
    club: str
    skill: float
    activity: float  # weight of showing up at a tournament
    first: str
    last: str


def circuit_files(seed: int = 2025) -> list[dict]:
    """The competition files of the demo circuit, seasons 2023, 2024 and 2025 in that order."""
    rng = random.Random(seed)
    players = _players(rng)
    files = []
    for index, label in enumerate(SEASONS):
        roster = [p for p in players if p.first <= label <= p.last]
        files.append(_season_file(rng, label, roster, first=index == 0))
    return files


def _players(rng: random.Random) -> list[_Player]:
    total = FIRST_ROSTER + sum(JOINING.values())
    weights = [size for _id, _name, _lang, size in CLUBS]
    names: set[str] = set()
    players = []
    for n in range(1, total + 1):
        club, _club_name, language, _size = rng.choices(CLUBS, weights=weights)[0]
        name = ""
        while not name or name in names:
            name = f"{rng.choice(FIRST_NAMES[language])} {rng.choice(LAST_NAMES[language])}"
        names.add(name)
        players.append(
            _Player(
                key=f"p{n}",
                name=name,
                club=club,
                skill=rng.gauss(0, 1),
                activity=0.15 + 0.85 * rng.random() ** 0.5,
                first=SEASONS[0],
                last=SEASONS[-1],
            )
        )
    start = FIRST_ROSTER
    for label, count in JOINING.items():
        for player in players[start : start + count]:
            player.first = label
        start += count
    for label, count in LEAVING.items():
        staying = [p for p in players if p.first <= label and p.last == SEASONS[-1]]
        for player in rng.sample(staying, count):
            player.last = label
    return players


def _season_file(rng: random.Random, label: str, roster: list[_Player], *, first: bool) -> dict:
    year = int(label)
    clubs = _season_clubs(rng, label, roster)
    towns = rng.sample(TOWNS, len(REGULAR_MONTHS))
    dates = [_sunday(year, month, rng.randint(1, 4)) for month in REGULAR_MONTHS]
    final_date = _sunday(year, FINAL_MONTH, rng.randint(3, 4))
    played = PLAYED_IN_PROGRESS if label == IN_PROGRESS else len(REGULAR_MONTHS)
    tournaments = []
    for n, (town, date) in enumerate(zip(towns, dates, strict=True), start=1):
        tournaments.append(
            _tournament(
                rng,
                f"t{n}",
                town,
                date,
                roster,
                size=(30, 60),
                final=False,
                play=n <= played,
            )
        )
    tournaments.append(
        _tournament(
            rng,
            "final",
            FINAL_NAME,
            final_date,
            roster,
            size=(32, 48),
            final=True,
            play=label != IN_PROGRESS,
        )
    )
    used_clubs = set(clubs.values())
    data: dict = {
        "format": "competition/1",
        "system": SYSTEM,
        "series": SERIES,
        "season": label,
        "name": f"{SERIES_NAME} {label}",
        "clubs": [{"id": c, "name": name} for c, name, _lang, _size in CLUBS if c in used_clubs],
        "players": [{"id": p.key, "name": p.name, "club": clubs[p.key]} for p in roster],
    }
    if first:
        data["previous_participants"] = list(PREVIOUS_PARTICIPANTS)
    data["tournaments"] = tournaments
    return data


def _season_clubs(rng: random.Random, label: str, roster: list[_Player]) -> dict[str, str]:
    """Each player's club this season; a few players move to another club for good."""
    movers = rng.sample(roster, CLUB_CHANGES.get(label, 0))
    for player in movers:
        player.club = rng.choice([c for c, _name, _lang, _size in CLUBS if c != player.club])
    return {p.key: p.club for p in roster}


def _sunday(year: int, month: int, nth: int) -> datetime.date:
    first = datetime.date(year, month, 1)
    return first + datetime.timedelta(days=(6 - first.weekday()) % 7 + 7 * (nth - 1))


def _tournament(
    rng: random.Random,
    key: str,
    name: str,
    date: datetime.date,
    roster: list[_Player],
    *,
    size: tuple[int, int],
    final: bool,
    play: bool,
) -> dict:
    tournament: dict = {
        "id": key,
        "name": name,
        "date": date.isoformat(),
        "final": final,
        "draw_seed": rng.randrange(2**31),
        "rounds": [],
    }
    if not play:
        return tournament
    count = min(rng.randint(*size), len(roster))
    participants = _weighted_sample(rng, roster, count, final=final)
    games = rng.sample(GAMES, 5)
    skips = {
        p.key: rng.randrange(ROUNDS) for p in participants if rng.random() < SKIP_RATE * ROUNDS
    }
    for number in range(ROUNDS):
        present = [p for p in participants if skips.get(p.key) != number]
        rng.shuffle(present)
        tables = []
        start = 0
        for seats in _table_sizes(rng, len(present)):
            at_table = present[start : start + seats]
            start += seats
            tables.append({"game": _game(rng, games, seats), "results": _results(rng, at_table)})
        tournament["rounds"].append({"tables": tables})
    return tournament


def _weighted_sample(
    rng: random.Random, roster: list[_Player], count: int, *, final: bool
) -> list[_Player]:
    """`count` players drawn without replacement, the keen (and for the final the strong) first."""

    def weight(p: _Player) -> float:
        return p.activity * (2.0**p.skill if final else 1.0)

    keyed = [(rng.random() ** (1 / weight(p)), p.key, p) for p in roster]
    keyed.sort(key=lambda item: (item[0], item[1]), reverse=True)
    return [p for _key, _pkey, p in keyed[:count]]


def _table_sizes(rng: random.Random, n: int) -> list[int]:
    """Table sizes of 3 to 6 that seat n >= 24 players, mostly 4."""
    tables = max(1, (n + 2) // 4)
    sizes = [4] * tables
    diff = n - 4 * tables  # -2..1
    for i in range(abs(diff)):
        sizes[i] += 1 if diff > 0 else -1
    for _ in range(rng.randint(0, 2)):  # some variety: a table of 3 and one of 5, now and then 6
        i, j = rng.sample(range(len(sizes)), 2)
        if sizes[i] > 3 and sizes[j] < 6:
            sizes[i] -= 1
            sizes[j] += 1
    rng.shuffle(sizes)
    return sizes


def _game(rng: random.Random, offered: Sequence[tuple[str, int, int]], seats: int) -> str:
    fitting = [title for title, low, high in offered if low <= seats <= high]
    if not fitting:
        fitting = [title for title, low, high in GAMES if low <= seats <= high]
    return rng.choice(fitting)


def _results(rng: random.Random, at_table: list[_Player]) -> list[dict]:
    """Ranks 1..x by skill and luck; now and then two neighbours share a rank (1, 2, 2, 4)."""
    order = sorted(at_table, key=lambda p: p.skill + rng.gauss(0, 1.5), reverse=True)
    ranks = list(range(1, len(order) + 1))
    if rng.random() < TIE_RATE:
        k = rng.randrange(1, len(order))
        ranks[k] = ranks[k - 1]
    return [{"player": p.key, "rank": rank} for p, rank in zip(order, ranks, strict=True)]
