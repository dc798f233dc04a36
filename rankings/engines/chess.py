"""Chess group tables and BGP points (rules.md §3), as pure functions with exact arithmetic.

A group is its players in start-number order, its points scale and its rounds; a round holds
games (white, black, result) and walkovers. From that the engine computes each player's points,
the Monrad and Berger qualities with the terms they are made of (so a page can explain every
number), the shared places ("Pl") and the crosstable cells. The BGP part gives each player the
points of his place within his class in his group, and sums them per class over a season.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from . import chess_tiebreaks as tb
from .common import rank_by

ONE_HALF_ZERO = "1-half-0"
THREE_TWO_ONE = "3-2-1"

WHITE_WINS, BLACK_WINS, DRAW = "1-0", "0-1", "1/2-1/2"
WHITE_FORFEIT_WIN, BLACK_FORFEIT_WIN = "+-", "-+"
PENDING = ""  # paired, result not entered yet
RESULTS = (WHITE_WINS, BLACK_WINS, DRAW, WHITE_FORFEIT_WIN, BLACK_FORFEIT_WIN)
REAL_RESULTS = (WHITE_WINS, BLACK_WINS, DRAW)

# What a round was for one player.
WIN, DRAWN, LOSS = "win", "draw", "loss"
FORFEIT_WIN, FORFEIT_LOSS, WALKOVER = "forfeit-win", "forfeit-loss", "walkover"
NOT_PLAYED, UNFINISHED = "none", "pending"
HALF_BYE = "half-bye"  # a requested half-point bye (TRF `H`): scores a draw without playing

WHITE, BLACK = "H", "S"  # hvit, svart


@dataclass(frozen=True)
class Scale:
    win: Fraction
    draw: Fraction
    loss: Fraction


SCALES = {
    ONE_HALF_ZERO: Scale(Fraction(1), Fraction(1, 2), Fraction(0)),
    THREE_TWO_ONE: Scale(Fraction(3), Fraction(2), Fraction(1)),
}


@dataclass(frozen=True)
class Settings:
    """The numbers of §3 a club may change (rules.md general conventions)."""

    monrad_long_from: int = 7  # rounds from which Monrad cuts the two lowest
    bgp_large_over: int = 50  # more participants than this: the long scale
    bgp_small: tuple[int, ...] = (20, 17, 15, 13, 11, 10, 9, 8, 7, 6)
    bgp_large: tuple[int, ...] = tuple(range(20, 5, -1))
    bgp_further: int = 5
    county_winner: int = 20
    county_others: int = 10
    # chess-othello-options.md §1.1: the tie-break list and its options (defaults: today's).
    tiebreaks: str = tb.NSF
    unplayed_rounds: str = tb.FIDE2023
    final_ties: str = tb.SHARE
    aro_unrated: int | None = None
    # chess-othello-options.md §2: the BGP rule options (defaults: today's).
    county_scale: str = "winner_others"  # or "dense" (USF 2024)
    beginners_after_class: bool = False  # beginners placed after their age class
    bgp_best_n: int = 0  # a season counts the best N results of a class (0: all)
    bgp_alt_scale: tuple[int, ...] = ()  # the small-class / single-club scale (empty: off)
    bgp_alt_class_under: int = 6
    bgp_alt_single_club: bool = True


# --- input ----------------------------------------------------------------------------------


class Game(NamedTuple):
    """A named tuple, not a frozen dataclass: a season makes thousands (a frozen dataclass's
    construction costs several times as much)."""

    white: str
    black: str
    result: str  # one of RESULTS, or PENDING


@dataclass(frozen=True)
class RoundIn:
    games: tuple[Game, ...] = ()
    walkovers: tuple[str, ...] = ()
    half_byes: tuple[str, ...] = ()  # requested half-point byes


@dataclass(frozen=True)
class GroupIn:
    players: tuple[str, ...]  # start-number order
    scale: str = ONE_HALF_ZERO
    rounds: tuple[RoundIn, ...] = ()
    classes: dict[str, str] = field(default_factory=dict)  # player -> BGP class ("" none)
    # chess-othello-options.md §1.1: the group's own list (None: the settings'), its format,
    # the players' ratings (for ARO) and the lot of `final_ties = lot`.
    tiebreaks: str | None = None
    group_format: str = tb.AUTO
    ratings: dict[str, int | None] = field(default_factory=dict)
    tiebreak_seed: int | str | None = None


# --- output ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """One player's round: what happened, against whom, with which colour, for how many points."""

    kind: str
    points: Fraction
    opponent: str | None = None
    colour: str | None = None

    @property
    def real(self) -> bool:
        return self.kind in (WIN, DRAWN, LOSS)


