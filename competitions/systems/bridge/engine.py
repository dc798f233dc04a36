"""Bridge pool ladder engine (rules.md §5): Elo from virtual duels, pool standings, promotion and
relegation, and the pools of the next round.

Pure functions of their arguments: no I/O, no clock, no randomness, so recomputing gives the same
result every time.

Precision ("keep full precision", rules.md §5). 10 ** (x / 400) is irrational, so a rating cannot
be an exact fraction. Ratings are decimals with PLACES decimal places, carried exactly from
challenge to challenge: an expected score is computed with PRECISION significant digits and rounded
to PLACES decimal places (half even), and the other side of the duel gets exactly 1 - E. So the two
expectations of a duel sum to exactly 1, K * (score - expectation) is exact, and with one K the
changes within a pool sum to exactly zero. Whole numbers are for display only and are rounded half
up from the exact decimal, never from a float.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Context, Decimal, localcontext
from typing import NamedTuple

__all__ = [
    "PLACES",
    "ChallengeLine",
    "Duel",
    "EloRow",
    "LadderIn",
    "LadderOut",
    "PlayedChallenge",
    "PoolOut",
    "PoolRow",
    "RoundIn",
    "RoundOut",
    "Settings",
    "challenge_changes",
    "duel_score",
    "elo_ranking",
    "exact_sum",
    "exchange_counts",
    "expected_score",
    "iter_rounds",
    "k_factor",
    "next_pools",
    "pool_moves",
    "pool_standings",
    "reshape_pools",
    "run_ladder",
    "shown",
    "units_of",
]

PLACES = 30
PRECISION = 50
QUANTUM = Decimal(1).scaleb(-PLACES)
CONTEXT = Context(prec=PRECISION, rounding=ROUND_HALF_EVEN, Emax=999_999, Emin=-999_999)
with localcontext(CONTEXT):
    LN10 = Decimal(10).ln()
HALF = Decimal("0.5")
QUARTER_PERCENT = Decimal("0.0025")  # 1 / 400
WIN, DRAW, LOSS = Decimal(1), HALF, Decimal(0)
UP, STAY, DOWN = "up", "stay", "down"


# --- inputs -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """The numbers of §5 a club may change, with their defaults."""

    pool_size: int = 5
    start_elo: Decimal = Decimal(1250)
    k: int = 25
    moves: int = 2  # players promoted, and relegated, per pool
    # The optional dynamic K-factor: k_low below k_low_below, k_high above k_high_above, else k.
    dynamic_k: bool = False
    k_low: int = 40
    k_low_below: Decimal = Decimal(1200)
    k_high: int = 15
    k_high_above: Decimal = Decimal(1400)


Pools = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class RoundIn:
    """One round: its pools (pool 1 first, each in listing order) or None when they follow
    from the round before, and per challenge the IMPs of the players who played it."""

    number: int
    pools: Pools | None
    challenges: tuple[Mapping[str, Decimal], ...] = ()


@dataclass(frozen=True)
class LadderIn:
    rounds: tuple[RoundIn, ...]
    start_elo: Mapping[str, Decimal] = field(default_factory=dict)  # else settings.start_elo
    settings: Settings = field(default_factory=Settings)
    # Where the rounds take over when they are not the season's first (an incremental
    # recompute from a later round): every rating after the round before, and the pools its
    # moves give. None: the rounds start the season.
    ratings: Mapping[str, Decimal] | None = None
    follows: Pools | None = None


# --- outputs ----------------------------------------------------------------------------------


class Duel(NamedTuple):  # a named tuple: a season has some 10**5 of them
    """One virtual duel of a challenge, from one player's side."""

    opponent: str
    opponent_elo: Decimal  # before the challenge
    score: Decimal  # 1, 1/2 or 0
    expected: Decimal
    units: int | None = None  # expected, in units of 10**-PLACES


