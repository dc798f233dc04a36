"""Demo data of the Othello Grand Prix (rules.md §2): one Swedish GP season of six tournaments.

`gp_files(seed)` is a pure function: the same seed gives the same competition file
(interchange.md). The season has Swedish players with Nordic ratings, Swedes rated only by the
French federation (FFO), foreign guests (some with a provisional FFO rating and its
uncertainty), and debutants who get a Nordic rating after their first tournaments. Its fourth
tournament is a European GP held in Stockholm, its last the Swedish championship; the season
switches the federation's two rules on (SM tie-break, EGP rule), so the demo shows them at work.
"""

import datetime
import random
from dataclasses import dataclass

SYSTEM = "othello-gp"
SERIES = "swedish-othello-gp"
SERIES_NAME = "Swedish Othello Grand Prix"
SEASONS = ("2025",)

CLUBS = (
    ("sthlm", "Stockholms Othelloklubb"),
    ("gbg", "Göteborgs Othellosällskap"),
    ("upps", "Uppsala Othello"),
    ("malmo", "Othello Malmö"),
)

# (name, club, Nordic rating, FFO rating, kind): kind "nordic", "ffo" (a Swede rated in France
# only), "debutant" (no rating until the third tournament) or "egp-only" (plays only the EGP).
SWEDES = (
    ("Anna Lindqvist", "sthlm", 2150, None, "nordic"),
    ("Björn Sandberg", "sthlm", 2080, None, "nordic"),
    ("Örjan Åström", "upps", 1990, None, "nordic"),
    ("Karin Ek", "gbg", 1925, None, "nordic"),
    ("Magnus Holm", "sthlm", 1880, None, "nordic"),
    ("Sofia Berg", "malmo", 1840, None, "nordic"),
    ("Lars-Erik Nyström", "gbg", 1790, None, "nordic"),
    ("Elin Sjöberg", "upps", 1745, None, "nordic"),
    ("Johan Wikström", "sthlm", 1700, None, "nordic"),
    ("Maja Forsberg", "malmo", 1655, None, "nordic"),
    ("Per Dahlgren", "gbg", 1610, None, "nordic"),
    ("Ida Lundgren", "upps", 1560, None, "nordic"),
    ("Gustav Engström", "sthlm", 1505, None, "nordic"),
    ("Ebba Hedlund", "malmo", 1450, None, "nordic"),
    ("Nils Åberg", "gbg", 1390, None, "nordic"),
    ("Linnea Strand", "sthlm", 1320, None, "nordic"),
    ("Oskar Blom", "upps", 1240, None, "nordic"),
    ("Hanna Söderberg", "sthlm", 1160, None, "nordic"),
    ("Viktor Nordin", "malmo", 980, None, "nordic"),
    ("Alva Lind", "gbg", 870, None, "nordic"),
    ("Henrik Bergqvist", "sthlm", None, 2040, "ffo"),
    ("Klara Wallin", "upps", None, 1710, "ffo"),
    ("Elsa Norén", "sthlm", None, None, "debutant"),
    ("Axel Fransson", "gbg", None, None, "debutant"),
    ("Ture Mattsson", "malmo", None, None, "debutant"),
    ("Greta Olofsson", "sthlm", 1830, None, "egp-only"),
)
# (name, country, Nordic rating, FFO rating, provisional uncertainty or None)
GUESTS = (
    ("Mikko Virtanen", "FI", 2010, None, None),
    ("Aino Korhonen", "FI", 1620, None, None),
    ("Ole Kristian Haugen", "NO", 1880, None, None),
    ("Mette Kjær", "DK", 1700, None, None),
    ("Pierre-Élie Dupont", "FR", None, 2310, None),
    ("Camille Moreau", "FR", None, 1980, None),
    ("Julien Lefèvre", "FR", None, 1900, 350),
    ("Joost van Dijk", "NL", None, 2190, None),
    ("Sanne de Vries", "NL", None, 1750, 400),
    ("Jonas Becker", "DE", None, 2050, None),
    ("Emily Carter", "GB", None, 1840, 250),
    ("Matteo Rossi", "IT", None, 2120, None),
    ("Takeshi Murakami", "JP", None, 2420, None),
    ("Li Wei 李伟", "CN", None, 1960, 300),
)