@dataclass(frozen=True)
class Term:
    """A Monrad term: the round's opponent and his final points (0 without a real game)."""

    round: int
    opponent: str | None
    value: Fraction
    cut: int  # 0: counted in every column; k: left out of the first k columns


@dataclass(frozen=True)
class BergerTerm:
    opponent: str
    kind: str  # WIN or DRAWN
    opponent_points: Fraction
    value: Fraction


@dataclass(frozen=True)
class GroupRow:
    player: str
    start: int  # start number, 1-based
    place: int
    points: Fraction
    monrad: tuple[Fraction, ...]
    berger: Fraction
    cells: tuple[str, ...]
    outcomes: tuple[Outcome, ...]
    terms: tuple[Term, ...]
    berger_terms: tuple[BergerTerm, ...]
    # One value per code of GroupOut.codes (a DE tier number, or None when not tied).
    tiebreaks: tuple[Fraction | int | None, ...] = ()


@dataclass(frozen=True)
class GroupOut:
    rows: tuple[GroupRow, ...]  # in group order
    rounds: int
    scale: str
    codes: tuple[str, ...] = ()


# --- points and outcomes ----------------------------------------------------------------------


def round_outcomes(group: GroupIn) -> list[dict[str, Outcome]]:
    """rules.md §3: what each round was for each player and the points it scores on the group's
    scale (a WO or forfeit win scores a win, a forfeit loss and a round not played score 0)."""
    scale = SCALES[group.scale]
    members = set(group.players)
    result: list[dict[str, Outcome]] = []
    for number, round_in in enumerate(group.rounds, start=1):
        entries: list[tuple[str, Outcome]] = []
        for game in round_in.games:
            if game.white == game.black:
                raise ValueError(f"round {number}: {game.white} cannot play himself")
            white, black = _game_kinds(game.result)
            entries.append((game.white, Outcome(white, _points(white, scale), game.black, WHITE)))
            entries.append((game.black, Outcome(black, _points(black, scale), game.white, BLACK)))
        entries.extend((player, Outcome(WALKOVER, scale.win)) for player in round_in.walkovers)
        entries.extend((player, Outcome(HALF_BYE, scale.draw)) for player in round_in.half_byes)
        outcomes: dict[str, Outcome] = {}
        for player, outcome in entries:
            if player not in members:
                raise ValueError(f"round {number}: {player} is not a player of the group")
            if player in outcomes:
                raise ValueError(f"round {number}: {player} appears twice")
            outcomes[player] = outcome
        for player in group.players:
            outcomes.setdefault(player, Outcome(NOT_PLAYED, Fraction(0)))
        result.append(outcomes)
    return result


def _game_kinds(result: str) -> tuple[str, str]:
    kinds = {
        WHITE_WINS: (WIN, LOSS),
        BLACK_WINS: (LOSS, WIN),
        DRAW: (DRAWN, DRAWN),
        WHITE_FORFEIT_WIN: (FORFEIT_WIN, FORFEIT_LOSS),
        BLACK_FORFEIT_WIN: (FORFEIT_LOSS, FORFEIT_WIN),
        PENDING: (UNFINISHED, UNFINISHED),
    }
    try:
        return kinds[result]
    except KeyError:
        raise ValueError(f"unknown result {result!r}") from None


def _points(kind: str, scale: Scale) -> Fraction:
    if kind in (WIN, FORFEIT_WIN, WALKOVER):
        return scale.win
    if kind == DRAWN:
        return scale.draw
    if kind == LOSS:
        return scale.loss
    return Fraction(0)


HALF_BYE_CELL = "=BYE"

# --- qualities --------------------------------------------------------------------------------


