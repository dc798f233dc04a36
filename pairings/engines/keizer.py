"""Keizer pairing (rules.md §4.3): manual pairs, the bye, top-down pairing of allowed pairs,
colours, and the relaxation order when no pairing satisfies every rule.

Pure: the same input gives the same pairing. "Can everyone left still be paired" is a perfect-
matching question, answered exactly by `pairings.engines.matching` (Edmonds' blossom), so a
pairing is found whenever one exists under the rules of a stage.

Decisions where rules.md §4.3 is silent (the help page says the same):

- A forfeited game counts as a game for pairing: the two have met, and their colours count.
- The volunteer gets the bye only when the others can then all be paired; otherwise the bye goes
  bottom-up as without a volunteer, and the report says the bye rule was relaxed.
- Relaxing the bye rule (step 6a) keeps its preferences: the volunteer, then bottom-up the
  players without a bye in the previous 7 rounds, then bottom-up everybody else. "bye" is
  reported only when the bye went against step 2 (never when no bye was needed).
- Relaxations are reported by what the pairing needed: "rematch-gap:N" when the gap went below
  the setting, "colours" when the colour limits were dropped.
- Boards: pairs in the order of their higher-ranked player, manual pairs included.
- Every top-down pair names the players between its two who were passed over and why
  (`PassedOver`): each from the same check that refused the pair, or "the others could not all
  be paired otherwise" when the pair was allowed and only step 3's look-ahead moved it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pairings.engines.matching import has_perfect_matching, maximum_matching, pair_top_down

__all__ = [
    "ColourClash",
    "History",
    "NoPairing",
    "PairOut",
    "PairingOut",
    "PassedOver",
    "PastGame",
    "Refusal",
    "Rules",
    "Stage",
    "allowed_graph",
    "pair_round",
    "stages",
]

WHITE, BLACK = "white", "black"
RELAXED_BYE = "bye"
RELAXED_COLOURS = "colours"
# What a manual pair may break (rules.md §4.3 step 1: the page says which).
BREAKS_MEETINGS = "meetings"
BREAKS_REMATCH = "rematch-gap"
BREAKS_COLOURS = "colours"
# Why a nearer player was passed over (step 3: the page says it for a pair that is not the nearest).
MET_OFTEN = "met-often"  # step 4: they met `max_meetings` times
MET_RECENTLY = "met-recently"  # step 4: they met within the rematch gap
COLOURS = "colours"  # step 4: no colour assignment within the limits
REST_NEEDED = "rest-needed"  # step 3: allowed, but the others could not all be paired then
PAIRED_HIGHER = "paired-higher"  # step 3: paired already, with a higher-ranked player
MANUAL = "manual"  # step 1: in a manual pair
HAS_BYE = "bye"  # step 2: has the bye
# The reasons that are no rule against the pair: the player was not free any more.
NOT_FREE = frozenset({PAIRED_HIGHER, MANUAL, HAS_BYE})
RUN, BALANCE = "run", "balance"


@dataclass(frozen=True)
class Rules:
    """The numbers of rules.md §4.3 (season settings; these are the defaults)."""

    rematch_gap: int = 7  # met in round m: not again before round m + gap + 1
    max_meetings: int = 4  # never relaxed
    bye_gap: int = 7  # no bye if one in the previous 7 rounds
    colour_balance: int = 2  # |whites − blacks| at most this
    colour_run: int = 2  # at most this many games in a row with the same colour


@dataclass(frozen=True)
class PastGame:
    round: int
    white: str
    black: str


@dataclass(frozen=True)
class History:
    """The season's earlier games and byes."""

    games: tuple[PastGame, ...] = ()
    byes: tuple[tuple[int, str], ...] = ()  # (round, player)


@dataclass(frozen=True)
class ColourClash:
    """A colour a player may not take (rules.md §4.3 step 4): with `limit` RUN it would be his
    `value`-th game in a row with that colour; with BALANCE his whites − blacks would become
    `value`."""

    player: str
    colour: str
    limit: str
    value: int


@dataclass(frozen=True)
class Refusal:
    """Why a pair is not made: a rule of step 4 (MET_OFTEN with `meetings`, MET_RECENTLY with
    the `round` they last met, COLOURS with the `clashes` and, for a rematch, the `round` whose
    colours it reverses), or why a player was not free (PAIRED_HIGHER or MANUAL with the
    `partner`, HAS_BYE), or REST_NEEDED."""

    rule: str
    round: int | None = None
    meetings: int | None = None
    clashes: tuple[ColourClash, ...] = ()
    partner: str | None = None


