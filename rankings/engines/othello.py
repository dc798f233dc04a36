"""The Othello Grand Prix (rules.md §2, the Swedish federation's "GP-systemet"), exactly.

Pure Python: ratings, sums and max points are Fractions built from decimal strings, the points
series is floored by an integer criterion, never by a float. Floats appear only where a number is
shown (the factor x, which is irrational in general).
"""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from operator import itemgetter
from typing import Any, NamedTuple

from .common import rank_by

ZERO = Fraction(0)

# The two readings of the points series (chess-othello-options.md §3.1): each place x times the
# awarded points of the place above (today's), or M · x^(k-1) floored directly.
CHAINED, DIRECT = "chained", "direct"
SERIES_RULES = (CHAINED, DIRECT)

# The season tie-break keys after points (chess-othello-options.md §3.3), in the order a
# season lists them: SM points, WOF rating, world-ranking position, last NR, the lot.
SM, WOF, WORLD, NR, LOT = "SM", "WOF", "WORLD", "NR", "LOT"
TIEBREAK_KEYS = (SM, WOF, WORLD, NR, LOT)

# How a participant's Nordic-equivalent rating arose (rules.md §2, first item).
NORDIC, FFO, PROVISIONAL, DEBUTANT = "nordic", "ffo", "provisional", "debutant"


def exact(value: Any) -> Fraction:
    """A number as an exact Fraction; a float is read by its shortest decimal form, so the
    setting 0.539 is exactly 539/1000, never the binary float nearest to it."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, float):
        return Fraction(repr(value))
    return Fraction(value)


@dataclass(frozen=True)
class Coefficients:
    """The numbers of rules.md §2 a federation might change (each a season setting)."""

    nr_factor: Fraction = Fraction("0.539")
    nr_offset: Fraction = Fraction(172)
    provisional_floor: Fraction = Fraction(1600)
    debutant_rating: Fraction = Fraction(1000)
    rating_floor: Fraction = Fraction(900)
    max_factor: Fraction = Fraction("0.004")
    max_base: Fraction = Fraction(7)


@dataclass(frozen=True)
class Rating:
    """A participant's rating entry as the tournament gives it (any of these may be missing)."""

    nordic: Fraction | None = None
    ffo: Fraction | None = None
    provisional: bool = False
    uncertainty: Fraction | None = None


class Participant(NamedTuple):
    player: str
    place: int
    country: str
    rating: Rating = Rating()


@dataclass(frozen=True)
class TournamentIn:
    id: str
    participants: tuple[Participant, ...] = ()
    sm: bool = False  # the Swedish championship (federation option)
    egp: bool = False  # a European GP (federation option)


@dataclass(frozen=True)
class Settings:
    best_n: int = 5
    country: str = "SE"
    coefficients: Coefficients = Coefficients()
    # The federation's own season rules, off by default (rules.md stays the default).
    sm_tiebreak: bool = False
    egp_rule: bool = False
    series_rule: str = CHAINED  # CHAINED or DIRECT (§3.1)
    # §3.3: the tie-break chain after points; empty: `sm_tiebreak` decides (SM NR, or none).
    season_tiebreaks: tuple[str, ...] = ()
    # §3.3: each player's (WOF rating, world-ranking position), either None when not known.
    tiebreak_data: Mapping[str, tuple[Fraction | None, int | None]] = field(default_factory=dict)
    tiebreak_seed: int = 0  # §3.3: the lot's seed

    @property
    def tiebreaks(self) -> tuple[str, ...]:
        """The tie-break chain in force: `season_tiebreaks`, else SM NR with `sm_tiebreak`."""
        if self.season_tiebreaks:
            return self.season_tiebreaks
        return (SM, NR) if self.sm_tiebreak else ()


class EntryOut(NamedTuple):
    """One participant's line of the computation: rating entry -> NR -> contribution -> points."""

    player: str
    place: int
    country: str
    rating: Rating
    rule: str  # NORDIC, FFO, PROVISIONAL or DEBUTANT: which part of the NR rule applied
    ffo_used: Fraction | None  # the FFO rating after the provisional rule, where one was used
    nr: Fraction
    contribution: Fraction
    series_points: int  # the points of the place (g_k)
    points: int | None  # what the player receives: None for a player of another country


class Played(NamedTuple):
    """What the season standings read of a participant's line (an `EntryOut` has the same
    fields): a stored tournament's line, without the computation behind it."""

    player: str
    points: int | None  # None: a player of another country
    nr: Fraction  # read only with the SM tie-break


