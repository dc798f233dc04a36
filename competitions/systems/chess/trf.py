"""FIDE Tournament Report File (TRF16) of one chess group: the line layout, written and read.

Pure functions without Django. `write` takes a group that is already ranked (places and points
come from the rankings engine); `parse` reads the player section back, which is enough to import
a group played elsewhere: players (start number, name, rating, birth year) and every round's
opponent, colour and result.

Player line ("001"), columns 1-based as the TRF16 specification numbers them:
  1-3 "001", 5-8 start rank, 10 sex, 11-13 title, 15-47 name, 49-52 rating, 54-56 federation,
  58-68 FIDE id, 70-79 birth date, 81-84 points, 86-89 rank, then per round r (from 0) at
  92+10r..95+10r the opponent's start rank (0000 none), 97+10r colour (w, b, -), 99+10r result.

Tie-break list: TRF16 has no record for it; TRF-2026 (as FIDE TEC's TieBreakServer reads it) has
"202" (the tie-breaks after points, in order) and "212" (the whole order, points included as
"PTS"). `write` puts a group's list in a 202 record; `parse` reads either record (a TRF16 reader
passes over both).

Group format (chess-othello-options.md §1.1 `group_format`): TRF16's "092" is the type of
tournament in free text, for people; TRF-2026 adds "192", the encoded type of tournament, one code
of FIDE's table ("CUSTOM_SWISS", "CUSTOM_ROUNDROBIN", "FIDE_DUTCH_2025", "BERGER_ROUNDROBIN", ...).
`write` puts a group's set format in a 192 record (Monrad: CUSTOM_SWISS, round robin:
CUSTOM_ROUNDROBIN; automatic: none) and says it in 092; `parse` reads 192 (`format_of` tells what
it is) and passes over 092.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .tiebreak_codes import MONRAD, ROUND_ROBIN

# Result codes of TRF16 that a chess group uses.
WIN, DRAW, LOSS = "1", "=", "0"
FORFEIT_WIN, FORFEIT_LOSS = "+", "-"
PAIRING_BYE = "U"  # pairing-allocated bye: the Norwegian WO
ABSENT = "Z"  # zero-point bye: the round was not played
HALF_BYE = "H"  # half-point bye: requested, scores a draw
NOT_YET = " "  # paired, result not entered yet
UNRATED = {"W": WIN, "D": DRAW, "L": LOSS}
FULL_BYE = "F"
TIEBREAKS, STANDINGS_ORDER, POINTS = "202", "212", "PTS"  # TRF-2026 records (module docstring)
TOURNAMENT_TYPE = "192"  # TRF-2026: the encoded type of tournament (module docstring)
# 192 codes a group's format is written as (FIDE's table has no Monrad code: a Swiss of its own)
FORMAT_CODES = {MONRAD: "CUSTOM_SWISS", ROUND_ROBIN: "CUSTOM_ROUNDROBIN"}
TYPE_TEXTS = {MONRAD: "Individual: Monrad", ROUND_ROBIN: "Individual: Round robin"}

NAME_WIDTH = 33
LINE_RE = re.compile(r"^001 ")
NUMBER_DIGITS = 9  # no number of a TRF file is longer (its columns hold at most 11 characters)
NEWLINE_RE = re.compile(r"\r\n|\r|\n")  # CRLF, CR and LF all end a line


@dataclass
class TrfGame:
    opponent: int  # start rank, 0 for none
    colour: str  # "w", "b" or "-"
    result: str  # one of the codes above


@dataclass
class TrfPlayer:
    start: int
    name: str
    rating: int | None = None
    born: int | None = None
    points: str = "0"  # as written: "3.5"
    rank: int | None = None
    games: list[TrfGame] = field(default_factory=list)
    line: int = field(default=0, compare=False)  # where it was read, 0 when written


@dataclass
class TrfGroup:
    name: str
    date: str | None = None  # YYYY/MM/DD
    rounds: int = 0
    players: list[TrfPlayer] = field(default_factory=list)
    round_dates: list[str] = field(default_factory=list)  # YY/MM/DD
    # Extra lines (e.g. a points system other than 1-½-0), written after the players.
    extra: list[str] = field(default_factory=list)
    rounds_line: int = field(default=0, compare=False)  # the XXR line read, 0 without one
    # The tie-break codes after points, in order (record 202); empty: none written or read.
    tiebreaks: list[str] = field(default_factory=list)
    # Where the list was read: (line, record "202" or "212"); (0, "") without one.
    tiebreaks_record: tuple[int, str] = field(default=(0, ""), compare=False)
    # The group's format (tiebreak_codes.MONRAD or ROUND_ROBIN) for a 192 record; "" for none.
    group_format: str = ""
    # The 192 record read: (line, its code as written); (0, "") without one.
    type_record: tuple[int, str] = field(default=(0, ""), compare=False)


class TrfError(ValueError):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


def _clean(value: str) -> str:
    return re.sub(r"[\x00-\x1f\x7f]", " ", value)


def points_text(value: float) -> str:
    """Points as TRF writes them ("3.5", "12.0") in four columns."""
    text = f"{value:.1f}"
    return text if len(text) <= 4 else str(round(value))


def player_line(player: TrfPlayer) -> str:
    name = _clean(player.name)[:NAME_WIDTH]
    born = f"{player.born:04d}/00/00" if player.born else ""
    rating = str(player.rating) if player.rating else ""
    line = (
        f"001 {player.start:>4} {'':1}{'':>3} {name:<{NAME_WIDTH}} {rating:>4} {'':<3} "
        f"{'':>11} {born:<10} {player.points:>4} "
        f"{'' if player.rank is None else player.rank:>4}"
    )
    for game in player.games:
        opponent = f"{game.opponent:04d}" if game.opponent == 0 else str(game.opponent)
        line += f"  {opponent:>4} {game.colour} {game.result}"
    return line


def write(group: TrfGroup) -> str:
    lines = [f"012 {_clean(group.name)}"]
    if group.date:
        lines += [f"042 {group.date}", f"052 {group.date}"]
    lines += [
        f"062 {len(group.players)}",
        f"072 {sum(1 for p in group.players if p.rating)}",
        f"092 {TYPE_TEXTS.get(group.group_format, TYPE_TEXTS[MONRAD])}",
    ]
    if group.group_format in FORMAT_CODES:
        lines.append(f"{TOURNAMENT_TYPE} {FORMAT_CODES[group.group_format]}")
    if group.tiebreaks:
        lines.append(f"{TIEBREAKS} {' '.join(_clean(c) for c in group.tiebreaks)}")
    if group.round_dates:
        lines.append("132" + " " * 88 + "  ".join(group.round_dates))
    lines += [player_line(p) for p in group.players]
    lines.append(f"XXR {group.rounds}")
    lines += group.extra
    return "\n".join(lines) + "\n"


def _int(text: str, line: int, what: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not text.isascii() or not text.isdigit():
        raise TrfError(line, f"{what}: {text[:20]!r} is not a number")
    if len(text) > NUMBER_DIGITS:
        raise TrfError(line, f"{what}: {text[:20]}… is too large")
    return int(text)


def parse(text: str) -> TrfGroup:
    """The group of a TRF16 file: its name, rounds and player lines (other lines are ignored)."""
    group = TrfGroup(name="")
    starts: set[int] = set()
    for number, line in enumerate(NEWLINE_RE.split(text), start=1):
        if line.startswith("012 "):
            group.name = line[4:].strip()
        elif line.startswith("042 "):
            group.date = line[4:].strip() or None
        elif line[:4] in (TIEBREAKS + " ", STANDINGS_ORDER + " "):
            group.tiebreaks = line[4:].replace(",", " ").split()
            group.tiebreaks_record = (number, line[:3])
        elif line.startswith(TOURNAMENT_TYPE + " "):
            group.type_record = (number, line[4:].strip())
        elif line.startswith("XXR "):
            group.rounds = _int(line[4:], number, "XXR") or 0
            group.rounds_line = number
        elif LINE_RE.match(line):
            player = _player(line, number)
            if player.start in starts:
                raise TrfError(number, f"start rank {player.start} appears twice")
            starts.add(player.start)
            group.players.append(player)
    group.rounds = max([group.rounds, *(len(p.games) for p in group.players)])
    group.players.sort(key=lambda p: p.start)
    return group


def format_of(code: str) -> str | None:
    """The group format a 192 code names: ROUND_ROBIN for a round robin (Berger, FIDE's,
    custom; single or double), MONRAD for a Swiss of one player a board (FIDE's Dutch, Dubov,
    Burstein, custom; accelerated or not); None for what a group cannot be (a team event, a
    knockout, Schiller, Scheveningen, a code not in FIDE's table)."""
    code = code.strip().upper()
    if not re.fullmatch(r"[A-Z0-9_]+", code) or "TEAM" in code:
        return None
    if re.fullmatch(r"(BERGER|FIDE|CUSTOM)_(DOUBLE)?ROUNDROBIN(_G\d+)?", code):
        return ROUND_ROBIN
    if re.fullmatch(
        r"(FIDE_(DUTCH|DUBOV|BURSTEIN|DOUBLESWISS)(_\d{4})?|CUSTOM_(DOUBLE)?SWISS)(_BAKU)?", code
    ):
        return MONRAD
    return None


def _player(line: str, number: int) -> TrfPlayer:
    padded = line.ljust(89)
    start = _int(padded[4:8], number, "start rank")
    if not start:
        raise TrfError(number, "a player line without a start rank")
    born_text = padded[69:79].strip()
    born = _int(born_text[:4], number, "birth date") if born_text[:4].strip() else None
    player = TrfPlayer(
        start=start,
        name=padded[14:47].strip(),
        rating=_int(padded[48:52], number, "rating") or None,
        born=born or None,
        points=padded[80:84].strip() or "0",
        rank=_int(padded[85:89], number, "rank"),
        line=number,
    )
    rest = line[89:]
    r = 0
    while len(rest) > 10 * r + 2:
        chunk = rest[10 * r : 10 * r + 10].ljust(10)
        if chunk.strip():
            opponent = _int(chunk[2:6], number, f"round {r + 1} opponent") or 0
            colour = chunk[7].lower() if chunk[7] != " " else "-"
            result = chunk[9].upper()
            if colour not in ("w", "b", "-"):
                raise TrfError(number, f"round {r + 1}: unknown colour {chunk[7]!r}")
            player.games.append(TrfGame(opponent, colour, result))
        else:
            player.games.append(TrfGame(0, "-", ABSENT))
        r += 1
    return player