def cell(outcome: Outcome, places: dict[str, int]) -> str:
    """rules.md §3 crosstable cell: sign, colour and the opponent's Pl (`+H5`, `=S3`, `-H2`);
    `WO` for a walkover or forfeit win, `-WO` for a forfeit loss, empty when not played. A game
    without its result yet shows colour and opponent only (`H5`)."""
    if outcome.kind in (WALKOVER, FORFEIT_WIN):
        return "WO"
    if outcome.kind == FORFEIT_LOSS:
        return "-WO"
    if outcome.kind == NOT_PLAYED:
        return ""
    if outcome.kind == HALF_BYE:
        return HALF_BYE_CELL
    sign = {WIN: "+", DRAWN: "=", LOSS: "-", UNFINISHED: ""}[outcome.kind]
    return f"{sign}{outcome.colour}{places[outcome.opponent]}"


# --- the group table on an exact integer scale -------------------------------------------------

# Every value of a group table is a whole number of quarter points: points are sums of wins,
# draws and losses (halves on the 1-½-0 scale), Monrad sums of points, and Berger adds half of
# an opponent's points for a draw. Counting in quarters keeps it all in exact integers.
UNIT = 4
SCALED = {
    ONE_HALF_ZERO: {WIN: 4, FORFEIT_WIN: 4, WALKOVER: 4, DRAWN: 2, LOSS: 0, HALF_BYE: 2},
    THREE_TWO_ONE: {WIN: 12, FORFEIT_WIN: 12, WALKOVER: 12, DRAWN: 8, LOSS: 4, HALF_BYE: 8},
}
_KINDS = {
    WHITE_WINS: (WIN, LOSS),
    BLACK_WINS: (LOSS, WIN),
    DRAW: (DRAWN, DRAWN),
    WHITE_FORFEIT_WIN: (FORFEIT_WIN, FORFEIT_LOSS),
    BLACK_FORFEIT_WIN: (FORFEIT_LOSS, FORFEIT_WIN),
    PENDING: (UNFINISHED, UNFINISHED),
}
_REAL = frozenset((WIN, DRAWN, LOSS))
_NONE = (NOT_PLAYED, 0, None, None)


class ScaledRow(NamedTuple):
    """A group table row with every value in quarter points (UNIT). `results` holds per round
    (kind, points, opponent, colour); `values` the Monrad terms (the opponent's final points, 0
    without a real game) and `cuts` their cut (0: counted in every column; k: left out of the
    first k columns). A named tuple, as `Game`."""

    player: str
    start: int
    place: int
    points: int
    monrad: tuple[int, ...]
    berger: int
    cells: tuple[str, ...]
    results: tuple[tuple[str, int, str | None, str | None], ...]
    values: tuple[int, ...]
    cuts: tuple[int, ...]
    # One value per code of the group's tie-break list (ScaledGroup.codes): points codes in
    # quarters, counts and ratings as they are, a DE tier number or None (not tied).
    tiebreaks: tuple[int | None, ...] = ()
    # Per code, for BH and SB codes (else None), the rounds' items (tb.Item) with their cuts.
    tiebreak_terms: tuple[tuple | None, ...] = ()


@dataclass(frozen=True)
class ScaledGroup:
    rows: tuple[ScaledRow, ...]  # in group order
    rounds: int
    scale: str
    codes: tuple[str, ...] = ()  # the tie-break list, macros expanded
    round_robin: bool = False  # the format FIDE codes used (§1.5)


def _scaled_results(group: GroupIn) -> list[list]:
    """Per player (start order) his rounds as (kind, points, opponent, colour), in quarters. An
    invalid round raises the error `round_outcomes` names."""
    index = {p: i for i, p in enumerate(group.players)}
    scale = SCALED[group.scale]
    count = len(group.rounds)
    results = [[_NONE] * count for _ in group.players]
    for r, round_in in enumerate(group.rounds):
        seen = set()
        for game in round_in.games:
            kinds = _KINDS.get(game.result)
            white, black = index.get(game.white), index.get(game.black)
            if kinds is None or white is None or black is None or white == black:
                round_outcomes(group)  # raises the error of this round
            if white in seen or black in seen:
                round_outcomes(group)
            seen.add(white)
            seen.add(black)
            results[white][r] = (kinds[0], scale.get(kinds[0], 0), game.black, WHITE)
            results[black][r] = (kinds[1], scale.get(kinds[1], 0), game.white, BLACK)
        for player in round_in.walkovers:
            i = index.get(player)
            if i is None or i in seen:
                round_outcomes(group)
            seen.add(i)
            results[i][r] = (WALKOVER, scale[WALKOVER], None, None)
        for player in round_in.half_byes:
            i = index.get(player)
            if i is None or i in seen:
                round_outcomes(group)
            seen.add(i)
            results[i][r] = (HALF_BYE, scale[HALF_BYE], None, None)
    return results