class ChallengeLine:
    """One player's challenge: IMPs (None: did not play), the duels and the Elo change.

    `units`: before, change and after in units of 10**-PLACES (None: the decimal computation
    played it). The integer core makes a line's duels when they are first asked for (a season
    has some 10**5 of them; the standings read them from `duel_rows` without decimals)."""

    __slots__ = (
        "player", "imps", "elo_before", "k", "change", "elo_after", "units", "_played", "_duels",
    )  # fmt: skip

    def __init__(
        self,
        player: str,
        imps: Decimal | None,
        elo_before: Decimal,
        k: int,
        duels: tuple[Duel, ...] | tuple[PlayedChallenge, int],
        change: Decimal,
        elo_after: Decimal,
        units: tuple[int, int, int] | None = None,
    ) -> None:
        self.player, self.imps, self.elo_before, self.k = player, imps, elo_before, k
        self.change, self.elo_after, self.units = change, elo_after, units
        if duels and isinstance(duels[0], PlayedChallenge):
            self._played: tuple[PlayedChallenge, int] | None = duels  # type: ignore[assignment]
            self._duels: tuple[Duel, ...] | None = None
        else:
            self._played, self._duels = None, duels  # type: ignore[assignment]

    @property
    def duels(self) -> tuple[Duel, ...]:  # empty when nobody of the pool played the challenge
        if self._duels is None:
            pool, index = self._played  # type: ignore[misc]
            self._duels = pool.duels(index)
        return self._duels

    @property
    def played(self) -> tuple[PlayedChallenge, int] | None:
        """The integer core's pool challenge and this line's place in it (None: no duels, or
        the decimal computation)."""
        return self._played

    def duel_rows(self) -> list[tuple[str, int | None, Decimal, int | None]]:
        """Each duel as (opponent, his rating before in units, score, expected score in
        units): the duels without their decimals (ratings None on the decimal computation)."""
        if self._played is not None:
            return self._played[0].rows(self._played[1])
        return [(d.opponent, None, d.score, d.units) for d in self.duels]

    def _key(self) -> tuple:
        return (
            self.player, self.imps, self.elo_before, self.k, self.duels, self.change,
            self.elo_after,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ChallengeLine):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return "ChallengeLine({})".format(", ".join(repr(part) for part in self._key()))

    @property
    def score(self) -> Decimal:
        return exact_sum(d.score for d in self.duels)

    @property
    def expected(self) -> Decimal:
        return exact_sum(d.expected for d in self.duels)


class PlayedChallenge:
    """A pool's challenge as the integer core played it, what its lines' duels are made of: per
    player (listing order) the rating before in units of 10**-PLACES, and per pair [i][j] twice
    player i's duel score against j, his expected score in units, and whether the two ratings
    were equal (both then expect HALF)."""

    __slots__ = ("members", "befores", "units", "scores", "expected", "even")

    def __init__(self, members, befores, units, scores, expected, even) -> None:  # noqa: ANN001
        self.members: Sequence[str] = members
        self.befores: list[Decimal] = befores
        self.units: list[int] = units
        self.scores: list[list[int]] = scores
        self.expected: list[list[int]] = expected
        self.even: list[list[bool]] = even

    def rows(self, i: int) -> list[tuple[str, int | None, Decimal, int | None]]:
        members, units, scores, row = self.members, self.units, self.scores[i], self.expected[i]
        return [
            (members[j], units[j], _SCORE_OF_TWICE[scores[j]], row[j])
            for j in range(len(members))
            if j != i
        ]

    def duels(self, i: int) -> tuple[Duel, ...]:
        members, befores, scores, row, even = (
            self.members, self.befores, self.scores[i], self.expected[i], self.even[i]
        )  # fmt: skip
        with localcontext(CONTEXT):
            return tuple(
                Duel(
                    members[j],
                    befores[j],
                    _SCORE_OF_TWICE[scores[j]],
                    HALF if even[j] else Decimal(row[j]).scaleb(-PLACES),
                    row[j],
                )
                for j in range(len(members))
                if j != i
            )