@dataclass(frozen=True)
class PassedOver:
    """A player between a pair's two in the list, and why the higher one did not get him."""

    player: str
    why: Refusal


@dataclass(frozen=True)
class PairOut:
    white: str
    black: str
    manual: bool = False
    breaks: tuple[str, ...] = ()  # rules a manual pair breaks
    # Top-down pairs: every player ranked between the two, in list order, with the reason.
    passed_over: tuple[PassedOver, ...] = ()

    @property
    def nearest(self) -> bool:
        """Whether the lower player is the nearest one the higher could have had: everyone
        between was paired already or has the bye."""
        return all(p.why.rule in NOT_FREE for p in self.passed_over)


@dataclass(frozen=True)
class PairingOut:
    round: int
    pairs: tuple[PairOut, ...]
    bye: str | None
    relaxed: tuple[str, ...]
    volunteer_passed_over: bool = False  # a volunteer was given but could not have the bye

    def as_json(self) -> dict:
        """The `pair_round` JSON of interchange.md."""
        return {
            "round": self.round,
            "pairs": [{"white": p.white, "black": p.black, "manual": p.manual} for p in self.pairs],
            "bye": self.bye,
            "relaxed": list(self.relaxed),
        }


class NoPairing(ValueError):
    """rules.md §4.3 step 6: no pairing exists even with every relaxation; nothing is saved."""

    def __init__(self, unpaired: Sequence[str]) -> None:
        super().__init__("no pairing exists; cannot be paired: " + ", ".join(unpaired))
        self.unpaired = tuple(unpaired)


@dataclass(frozen=True)
class Stage:
    """One set of rules of step 6's relaxation order."""

    bye_relaxed: bool
    gap: int
    colour_limits: bool


def stages(rules: Rules, *, bye: bool) -> list[Stage]:
    """rules.md §4.3 step 6: all rules; then (a) the bye rule; (b) the rematch gap one round at
    a time from 7 down to 1; (c) the colour limits, the gap again from 7 down to 1. Without a bye
    to give, (a) changes nothing and is skipped."""
    gap = rules.rematch_gap
    result = [Stage(False, gap, True)]
    if bye:
        result.append(Stage(True, gap, True))
    result += [Stage(True, g, True) for g in range(gap - 1, 0, -1)]
    result += [Stage(True, g, False) for g in (list(range(gap, 0, -1)) or [gap])]
    return result


# --- what the history says about each player and pair ------------------------------------------


@dataclass
class _Player:
    colours: list[str] = field(default_factory=list)
    last_bye: int | None = None
    # Filled in once the history is read (they are asked n² times).
    balance: int = 0
    last: str | None = None
    no_white: ColourClash | None = None  # why white would break a limit
    no_black: ColourClash | None = None
    may_white: bool = True
    may_black: bool = True


@dataclass
class _Meetings:
    count: int = 0
    last_round: int = 0
    last_white: str = ""


NEW_PLAYER = _Player()


class _Facts:
    """The history condensed: colour sequences, byes, and meetings per pair."""

    def __init__(self, history: History, rules: Rules) -> None:
        self.rules = rules
        self.players: dict[str, _Player] = {}
        self.meetings: dict[tuple[str, str], _Meetings] = {}
        for game in sorted(history.games, key=lambda g: g.round):
            self._player(game.white).colours.append(WHITE)
            self._player(game.black).colours.append(BLACK)
            met = self.meetings.setdefault(_pair_key(game.white, game.black), _Meetings())
            met.count += 1
            if game.round >= met.last_round:
                met.last_round, met.last_white = game.round, game.white
        for number, player in history.byes:
            state = self._player(player)
            state.last_bye = max(state.last_bye or 0, number)
        for key, state in self.players.items():
            state.balance = sum(1 if c == WHITE else -1 for c in state.colours)
            state.last = state.colours[-1] if state.colours else None
            state.no_white = self._clash(key, state, WHITE)
            state.no_black = self._clash(key, state, BLACK)
            state.may_white = state.no_white is None
            state.may_black = state.no_black is None

    def _player(self, key: str) -> _Player:
        return self.players.setdefault(key, _Player())

    def get(self, key: str) -> _Player:
        return self.players.get(key, NEW_PLAYER)

    def _clash(self, key: str, state: _Player, colour: str) -> ColourClash | None:
        """rules.md §4.3 step 4: the colour must keep the balance within ±2 and not be the
        third in a row; None when it does, else which limit it breaks."""
        balance = state.balance + (1 if colour == WHITE else -1)
        if abs(balance) > self.rules.colour_balance:
            return ColourClash(key, colour, BALANCE, balance)
        run = self.rules.colour_run
        if len(state.colours) >= run and all(c == colour for c in state.colours[-run:]):
            return ColourClash(key, colour, RUN, run + 1)
        return None

    def clash(self, key: str, colour: str) -> ColourClash | None:
        state = self.get(key)
        return state.no_white if colour == WHITE else state.no_black

    def may_take(self, key: str, colour: str) -> bool:
        state = self.get(key)
        return state.may_white if colour == WHITE else state.may_black

    def had_bye_recently(self, key: str, number: int) -> bool:
        """rules.md §4.3 step 2: a bye in the previous `bye_gap` rounds."""
        last = self.get(key).last_bye
        return last is not None and number - last <= self.rules.bye_gap