# (id, name, date, options, Swedes playing, guests playing)
TOURNAMENTS = (
    ("t1", "Stockholm Open", datetime.date(2025, 2, 8), {}, 15, 2),
    ("t2", "Göteborg GP", datetime.date(2025, 3, 15), {}, 11, 1),
    ("t3", "Uppsala GP", datetime.date(2025, 4, 26), {}, 13, 2),
    ("t4", "Stockholm EGP", datetime.date(2025, 6, 7), {"egp": True}, 12, 14),
    ("t5", "Malmö GP", datetime.date(2025, 9, 13), {}, 12, 2),
    ("t6", "SM i Othello", datetime.date(2025, 11, 8), {"sm": True}, 16, 0),
)
DEBUT_RATING = 1180  # the Nordic rating a debutant has from the third tournament on


@dataclass
class _Player:
    key: str
    name: str
    club: str | None
    country: str
    nordic: int | None
    ffo: int | None
    uncertainty: int | None
    kind: str
    strength: float


def _players() -> list[_Player]:
    players = []
    for n, (name, club, nordic, ffo, kind) in enumerate(SWEDES, start=1):
        strength = nordic or (0.539 * ffo + 172 if ffo else 1100)
        players.append(_Player(f"p{n}", name, club, "SE", nordic, ffo, None, kind, strength))
    for n, (name, country, nordic, ffo, uncertainty) in enumerate(GUESTS, start=len(SWEDES) + 1):
        strength = nordic or 0.539 * ffo + 172 + 120  # guests who travel are strong
        players.append(
            _Player(f"p{n}", name, None, country, nordic, ffo, uncertainty, "guest", strength)
        )
    return players


def _rating(rng: random.Random, player: _Player, index: int) -> dict:
    """The player's rating entry at the `index`-th tournament: drifting a little over time."""
    drift = rng.randint(-25, 25)
    if player.kind == "debutant":
        return {} if index < 2 else {"nordic": DEBUT_RATING + 10 * index + drift}
    if player.nordic is not None:
        return {"nordic": player.nordic + drift}
    rating: dict = {"ffo": player.ffo + drift}
    if player.uncertainty is not None:
        rating.update(provisional=True, uncertainty=max(0, player.uncertainty - 40 * index))
    return rating


def _field(rng: random.Random, players: list[_Player], swedes: int, guests: int, egp: bool):
    regular = [p for p in players if p.country == "SE" and p.kind != "egp-only"]
    chosen = rng.sample(regular, min(swedes, len(regular)))
    if egp:
        chosen += [p for p in players if p.kind == "egp-only"]
    chosen += rng.sample([p for p in players if p.country != "SE"], guests)
    return chosen


def gp_files(seed: int = 2025) -> list[dict]:
    """The competition file of the demo GP season."""
    rng = random.Random(seed)
    players = _players()
    tournaments = []
    for index, (key, name, date, options, swedes, guests) in enumerate(TOURNAMENTS):
        field = _field(rng, players, swedes, guests, options.get("egp", False))
        ordered = sorted(field, key=lambda p: p.strength + rng.gauss(0, 160), reverse=True)
        tournaments.append(
            {
                "id": key,
                "name": name,
                "date": date.isoformat(),
                **options,
                "participants": [
                    {
                        "player": p.key,
                        "place": place,
                        "country": p.country,
                        "rating": _rating(rng, p, index),
                    }
                    for place, p in enumerate(ordered, start=1)
                ],
            }
        )
    played = {entry["player"] for t in tournaments for entry in t["participants"]}
    return [
        {
            "format": "competition/1",
            "system": SYSTEM,
            "series": SERIES,
            "season": SEASONS[0],
            "name": f"{SERIES_NAME} {SEASONS[0]}",
            "settings": {"sm_tiebreak": True, "egp_rule": True},
            "clubs": [{"id": key, "name": name} for key, name in CLUBS],
            "players": [
                {"id": p.key, "name": p.name, **({"club": p.club} if p.club else {})}
                for p in players
                if p.key in played
            ],
            "tournaments": tournaments,
        }
    ]
