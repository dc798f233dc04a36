"""Board-game circuit engine (rules.md §1): round scores, tournaments, yearly, LUDO, per-game.

Pure functions of their arguments: no I/O, no clock, and the only randomness is the lot draw seeded
by the stored seed, so recomputing gives the same result every time.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from rankings.engines.common import rank_by, round_half_up

__all__ = [
    "CeremonyEntry",
    "ClubScore",
    "DailyRow",
    "GameRanking",
    "GameRow",
    "LudoRow",
    "SeasonIn",
    "SeasonOut",
    "Seat",
    "SeatScore",
    "Settings",
    "TableIn",
    "TableOut",
    "TournamentIn",
    "TournamentOut",
    "YearlyRow",
    "average_places",
    "cap_from_participants",
    "ceremony_places",
    "compute_season",
    "compute_tournament",
    "draw_order",
    "game_rankings",
    "ludo_ranking",
    "rank_games",
    "score_table",
    "tournament_bonus",
    "yearly_ranking",
]

CEREMONY_WINNER = "winner"
CEREMONY_CLUB = "club"
CEREMONY_PLACE = "place"
CEREMONY_DRAW = "draw"


# --- inputs -----------------------------------------------------------------------------------


class Seat(NamedTuple):  # named tuples: a season has some 10**4 seats, made fast
    """One player's entry at a table."""

    player: str
    rank: int  # 1 = best; equal ranks = tie


@dataclass(frozen=True)
class TableIn:
    """One table of one round: a game title and its seats."""

    round: int
    game: str
    seats: tuple[Seat, ...]


@dataclass(frozen=True)
class TournamentIn:
    """One tournament's tables, in round order then table order."""

    id: str
    final: bool
    tables: tuple[TableIn, ...]
    draw_seed: int


@dataclass(frozen=True)
class Settings:
    """The competition settings of §1 with their default values."""

    best_n: int = 5
    interclub_counted: int = 3
    final_table_size: int = 4
    final_table_sizes: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class SeasonIn:
    """A season: tournaments in date order, clubs, the resolved cap and earlier yearly totals."""

    tournaments: tuple[TournamentIn, ...]
    clubs: Mapping[str, str | None]
    cap: int | None
    settings: Settings = field(default_factory=Settings)
    yearly_prev: Mapping[str, Fraction] = field(default_factory=dict)
    yearly_prev2: Mapping[str, Fraction] = field(default_factory=dict)


# --- outputs ----------------------------------------------------------------------------------


class SeatScore(NamedTuple):
    """A player's round score at one table, with its parts."""

    player: str
    rank: int
    place: Fraction
    placement: Fraction
    bonus: Fraction
    fraction: Fraction
    score: Fraction


@dataclass(frozen=True)
class TableOut:
    """A scored table; results ordered by entered rank, then player id."""

    round: int
    game: str
    results: tuple[SeatScore, ...]


class DailyRow(NamedTuple):
    """One line of the daily ranking; points = daily + bonus."""

    player: str
    rank: int
    daily: Fraction
    bonus: Fraction
    points: Fraction


@dataclass(frozen=True)
class ClubScore:
    """One club in the interclub; players are the counted ones, best first."""

    club: str
    rank: int
    score: Fraction
    players: tuple[str, ...]


@dataclass(frozen=True)
class CeremonyEntry:
    """One step of the prize ceremony: "winner", "club", "place" or "draw"."""

    step: str
    player: str | None = None
    club: str | None = None


@dataclass(frozen=True)
class TournamentOut:
    """Everything computed for one tournament."""

    id: str
    final: bool
    participants: int
    cap: int | None
    standings: tuple[DailyRow, ...]
    tables: tuple[TableOut, ...]
    interclub: tuple[ClubScore, ...]
    ceremony: tuple[CeremonyEntry, ...]


class YearlyRow(NamedTuple):  # a named tuple: a season of 2000 players makes thousands
    """One line of the yearly ranking; counted = tournament ids that counted, in season order."""

    player: str
    rank: int
    points: Fraction
    counted: tuple[str, ...]


class LudoRow(NamedTuple):  # a named tuple: a season of 2000 players makes thousands
    """One line of the LUDO ranking."""

    player: str
    rank: int
    points: Fraction


class GameRow(NamedTuple):  # a named tuple: a season of 2000 players makes thousands
    """One line of a per-game ranking."""

    player: str
    rank: int
    points: Fraction
    played: int
    finalist: bool


@dataclass(frozen=True)
class GameRanking:
    """The ranking of one game title; tie_on_last_seat = more finalists than seats."""

    game: str
    size: int
    rows: tuple[GameRow, ...]
    tie_on_last_seat: bool


