"""Demo data of the Keizer club competition (rules.md §4): one season of a Dutch chess club.

`club_files(seed)` is a pure function: the same seed gives the same competition file
(interchange.md). About 30 players meet on Thursday evenings: 20 evenings are played, with
absences with and without notice, players away at team matches (external), byes, a volunteer now
and then, a forfeit, and a late entrant with start points set by hand. Evening 21's attendance
is taken, so the demo manager can pair it at once.

The evenings are paired by a simple stand-in here (this layer does not use the real pairer):
the running order by score, no rematch within 7 evenings, the bye bottom-up.
"""

import datetime
import random
from dataclasses import dataclass, field

SYSTEM = "keizer"
SERIES = "de-toren"
SERIES_NAME = "Schaakclub De Toren, interne competitie"
SEASON = "2025-2026"
PLAYED = 20
FIRST_EVENING = datetime.date(2025, 9, 4)  # a Thursday
SKIPPED_WEEKS = (16, 17)  # Christmas and New Year
TEAM_MATCH_EVENINGS = (3, 7, 11, 15, 19)  # some members play for the club's teams instead
LATE_ENTRANT_FROM = 8
LATE_START_POINTS = 20
FORFEIT_EVENING = 12

FIRST_NAMES = (
    "Anouk", "Bram", "Daan", "Eva", "Femke", "Gerrit", "Hans", "Ilse", "Jan", "Joost", "Kees",
    "Lars", "Lotte", "Maarten", "Marieke", "Niels", "Pieter", "Rik", "Ruud", "Sanne", "Sjoerd",
    "Thijs", "Tom", "Wim", "Willem", "Yvonne", "Ard", "Bas", "Dirk", "Henk", "Ingrid",
)  # fmt: skip
LAST_NAMES = (
    "de Vries", "Jansen", "de Jong", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder",
    "de Groot", "Bos", "Vos", "Peters", "Hendriks", "van Leeuwen", "Dekker", "Brouwer", "de Wit",
    "Dijkstra", "Smits", "de Graaf", "van der Meer", "van der Linden", "Kok", "Jacobs",
    "de Haan", "Vermeulen", "van den Heuvel", "van der Veen", "van den Berg", "Kuipers",
)  # fmt: skip


@dataclass
class _Member:
    key: str
    name: str
    strength: float  # Elo-like
    keen: float  # chance to come to an evening
    team: bool  # plays in a club team
    colours: list[str] = field(default_factory=list)
    met: dict[str, list[int]] = field(default_factory=dict)
    last_bye: int = -100
    score: float = 0.0


def club_files(seed: int = 2025) -> list[dict]:
    """The competition file of the demo season (one file)."""
    rng = random.Random(seed)
    members = _members(rng)
    late = members[-1]
    rounds = []
    for number in range(1, PLAYED + 2):
        on_list = [m for m in members if m is not late or number >= LATE_ENTRANT_FROM]
        rounds.append(_evening(rng, number, on_list, played=number <= PLAYED))
    players = [{"id": m.key, "name": m.name} for m in members]
    players[-1]["start_points"] = LATE_START_POINTS
    return [
        {
            "format": "competition/1",
            "system": SYSTEM,
            "series": SERIES,
            "season": SEASON,
            "name": f"{SERIES_NAME} {SEASON}",
            "players": players,
            "rounds": rounds,
            "closed": False,
        }
    ]


def _members(rng: random.Random) -> list[_Member]:
    names: set[str] = set()
    members = []
    for n in range(1, 31):
        name = ""
        while not name or name in names:
            name = f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
        names.add(name)
        members.append(
            _Member(
                key=f"p{n}",
                name=name,
                strength=rng.gauss(1700, 220),
                keen=0.65 + 0.3 * rng.random(),
                team=rng.random() < 0.3,
            )
        )
    # The initial list is ordered by playing strength; the late entrant comes last.
    members.sort(key=lambda m: -m.strength)
    for n, member in enumerate(members, start=1):
        member.key = f"p{n}"
    members[-1].keen = 0.9
    return members