@dataclass(frozen=True)
class PoolRow:
    """A line of a pool's standings after the round."""

    player: str
    rank: int
    imps: Decimal  # total over the challenges, a missed one counting 0
    elo: Decimal  # after the round's last challenge
    move: str  # UP, STAY or DOWN


@dataclass(frozen=True)
class PoolOut:
    number: int
    members: tuple[str, ...]  # listing order
    challenges: tuple[tuple[ChallengeLine, ...], ...]  # per challenge, in listing order
    rows: tuple[PoolRow, ...]  # rank order


@dataclass(frozen=True)
class RoundOut:
    number: int
    pools: tuple[PoolOut, ...]
    # The pools that promotion and relegation of the round before give (None for the first
    # round); they differ from the pools played when a round gives its own.
    follows: Pools | None
    elo_after: tuple[dict[str, Decimal], ...]  # per challenge, every player of the round
    # After the round: every rating so far (players of earlier rounds too), and the pools its
    # moves give. What a recompute from the next round on starts from.
    ratings: Mapping[str, Decimal] = field(default_factory=dict)
    next_pools: Pools = ()

    @property
    def pool_lists(self) -> Pools:
        return tuple(p.members for p in self.pools)


@dataclass(frozen=True)
class EloRow:
    player: str
    rank: int
    elo: Decimal


@dataclass(frozen=True)
class LadderOut:
    rounds: tuple[RoundOut, ...]
    elo: tuple[EloRow, ...]
    next_pools: Pools  # from the moves of the last round


# --- Elo ----------------------------------------------------------------------------------------


def exact_sum(values: Iterable[Decimal]) -> Decimal:
    """A sum of ratings, expectations or IMPs, exact (the module's context never rounds them)."""
    with localcontext(CONTEXT):
        return sum(values, Decimal(0))


# The weaker side's expectation in integer fixed point (FIXED bits), the same number as the
# PRECISION-digit decimal computation quantized to PLACES decimals (both are far more precise
# than the quantum; tests/rankings/engines/test_bridge.py compares them), but some 20 times
# faster: 10 ** (d / 400) = 2 ** (d / 400 * log2 10) = 2 ** n * 2 ** (i / 2**10) *
# 2 ** (j / 2**20) * exp(r ln 2), with r < 2**-20 and a short series. Integer arithmetic
# only, so the same on every machine.
FIXED = 136
_ONE = 1 << FIXED
_TABLE_BITS, _FINE_BITS = 10, 20
with localcontext(Context(prec=80)):
    _SCALE_F = Decimal(2) ** FIXED
    _LOG2_10 = int(Decimal(10).ln() / Decimal(2).ln() * _SCALE_F)
    _LN2 = int(Decimal(2).ln() * _SCALE_F)
    _COARSE = [
        int(Decimal(2) ** (Decimal(i) / (1 << _TABLE_BITS)) * _SCALE_F)
        for i in range(1 << _TABLE_BITS)
    ]
    _FINE = [
        int(Decimal(2) ** (Decimal(j) / (1 << _FINE_BITS)) * _SCALE_F)
        for j in range(1 << (_FINE_BITS - _TABLE_BITS))
    ]
    _SERIES = [int(_SCALE_F / math.factorial(k)) for k in range(6)]
_PER_400 = 400 * 10**PLACES
_NUMERATOR = 10**PLACES << FIXED
_FRACTION = _ONE - 1
_COARSE_SHIFT = FIXED - _TABLE_BITS
_FINE_SHIFT = FIXED - _FINE_BITS
_FINE_MASK = (1 << (_FINE_BITS - _TABLE_BITS)) - 1
_REST_MASK = (1 << _FINE_SHIFT) - 1