@dataclass(frozen=True)
class TournamentOut:
    id: str
    participants: int
    country_participants: int
    ranking_sum: Fraction
    max_points: Fraction
    series: tuple[int, ...]
    entries: tuple[EntryOut | Played, ...]
    sm: bool = False
    egp: bool = False


class Result(NamedTuple):
    """A tournament result of a player in the season standings."""

    tournament: str
    points: int
    counts: bool = True  # False: an EGP result of a player without a Swedish GP (option)


class StandingRow(NamedTuple):
    player: str
    rank: int
    points: int
    counted: tuple[str, ...]  # tournament ids whose results counted, in season order
    results: tuple[Result, ...]  # every result of the player, in season order
    sm_points: int | None = None  # only with the SM tie-break
    rating: Fraction | None = None  # only with the SM tie-break (or NR in the chain)
    # The other keys of the chain (§3.3), only where the chain has them (None: no value).
    wof: Fraction | None = None
    world: int | None = None
    lot: int | None = None  # the player's position in the season's lot (1 first)


@dataclass(frozen=True)
class SeasonIn:
    tournaments: tuple[TournamentIn, ...]
    settings: Settings = field(default_factory=Settings)


@dataclass(frozen=True)
class SeasonOut:
    tournaments: tuple[TournamentOut, ...]
    standings: tuple[StandingRow, ...]


# --- §2 ratings, ranking sum, max points --------------------------------------------------------


def nordic_equivalent(rating: Rating, c: Coefficients = Coefficients()) -> tuple[Fraction, str]:
    """rules.md §2: NR = the Nordic rating; else 0.539 * r + 172 from the FFO rating r (for a
    provisional one first r = max(r - uncertainty, 1600)); else (debutant) 1000."""
    if rating.nordic is not None:
        return rating.nordic, NORDIC
    if rating.ffo is not None:
        r, rule = rating.ffo, FFO
        if rating.provisional:
            r, rule = max(r - (rating.uncertainty or 0), c.provisional_floor), PROVISIONAL
        return c.nr_factor * r + c.nr_offset, rule
    return c.debutant_rating, DEBUTANT


def ffo_used(rating: Rating, c: Coefficients = Coefficients()) -> Fraction | None:
    """rules.md §2: the FFO rating r that enters 0.539 * r + 172 (after the provisional rule)."""
    if rating.nordic is not None or rating.ffo is None:
        return None
    if rating.provisional:
        return max(rating.ffo - (rating.uncertainty or 0), c.provisional_floor)
    return rating.ffo


def contribution(nr: Fraction, c: Coefficients = Coefficients()) -> Fraction:
    """rules.md §2: a participant's part of the ranking sum, max(0, NR - 900)."""
    above = nr - c.rating_floor
    return above if above > 0 else ZERO


def ranking_sum(nrs: Iterable[Fraction], c: Coefficients = Coefficients()) -> Fraction:
    """rules.md §2: S = sum(max(0, NR - 900)) over all participants, foreign ones included."""
    return sum((contribution(nr, c) for nr in nrs), Fraction(0))


def max_points(s: Fraction, c: Coefficients = Coefficients()) -> Fraction:
    """rules.md §2: M = 0.004 * S + 7."""
    return c.max_factor * s + c.max_base


# --- §2 the points series -----------------------------------------------------------------------