@dataclass(frozen=True)
class SeasonOut:
    """Everything computed for one season."""

    tournaments: tuple[TournamentOut, ...]
    yearly: tuple[YearlyRow, ...]
    ludo: tuple[LudoRow, ...]
    games: tuple[GameRanking, ...]


# --- §1.1 round score -------------------------------------------------------------------------


def average_places(ranks: Sequence[int]) -> list[Fraction]:
    """rules.md §1.1: average place of each entered rank (same order as the input)."""
    order = sorted(range(len(ranks)), key=lambda i: ranks[i])
    places: list[Fraction] = [Fraction(0)] * len(ranks)
    start = 0
    # Only the order of the entered ranks matters (1,2,2,4 == 1,2,2,3): tied players take the
    # next consecutive positions start+1 .. start+size and share their average.
    while start < len(order):
        end = start
        while end < len(order) and ranks[order[end]] == ranks[order[start]]:
            end += 1
        average = Fraction(start + 1 + end, 2)
        for i in order[start:end]:
            places[i] = average
        start = end
    return places


def _score_pattern(ranks: tuple[int, ...]) -> tuple[tuple[Fraction, ...], ...]:
    """rules.md §1.1 for one table's entered ranks: (place, placement, bonus, fraction, score)
    of each seat, in the order of `ranks`."""
    x = len(ranks)
    places = average_places(ranks)
    placements = [Fraction(100) * (x - p) / (x - 1) for p in places]
    total_placement = sum(placements, Fraction(0))  # always 50 * x
    best = min(ranks)
    parts = []
    for rank, place, placement in zip(ranks, places, placements, strict=True):
        bonus = Fraction(x) if rank == best else Fraction(0)
        fraction = placement / total_placement
        parts.append((place, placement, bonus, fraction, placement + bonus + fraction))
    return tuple(parts)


# A table's scores depend only on its entered ranks, and a circuit has few distinct tables (3 to 6
# seats, a few tie patterns): each pattern is computed once, exactly, and reused.
_PATTERNS: dict[tuple[int, ...], tuple[tuple[Fraction, ...], ...]] = {}


def score_table(table: TableIn) -> TableOut:
    """rules.md §1.1: placement points, win bonus and tie-break fraction of every seat."""
    ranks = tuple(seat.rank for seat in table.seats)
    parts = _PATTERNS.get(ranks)
    if parts is None:
        parts = _score_pattern(ranks)
        if len(_PATTERNS) < 10_000:
            _PATTERNS[ranks] = parts
    results = [
        SeatScore(seat.player, seat.rank, *part)
        for seat, part in zip(table.seats, parts, strict=True)
    ]
    results.sort(key=lambda s: (s.rank, s.player))
    return TableOut(round=table.round, game=table.game, results=tuple(results))


def _scale(values: Iterable[Fraction]) -> int:
    """The least common denominator of exact values: summing them as integers at this scale is
    exact, and far cheaper than summing Fractions."""
    return math.lcm(1, *{v.denominator for v in values})


# --- §1.2 tournament --------------------------------------------------------------------------


def tournament_bonus(participants: int, daily_rank: int, cap: int | None) -> int:
    """rules.md §1.2: tournament bonus max(0, min(X, C) - P + 1), without a cap X - P + 1."""
    limit = participants if cap is None else min(participants, cap)
    return max(0, limit - daily_rank + 1)


def cap_from_participants(counts: Sequence[int]) -> int | None:
    """rules.md §1.2: cap C from the participant counts of last season's regular tournaments."""
    if not counts:
        return None
    average = Fraction(sum(counts), len(counts))
    return round_half_up(average / 10) * 10


def ceremony_places(participants: int) -> int:
    """rules.md §1.2: P10 = min(10, round_half_up(X / 10))."""
    return min(10, round_half_up(Fraction(participants, 10)))


def draw_order(players: Iterable[str], seed: int) -> list[str]:
    """rules.md §1.2 step 4: the lot draw, reproducible from its stored seed."""
    # Sorting first makes the draw independent of the order the caller happens to pass.
    order = sorted(players)
    random.Random(seed).shuffle(order)
    return order


def _interclub(
    standings: Sequence[DailyRow], clubs: Mapping[str, str | None], counted: int
) -> list[ClubScore]:
    """rules.md §1.2 step 2: interclub score = best `interclub_counted` daily totals of a club."""
    members: dict[str, list[DailyRow]] = defaultdict(list)
    # standings are already best first (then player id), so each club's list is too.
    for row in standings:
        club = clubs.get(row.player)
        if club is not None:
            members[club].append(row)
    scored = []
    for club, rows in members.items():
        best = rows[:counted]
        score = sum((r.daily for r in best), Fraction(0))
        scored.append((club, score, tuple(r.player for r in best)))
    ranked = rank_by(scored, key=lambda c: c[1], tie_order=lambda c: c[0])
    return [
        ClubScore(club=club, rank=rank, score=score, players=players)
        for rank, (club, score, players) in ranked
    ]


