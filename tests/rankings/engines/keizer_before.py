"""Keizer club competition engine (rules.md §4.1–4.2): values, fading start points, scores and
the ranking list after every round, and the breakdown of every score.

Pure functions of their arguments, exact arithmetic (integers and Fractions): recomputing gives
the same lists every time, whatever order the rounds were entered in.

Decisions where rules.md §4 is silent (the help page says the same):

- A forfeit win (`+-` for white, `-+` for black) scores a win against the opponent's value; a
  forfeit loss scores nothing.
- A player without an entry in a round (not registered yet, e.g. a late entrant before he joined)
  scores nothing in it, like an absence without notice.
- The lists count the rounds 1, 2, ... up to the first round that is not complete: a round is
  complete once its pairing is made (nobody is merely "present") and every game has a result;
  an evening with nothing entered does not count.
- A late entrant is on the list from the start, at the place his start points give him.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

from rankings.engines.common import round_half_up

__all__ = [
    "BreakdownLine",
    "Factors",
    "GameIn",
    "ListOut",
    "ListRow",
    "Outcome",
    "RoundIn",
    "SeasonIn",
    "SeasonOut",
    "Settings",
    "compute_season",
    "counted_rounds",
    "default_start_points",
    "outcome_points",
    "round_complete",
    "round_outcomes",
    "score_breakdown",
    "start_weight",
    "top_value",
    "values",
]

# What a player did in a round (rules.md §4.2's table, plus forfeits and "no entry").
WIN, DRAW, LOSS = "win", "draw", "loss"
FORFEIT_WIN, FORFEIT_LOSS = "forfeit-win", "forfeit-loss"
BYE, ABSENT, EXTERNAL, UNEXCUSED = "bye", "absent", "external", "unexcused"
NO_ENTRY = "none"
PENDING = "pending"  # paired, result not entered yet; such a round is not counted

# Game results (interchange.md): white's outcome, black's outcome.
RESULTS: dict[str, tuple[str, str]] = {
    "1-0": (WIN, LOSS),
    "0-1": (LOSS, WIN),
    "1/2-1/2": (DRAW, DRAW),
    "+-": (FORFEIT_WIN, FORFEIT_LOSS),
    "-+": (FORFEIT_LOSS, FORFEIT_WIN),
}
# Outcomes valued with the opponent's value; the others with the player's own.
AGAINST_OPPONENT = frozenset({WIN, DRAW, LOSS, FORFEIT_WIN, FORFEIT_LOSS})
PLAYED = frozenset({WIN, DRAW, LOSS})


# --- inputs -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Factors:
    """rules.md §4.2: the share of a value each result scores (settings; these are the defaults)."""

    win: Fraction = Fraction(1)
    draw: Fraction = Fraction(1, 2)
    loss: Fraction = Fraction(1, 6)
    bye: Fraction = Fraction(2, 3)
    absent: Fraction = Fraction(1, 2)
    external: Fraction = Fraction(2, 3)
    unexcused: Fraction = Fraction(0)

    def of(self, kind: str) -> Fraction:
        """The factor of an outcome; a forfeit win is a win, a forfeit loss scores nothing."""
        return {
            WIN: self.win,
            FORFEIT_WIN: self.win,
            DRAW: self.draw,
            LOSS: self.loss,
            BYE: self.bye,
            ABSENT: self.absent,
            EXTERNAL: self.external,
            UNEXCUSED: self.unexcused,
        }.get(kind, Fraction(0))


@dataclass(frozen=True)
class Settings:
    top_value: int | None = None  # None: round_half_up(3 · step · (n − 1) / 2)
    step: int = 1
    start_fade_rounds: int = 10
    factors: Factors = field(default_factory=Factors)


@dataclass(frozen=True, slots=True)
class GameIn:
    white: str
    black: str
    result: str = ""  # "" while not played


@dataclass(frozen=True, slots=True)
class RoundIn:
    """A club evening: its games and each player's attendance. `present` lists players who
    registered as present but are not paired yet (the round is waiting for its pairing)."""

    number: int
    games: tuple[GameIn, ...] = ()
    byes: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()
    external: tuple[str, ...] = ()
    unexcused: tuple[str, ...] = ()
    present: tuple[str, ...] = ()


@dataclass(frozen=True)
class SeasonIn:
    players: tuple[str, ...]  # the initial list, strongest first
    start_points: Mapping[str, Fraction]  # set by hand; the others get their default
    rounds: tuple[RoundIn, ...]  # in number order
    settings: Settings = field(default_factory=Settings)
    closed: bool = False


@dataclass(frozen=True, slots=True)
class Outcome:
    kind: str
    opponent: str | None = None
    colour: str | None = None  # "white" / "black" in a game
    result: str = ""


# --- outputs ------------------------------------------------------------------------------------


@dataclass(slots=True)
class ListRow:
    """A line of a list; score and key are exact. Not frozen: a season makes a line per player
    per round (2,100 for 60 players over 35 evenings), and a frozen dataclass takes three times
    as long to make (its fields are set through object.__setattr__)."""

    player: str
    rank: int
    value: int
    start_points: Fraction
    games: int  # games played over the board so far (forfeits not counted)
    score: Fraction
    key: Fraction


@dataclass(frozen=True, slots=True)
class ListOut:
    """The ranking list after round `after` (0: the initial list)."""

    after: int
    top: int
    weight: Fraction  # of the start points in this list
    rows: tuple[ListRow, ...]

    def values(self) -> dict[str, int]:
        return {row.player: row.value for row in self.rows}


@dataclass(frozen=True)
class SeasonOut:
    lists: tuple[ListOut, ...]  # lists[k] is the list after round k
    start_points: dict[str, Fraction]
    counted: tuple[RoundIn, ...] = ()  # the rounds the lists are made of

    @cached_property
    def outcomes(self) -> tuple[dict[str, Outcome], ...]:
        """outcomes[k - 1]: what everybody did in round k."""
        return tuple(round_outcomes(r) for r in self.counted)


@dataclass(frozen=True)
class BreakdownLine:
    round: int
    outcome: Outcome
    value: int | None  # the value the result is worth a share of (None: scores nothing)
    valued: str | None  # whose value: the opponent's or the player's own
    factor: Fraction
    points: Fraction


# --- §4.1: values and start points ---------------------------------------------------------------


def top_value(n: int, settings: Settings) -> int:
    """rules.md §4.1: T = round_half_up(3 · (n − 1) / 2), about three times the bottom value;
    with a step s the same ratio gives 3 · s · (n − 1) / 2. A top value set by hand wins."""
    if settings.top_value:
        return settings.top_value
    return round_half_up(Fraction(3 * settings.step * max(n - 1, 0), 2))


def values(n: int, settings: Settings) -> list[int]:
    """rules.md §4.1: the value of each place 1..n on a list of n players, V(i) = T − s·(i − 1)."""
    top = top_value(n, settings)
    return [top - settings.step * i for i in range(n)]


def start_weight(k: int, fade_rounds: int) -> Fraction:
    """rules.md §4.1: the start points weigh max(0, 1 − k / fade_rounds) after round k."""
    return max(Fraction(0), 1 - Fraction(k, fade_rounds))


def default_start_points(season: SeasonIn) -> dict[str, Fraction]:
    """rules.md §4.1: each player's start points, by default the value of their place in the
    initial list."""
    place_values = values(len(season.players), season.settings)
    return {
        player: Fraction(season.start_points[player])
        if season.start_points.get(player) is not None
        else Fraction(place_values[i])
        for i, player in enumerate(season.players)
    }


# --- §4.2: what each player did in a round, and what it scores ----------------------------------


def round_complete(round_in: RoundIn) -> bool:
    """A round counts once it is paired (nobody merely present) and every game has a result;
    an evening with nothing entered yet does not count."""
    entered = (
        round_in.games or round_in.byes or round_in.absent or round_in.external
    ) or round_in.unexcused
    return (
        bool(entered)
        and not round_in.present
        and all(game.result in RESULTS for game in round_in.games)
    )


def counted_rounds(rounds: Sequence[RoundIn]) -> list[RoundIn]:
    """The rounds the lists are made of: 1, 2, ... up to the first incomplete one."""
    counted = []
    for round_in in rounds:
        if not round_complete(round_in):
            break
        counted.append(round_in)
    return counted


def _listed(round_in: RoundIn) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The round's players without a game, by what they did (a later kind wins a player)."""
    return (
        (BYE, round_in.byes),
        (ABSENT, round_in.absent),
        (EXTERNAL, round_in.external),
        (UNEXCUSED, round_in.unexcused),
        (PENDING, round_in.present),
    )