def _weaker_units(units: int) -> int:
    """1 / (1 + 10 ** (d / 400)) in units of 10**-PLACES, rounded half even, for the rating
    difference d = units * 10**-PLACES > 0."""
    y = units * _LOG2_10 // _PER_400
    n = y >> FIXED
    f = y & _FRACTION
    t = ((f & _REST_MASK) * _LN2) >> FIXED
    c0, c1, c2, c3, c4, c5 = _SERIES
    s = c4 + (c5 * t >> FIXED)
    s = c3 + (s * t >> FIXED)
    s = c2 + (s * t >> FIXED)
    s = c1 + (s * t >> FIXED)
    s = c0 + (s * t >> FIXED)
    coarse = _COARSE[f >> _COARSE_SHIFT] * _FINE[(f >> _FINE_SHIFT) & _FINE_MASK] >> FIXED
    denominator = _ONE + ((coarse * s >> FIXED) << n)
    q, rest = divmod(_NUMERATOR, denominator)
    twice = rest << 1
    if twice > denominator or (twice == denominator and q & 1):
        q += 1
    return q


def _weaker_decimal(difference: Decimal) -> Decimal:
    """The reference computation: PRECISION significant digits, quantized to PLACES."""
    power = (difference * QUARTER_PERCENT * LN10).exp()
    return (1 / (1 + power)).quantize(QUANTUM)


def _weaker(difference: Decimal) -> Decimal:
    """The weaker side's expectation for a rating difference > 0 (in the module's context)."""
    units = units_of(difference)
    if units is None:  # more decimals than a rating has: the reference
        return _weaker_decimal(difference)
    return Decimal(_weaker_int(units)).scaleb(-PLACES)


def _expected(own: Decimal, opponent: Decimal) -> Decimal:
    """expected_score, in the module's context (the caller's)."""
    difference = opponent - own
    if difference == 0:
        return HALF
    if difference > 0:  # the weaker side is computed; the stronger gets 1 - E exactly
        return _weaker(difference)
    return 1 - _weaker(-difference)


def expected_score(own: Decimal, opponent: Decimal) -> Decimal:
    """rules.md §5: E = 1 / (1 + 10 ** ((R_opp - R_own) / 400)), to PLACES decimals, such that
    the two sides of a duel expect exactly 1 together."""
    with localcontext(CONTEXT):
        return _expected(own, opponent)


def duel_score(own: Decimal | None, opponent: Decimal | None) -> Decimal:
    """rules.md §5: the higher IMP score wins (1), equal scores draw (1/2, a Decision), and a
    player who did not play (None) ranks below everyone who did; two who did not play draw."""
    if own is None and opponent is None:
        return DRAW
    if own is None:
        return LOSS
    if opponent is None:
        return WIN
    if own == opponent:
        return DRAW
    return WIN if own > opponent else LOSS


def k_factor(rating: Decimal, settings: Settings) -> int:
    """rules.md §5: K = 25; with the dynamic K-factor (an option, off by default) K depends on
    the player's own rating before the challenge: k_low below k_low_below, k_high above
    k_high_above, else k."""
    if not settings.dynamic_k:
        return settings.k
    if rating < settings.k_low_below:
        return settings.k_low
    if rating > settings.k_high_above:
        return settings.k_high
    return settings.k


def challenge_changes(
    members: Sequence[str],
    ratings: Mapping[str, Decimal],
    imps: Mapping[str, Decimal],
    settings: Settings,
) -> tuple[ChallengeLine, ...]:
    """rules.md §5: after a challenge every player of the pool duels every other one, with the
    ratings from before the challenge; change = K * (sum of duel scores - sum of E).

    A challenge that nobody of the pool played (no IMPs at all) is not played by the pool: no
    duels, no change (a Decision: otherwise an empty challenge would move ratings)."""
    units = [units_of(ratings[p]) for p in members]
    return _pool_changes(members, ratings, units, imps, settings)