def _pair_key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


# --- allowed pairs and colours ------------------------------------------------------------------


class _Rater:
    """The allowed-pair rule (step 4) and the colour choice (step 5) for one round."""

    def __init__(self, facts: _Facts, number: int) -> None:
        self.facts = facts
        self.number = number

    def colours(self, a: str, b: str, *, limits: bool) -> tuple[str, str] | None:
        """rules.md §4.3 step 5, a ranked above b: (white, black), or None when the limits leave
        no assignment (step 4). A pair that met gets its last colours reversed; otherwise the
        lower balance gets white, then the one who had black last, then the higher-ranked; if
        that breaks a limit and the reverse does not, the reverse."""
        facts = self.facts
        met = facts.meetings.get(_pair_key(a, b))
        if met is not None and met.count:
            white, black = (b, a) if met.last_white == a else (a, b)
            if limits and not (facts.may_take(white, WHITE) and facts.may_take(black, BLACK)):
                return None
            return white, black
        pa, pb = facts.get(a), facts.get(b)
        if pa.balance != pb.balance:
            preferred = (a, b) if pa.balance < pb.balance else (b, a)
        elif (pa.last == BLACK) != (pb.last == BLACK):
            preferred = (a, b) if pa.last == BLACK else (b, a)
        else:
            preferred = (a, b)
        if not limits:
            return preferred
        if (
            (pa.may_white and pb.may_black)
            if preferred[0] == a
            else (pb.may_white and pa.may_black)
        ):
            return preferred
        if (
            (pb.may_white and pa.may_black)
            if preferred[0] == a
            else (pa.may_white and pb.may_black)
        ):
            return preferred[::-1]
        return None

    # The rules of step 4, one check each: a Refusal, or None when the rule lets the pair be.

    def met_too_often(self, met: _Meetings | None) -> Refusal | None:
        """They met `max_meetings` times this season (never relaxed)."""
        if met is not None and met.count >= self.facts.rules.max_meetings:
            return Refusal(MET_OFTEN, meetings=met.count)
        return None

    def met_too_recently(self, met: _Meetings | None, gap: int) -> Refusal | None:
        """They met in round m and this round is before m + gap + 1."""
        if met is not None and self.number - met.last_round <= gap:
            return Refusal(MET_RECENTLY, round=met.last_round)
        return None

    def colour_limits_broken(self, white: str, black: str) -> tuple[ColourClash, ...]:
        """The limits that giving `white` white and `black` black would break."""
        facts = self.facts
        return tuple(
            c for c in (facts.clash(white, WHITE), facts.clash(black, BLACK)) if c is not None
        )

    def no_colours(self, a: str, b: str, met: _Meetings | None) -> Refusal | None:
        """No colour assignment within the limits: a rematch has its colours fixed (the last
        meeting's reversed, step 5), other pairs may take either."""
        facts = self.facts
        if met is not None:
            white, black = (b, a) if met.last_white == a else (a, b)
            if facts.may_take(white, WHITE) and facts.may_take(black, BLACK):
                return None
            return Refusal(
                COLOURS, round=met.last_round, clashes=self.colour_limits_broken(white, black)
            )
        pa, pb = facts.get(a), facts.get(b)
        if (pa.may_white and pb.may_black) or (pb.may_white and pa.may_black):
            return None
        clashes = self.colour_limits_broken(a, b) + self.colour_limits_broken(b, a)
        return Refusal(COLOURS, clashes=tuple(dict.fromkeys(clashes)))

    def refusal(self, a: str, b: str, stage: Stage) -> Refusal | None:
        """rules.md §4.3 step 4 under a stage's rules: not met in the previous `gap` rounds, met
        fewer than 4 times, and (with the colour limits) a colour assignment within them. The
        first rule the pair breaks, or None when it is allowed."""
        met = self.facts.meetings.get((a, b) if a < b else (b, a))
        if met is None:  # most pairs: only the colours can refuse them
            return self.no_colours(a, b, None) if stage.colour_limits else None
        refused = self.met_too_often(met) or self.met_too_recently(met, stage.gap)
        if refused is not None or not stage.colour_limits:
            return refused
        return self.no_colours(a, b, met)

    def allowed(self, a: str, b: str, stage: Stage) -> bool:
        return self.refusal(a, b, stage) is None

    def breaks(self, a: str, b: str, white: str, black: str) -> tuple[str, ...]:
        """Which rules a manual pair breaks (step 1: the page says which)."""
        met = self.facts.meetings.get(_pair_key(a, b))
        broken = []
        if self.met_too_often(met):
            broken.append(BREAKS_MEETINGS)
        if self.met_too_recently(met, self.facts.rules.rematch_gap):
            broken.append(BREAKS_REMATCH)
        if self.colour_limits_broken(white, black):
            broken.append(BREAKS_COLOURS)
        return tuple(broken)