def round_outcomes(round_in: RoundIn) -> dict[str, Outcome]:
    """What every player with an entry did in the round (rules.md §4.2's table)."""
    outcomes: dict[str, Outcome] = {}
    for game in round_in.games:
        white, black = RESULTS.get(game.result, (PENDING, PENDING))
        outcomes[game.white] = Outcome(white, game.black, "white", game.result)
        outcomes[game.black] = Outcome(black, game.white, "black", game.result)
    for kind, players in _listed(round_in):
        for player in players:
            outcomes[player] = Outcome(kind)
    return outcomes


def outcome_points(outcome: Outcome, own: int, opponent: int | None, factors: Factors) -> Fraction:
    """rules.md §4.2: win 1, draw 1/2, loss 1/6 of the opponent's value; bye 2/3, absent with
    notice 1/2, external 2/3, absent without notice 0 of the player's own value."""
    factor = factors.of(outcome.kind)
    if outcome.kind in AGAINST_OPPONENT:
        return factor * (opponent or 0)
    return factor * own


# --- the lists ----------------------------------------------------------------------------------


def compute_season(season: SeasonIn) -> SeasonOut:
    """rules.md §4.1–4.2: the list after every counted round. The score after round k sums the
    results of rounds 1..k, each valued with the values of the list after round k − 1 (the
    list round k was paired from); the key adds the start points times their weight. A closed
    season's last list gives the start points no weight."""
    players = season.players
    settings = season.settings
    n = len(players)
    initial = {p: i for i, p in enumerate(players)}
    place_values = values(n, settings)
    top = top_value(n, settings)
    start = default_start_points(season)
    rounds = counted_rounds(season.rounds)
    last = len(rounds)
    fade = settings.start_fade_rounds

    factors = settings.factors
    start_list = [start[p] for p in players]

    # Per player (by initial index), the results of the rounds so far grouped by their factor:
    # the indexes of the players whose values they are shares of (n: nobody on the list, value
    # 0). A score is the sum, over the factors, of factor × the sum of those values. One pass
    # over the rounds: round k's results join, then the list after round k is made with the
    # values of the list after round k − 1 (`current`).
    shares: list[dict[Fraction, list[int]]] = [defaultdict(list) for _ in players]
    games = [0] * n  # games played over the board so far, by initial index
    lists: list[ListOut] = []
    current = [0] * (n + 1)  # values by initial index; [n]: nobody, 0
    indexes = range(n)
    scores = [Fraction(0)] * n
    for k in range(last + 1):
        if k:
            for player, outcome in round_outcomes(rounds[k - 1]).items():
                i = initial.get(player)
                if i is None:
                    continue
                factor = factors.of(outcome.kind)
                if factor:
                    basis = outcome.opponent if outcome.kind in AGAINST_OPPONENT else player
                    shares[i][factor].append(initial.get(basis, n))
                if outcome.kind in PLAYED:
                    games[i] += 1
            value_of = current.__getitem__
            scores = [
                sum(
                    (factor * sum(map(value_of, bases)) for factor, bases in shares[i].items()),
                    Fraction(0),
                )
                for i in indexes
            ]
        weight = Fraction(0) if season.closed and k == last else start_weight(k, fade)
        keys = [scores[i] + weight * start_list[i] for i in indexes]
        # §4.1: best key first; ties: the initial order (a stable sort keeps it)
        order = sorted(indexes, key=keys.__getitem__, reverse=True)
        rows = tuple(
            ListRow(
                players[i], place + 1, place_values[place], start_list[i], games[i], scores[i],
                keys[i],
            )
            for place, i in enumerate(order)
        )  # fmt: skip
        lists.append(ListOut(after=k, top=top, weight=weight, rows=rows))
        current = [0] * (n + 1)
        for place, i in enumerate(order):
            current[i] = place_values[place]
    return SeasonOut(lists=tuple(lists), start_points=start, counted=tuple(rounds))


def score_breakdown(
    player: str,
    outcomes: Iterable[tuple[int, Outcome]],
    values_before: Mapping[str, int],
    factors: Factors,
) -> list[BreakdownLine]:
    """Every number explains itself: the lines of a player's score after round k — per round
    1..k the result, the value it is a share of (in the list after round k − 1), the factor and
    the points. Their sum is the score (rules.md §4.2)."""
    lines = []
    own = values_before.get(player, 0)
    for number, outcome in outcomes:
        factor = factors.of(outcome.kind)
        if outcome.kind in AGAINST_OPPONENT:
            value, valued = values_before.get(outcome.opponent or "", 0), "opponent"
        elif outcome.kind in (BYE, ABSENT, EXTERNAL, UNEXCUSED):
            value, valued = own, "own"
        else:
            value, valued = None, None
        points = factor * value if value is not None else Fraction(0)
        lines.append(BreakdownLine(number, outcome, value, valued, factor, points))
    return lines