def _ceremony(
    standings: Sequence[DailyRow], interclub: Sequence[ClubScore], seed: int
) -> list[CeremonyEntry]:
    """rules.md §1.2: prize ceremony order (winners, best club, ranks 2..P10, draw)."""
    p10 = ceremony_places(len(standings))
    entries = [CeremonyEntry(CEREMONY_WINNER, player=r.player) for r in standings if r.rank == 1]
    entries += [CeremonyEntry(CEREMONY_CLUB, club=c.club) for c in interclub if c.rank == 1]
    entries += [
        CeremonyEntry(CEREMONY_PLACE, player=r.player) for r in standings if 2 <= r.rank <= p10
    ]
    remaining = [r.player for r in standings if r.rank > max(1, p10)]
    entries += [CeremonyEntry(CEREMONY_DRAW, player=p) for p in draw_order(remaining, seed)]
    return entries


def compute_tournament(
    t: TournamentIn,
    clubs: Mapping[str, str | None],
    cap: int | None,
    settings: Settings,
) -> TournamentOut:
    """rules.md §1.2: daily ranking, tournament bonus, interclub and prize ceremony."""
    tables = tuple(score_table(table) for table in t.tables)
    totals: dict[str, Fraction] = defaultdict(Fraction)
    for table in tables:
        for seat in table.results:
            totals[seat.player] += seat.score
    participants = len(totals)
    standings = []
    for rank, player in rank_by(totals, key=totals.__getitem__, tie_order=lambda p: p):
        bonus = tournament_bonus(participants, rank, cap)
        daily = totals[player]
        standings.append(
            DailyRow(
                player=player,
                rank=rank,
                daily=daily,
                bonus=Fraction(bonus),
                points=daily + bonus,
            )
        )
    interclub = _interclub(standings, clubs, settings.interclub_counted)
    ceremony = _ceremony(standings, interclub, t.draw_seed)
    return TournamentOut(
        id=t.id,
        final=t.final,
        participants=participants,
        cap=cap,
        standings=tuple(standings),
        tables=tables,
        interclub=tuple(interclub),
        ceremony=tuple(ceremony),
    )


# --- §1.3 yearly, §1.4 LUDO -------------------------------------------------------------------