def _pool_changes(
    members: Sequence[str],
    ratings: Mapping[str, Decimal],
    units: list[int | None],
    imps: Mapping[str, Decimal],
    settings: Settings,
) -> tuple[ChallengeLine, ...]:
    """challenge_changes given the members' ratings in units too (None: more than PLACES
    decimals): the integer core, or the decimal computation when a rating needs it."""
    if None in units:
        return _changes_decimal(members, ratings, imps, settings)
    befores = [ratings[p] for p in members]
    return _changes_units(members, befores, units, imps, settings)  # type: ignore[arg-type]


def _changes_decimal(
    members: Sequence[str],
    ratings: Mapping[str, Decimal],
    imps: Mapping[str, Decimal],
    settings: Settings,
) -> tuple[ChallengeLine, ...]:
    """challenge_changes in decimal arithmetic: the reference, and the computation for ratings
    with more than PLACES decimals."""
    played = any(p in imps for p in members)
    expected: dict[tuple[str, str], Decimal] = {}
    lines = []
    with localcontext(CONTEXT):
        if played:
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    e = _expected(ratings[a], ratings[b])
                    expected[(a, b)], expected[(b, a)] = e, 1 - e  # exactly 1 together
        for player in members:
            before = ratings[player]
            k = k_factor(before, settings)
            duels: tuple[Duel, ...] = ()
            change = Decimal(0)
            if played:
                own = imps.get(player)
                duels = tuple(
                    Duel(  # opponent, his rating before, score, expected score
                        other,
                        ratings[other],
                        duel_score(own, imps.get(other)),
                        expected[(player, other)],
                        units_of(expected[(player, other)]),
                    )
                    for other in members
                    if other != player
                )
                change = k * (
                    sum([d[2] for d in duels], Decimal(0)) - sum([d[3] for d in duels], Decimal(0))
                )
            lines.append(
                ChallengeLine(
                    player=player,
                    imps=imps.get(player),
                    elo_before=before,
                    k=k,
                    duels=duels,
                    change=change,
                    elo_after=before + change,
                )
            )
    return tuple(lines)


# --- the integer core: ratings in units of 10**-PLACES ---------------------------------------
# A season's ratings all have at most PLACES decimals (start ratings are whole or short
# decimals; a change is K times a difference of such numbers), so the engine plays them as
# integers of 10**-PLACES and makes the decimals of its output from those integers: the same
# numbers, written the same way (coefficient and exponent), as the decimal computation
# (_changes_decimal, which plays any rating with more decimals). tests/rankings/engines/
# test_bridge.py compares the two.

_UNIT = 10**PLACES
_HALF_UNITS = _UNIT // 2
_TENTH_UNITS = _UNIT // 10
_MAX_UNITS = 10**40  # beyond: the decimal computation
_WEAKER_UNITS: dict[int, int] = {}
_ZERO = Decimal(0)
_SCORE_OF_TWICE = (LOSS, DRAW, WIN)


def units_of(value: Decimal) -> int | None:
    """value in units of 10**-PLACES, or None when it has more decimals (or is very large, or
    not a finite number: the decimal computation takes those as it always did)."""
    if not value.is_finite():
        return None
    with localcontext(CONTEXT):
        scaled = value.scaleb(PLACES)
    units = int(scaled)
    if units != scaled or abs(units) > _MAX_UNITS:
        return None
    return units


def _weaker_int(units: int) -> int:
    found = _WEAKER_UNITS.get(units)
    if found is None:
        found = _weaker_units(units)
        if len(_WEAKER_UNITS) > 100_000:
            _WEAKER_UNITS.clear()
        _WEAKER_UNITS[units] = found
    return found