# A crosstable cell's sign of a played game's outcome.
_SIGNS = {WIN: "+", DRAWN: "=", LOSS: "-", UNFINISHED: ""}


def group_scaled(group: GroupIn, settings: Settings | None = None) -> ScaledGroup:
    """rules.md §3: the group table in quarter points (see `group_table`, which gives the same
    table in Fractions)."""
    settings = settings or Settings()
    players = group.players
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice in the group")
    results = _scaled_results(group)
    rounds = len(group.rounds)
    points = [sum(item[1] for item in mine) for mine in results]
    final = dict(zip(players, points, strict=True))  # a player's final points by key
    cuts_made = 2 if rounds >= settings.monrad_long_from else 1
    columns = 3 if rounds >= settings.monrad_long_from else 2
    built = []
    for i, mine in enumerate(results):
        values = []
        berger = 0
        for kind, _p, o, _c in mine:
            if kind in _REAL:
                value = final[o]
                values.append(value)
                if kind == WIN:
                    berger += value
                elif kind == DRAWN:
                    berger += value // 2  # points are even in quarters
            else:
                values.append(0)
        # The lowest values are cut; among equal values the earliest round is named (same sum).
        cuts = [0] * rounds
        lowest = sorted(range(rounds), key=values.__getitem__)[:cuts_made]  # a stable sort
        for k, r in enumerate(lowest):
            cuts[r] = cuts_made - k
        # Column c sums the values not cut, and those cut at level c or below: the total less
        # the values cut above c, which are the first cuts_made - c of the lowest. Column 0
        # leaves out every value cut; each next column adds back the one cut at its level.
        column_sum = sum(values)
        for r in lowest:
            column_sum -= values[r]
        sums = [column_sum]
        for c in range(1, columns):
            k = cuts_made - c
            if 0 <= k < len(lowest):
                column_sum += values[lowest[k]]
            sums.append(column_sum)
        monrad = tuple(sums)
        built.append((points[i], monrad, berger, values, cuts))
    codes = tb.expand(group.tiebreaks or settings.tiebreaks, rounds, settings.monrad_long_from)
    round_robin = False
    if tb.is_nsf_default(codes, rounds, settings.monrad_long_from) and (
        settings.final_ties == tb.SHARE
    ):
        # Today's list: points, the Monrad columns, Berger (rules.md §3).
        keys = [(pts, *monrad, berger) for pts, monrad, berger, _v, _c in built]
        tiebreaks = [(*monrad, berger) for _pts, monrad, berger, _v, _c in built]
        terms = None
        ranked = rank_by(
            range(len(players)),
            key=keys.__getitem__,
            tie_order=lambda i: i,
        )
    else:
        computed = tb.Computed(
            tb.Context(
                players=players,
                results=tuple(tuple(mine) for mine in results),
                scale={k: v for k, v in SCALED[group.scale].items() if k in (WIN, DRAWN, LOSS)},
                rule=settings.unplayed_rounds,
                group_format=group.group_format,
                ratings=tuple(group.ratings.get(p) for p in players),
                aro_unrated=settings.aro_unrated,
                monrad_long_from=settings.monrad_long_from,
            )
        )
        round_robin = computed.round_robin
        done = tb.rank(computed, points, codes, settings.final_ties, group.tiebreak_seed)
        tiebreaks = done.values
        terms = [
            tuple(
                tuple(tb.explain(computed, code, i)) if code[:2] in ("BH", "SB") else None
                for code in codes
            )
            for i in range(len(players))
        ]
        ranked = [(done.places[i], i) for i in done.order]
    places = {players[i]: place for place, i in ranked}
    rows = []
    for place, i in ranked:
        pts, monrad, berger, values, cuts = built[i]
        cells = []
        for kind, _p, opponent, colour in results[i]:
            if kind in (WALKOVER, FORFEIT_WIN):
                cells.append("WO")
            elif kind == FORFEIT_LOSS:
                cells.append("-WO")
            elif kind == NOT_PLAYED:
                cells.append("")
            elif kind == HALF_BYE:
                cells.append(HALF_BYE_CELL)
            else:
                cells.append(f"{_SIGNS[kind]}{colour}{places[opponent]}")
        rows.append(
            ScaledRow(
                player=players[i],
                start=i + 1,
                place=place,
                points=pts,
                monrad=monrad,
                berger=berger,
                cells=tuple(cells),
                results=tuple(results[i]),
                values=tuple(values),
                cuts=tuple(cuts),
                tiebreaks=tuple(tiebreaks[i]),
                tiebreak_terms=terms[i] if terms else (),
            )
        )
    return ScaledGroup(
        rows=tuple(rows),
        rounds=rounds,
        scale=group.scale,
        codes=codes,
        round_robin=round_robin,
    )