def scaled_points(t: TournamentOut) -> tuple[dict[str, int], int]:
    """A tournament's points as integers at one exact scale (see _scale): (points, scale)."""
    scale = _scale(row.points for row in t.standings)
    return {
        row.player: row.points.numerator * (scale // row.points.denominator) for row in t.standings
    }, scale


def yearly_ranking(tournaments: Sequence[TournamentOut], best_n: int) -> list[YearlyRow]:
    """rules.md §1.3: best `best_n` regular tournament points plus the final's points."""
    return yearly_ranking_scaled([(t.id, t.final, *scaled_points(t)) for t in tournaments], best_n)


def yearly_ranking_scaled(
    tournaments: Sequence[tuple[str, bool, Mapping[str, int], int]], best_n: int
) -> list[YearlyRow]:
    """rules.md §1.3 from each tournament's (id, final, points, scale), its points integers at
    its own exact scale (the exact points are points / scale), in season order: the same
    choice, sums, order and ties as with Fractions, without making one per line."""
    scale = math.lcm(1, *(t[3] for t in tournaments))
    ids = [t[0] for t in tournaments]
    # player -> regular tournaments as (-points at the common scale, season index): sorted as
    # tuples, the best points first and among equal points the earlier tournament (which
    # counts, so the choice is reproducible); and the finals as (season index, points).
    regular: dict[str, list[tuple[int, int]]] = defaultdict(list)
    finals: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for index, (_tournament, final, points, own) in enumerate(tournaments):
        factor = scale // own
        if final:
            for player, n in points.items():
                finals[player].append((index, n * factor))
        else:
            for player, n in points.items():
                regular[player].append((-n * factor, index))
    count = max(0, best_n)
    totals: dict[str, tuple[int, tuple[str, ...]]] = {}
    for player in [*regular, *(p for p in finals if p not in regular)]:
        best = sorted(regular.get(player, ()))[:count]
        chosen = sorted([(index, -n) for n, index in best] + finals.get(player, []))
        totals[player] = (sum(n for _i, n in chosen), tuple(ids[i] for i, _n in chosen))
    return [
        YearlyRow(player, rank, Fraction(totals[player][0], scale), totals[player][1])
        for rank, player in rank_by(totals, key=lambda p: totals[p][0], tie_order=lambda p: p)
    ]


def ludo_ranking(
    yearly_now: Mapping[str, Fraction],
    prev: Mapping[str, Fraction],
    prev2: Mapping[str, Fraction],
) -> list[LudoRow]:
    """rules.md §1.4: LUDO(Y) = yearly(Y-2)/3 + 2*yearly(Y-1)/3 + yearly(Y).

    Exact, in integers: 3 × LUDO × D, with D the common denominator of every value given, is
    yearly(Y-2) × D + 2 × yearly(Y-1) × D + 3 × yearly(Y) × D, each an integer; ranked on
    those, the same order and ties as the Fractions (a fifth of the time at 2000 players)."""
    players = set(yearly_now) | set(prev) | set(prev2)
    common = math.lcm(
        1, *{v.denominator for values in (yearly_now, prev, prev2) for v in values.values()}
    )

    def units(values: Mapping[str, Fraction], weight: int) -> dict[str, int]:
        return {p: weight * v.numerator * (common // v.denominator) for p, v in values.items()}

    now_units, prev_units, prev2_units = units(yearly_now, 3), units(prev, 2), units(prev2, 1)
    keys = {p: now_units.get(p, 0) + prev_units.get(p, 0) + prev2_units.get(p, 0) for p in players}
    scale = 3 * common
    return [
        LudoRow(p, rank, Fraction(keys[p], scale))
        for rank, p in rank_by(keys, key=keys.__getitem__, tie_order=lambda p: p)
    ]


# --- §1.5 per game ----------------------------------------------------------------------------


def game_rankings(
    tournaments_in: Sequence[TournamentIn],
    tournaments_out: Sequence[TournamentOut],
    settings: Settings,
) -> list[GameRanking]:
    """rules.md §1.5: per-game ranking over regular tournaments and the final-table finalists."""
    if len(tournaments_in) != len(tournaments_out):
        raise ValueError("tournaments_in and tournaments_out must match one to one")
    titles = {table.game for t in tournaments_in for table in t.tables}
    regular = [
        t_out for t_in, t_out in zip(tournaments_in, tournaments_out, strict=True) if not t_in.final
    ]
    # Sums as integers at one exact scale (see _scale).
    scale = _scale(seat.score for t in regular for table in t.tables for seat in table.results)
    sums: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for t_out in regular:
        for table in t_out.tables:
            game_sums, game_counts = sums[table.game], counts[table.game]
            for seat in table.results:
                score = seat.score
                game_sums[seat.player] += score.numerator * (scale // score.denominator)
                game_counts[seat.player] += 1
    return rank_games(titles, sums, counts, scale, settings)


def rank_games(
    titles: Iterable[str],
    sums: Mapping[str, Mapping[str, int]],
    counts: Mapping[str, Mapping[str, int]],
    scale: int,
    settings: Settings,
) -> list[GameRanking]:
    """rules.md §1.5 from each game's sums of round scores (integers at `scale`: the exact sum
    is sum / scale) and numbers of tables played, by player."""
    rankings = []
    for game in sorted(set(titles)):
        size = settings.final_table_sizes.get(game, settings.final_table_size)
        game_sums = sums.get(game, {})
        game_counts = counts.get(game, {})
        # Dividing by at least 4 keeps a player with one lucky table from topping the ranking.
        divisors = {p: max(game_counts[p], 3) + 1 for p in game_sums}
        # Ranked on integers at the common multiple of the divisors: the exact order and ties
        # of sum / (scale × divisor), without comparing Fractions.
        common = math.lcm(1, *set(divisors.values()))
        keys = {p: s * (common // divisors[p]) for p, s in game_sums.items()}
        rows = tuple(
            GameRow(
                p, rank, Fraction(game_sums[p], scale * divisors[p]), game_counts[p], rank <= size
            )
            for rank, p in rank_by(keys, key=keys.__getitem__, tie_order=lambda p: p)
        )
        finalists = sum(1 for r in rows if r.finalist)
        rankings.append(
            GameRanking(game=game, size=size, rows=rows, tie_on_last_seat=finalists > size)
        )
    return rankings


# --- season -----------------------------------------------------------------------------------


def compute_season(season: SeasonIn) -> SeasonOut:
    """rules.md §1: every tournament, the yearly, LUDO and per-game rankings of a season."""
    outs = tuple(
        compute_tournament(t, season.clubs, season.cap, season.settings) for t in season.tournaments
    )
    yearly = yearly_ranking(outs, season.settings.best_n)
    ludo = ludo_ranking(
        {row.player: row.points for row in yearly}, season.yearly_prev, season.yearly_prev2
    )
    games = game_rankings(season.tournaments, outs, season.settings)
    return SeasonOut(tournaments=outs, yearly=tuple(yearly), ludo=tuple(ludo), games=tuple(games))