def _evening(rng: random.Random, number: int, members: list[_Member], *, played: bool) -> dict:
    week = number - 1 + (len(SKIPPED_WEEKS) if number > SKIPPED_WEEKS[0] else 0)
    date = FIRST_EVENING + datetime.timedelta(weeks=week)
    evening: dict = {"number": number, "date": date.isoformat()}
    present, absent, external, unexcused = [], [], [], []
    for member in members:
        if number in TEAM_MATCH_EVENINGS and member.team and rng.random() < 0.8:
            external.append(member)
        elif rng.random() < member.keen:
            present.append(member)
        elif rng.random() < 0.85:
            absent.append(member)
        else:
            unexcused.append(member)
    order = sorted(present, key=lambda m: (-m.score, int(m.key[1:])))
    volunteer = None
    if len(order) % 2 and rng.random() < 0.25:
        volunteer = rng.choice(order[len(order) // 2 :])
    evening["games"] = []
    evening["bye"] = []
    if played:
        bye, pairs = _pair(order, number, volunteer)
        for board, (white, black) in enumerate(pairs, start=1):
            result = _result(rng, white, black, forfeit=number == FORFEIT_EVENING and board == 3)
            evening["games"].append({"white": white.key, "black": black.key, "result": result})
            _record(white, black, number, result)
        if bye is not None:
            bye.last_bye = number
            bye.score += 2 / 3
            evening["bye"] = [bye.key]
    evening["absent"] = [m.key for m in absent]
    evening["external"] = [m.key for m in external]
    evening["unexcused"] = [m.key for m in unexcused]
    evening["present"] = [m.key for m in order]
    if volunteer is not None:
        evening["volunteer"] = volunteer.key
    return evening


def _pair(order: list[_Member], number: int, volunteer: _Member | None):
    """Bye bottom-up (or to the volunteer), then top-down without rematches in 7 evenings."""
    rest = list(order)
    bye = None
    if len(rest) % 2:
        bye = volunteer or next((m for m in reversed(rest) if number - m.last_bye > 7), rest[-1])
        rest.remove(bye)
    for gap in (7, 3, 1, 0):
        pairs = _top_down(rest, number, gap)
        if pairs is not None:
            return bye, [_colours(a, b) for a, b in pairs]
    raise AssertionError("the demo field cannot be paired")  # pragma: no cover


def _top_down(rest: list[_Member], number: int, gap: int):
    if not rest:
        return []
    first, others = rest[0], rest[1:]
    for i, other in enumerate(others):
        if any(number - r <= gap for r in first.met.get(other.key, [])):
            continue
        below = _top_down(others[:i] + others[i + 1 :], number, gap)
        if below is not None:
            return [(first, other), *below]
    return None


def _colours(a: _Member, b: _Member) -> tuple[_Member, _Member]:
    def balance(m: _Member) -> int:
        return m.colours.count("w") - m.colours.count("b")

    if balance(a) != balance(b):
        return (a, b) if balance(a) < balance(b) else (b, a)
    return (b, a) if a.colours[-1:] == ["w"] else (a, b)


def _result(rng: random.Random, white: _Member, black: _Member, *, forfeit: bool) -> str:
    if forfeit:
        return "+-"
    expected = 1 / (1 + 10 ** ((black.strength - white.strength - 35) / 400))
    draw = 0.22
    roll = rng.random()
    if roll < draw:
        return "1/2-1/2"
    return "1-0" if (roll - draw) / (1 - draw) < expected else "0-1"


def _record(white: _Member, black: _Member, number: int, result: str) -> None:
    white.colours.append("w")
    black.colours.append("b")
    white.met.setdefault(black.key, []).append(number)
    black.met.setdefault(white.key, []).append(number)
    points = {"1-0": (1, 0), "0-1": (0, 1), "1/2-1/2": (0.5, 0.5), "+-": (1, 0)}[result]
    white.score += points[0]
    black.score += points[1]