def integer_root(x: int, k: int) -> int:
    """The largest integer h >= 0 with h ** k <= x (x >= 0, k >= 1), exactly (Newton's method
    on integers from an upper bound; every step stays at or above the root)."""
    if x < 0 or k < 1:
        raise ValueError("integer_root needs x >= 0 and k >= 1")
    if x < 2 or k == 1:
        return x
    y = 1 << -(-x.bit_length() // k)  # 2 ** ceil(bits / k) > x ** (1 / k)
    while True:
        z = ((k - 1) * y + x // y ** (k - 1)) // k
        if z >= y:
            return y
        y = z


def next_points(g: int, m: Fraction, n: int) -> int:
    """rules.md §2: g(k+1) = floor(g(k) * x), x = M ** (-1 / (n - 1)), exactly: the largest
    integer h >= 0 with h ** (n-1) * M <= g(k) ** (n-1)."""
    k = n - 1
    # h ** k * p / q <= g ** k  <=>  h ** k <= g ** k * q / p  <=>  h ** k <= floor(g ** k * q / p)
    return integer_root(g**k * m.denominator // m.numerator, k)


# How far from a whole number the float estimate g * x must be for its floor to be taken as it
# is: x = exp(-log(M) / (n - 1)) is within a few units of 1e-16 (relative) of the exact factor,
# so 1e-9 (relative) leaves a margin of seven orders of magnitude. Closer than that, the exact
# integer criterion decides.
FLOAT_MARGIN = 1e-9


def points_series(m: Fraction, n: int) -> list[int]:
    """rules.md §2: the points of places 1..n: g1 = floor(M), then each place x times the
    awarded points of the place above, floored (so no two places share a non-zero value).

    Each g(k+1) is the exact criterion of `next_points` (the largest h with
    h ** (n-1) * M <= g(k) ** (n-1)), that is floor(g(k) * x) for the exact x. The float
    estimate g(k) * x decides when it is clearly away from a whole number; otherwise (and
    whenever in doubt) the integers do: the candidate is checked and corrected exactly."""
    if n <= 0:
        return []
    m = exact(m)
    if m <= 0:
        return [0] * n
    series = [math.floor(m)]
    if n == 1:
        return series
    k = n - 1
    p, q = m.numerator, m.denominator
    x = series_factor(m, n) or 0.0
    g = series[0]
    while len(series) < n and g > 0:
        estimate = g * x
        h = math.floor(estimate)
        margin = FLOAT_MARGIN * max(1.0, estimate)
        if not (estimate - h > margin and h + 1 - estimate > margin):
            bound = g**k * q  # h is allowed while h ** k * p <= bound
            while h > 0 and h**k * p > bound:
                h -= 1
            while (h + 1) ** k * p <= bound:
                h += 1
        series.append(h)
        g = h
    series.extend([0] * (n - len(series)))
    return series


def direct_series(m: Fraction, n: int) -> list[int]:
    """chess-othello-options.md §3.1, direct reading: g(k) = floor(M · x^(k-1)) =
    floor(M^((n-k)/(n-1))), exactly: the largest h >= 0 with h^(n-1) · q^(n-k) <= p^(n-k)
    (M = p/q), that is iroot(p^(n-k) // q^(n-k), n-1). g(1) = floor(M), g(n) = 1 (M >= 1)."""
    if n <= 0:
        return []
    m = exact(m)
    if m <= 0:
        return [0] * n
    if n == 1:
        return [math.floor(m)]
    p, q = m.numerator, m.denominator
    return [integer_root(p ** (n - k) // q ** (n - k), n - 1) for k in range(1, n + 1)]


def series(m: Fraction, n: int, rule: str = CHAINED) -> list[int]:
    """The points of places 1..n under the season's reading (§3.1)."""
    return direct_series(m, n) if rule == DIRECT else points_series(m, n)


def series_factor(m: Fraction, n: int) -> float | None:
    """rules.md §2: x = M ** (-1 / (n - 1)), for display only (the series never uses it)."""
    if n < 2 or m <= 0:
        return None
    return math.exp(-math.log(Fraction(m)) / (n - 1))


# --- §2 a tournament ----------------------------------------------------------------------------


def rate(rating: Rating, c: Coefficients = Coefficients()) -> tuple[Fraction, str, Fraction]:
    """rules.md §2: (NR, the rule that gave it, the contribution max(0, NR - 900))."""
    nr, rule = nordic_equivalent(rating, c)
    return nr, rule, contribution(nr, c)


def compute_tournament(
    t: TournamentIn, settings: Settings = Settings(), memo: dict | None = None
) -> TournamentOut:
    """rules.md §2: NR of every participant, S, M and the series over all n participants;
    only players of the series' country receive their place's points.

    `memo` (optional, kept by the caller across the tournaments of a season) holds each rating
    entry's NR and contribution by the entry's identity: a player's entry recurs from one
    tournament to the next, and its numbers need computing once. The ranking sum is summed
    exactly on integers over the common denominator of the contributions."""
    c = settings.coefficients
    if memo is None:
        memo = {}
    ordered = sorted(t.participants, key=lambda p: (p.place, p.player))
    rated = []
    for p in ordered:
        known = memo.get(id(p.rating))
        if known is None or known[0] is not p.rating:
            nr, rule, part = rate(p.rating, c)
            known = memo[id(p.rating)] = (p.rating, nr, rule, part, ffo_used(p.rating, c))
        rated.append(known)
    denominator = math.lcm(1, *{part.denominator for _r, _nr, _rule, part, _f in rated})
    s = Fraction(
        sum(part.numerator * (denominator // part.denominator) for *_x, part, _f in rated),
        denominator,
    )  # the ranking sum, exactly
    m = max_points(s, c)
    points = series(m, len(ordered), settings.series_rule)
    country = settings.country
    # The fields in EntryOut's order (positional: this runs once per participant of a season).
    entries = tuple(
        EntryOut(
            p.player,
            p.place,
            p.country,
            p.rating,
            rule,
            used,
            nr,
            part,
            g,
            g if p.country == country else None,
        )
        for p, (_r, nr, rule, part, used), g in zip(ordered, rated, points, strict=True)
    )
    return TournamentOut(
        id=t.id,
        participants=len(ordered),
        country_participants=sum(1 for e in entries if e.points is not None),
        ranking_sum=s,
        max_points=m,
        series=tuple(points),
        entries=entries,
        sm=t.sm,
        egp=t.egp,
    )


# --- §2 the season ------------------------------------------------------------------------------


_index_of, _points_of = itemgetter(0), itemgetter(2)  # of a result (index, tournament, points)


def _season_totals(
    tournaments: Sequence[TournamentOut], settings: Settings, details: bool
) -> tuple[dict[str, tuple[int, tuple[str, ...], tuple[Result, ...], int]], dict[str, Fraction]]:
    """Each player's season total, counted tournaments, results and SM points (the last three
    only with `details`; the SM points also with the SM tie-break), and last NR (with the SM
    tie-break or `details`)."""
    results: dict[str, list[tuple[int, TournamentOut, int]]] = defaultdict(list)
    # Federation option (egp_rule): an EGP's points count only for a player who played at least
    # one Swedish GP tournament (a tournament not marked EGP) of the season.
    played_gp: set[str] = set()
    last_nr: dict[str, Fraction] = {}
    keep_nr = details or NR in settings.tiebreaks
    for index, t in enumerate(tournaments):
        for e in t.entries:
            if keep_nr:
                last_nr[e.player] = e.nr
            if e.points is not None:
                results[e.player].append((index, t, e.points))
        if settings.egp_rule and not t.egp:
            played_gp.update(e.player for e in t.entries)
    best_n = max(0, settings.best_n)
    totals: dict[str, tuple[int, tuple[str, ...], tuple[Result, ...], int]] = {}
    for player, entries in results.items():
        every = not settings.egp_rule or player in played_gp
        if not details:
            # The sum of the best n results: which of equal results counts changes no sum.
            counted = sorted(
                (points for _i, t, points in entries if every or not t.egp), reverse=True
            )
            if not counted:
                continue  # only EGP results, none of which counts
            sm_points = (
                sum(points for _i, t, points in entries if t.sm) if SM in settings.tiebreaks else 0
            )
            totals[player] = (sum(counted[:best_n]), (), (), sm_points)
            continue
        countable = entries if every else [e for e in entries if not e[1].egp]
        if not countable:
            continue  # only EGP results, none of which counts
        # The best n, the earlier tournament first among equal points: `entries` are in the
        # season's order, and a sort keeps the order of equal keys (also in reverse).
        best = sorted(countable, key=_points_of, reverse=True)[:best_n]
        chosen = sorted(best, key=_index_of)
        totals[player] = (
            sum(e[2] for e in chosen),
            tuple(e[1].id for e in chosen),
            tuple(Result(t.id, points, every or not t.egp) for _i, t, points in entries),
            sum(points for _i, t, points in entries if t.sm),
        )
    return totals, last_nr


def lot_order(players: Iterable[str], seed: int) -> dict[str, int]:
    """§3.3 LOT: each player's position (1 first) in the season's lot, a permutation drawn
    from the seed: by the SHA-256 of the seed and the player's key (**Decision**: a player's
    lot does not move when another player joins; a new seed is a new draw)."""

    def draw(player: str) -> tuple[bytes, str]:
        return hashlib.sha256(f"{seed}:{player}".encode()).digest(), player

    return {player: i for i, player in enumerate(sorted(players, key=draw), start=1)}


def _chain_values(
    totals: dict, last_nr: dict[str, Fraction], settings: Settings
) -> dict[str, tuple]:
    """Each player's values of the tie-break chain (§3.3), bigger is better: SM points; the
    WOF rating (without one below everyone with one); the world-ranking position (lower is
    better; without one below everyone with one); the last NR; the lot (earlier is better)."""
    chain = settings.tiebreaks
    lots = lot_order(totals, settings.tiebreak_seed) if LOT in chain else {}
    values: dict[str, tuple] = {}
    for player, (_points, _counted, _results, sm_points) in totals.items():
        wof, world = settings.tiebreak_data.get(player, (None, None))
        of_key = {
            SM: sm_points,
            WOF: (0, 0) if wof is None else (1, wof),
            WORLD: (0, 0) if world is None else (1, -world),
            NR: last_nr.get(player),
            LOT: -lots[player] if lots else None,
        }
        values[player] = tuple(of_key[key] for key in chain)
    return values


def _ranked(totals: dict, last_nr: dict[str, Fraction], settings: Settings) -> list:
    if not settings.tiebreaks:
        return rank_by(totals, key=lambda player: totals[player][0], tie_order=lambda p: p)
    values = _chain_values(totals, last_nr, settings)
    return rank_by(
        totals, key=lambda player: (totals[player][0], *values[player]), tie_order=lambda p: p
    )


def season_standings(
    tournaments: Sequence[TournamentOut], settings: Settings = Settings()
) -> list[StandingRow]:
    """rules.md §2: the sum of each player's best 5 tournament results (`best_n`); ties share
    the rank. Among equal results the earlier tournament counts. With the federation's SM
    option, ties are first broken by the SM points, then by rating (the player's last NR);
    with a tie-break chain (chess-othello-options.md §3.3) by its keys in turn."""
    totals, last_nr = _season_totals(tournaments, settings, details=True)
    chain = settings.tiebreaks
    lots = lot_order(totals, settings.tiebreak_seed) if LOT in chain else {}
    data = settings.tiebreak_data if (WOF in chain or WORLD in chain) else {}
    return [
        StandingRow(
            player=player,
            rank=rank,
            points=totals[player][0],
            counted=totals[player][1],
            results=totals[player][2],
            sm_points=totals[player][3] if SM in chain else None,
            rating=last_nr[player] if NR in chain else None,
            wof=data.get(player, (None, None))[0] if WOF in chain else None,
            world=data.get(player, (None, None))[1] if WORLD in chain else None,
            lot=lots.get(player),
        )
        for rank, player in _ranked(totals, last_nr, settings)
    ]


def season_ranking(
    tournaments: Sequence[TournamentOut], settings: Settings = Settings()
) -> list[tuple[str, int, int]]:
    """The season standings' (player, rank, points) only, as `season_standings` gives them,
    without each player's counted tournaments and results (the what-if page ranks a season
    for coefficients nobody stored)."""
    totals, last_nr = _season_totals(tournaments, settings, details=False)
    ranked = _ranked(totals, last_nr, settings)
    return [(player, rank, totals[player][0]) for rank, player in ranked]


def compute_tournaments(season: SeasonIn) -> tuple[TournamentOut, ...]:
    """rules.md §2: every tournament of the season (a rating entry that recurs is rated once)."""
    memo: dict = {}
    return tuple(compute_tournament(t, season.settings, memo) for t in season.tournaments)


def compute_season(season: SeasonIn) -> SeasonOut:
    """rules.md §2: every tournament, then the season standings."""
    outs = compute_tournaments(season)
    return SeasonOut(tournaments=outs, standings=tuple(season_standings(outs, season.settings)))


# --- a player's what-if for the next tournament -------------------------------------------------

# The imagined tournament's id (no stored tournament key has a "+") and its other players'
# country: nobody of the series' country, so they receive nothing.
NEXT = "+next"
FIELD_COUNTRY = ""


def next_tournament(
    player: str, place: int, country: str, rating: Rating, participants: int, field: Fraction
) -> TournamentIn:
    """The next tournament as a player's what-if imagines it: the player at `place` of
    `participants`, every other place taken by an anonymous player with the Nordic rating
    `field` who receives no points (their results are unknown: the season's other players
    keep theirs)."""
    others = (
        Participant(f"{NEXT}:{k}", k, FIELD_COUNTRY, Rating(nordic=exact(field)))
        for k in range(1, participants + 1)
        if k != place
    )
    return TournamentIn(
        id=NEXT, participants=(Participant(player, place, country, rating), *others)
    )


class WhatIfNext(NamedTuple):
    tournament: TournamentOut  # the next tournament's computation
    before: list[tuple[str, int, int]]  # the season ranking now: (player, rank, points)
    after: list[StandingRow]  # the season standings with the next tournament


def what_if_next(
    tournaments: Sequence[TournamentOut], t: TournamentIn, settings: Settings = Settings()
) -> WhatIfNext:
    """rules.md §2 with one more tournament: `t` computed as any tournament is, and the season
    standings of the season's tournaments (the engine's outputs) with it added last."""
    out = compute_tournament(t, settings)
    return WhatIfNext(
        tournament=out,
        before=season_ranking(tournaments, settings),
        after=season_standings([*tournaments, out], settings),
    )