def group_table(group: GroupIn, settings: Settings | None = None) -> GroupOut:
    """rules.md §3: the group table. Order: points, then the Monrad columns left to right, then
    Berger; players equal on all of them share the place number. Computed in quarter points
    (`group_scaled`), given in Fractions."""
    scaled = group_scaled(group, settings)
    points = {r.player: r.points for r in scaled.rows}

    def q(value: int) -> Fraction:
        return Fraction(value, UNIT)

    rows = []
    for r in scaled.rows:
        outcomes = tuple(Outcome(kind, q(p), o, c) for kind, p, o, c in r.results)
        terms = tuple(
            Term(round=n, opponent=o if kind in _REAL else None, value=q(v), cut=cut)
            for n, ((kind, _p, o, _c), v, cut) in enumerate(
                zip(r.results, r.values, r.cuts, strict=True), start=1
            )
        )
        b_terms = tuple(
            BergerTerm(
                o,
                kind,
                q(points[o]),
                q(points[o] if kind == WIN else points[o] // 2),
            )
            for kind, _p, o, _c in r.results
            if kind in (WIN, DRAWN)
        )
        rows.append(
            GroupRow(
                player=r.player,
                start=r.start,
                place=r.place,
                points=q(r.points),
                monrad=tuple(q(v) for v in r.monrad),
                berger=q(r.berger),
                cells=r.cells,
                outcomes=outcomes,
                terms=terms,
                berger_terms=b_terms,
                tiebreaks=tuple(
                    q(v) if v is not None and tb.is_points(code) else v
                    for code, v in zip(scaled.codes, r.tiebreaks, strict=True)
                ),
            )
        )
    return GroupOut(rows=tuple(rows), rounds=scaled.rounds, scale=scaled.scale, codes=scaled.codes)


# --- BGP points -------------------------------------------------------------------------------

# chess-othello-options.md §2.1: the county championship's scale.
COUNTY_WINNER_OTHERS, COUNTY_DENSE = "winner_others", "dense"
# §2.6: the rule that gave a class its scale, in the order they are tried.
RULE_COUNTY = "county"  # county championship, winner / others
RULE_COUNTY_DENSE = "county-dense"  # county championship on the dense scale (2024)
RULE_DENSE = "dense"  # the tournament's dense scale granted on application
RULE_LARGE = "large"  # more than bgp_large_over participants
RULE_ALT = "alt"  # the small-class / single-club scale (1996/1998)
RULE_SMALL = "small"


class BgpRow(NamedTuple):
    """A player's BGP points of one tournament (a named tuple, as `ScaledRow`: a season makes
    one per player and tournament). `rule` names the scale (§2.6); `after` is, for a beginner
    placed after his age class (§2.2), the number of that class's other players placed before
    him (0 for everyone else)."""

    player: str
    player_class: str
    group: int  # index of the group in the tournament
    place: int  # place within the class in that group (a beginner's: in the tournament)
    points: int
    rule: str = RULE_SMALL
    after: int = 0


class ClassScale(NamedTuple):
    """The points of a class's places in one tournament: `scale` place by place, then
    `further` for every further place; `rule` says why (§2.6)."""

    rule: str
    scale: tuple[int, ...]
    further: int


def bgp_scale(participants: int, settings: Settings) -> tuple[int, ...]:
    """rules.md §3: more than 50 participants: 20, 19, ..., 6; else 20, 17, 15, 13, 11, 10, 9, 8,
    7, 6 (exactly 50 is the short scale); every further place gets 5."""
    return settings.bgp_large if participants > settings.bgp_large_over else settings.bgp_small


def class_scale(
    settings: Settings,
    *,
    participants: int,
    county: bool,
    dense: bool = False,
    class_size: int | None = None,
    single_club: bool = False,
) -> ClassScale:
    """chess-othello-options.md §2.6, the first rule that matches: (1) a county championship
    (`county_scale`: 20 to each class winner and 10 to everyone else, or the dense scale);
    (2) the tournament's dense scale, or more than `bgp_large_over` participants: the long
    scale; (3) `bgp_alt_scale` when set and the class has fewer than `bgp_alt_class_under`
    players (`class_size`) or, with `bgp_alt_single_club`, every participant is of one club;
    (4) the short scale."""
    if county:
        if settings.county_scale == COUNTY_DENSE:
            return ClassScale(RULE_COUNTY_DENSE, settings.bgp_large, settings.bgp_further)
        return ClassScale(RULE_COUNTY, (settings.county_winner,), settings.county_others)
    if dense:
        return ClassScale(RULE_DENSE, settings.bgp_large, settings.bgp_further)
    if participants > settings.bgp_large_over:
        return ClassScale(RULE_LARGE, settings.bgp_large, settings.bgp_further)
    if settings.bgp_alt_scale and (
        (class_size is not None and class_size < settings.bgp_alt_class_under)
        or (settings.bgp_alt_single_club and single_club)
    ):
        return ClassScale(RULE_ALT, settings.bgp_alt_scale, settings.bgp_further)
    return ClassScale(RULE_SMALL, settings.bgp_small, settings.bgp_further)


def scale_points(place: int, scale: ClassScale) -> int:
    """The points of a place on a class's scale: its listed value, else `further`."""
    return scale.scale[place - 1] if place <= len(scale.scale) else scale.further


def bgp_points(place: int, participants: int, county: bool, settings: Settings) -> int:
    """rules.md §3: the BGP points of a place within a class; a county championship
    ("Kretsmesterskap") gives 20 to each class winner and 10 to everyone else."""
    return scale_points(place, class_scale(settings, participants=participants, county=county))


def class_places(rows: Sequence[GroupRow], classes: dict[str, str]) -> list[tuple[str, str, int]]:
    """rules.md §3: a group's players of one class in group order; players sharing a group place
    share the class place. (player, class, place) in group order; players without a class have
    none."""
    places: dict[str, list[int]] = defaultdict(list)  # the group places of each class
    for row in rows:
        name = classes.get(row.player)
        if name:
            places[name].append(row.place)
    for found in places.values():
        found.sort()
    result = []
    for row in rows:
        name = classes.get(row.player)
        if not name:
            continue
        better = bisect_left(places[name], row.place)  # the class's players placed better
        result.append((row.player, name, better + 1))
    return result


def group_finished(group: GroupIn) -> bool:
    """rules.md §3 Decision: a group earns BGP points once it has been played: it has a round,
    and every game of every round has its result. A group without rounds (its players only
    entered) or with a result to come gives nobody points yet."""
    return bool(group.rounds) and all(
        game.result != PENDING for round_ in group.rounds for game in round_.games
    )


def single_club(clubs: Mapping[str, str | None]) -> bool:
    """chess-othello-options.md §2.4: every participant's club is the same, non-empty club (a
    participant without a club means not single-club)."""
    found = set(clubs.values())
    return len(found) == 1 and bool(next(iter(found)))


def tournament_bgp(
    groups: Sequence[tuple[GroupOut, dict[str, str]]],
    *,
    participants: int,
    county: bool,
    settings: Settings | None = None,
    dense: bool = False,
    beginners: frozenset[str] = frozenset(),
    classes: Mapping[str, str] | None = None,
    clubs: Mapping[str, str | None] | None = None,
) -> list[BgpRow]:
    """rules.md §3: BGP points per class within each group (a class split over two groups is
    ranked separately in each), on the class's scale (`class_scale`). Rows by class (in order of
    first appearance), then beginners placed after their class, group, place and start number.

    chess-othello-options.md §2: `dense` is the tournament's dense scale; `beginners` the
    players flagged as beginners; `classes` every player of the tournament with his class (the
    class sizes of §2.2 and §2.4; default: the players of `groups`); `clubs` every participant's
    club (§2.4's single-club test; default: not single-club). With `beginners_after_class` a
    beginner's class place is the number of his class's other players in the tournament, plus
    his place among his group's beginners of that class; the others are placed among
    themselves."""
    settings = settings or Settings()
    after_class = settings.beginners_after_class
    if classes is None:
        classes = {p: c for _out, mine in groups for p, c in mine.items()}
    sizes: dict[str, int] = defaultdict(int)  # the class's players, beginners left out
    for player, name in classes.items():
        if name and player not in beginners:
            sizes[name] += 1
    one_club = single_club(clubs) if clubs else False
    scales: dict[str, ClassScale] = {}
    rows = []
    for index, (out, mine) in enumerate(groups):
        placed = [(mine, 0)]
        if after_class and beginners:
            placed = [
                ({p: c for p, c in mine.items() if p not in beginners}, 0),
                ({p: c for p, c in mine.items() if p in beginners}, 1),
            ]
        for part, beginner in placed:
            for player, name, place in class_places(out.rows, part):
                scale = scales.get(name)
                if scale is None:
                    scale = scales[name] = class_scale(
                        settings,
                        participants=participants,
                        county=county,
                        dense=dense,
                        class_size=sizes[name],
                        single_club=one_club,
                    )
                ahead = sizes[name] if beginner else 0
                rows.append(
                    BgpRow(
                        player=player,
                        player_class=name,
                        group=index,
                        place=ahead + place,
                        points=scale_points(ahead + place, scale),
                        rule=scale.rule,
                        after=ahead,
                    )
                )
    order = {}
    for row in rows:
        order.setdefault(row.player_class, len(order))
    return sorted(rows, key=lambda r: (order[r.player_class], r.after > 0, r.group, r.place))


class ClassRow(NamedTuple):
    """A player's line of a class's season standings (a named tuple, as `BgpRow`). `counted`
    are the results summed; `dropped` those left out by `bgp_best_n`."""

    player: str
    rank: int
    points: int
    counted: tuple[tuple[str, int], ...]  # (tournament id, points) in tournament order
    dropped: tuple[tuple[str, int], ...] = ()


def best_results(
    items: Sequence[tuple[str, int]], best_n: int
) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]:
    """chess-othello-options.md §2.3: the `best_n` highest results (0: all), among equal points
    the earlier tournament; (counted, dropped), each in tournament order."""
    if not best_n or len(items) <= best_n:
        return tuple(items), ()
    best = set(sorted(range(len(items)), key=lambda i: (-items[i][1], i))[:best_n])
    return (
        tuple(item for i, item in enumerate(items) if i in best),
        tuple(item for i, item in enumerate(items) if i not in best),
    )


def season_bgp(
    tournaments: Iterable[tuple[str, Sequence[BgpRow]]], best_n: int = 0
) -> dict[str, list[ClassRow]]:
    """rules.md §3 season BGP standings per class: the sum of the player's BGP points in that
    class (only his `best_n` best, chess-othello-options.md §2.3; 0: all); ties share the rank
    (listed by player id, which decides nothing)."""
    counted: dict[str, dict[str, list[tuple[str, int]]]] = defaultdict(lambda: defaultdict(list))
    for tournament, rows in tournaments:
        for row in rows:
            counted[row.player_class][row.player].append((tournament, row.points))
    standings: dict[str, list[ClassRow]] = {}
    for name, players in counted.items():
        chosen = {p: best_results(items, best_n) for p, items in players.items()}
        totals = {p: sum(points for _t, points in kept) for p, (kept, _d) in chosen.items()}
        ranked = rank_by(totals, key=lambda p: totals[p], tie_order=lambda p: p)
        standings[name] = [
            ClassRow(
                player=p,
                rank=rank,
                points=totals[p],
                counted=chosen[p][0],
                dropped=chosen[p][1],
            )
            for rank, p in ranked
        ]
    return standings