def allowed_graph(players: Sequence[str], rater: _Rater, stage: Stage) -> list[list[int]]:
    """The allowed pairs among `players` (in list order) as adjacency lists: the n² rule checks
    that any pairer has to make."""
    n = len(players)
    adjacent: list[list[int]] = [[] for _ in range(n)]
    refusal = rater.refusal
    for i in range(n):
        a = players[i]
        row = adjacent[i]
        for j in range(i + 1, n):
            if refusal(a, players[j], stage) is None:
                row.append(j)
                adjacent[j].append(i)
    return adjacent


def _without(adjacent: list[list[int]], gone: int) -> list[list[int]]:
    """The graph without vertex `gone`, the others renumbered in order."""
    return [
        [w - (w > gone) for w in neighbours if w != gone]
        for v, neighbours in enumerate(adjacent)
        if v != gone
    ]


def _bye_candidates(
    free: Sequence[str], facts: _Facts, number: int, volunteer: str | None, *, relaxed: bool
) -> list[int]:
    """rules.md §4.3 step 2: the volunteer, else bottom-up the players without a bye in the
    previous rounds; relaxed (6a), then everybody else bottom-up too."""
    index = {p: i for i, p in enumerate(free)}
    bottom_up = list(range(len(free) - 1, -1, -1))
    fresh = [i for i in bottom_up if not facts.had_bye_recently(free[i], number)]
    if volunteer is not None and volunteer in index:
        first = [index[volunteer]]
        if not relaxed:
            return first
        ordered = first + fresh + bottom_up
    else:
        ordered = fresh + (bottom_up if relaxed else [])
    seen: set[int] = set()
    return [i for i in ordered if not (i in seen or seen.add(i))]


