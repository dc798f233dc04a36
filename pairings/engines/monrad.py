"""Monrad pairing of the next round of a chess group (rules.md §3, Decision "Pairing a group
round"), pure and deterministic: the same group, present players and walkover history always give
the same pairing.

Players are ordered by points, then start number, and paired top-down like the Keizer procedure
of rules.md §4.3 step 3: the highest unpaired player gets the highest player below him he has not
met such that everyone left can still be paired; "can still be paired" is the perfect-matching
question of `pairings.engines.matching`, shared with the Keizer pairer. Round 1 is the same
procedure on equal points: start number 1 against 2, 3 against 4, ...
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction

from pairings.engines.matching import has_perfect_matching, pair_top_down
from rankings.engines.chess import (
    BLACK,
    PENDING,
    WALKOVER,
    WHITE,
    GroupIn,
    Settings,
    group_table,
    round_outcomes,
)


class PairingError(ValueError):
    """The round cannot be paired (an earlier round is unfinished, an unknown player...)."""


@dataclass(frozen=True)
class Pair:
    white: str
    black: str
    rematch: bool = False  # they met before (allowed only when no pairing exists otherwise)


@dataclass(frozen=True)
class PairingOut:
    round: int
    pairs: tuple[Pair, ...]  # board order
    walkover: str | None
    # 0: nobody meets again; k: players who met up to k times may meet again (rules.md §3:
    # rematches only if no pairing exists otherwise).
    rematch_level: int = 0
    second_walkover: bool = False  # everyone present had a WO already


@dataclass(frozen=True)
class History:
    """What pairing needs to know about one player, from the group's earlier rounds."""

    points: Fraction
    whites: int
    blacks: int
    last_colour: str | None  # colour of his last real game
    walkover: bool  # had a WO in this tournament


def histories(group: GroupIn, walkovers_elsewhere: Collection[str] = ()) -> dict[str, History]:
    """Points, colours of the real games and walkovers so far; WOs in other groups of the same
    tournament count too ("has not had a WO yet in this tournament")."""
    per_round = round_outcomes(group)
    result = {}
    for player in group.players:
        outcomes = [r[player] for r in per_round]
        colours = [o.colour for o in outcomes if o.real]
        result[player] = History(
            points=sum((o.points for o in outcomes), Fraction(0)),
            whites=colours.count(WHITE),
            blacks=colours.count(BLACK),
            last_colour=colours[-1] if colours else None,
            walkover=player in walkovers_elsewhere or any(o.kind == WALKOVER for o in outcomes),
        )
    return result


def meetings(group: GroupIn) -> Counter[frozenset[str]]:
    """How often two players met over the board (real games; a forfeit is no meeting)."""
    met: Counter[frozenset[str]] = Counter()
    for outcomes in round_outcomes(group):
        for player, o in outcomes.items():
            if o.real and player < o.opponent:
                met[frozenset((player, o.opponent))] += 1
    return met


def colours(first: str, second: str, history: dict[str, History]) -> tuple[str, str]:
    """rules.md §3: the player with fewer whites gets white; if equal, the one who had black in
    his last game; if equal, the higher-ordered player (`first`). Returns (white, black)."""
    a, b = history[first], history[second]
    if a.whites != b.whites:
        return (first, second) if a.whites < b.whites else (second, first)
    a_black, b_black = a.last_colour == BLACK, b.last_colour == BLACK
    if a_black != b_black:
        return (first, second) if a_black else (second, first)
    return first, second


def open_rounds(group: GroupIn) -> list[int]:
    """The numbers of the group's rounds with a game without a result: the next round cannot
    be paired before them."""
    return [
        n
        for n, round_in in enumerate(group.rounds, start=1)
        if any(g.result == PENDING for g in round_in.games)
    ]


def pair_next_round(
    group: GroupIn,
    present: Sequence[str],
    *,
    walkovers_elsewhere: Collection[str] = (),
    settings: Settings | None = None,
) -> PairingOut:
    """rules.md §3: the next round of a group, for the players present."""
    number = len(group.rounds) + 1
    pending = open_rounds(group)
    if pending:
        raise PairingError(f"round {pending[0]} has games without a result")
    members = set(group.players)
    unknown = [p for p in present if p not in members]
    if unknown:
        raise PairingError(f"not players of the group: {', '.join(unknown)}")
    if len(set(present)) != len(present):
        raise PairingError("a present player is listed twice")
    history = histories(group, walkovers_elsewhere)
    start = {p: i for i, p in enumerate(group.players)}
    order = sorted(present, key=lambda p: (-history[p].points, start[p]))
    met = meetings(group)
    walkover, level, second = _walkover_and_level(group, order, history, met, settings)
    players = [p for p in order if p != walkover]
    pairs = pair_top_down(_adjacency(players, met, level)) if players else []
    assert pairs is not None  # _walkover_and_level found a perfect matching at this level
    out = []
    for u, v in pairs:
        white, black = colours(players[u], players[v], history)
        out.append(Pair(white, black, rematch=met[frozenset((white, black))] > 0))
    return PairingOut(
        round=number,
        pairs=tuple(out),
        walkover=walkover,
        rematch_level=level,
        second_walkover=second,
    )


def _adjacency(players: Sequence[str], met: Counter, level: int) -> list[list[int]]:
    return [
        [j for j, q in enumerate(players) if j != i and met[frozenset((p, q))] <= level]
        for i, p in enumerate(players)
    ]


def walkover_order(
    group: GroupIn, present: Sequence[str], history: dict[str, History], settings=None
) -> list[str]:
    """rules.md §3 WO allocation: the player with the fewest points who has not had a WO yet in
    this tournament; among equals the lowest-placed one (the last in the group table's order).
    Those who had a WO come after everyone who has not."""
    table_position = {r.player: i for i, r in enumerate(group_table(group, settings).rows)}
    return sorted(
        present,
        key=lambda p: (history[p].walkover, history[p].points, -table_position[p]),
    )


def _walkover_and_level(group, order, history, met, settings) -> tuple[str | None, int, bool]:
    """The WO (if the number present is odd) and the fewest meetings to allow again: a player
    gets a second WO only when everyone present has had one; among the candidates in WO order,
    the first without whom the others can be paired with the fewest rematches."""
    top = max(met.values(), default=0)
    if len(order) % 2 == 0:
        for level in range(top + 1):
            if has_perfect_matching(_adjacency(order, met, level)):
                return None, level, False
        raise AssertionError("everyone may meet again at the top level")  # pragma: no cover
    candidates = walkover_order(group, order, history, settings)
    fresh = [p for p in candidates if not history[p].walkover]
    pool = fresh or candidates
    for level in range(top + 1):
        for candidate in pool:
            rest = [p for p in order if p != candidate]
            if has_perfect_matching(_adjacency(rest, met, level)):
                return candidate, level, not fresh
    raise AssertionError("everyone may meet again at the top level")  # pragma: no cover