def _changes_units(
    members: Sequence[str],
    befores: list[Decimal],
    units: list[int],
    imps: Mapping[str, Decimal],
    settings: Settings,
) -> tuple[ChallengeLine, ...]:
    """challenge_changes of a pool whose ratings before are all `units` (none None)."""
    n = len(members)
    ks = [k_factor(b, settings) for b in befores] if settings.dynamic_k else [settings.k] * n
    own = [imps.get(p) for p in members]
    lines = []
    with localcontext(CONTEXT):
        if not any(p in imps for p in members):
            for i, player in enumerate(members):
                before = befores[i]
                lines.append(
                    ChallengeLine(
                        player, own[i], before, ks[i], (), _ZERO, before + _ZERO,
                        (units[i], 0, units[i]),
                    )
                )  # fmt: skip
            return tuple(lines)
        # per pair: twice each side's duel score, each side's expected score in units, and
        # whether the two ratings were equal (both sides then expect HALF, which the decimal
        # sum writes with one decimal); the diagonal holds a draw, HALF and True
        scores: list[list[int]] = [[1] * n for _ in range(n)]
        expected: list[list[int]] = [[_HALF_UNITS] * n for _ in range(n)]
        even: list[list[bool]] = [[True] * n for _ in range(n)]
        for i in range(n):
            mine, imps_i, row, row_even, row_scores = (
                units[i], own[i], expected[i], even[i], scores[i]
            )  # fmt: skip
            for j in range(i + 1, n):
                other = own[j]
                if imps_i is None:  # duel_score, inline (the season's innermost loop)
                    twice = 1 if other is None else 0
                elif other is None:
                    twice = 2
                elif imps_i == other:
                    twice = 1
                else:
                    twice = 2 if imps_i > other else 0
                row_scores[j], scores[j][i] = twice, 2 - twice
                difference = units[j] - mine
                if difference == 0:
                    continue
                row_even[j] = even[j][i] = False
                if difference > 0:  # i is the weaker side; the stronger gets 1 - E exactly
                    weak = _weaker_int(difference)
                else:
                    weak = _UNIT - _weaker_int(-difference)
                row[j], expected[j][i] = weak, _UNIT - weak
        played = PlayedChallenge(members, befores, units, scores, expected, even)
        for i, player in enumerate(members):
            k, before = ks[i], befores[i]
            if n == 1:  # a pool of one: k * (0 - 0), as the decimal computation writes it
                change_units, change = 0, k * (_ZERO - _ZERO)
            else:  # less the diagonal
                twice = sum(scores[i]) - 1
                change_units = k * (twice * _HALF_UNITS - (sum(expected[i]) - _HALF_UNITS))
                if all(even[i]):  # every expectation HALF: the decimal sum has one decimal
                    change = Decimal(change_units // _TENTH_UNITS).scaleb(-1)
                else:
                    change = Decimal(change_units).scaleb(-PLACES)
            lines.append(
                ChallengeLine(
                    player, own[i], before, k, (played, i) if n > 1 else (), change,
                    before + change, (units[i], change_units, units[i] + change_units),
                )
            )  # fmt: skip
    return tuple(lines)


# --- pools --------------------------------------------------------------------------------------


def pool_standings(
    members: Sequence[str],
    challenges: Sequence[Mapping[str, Decimal]],
    elo: Mapping[str, Decimal],
) -> list[tuple[int, str, Decimal]]:
    """rules.md §5: a pool's standings after the round: total IMPs over the challenges (a missed
    challenge counts 0), ties broken by the higher Elo after the last challenge. Players equal on
    both share the rank; among them the one listed first in the pool comes first (a Decision,
    for who moves when such a tie sits on a promotion or relegation place).

    Returns (rank, player, total IMPs) in rank order."""
    totals = {p: exact_sum(c.get(p, Decimal(0)) for c in challenges) for p in members}
    with localcontext(CONTEXT):  # negation rounds to the context's precision
        ordered = sorted(
            enumerate(members), key=lambda item: (-totals[item[1]], -elo[item[1]], item[0])
        )
    result: list[tuple[int, str, Decimal]] = []
    for i, (_listed, player) in enumerate(ordered):
        key = (totals[player], elo[player])
        previous = result[-1] if result else None
        if previous is not None and (totals[previous[1]], elo[previous[1]]) == key:
            rank = previous[0]
        else:
            rank = i + 1
        result.append((rank, player, totals[player]))
    return result


def exchange_counts(sizes: Sequence[int], moves: int) -> list[int]:
    """rules.md §5: how many players pools k and k + 1 exchange: `moves` (the top 2 move up one
    pool, the bottom 2 down), but never more than the upper pool can send and the lower pool can
    give (a Decision for small pools): the top pool and the last pool, which have one
    neighbour, can send all their players; any other pool at most half, so nobody both moves up
    and down. With pools of 4 or more this is always `moves`. Pool sizes are kept."""

    def room(k: int, edge: bool) -> int:
        return sizes[k] if edge else sizes[k] // 2

    last = len(sizes) - 1
    return [min(moves, room(k, k == 0), room(k + 1, k + 1 == last)) for k in range(len(sizes) - 1)]


def pool_moves(sizes: Sequence[int], moves: int) -> list[list[str]]:
    """rules.md §5: the move of each place of each pool (rank order): UP, STAY or DOWN. Pool 1's
    top and the last pool's bottom stay where they are."""
    exchange = exchange_counts(sizes, moves)
    marks = []
    for k, size in enumerate(sizes):
        up = exchange[k - 1] if k > 0 else 0
        down = exchange[k] if k < len(sizes) - 1 else 0
        marks.append([UP if i < up else DOWN if i >= size - down else STAY for i in range(size)])
    return marks


def next_pools(ranked: Sequence[Sequence[str]], moves: int) -> Pools:
    """rules.md §5: the next round's pools from promotion and relegation. Each pool lists its
    players in ladder order (a Decision): first those relegated from the pool above, then those
    who stay, then those promoted from the pool below, each group in rank order."""
    marks = pool_moves([len(pool) for pool in ranked], moves)
    result = []
    for k, pool in enumerate(ranked):
        from_above = (
            [p for p, m in zip(ranked[k - 1], marks[k - 1], strict=True) if m == DOWN]
            if k > 0
            else []
        )
        staying = [p for p, m in zip(pool, marks[k], strict=True) if m == STAY]
        from_below = (
            [p for p, m in zip(ranked[k + 1], marks[k + 1], strict=True) if m == UP]
            if k < len(ranked) - 1
            else []
        )
        result.append(tuple(from_above + staying + from_below))
    return tuple(result)


def reshape_pools(
    pools: Sequence[Sequence[str]],
    *,
    leaving: Collection[str] = (),
    joining: Sequence[str] = (),
    pool_size: int,
) -> Pools:
    """Leavers and late joiners when the next round starts (a Decision; rules.md §5 is silent).

    A leaver's place is filled from the pool below: the ladder closes up, so the first player
    (in ladder order) of each pool below the leaver moves up one pool, and the last pool gets
    smaller (and goes when empty). Joiners enter at the bottom, in the order given: they fill
    the last pool up to the pool size, then make new pools."""
    kept = [p for pool in pools for p in pool if p not in set(leaving)]
    ladder = kept + [p for p in joining if p not in set(kept)]
    sizes = [len(pool) for pool in pools]
    if sizes:
        sizes[-1] = max(sizes[-1], pool_size)
    result: list[tuple[str, ...]] = []
    start = 0
    while start < len(ladder):
        size = sizes[len(result)] if len(result) < len(sizes) else pool_size
        result.append(tuple(ladder[start : start + size]))
        start += size
    return tuple(result)


def elo_ranking(ratings: Mapping[str, Decimal]) -> tuple[EloRow, ...]:
    """rules.md §5 and General conventions: the club's Elo ranking, highest first; equal ratings
    share the rank (listed by player id, which decides nothing)."""
    with localcontext(CONTEXT):  # negation rounds to the context's precision
        ordered = sorted(ratings.items(), key=lambda item: (-item[1], item[0]))
    rows: list[EloRow] = []
    for i, (player, elo) in enumerate(ordered):
        rank = rows[-1].rank if rows and rows[-1].elo == elo else i + 1
        rows.append(EloRow(player=player, rank=rank, elo=elo))
    return tuple(rows)


# --- the season ---------------------------------------------------------------------------------


def _play_round(
    number: int,
    pools: Pools,
    follows: Pools | None,
    challenges: Sequence[Mapping[str, Decimal]],
    ratings: dict[str, Decimal],
    units: dict[str, int | None],
    settings: Settings,
) -> RoundOut:
    """Plays a round, updating `ratings` and their `units` (None: more than PLACES decimals)."""
    lines: list[list[tuple[ChallengeLine, ...]]] = [[] for _ in pools]
    elo_after: list[dict[str, Decimal]] = []
    for imps in challenges:
        before, before_units = dict(ratings), dict(units)
        for k, members in enumerate(pools):
            pool_units = [before_units[p] for p in members]
            pool_lines = _pool_changes(members, before, pool_units, imps, settings)
            lines[k].append(pool_lines)
            for line in pool_lines:
                ratings[line.player] = line.elo_after
                units[line.player] = (
                    line.units[2] if line.units is not None else units_of(line.elo_after)
                )
        elo_after.append({p: ratings[p] for members in pools for p in members})
    ranked = [pool_standings(members, challenges, ratings) for members in pools]
    marks = pool_moves([len(members) for members in pools], settings.moves)
    pool_out = tuple(
        PoolOut(
            number=k + 1,
            members=tuple(members),
            challenges=tuple(lines[k]),
            rows=tuple(
                PoolRow(player=p, rank=rank, imps=total, elo=ratings[p], move=mark)
                for (rank, p, total), mark in zip(ranked[k], marks[k], strict=True)
            ),
        )
        for k, members in enumerate(pools)
    )
    return RoundOut(number=number, pools=pool_out, follows=follows, elo_after=tuple(elo_after))


def run_ladder(ladder: LadderIn) -> LadderOut:
    """rules.md §5 over a season: each round's pools (given, or from the moves of the round
    before), Elo after every challenge, pool standings and moves; the club's Elo ranking; the
    next round's pools. A player's rating carries over from round to round; a newcomer starts at
    his own start Elo or the setting's."""
    return _finish(list(iter_rounds(ladder)), ladder)


def _finish(rounds: list[RoundOut], ladder: LadderIn) -> LadderOut:
    if rounds:
        ratings, follows = rounds[-1].ratings, rounds[-1].next_pools
    else:
        ratings, follows = ladder.ratings or {}, ladder.follows or ()
    return LadderOut(rounds=tuple(rounds), elo=elo_ranking(ratings), next_pools=follows)


def iter_rounds(ladder: LadderIn) -> Iterator[RoundOut]:
    """run_ladder's rounds one at a time, so a caller need not hold them all (the last one
    carries the ratings and the next pools, for the Elo ranking)."""
    settings = ladder.settings
    ratings: dict[str, Decimal] = dict(ladder.ratings or {})
    units = {player: units_of(rating) for player, rating in ratings.items()}
    follows: Pools | None = ladder.follows
    for round_in in ladder.rounds:
        pools = round_in.pools if round_in.pools is not None else follows
        if pools is None:
            raise ValueError(f"round {round_in.number}: the first round needs its pools")
        for members in pools:
            for player in members:
                if player not in ratings:
                    ratings[player] = Decimal(ladder.start_elo.get(player, settings.start_elo))
                    units[player] = units_of(ratings[player])
        played = _play_round(
            round_in.number, pools, follows, round_in.challenges, ratings, units, settings
        )
        follows = next_pools(
            [[row.player for row in pool.rows] for pool in played.pools], settings.moves
        )
        yield replace(played, ratings=dict(ratings), next_pools=follows)


# --- display ------------------------------------------------------------------------------------


def shown(value: Decimal) -> int:
    """rules.md §5 "show whole numbers": rounded half up from the exact decimal, by size for a
    change, so +12.5 and -12.5 show as +13 and -13."""
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP, context=CONTEXT))