def pair_round(
    *,
    number: int,
    ranking: Sequence[str],
    history: History,
    rules: Rules = Rules(),
    manual: Iterable[tuple[str, str]] = (),
    volunteer: str | None = None,
) -> PairingOut:
    """rules.md §4.3: pair round `number` of the present players `ranking` (in the order of the
    list after the previous round), given the season's earlier games and byes.

    Raises NoPairing (with the players that cannot be paired) when no pairing exists even with
    every relaxation, and ValueError for manual pairs that are not two distinct present
    players, each in one pair."""
    facts = _Facts(history, rules)
    rater = _Rater(facts, number)
    position = {p: i for i, p in enumerate(ranking)}
    if len(position) != len(ranking):
        raise ValueError("a player is listed twice")

    taken: set[str] = set()
    manual_pairs: list[PairOut] = []
    for a, b in manual:
        for p in (a, b):
            if p not in position:
                raise ValueError(f"{p} is not present")
            if p in taken:
                raise ValueError(f"{p} is in two manual pairs")
            taken.add(p)
        if a == b:
            raise ValueError(f"{a} cannot play himself")
        high, low = (a, b) if position[a] < position[b] else (b, a)
        met = facts.meetings.get(_pair_key(high, low))
        if met is not None and met.count:
            white, black = rater.colours(high, low, limits=False)
        else:
            white, black = rater.colours(high, low, limits=True) or rater.colours(
                high, low, limits=False
            )
        manual_pairs.append(
            PairOut(white, black, manual=True, breaks=rater.breaks(high, low, white, black))
        )

    free = [p for p in ranking if p not in taken]
    odd = len(free) % 2 == 1
    if volunteer is not None and volunteer not in free:
        volunteer = None
    for stage in stages(rules, bye=odd):
        adjacent = allowed_graph(free, rater, stage)
        bye_index = None
        rest, rest_adjacent = free, adjacent
        if odd:
            for candidate in _bye_candidates(
                free, facts, number, volunteer, relaxed=stage.bye_relaxed
            ):
                live = [True] * len(free)
                live[candidate] = False
                if has_perfect_matching(adjacent, live):
                    bye_index = candidate
                    break
            if bye_index is None:
                continue
            rest = [p for i, p in enumerate(free) if i != bye_index]
            rest_adjacent = _without(adjacent, bye_index)
        pairs = pair_top_down(rest_adjacent)
        if pairs is None:
            continue
        bye = free[bye_index] if bye_index is not None else None
        found = _with_passed_over(
            [(rest[u], rest[v]) for u, v in pairs], ranking, manual_pairs, bye, rater, stage
        )
        relaxed = []
        strict_bye = volunteer if volunteer is not None else None
        if bye is not None and (
            (strict_bye is not None and bye != strict_bye)
            or (strict_bye is None and facts.had_bye_recently(bye, number))
        ):
            relaxed.append(RELAXED_BYE)
        if stage.gap < rules.rematch_gap:
            relaxed.append(f"rematch-gap:{stage.gap}")
        if not stage.colour_limits:
            relaxed.append(RELAXED_COLOURS)
        ordered = sorted(
            manual_pairs + found, key=lambda p: min(position[p.white], position[p.black])
        )
        return PairingOut(
            round=number,
            pairs=tuple(ordered),
            bye=bye,
            relaxed=tuple(relaxed),
            volunteer_passed_over=volunteer is not None and bye != volunteer,
        )
    raise NoPairing(_unpaired(free, rater, stages(rules, bye=odd)[-1]))


def _with_passed_over(
    top_down: Sequence[tuple[str, str]],
    ranking: Sequence[str],
    manual_pairs: Sequence[PairOut],
    bye: str | None,
    rater: _Rater,
    stage: Stage,
) -> list[PairOut]:
    """The top-down pairs (in the order step 3 made them) with their colours and, for each,
    the players ranked between its two and why the higher did not get them: not free any more
    (a manual pair, the bye, paired with someone higher), the first rule of step 4 that refuses
    the pair, or, for an allowed pair, that the others could not all be paired then (step 3
    takes the highest allowed player below who leaves a pairing of the rest)."""
    position = {p: i for i, p in enumerate(ranking)}
    not_free: dict[str, Refusal] = {}
    for pair in manual_pairs:
        not_free[pair.white] = Refusal(MANUAL, partner=pair.black)
        not_free[pair.black] = Refusal(MANUAL, partner=pair.white)
    if bye is not None:
        not_free[bye] = Refusal(HAS_BYE)
    out = []
    for high, low in top_down:
        passed = tuple(
            PassedOver(
                other,
                not_free.get(other) or rater.refusal(high, other, stage) or Refusal(REST_NEEDED),
            )
            for other in ranking[position[high] + 1 : position[low]]
        )
        white, black = rater.colours(high, low, limits=stage.colour_limits)
        out.append(PairOut(white, black, passed_over=passed))
        not_free[low] = Refusal(PAIRED_HIGHER, partner=high)
    return out


def _unpaired(free: Sequence[str], rater: _Rater, stage: Stage) -> list[str]:
    """Who cannot be paired under the most relaxed rules: the players a maximum matching leaves
    out (one of them could have the bye)."""
    mate = maximum_matching(allowed_graph(free, rater, stage))
    return [p for p, m in zip(free, mate, strict=True) if m == -1]
