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

The variants of keizer-variants.md (§1–§2) are settings of the same computation; their defaults
are rules.md §4, so a season without them computes the same numbers. One path serves them all:
a list is made by passes of `F_k` (§1.5), one pass for `previous` valuation, up to a fixed point
(or a cycle, or the bound) for `current`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from math import lcm

from competitions.systems.keizer.values import automatic_top, normalised, place_values

__all__ = [
    "BreakdownLine",
    "Term",
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
    "own_weight",
    "player_terms",
    "ranked_players",
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
LONG_ABSENT = "long_absent"  # keizer-variants.md §1.3: the second kind of absence
OWN = "own"  # the breakdown's line of the own value counted once (§2.1)
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
# An external game's own result (keizer-variants.md §2.5).
EXTERNAL_RESULTS = ("1", "1/2", "0")

# keizer-variants.md §1.5 and §2: the choices of the settings.
PREVIOUS, CURRENT = "previous", "current"
HALF_UP, HALF_EVEN = "half-up", "half-even"
FADING, NO_START, PERMANENT = "fading", "none", "permanent"
# How a `current` list ended (§1.5).
FIXED_POINT, CYCLE, BOUND = "fixed-point", "cycle", "bound"


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
    long_absent: Fraction = Fraction(1, 3)  # keizer-variants.md §2
    external_win: Fraction = Fraction(1)  # §2.5, with `external_by_result`
    external_draw: Fraction = Fraction(1, 2)
    external_loss: Fraction = Fraction(0)

    def of(self, kind: str) -> Fraction:
        """The factor of an outcome; a forfeit win is a win, a forfeit loss scores nothing."""
        return {
            WIN: self.win,
            FORFEIT_WIN: self.win,
            DRAW: self.draw,
            LOSS: self.loss,
            BYE: self.bye,
            ABSENT: self.absent,
            LONG_ABSENT: self.long_absent,
            EXTERNAL: self.external,
            UNEXCUSED: self.unexcused,
        }.get(kind, Fraction(0))

    def game(self, kind: str) -> Fraction:
        """keizer-variants.md §1.3: f of a game against a withdrawn opponent, a forfeit loss
        counted as a loss."""
        if kind in (WIN, FORFEIT_WIN):
            return self.win
        return self.draw if kind == DRAW else self.loss

    def external_of(self, result: str) -> Fraction:
        """§2.5: the share of an external game by the player's own result there."""
        return {"1": self.external_win, "1/2": self.external_draw}.get(result, self.external_loss)


@dataclass(frozen=True)
class Settings:
    """rules.md §4 and keizer-variants.md §2; the defaults are rules.md §4."""

    top_value: int | None = None  # None: R(step · (n − 1) · r / (r − 1)), r = value_ratio
    step: int = 1
    start_fade_rounds: int = 10
    factors: Factors = field(default_factory=Factors)
    own_value_once: bool = False
    own_value_fade_rounds: int = 0
    valuation: str = PREVIOUS
    fixed_point_max_passes: int = 100
    top_value_rounding: str = HALF_UP
    value_ratio: Fraction = Fraction(3)
    normalised_values: bool = False
    external_by_result: bool = False
    absent_max: int = 0
    long_absent_max: int = 0
    absence_halving: bool = False
    withdrawn_credit: Fraction | None = None
    start_points: str = FADING


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
    long_absent: tuple[str, ...] = ()
    external_results: tuple[tuple[str, str], ...] = ()  # (player, "1" | "1/2" | "0")


@dataclass(frozen=True)
class SeasonIn:
    players: tuple[str, ...]  # the initial list, strongest first
    start_points: Mapping[str, Fraction]  # set by hand; the others get their default
    rounds: tuple[RoundIn, ...]  # in number order
    settings: Settings = field(default_factory=Settings)
    closed: bool = False
    withdrawn: frozenset[str] = frozenset()  # keizer-variants.md §2.8


@dataclass(frozen=True, slots=True)
class Outcome:
    kind: str
    opponent: str | None = None
    colour: str | None = None  # "white" / "black" in a game
    result: str = ""  # of the game; of an external game, the player's own ("1", "1/2", "0")


# --- outputs ------------------------------------------------------------------------------------

Value = int | Fraction  # a place's value: whole, or a Fraction with `normalised_values`


@dataclass(slots=True)
class ListRow:
    """A line of a list; score and key are exact. Not frozen: a season makes a line per player
    per round (2,100 for 60 players over 35 evenings), and a frozen dataclass takes three times
    as long to make (its fields are set through object.__setattr__)."""

    player: str
    rank: int
    value: Value
    start_points: Fraction
    games: int  # games played over the board so far (forfeits not counted)
    score: Fraction
    key: Fraction


@dataclass(frozen=True, slots=True)
class ListOut:
    """The ranking list after round `after` (0: the initial list). `valued`: the values its
    scores are shares of (W_k of keizer-variants.md §1.5: the list before it with `previous`
    valuation, the list itself at a fixed point, the mean over a cycle); `passes` and `end`: how
    a `current` list was found (one pass and "" with `previous`)."""

    after: int
    top: Value
    weight: Fraction  # of the start points in this list
    rows: tuple[ListRow, ...]
    own_weight: Fraction = Fraction(0)  # of the own value counted once (§1.4)
    passes: int = 1
    end: str = ""
    valued: Mapping[str, Value] = field(default_factory=dict)

    def values(self) -> dict[str, Value]:
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


@dataclass(frozen=True, slots=True)
class Term:
    """What a player's result in a round is worth, whatever the list it is valued with:
    `share` × the value of `basis` (keizer-variants.md §1.3). `share` = `factor` × `multiplier`
    (the absence cap times the halving, §2.6–2.7); `nth`: the how-many-th absence of its kind
    (for the cap), `halving`: h of §2.7 (0: not halved); `withdrawn`: a game against a
    withdrawn opponent, credited with `withdrawn_credit` × f of the own value (§2.8)."""

    round: int
    outcome: Outcome
    basis: str | None  # whose value (None: scores nothing)
    valued: str | None  # "opponent" or "own"
    factor: Fraction
    share: Fraction
    multiplier: Fraction = Fraction(1)
    nth: int = 0
    capped: bool = False
    halving: int = 0
    withdrawn: bool = False


@dataclass(frozen=True)
class BreakdownLine:
    round: int  # 0: the own value counted once
    outcome: Outcome
    value: Value | None  # the value the result is worth a share of (None: scores nothing)
    valued: str | None  # whose value: the opponent's or the player's own
    factor: Fraction  # the share applied (the factor times any cap or halving)
    points: Fraction
    term: Term | None = None


# --- §4.1: values and start points ---------------------------------------------------------------


def top_value(n: int, settings: Settings) -> Value:
    """rules.md §4.1 / keizer-variants.md §1.2: the list's top value, set by hand or
    `automatic_top` (competitions.systems.keizer.values); with normalised values the top is r."""
    if settings.normalised_values:
        return normalised(n, settings.value_ratio)[0] if n else settings.value_ratio
    return settings.top_value or automatic_top(
        n, step=settings.step, ratio=settings.value_ratio, rounding=settings.top_value_rounding
    )


def values(n: int, settings: Settings) -> list[Value]:
    """rules.md §4.1: the value of each place 1..n on a list of n players
    (competitions.systems.keizer.values)."""
    return place_values(
        n,
        top_value=settings.top_value,
        step=settings.step,
        ratio=settings.value_ratio,
        normalised_values=settings.normalised_values,
        rounding=settings.top_value_rounding,
    )


def start_weight(k: int, fade_rounds: int) -> Fraction:
    """rules.md §4.1: the start points weigh max(0, 1 − k / fade_rounds) after round k."""
    return max(Fraction(0), 1 - Fraction(k, fade_rounds))


def list_start_weight(k: int, last: int, closed: bool, settings: Settings) -> Fraction:
    """keizer-variants.md §1.4, w_start(k): fading (rules.md: and 0 in a closed season's final
    list), none (only the initial list), or permanent."""
    if settings.start_points == PERMANENT:
        return Fraction(1)
    if settings.start_points == NO_START:
        return Fraction(1 if k == 0 else 0)
    if closed and k == last:
        return Fraction(0)
    return start_weight(k, settings.start_fade_rounds)


def own_weight(k: int, settings: Settings) -> Fraction:
    """keizer-variants.md §1.4, w_own(k): 0 without `own_value_once`; else 1, or fading over
    `own_value_fade_rounds`: max(0, 1 − k/F)."""
    if not settings.own_value_once:
        return Fraction(0)
    if not settings.own_value_fade_rounds:
        return Fraction(1)
    return max(Fraction(0), 1 - Fraction(k, settings.own_value_fade_rounds))


def ranked_players(season: SeasonIn) -> tuple[str, ...]:
    """The players on the lists, in initial order: with `withdrawn_credit` set, the withdrawn
    are on no list (keizer-variants.md §2.8); otherwise the flag only stops pairing."""
    if season.settings.withdrawn_credit is None or not season.withdrawn:
        return season.players
    return tuple(p for p in season.players if p not in season.withdrawn)


def default_start_points(season: SeasonIn) -> dict[str, Fraction]:
    """rules.md §4.1: each player's start points, by default the value of their place in the
    initial list."""
    players = ranked_players(season)
    place_values = values(len(players), season.settings)
    return {
        player: Fraction(season.start_points[player])
        if season.start_points.get(player) is not None
        else Fraction(place_values[i])
        for i, player in enumerate(players)
    }


# --- §4.2: what each player did in a round, and what it scores ----------------------------------


def round_complete(round_in: RoundIn) -> bool:
    """A round counts once it is paired (nobody merely present) and every game has a result;
    an evening with nothing entered yet does not count."""
    entered = (
        (round_in.games or round_in.byes or round_in.absent or round_in.external)
        or round_in.unexcused
        or round_in.long_absent
    )
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
        (LONG_ABSENT, round_in.long_absent),
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
    external = dict(round_in.external_results)
    for kind, players in _listed(round_in):
        for player in players:
            if kind == EXTERNAL and player in external:
                outcomes[player] = Outcome(kind, result=external[player])
            else:
                outcomes[player] = Outcome(kind)
    return outcomes


def outcome_points(outcome: Outcome, own: int, opponent: int | None, factors: Factors) -> Fraction:
    """rules.md §4.2: win 1, draw 1/2, loss 1/6 of the opponent's value; bye 2/3, absent with
    notice 1/2, external 2/3, absent without notice 0 of the player's own value."""
    factor = factors.of(outcome.kind)
    if outcome.kind in AGAINST_OPPONENT:
        return factor * (opponent or 0)
    return factor * own


class _Terms:
    """keizer-variants.md §1.3: what each of a player's results, given in round order, is
    worth, as a share of whose value, with the caps (§2.6) and halving (§2.7) counted over the
    rounds and games against withdrawn opponents credited (§2.8). The one place these rules
    are: the lists (round by round, keeping no term) and every breakdown (`player_terms`) use
    it. `withdrawn` counts only with `withdrawn_credit` set."""

    __slots__ = ("player", "settings", "withdrawn", "caps", "counts", "absences")

    def __init__(self, player: str, settings: Settings, withdrawn: frozenset[str] | set[str]):
        self.player = player
        self.settings = settings
        self.withdrawn = withdrawn
        self.caps = {ABSENT: settings.absent_max, LONG_ABSENT: settings.long_absent_max}
        self.counts = {ABSENT: 0, LONG_ABSENT: 0}
        self.absences = 0  # absent or unexcused, for the halving

    def __call__(self, number: int, outcome: Outcome) -> Term:
        """The term of the player's next result (round `number`)."""
        settings, player = self.settings, self.player
        factors = settings.factors
        credit = settings.withdrawn_credit
        kind = outcome.kind
        if kind in AGAINST_OPPONENT:
            if credit is not None and outcome.opponent in self.withdrawn:
                share = credit * factors.game(kind)
                return Term(number, outcome, player, "own", share, share, withdrawn=True)
            share = factors.of(kind)
            return Term(number, outcome, outcome.opponent, "opponent", share, share)
        if kind not in (BYE, ABSENT, LONG_ABSENT, EXTERNAL, UNEXCUSED):
            return Term(number, outcome, None, None, Fraction(0), Fraction(0))
        if kind == EXTERNAL and settings.external_by_result and outcome.result:
            factor = factors.external_of(outcome.result)
        else:
            factor = factors.of(kind)
        multiplier, nth, capped, halving = Fraction(1), 0, False, 0
        if kind in self.counts:
            self.counts[kind] += 1
            nth = self.counts[kind]
            if self.caps[kind] and nth > self.caps[kind]:
                multiplier, capped = Fraction(0), True
        if kind in (ABSENT, UNEXCUSED):
            self.absences += 1
            if settings.absence_halving:
                halving = self.absences
                multiplier /= 2 ** (self.absences - 1)
        share = factor if multiplier == 1 else factor * multiplier
        return Term(number, outcome, player, "own", factor, share, multiplier, nth, capped, halving)


def player_terms(
    player: str,
    outcomes: Iterable[tuple[int, Outcome]],
    settings: Settings,
    withdrawn: frozenset[str] | set[str] = frozenset(),
) -> list[Term]:
    """keizer-variants.md §1.3: the terms of a player's results (in round order), `_Terms`."""
    term = _Terms(player, settings, withdrawn)
    return [term(number, outcome) for number, outcome in outcomes]


# --- the lists ----------------------------------------------------------------------------------


def compute_season(season: SeasonIn) -> SeasonOut:
    """rules.md §4.1–4.2: the list after every counted round. The score after round k sums the
    results of rounds 1..k, each valued with the values of the list after round k − 1 (the
    list round k was paired from); the key adds the start points times their weight. A closed
    season's last list gives the start points no weight.

    keizer-variants.md §1.4–1.5: the score may add the own value once, and with `current`
    valuation the list is found by passes of F_k until it values itself (a fixed point), a
    list repeats (a cycle: mean keys over it) or `fixed_point_max_passes` is reached. One pass
    is `previous` valuation, the default.

    The arithmetic of a pass is exact and in integers, over a common denominator (a list takes
    up to a dozen passes with `current` valuation, and Fraction arithmetic was nine tenths of
    the time). For the list after round k, `scale` is the least common multiple of the
    denominators of every share in use, of w_own(k) and of w_start(k) × every player's start
    points; the values a pass is valued with are integers over their own denominator `dv` (the
    least common multiple of the place values' denominators; over a cycle, times its length).
    With V = value × dv, a player's score is S / (scale × dv) and key (S + T) / (scale × dv):

        S = Σ (share × scale) × Σ V[bases] + (w_own × scale) × V[own]
        T = (w_start × start points × scale) × dv

    and the list is the players by S + T, highest first (ties in the initial order). The scores
    and keys reported, and the values a list was valued with, are the Fractions these integers
    stand for, made once per list."""
    settings = season.settings
    players = ranked_players(season)
    withdrawn = season.withdrawn if settings.withdrawn_credit is not None else frozenset()
    n = len(players)
    initial = {p: i for i, p in enumerate(players)}
    place_values = values(n, settings)
    top = top_value(n, settings)
    start = default_start_points(season)
    rounds = counted_rounds(season.rounds)
    last = len(rounds)
    max_passes = settings.fixed_point_max_passes if settings.valuation == CURRENT else 1

    start_list = [start[p] for p in players]
    # Per player (by initial index), the terms of the results as the rounds come
    # (keizer-variants.md §1.3); none is kept, only the sums below.
    terms = [_Terms(player, settings, withdrawn) for player in players]

    # Per player, the results of the rounds so far grouped by their share: the indexes of the
    # players whose values they are shares of (n: nobody on the list, value 0). A score is
    # the sum, over the shares, of share × the sum of those values, plus the own value times
    # its weight. Round k's results join, then the list after round k is made by passes of F_k.
    shares: list[dict[Fraction, list[int]]] = [defaultdict(list) for _ in players]
    games = [0] * n  # games played over the board so far, by initial index
    lists: list[ListOut] = []
    indexes = range(n)
    order = list(indexes)  # L_{−1}: the initial list
    zero = Fraction(0)
    # The place values as integers over their common denominator.
    dv_places = lcm(*(v.denominator for v in place_values))
    integer_places = [int(v * dv_places) for v in place_values]

    def valued_by(listed: Sequence[int], by_place: Sequence[Value]) -> list[Value]:
        """The values by initial index of a list (by initial indexes in its order); [n]: 0."""
        found: list[Value] = [0] * (n + 1)
        for place, i in enumerate(listed):
            found[i] = by_place[place]
        return found

    for k in range(last + 1):
        if k:
            outcomes = round_outcomes(rounds[k - 1])
            for i in indexes:
                outcome = outcomes.get(players[i])
                if outcome is None:
                    continue
                term = terms[i](k, outcome)
                if term.share:
                    shares[i][term.share].append(initial.get(term.basis, n))
                if outcome.kind in PLAYED:
                    games[i] += 1
        weight = list_start_weight(k, last, season.closed, settings)
        w_own = own_weight(k, settings)
        # The list's common denominator, and every coefficient of a pass as a multiple of it.
        weighted_start = [weight * s for s in start_list] if weight else [zero] * n
        scale = lcm(
            w_own.denominator,
            *(share.denominator for by_share in shares for share in by_share),
            *(w.denominator for w in weighted_start),
        )

        def scaled(x: Fraction, scale: int = scale) -> int:
            """x × scale, whole: scale is a multiple of x's denominator."""
            return x.numerator * (scale // x.denominator)

        coefficients = [
            [(scaled(share), bases) for share, bases in shares[i].items()] for i in indexes
        ]
        own_coefficient = scaled(w_own)
        start_terms = [scaled(w) for w in weighted_start]

        def ordered(
            value_of: Sequence[int],
            dv: int,
            coefficients: list[list[tuple[int, list[int]]]] = coefficients,
            own_coefficient: int = own_coefficient,
            start_terms: list[int] = start_terms,
        ) -> tuple[list[int], list[int]]:
            """The list the values V = value × dv give (F_k of §1.4), and the scores' S: best
            key first; ties in the initial order (a stable sort keeps it)."""
            get = value_of.__getitem__
            scores = [
                sum([share * sum(map(get, bases)) for share, bases in coefficients[i]])
                for i in indexes
            ]
            if own_coefficient:
                scores = [scores[i] + own_coefficient * value_of[i] for i in indexes]
            keys = [scores[i] + start_terms[i] * dv for i in indexes]
            return sorted(indexes, key=keys.__getitem__, reverse=True), scores

        seen = [order]
        current = order
        end = BOUND
        for passes in range(1, max_passes + 1):  # noqa: B007 (passes is reported)
            valuing, dv = current, dv_places  # the list this pass is valued with
            following, scores = ordered(valued_by(valuing, integer_places), dv)
            if following == current:
                end = FIXED_POINT
                break
            if following in seen:
                # RESOLVE (a Decision): the mean over the cycle of every value, so of every
                # score and key (a score is linear in the values), ordered by the mean keys.
                # The mean of the V over a cycle of c lists is Σ V / c: the sum over dv × c.
                cycle = seen[seen.index(following) :]
                summed = [
                    sum(vs)
                    for vs in zip(*(valued_by(c, integer_places) for c in cycle), strict=True)
                ]
                dv = dv_places * len(cycle)
                following, scores = ordered(summed, dv)
                end = CYCLE
                break
            seen.append(following)
            current = following
        if end == CYCLE:
            value_of: list[Value] = [Fraction(v, dv) for v in summed]
        else:
            value_of = valued_by(valuing, place_values)
        if settings.valuation != CURRENT:
            end = ""  # `previous` valuation: one pass, nothing to report
        order = following
        denominator = scale * dv
        score_of = [Fraction(s, denominator) for s in scores]
        # A key without start points is its score (the same object: a season keeps every row).
        key_of = [
            Fraction(scores[i] + start_terms[i] * dv, denominator)
            if start_terms[i]
            else score_of[i]
            for i in indexes
        ]
        rows = tuple(
            ListRow(
                players[i], place + 1, place_values[place], start_list[i], games[i], score_of[i],
                key_of[i],
            )
            for place, i in enumerate(order)
        )  # fmt: skip
        lists.append(
            ListOut(
                after=k, top=top, weight=weight, rows=rows, own_weight=w_own,
                passes=passes, end=end,
                valued={players[i]: value_of[i] for i in indexes},
            )
        )  # fmt: skip
    return SeasonOut(lists=tuple(lists), start_points=start, counted=tuple(rounds))


def score_breakdown(
    player: str,
    outcomes: Iterable[tuple[int, Outcome]],
    values_before: Mapping[str, Value],
    factors: Factors | None = None,
    *,
    settings: Settings | None = None,
    withdrawn: frozenset[str] | set[str] = frozenset(),
    own: Fraction = Fraction(0),
) -> list[BreakdownLine]:
    """Every number explains itself: the lines of a player's score after round k — per round
    1..k the result, the value it is a share of (`values_before`: the values the list was
    valued with, W_k; the list after round k − 1 with `previous` valuation), the share and the
    points; first, with the own value counted once, `own` × his own value. Their sum is the
    score (rules.md §4.2, keizer-variants.md §1.3–1.4)."""
    if settings is None:
        settings = Settings(factors=factors or Factors())
    lines = []
    if own:
        mine = values_before.get(player, 0)
        lines.append(BreakdownLine(0, Outcome(OWN), mine, "own", own, own * mine))
    for term in player_terms(player, outcomes, settings, withdrawn):
        value = None if term.basis is None else values_before.get(term.basis, 0)
        share = term.share
        points = share * value if value is not None else Fraction(0)
        lines.append(
            BreakdownLine(term.round, term.outcome, value, term.valued, share, points, term)
        )
    return lines
