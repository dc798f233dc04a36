"""Bridge ladder standings (rules.md §5): load a season, run the engine, give the tables.

Stored tables: one per round (kind "round", key the round number) whose rows are the players of
the round in ladder order (pool 1 in rank order, then pool 2, ...), each row holding everything
about that player in that round (IMPs, Elo before and after each challenge, the duels); and the
club's Elo ranking (kind "elo") with the next round's pools. So a pool page reads one table and
a player page only the player's own rows.
"""

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import replace
from decimal import Decimal
from functools import lru_cache
from typing import Any

from django.db.models import F

from competitions.models import Round, Season
from competitions.systems.bridge import engine
from competitions.systems.bridge.ladder import LadderData, engine_input
from competitions.systems.bridge.selectors import ladder_data
from competitions.systems.bridge.system import SCOPE_ROUND
from rankings.models import StandingsTable
from rankings.systems import ComputedRow, ComputedTable, Update

KIND_ROUND = "round"
KIND_ELO = "elo"
# Per round, where a recompute from the next round on starts: no rows, read by `update` only
# (kept out of the round table, which every page of the round reads).
KIND_CARRY = "carry"

# The field names of interchange.md's bridge-ladder standings.
POOL_ROW_FIELDS = ("player", "rank", "imps", "elo", "move")
ELO_FIELDS = ("player", "rank", "elo")
ROUND_ROW_FIELDS = ("round", "pool", *POOL_ROW_FIELDS)
ELO_AFTER_FIELDS = ("round", "challenge", "player", "elo")
NEXT_POOL_FIELDS = ("pool", "player")


def _num(value: Decimal) -> int | float:
    """A JSON number at full float precision (IMPs stay whole when they are)."""
    return int(value) if value == value.to_integral_value() else float(value)


# A player's challenge as stored, one per player, round and challenge: a list of these fields.
# A duel is [opponent, his rating before (whole), score, expected score]; the rating before the
# challenge is the one after the challenge before, or the round's start. Change and expected
# scores are for explanations (6 decimals); `after` is the rating at full float precision.
CHALLENGE_FIELDS = ("imps", "after", "after_shown", "change", "change_shown", "k", "duels")
AFTER = CHALLENGE_FIELDS.index("after")
AFTER_SHOWN = CHALLENGE_FIELDS.index("after_shown")


# A rating shows in many places (after a challenge, before the next, in each opponent's duel):
# round it once.
_shown = lru_cache(maxsize=1 << 16)(engine.shown)
_SCORES = {Decimal(1): 1, Decimal("0.5"): 0.5, Decimal(0): 0}


def challenge_of(stored: list) -> dict[str, Any]:
    return dict(zip(CHALLENGE_FIELDS, stored, strict=True))


def _challenge(line: engine.ChallengeLine) -> list:
    return [
        _num(line.imps) if line.imps is not None else None,
        float(line.elo_after),
        _shown(line.elo_after),
        round(float(line.change), 6),
        _shown(line.change),
        line.k,
        [
            [d.opponent, _shown(d.opponent_elo), _SCORES[d.score], round(float(d.expected), 6)]
            for d in line.duels
        ],
    ]


# The same from the integer core's units (10**-PLACES), without a decimal: the same numbers.
_UNIT = 10**engine.PLACES
_MICRO = _UNIT // 10**6
# Within this of a midpoint between two 6-decimal numbers, the float's own rounding (round() of
# the nearest float) can differ from the exact value's: there the float is rounded, as before.
_NEAR = 10**20
_LARGE = 10**34  # beyond (10,000 and more): round() of the float


def _shown_units(units: int) -> int:
    """engine.shown of units: half up, by size."""
    whole, rest = divmod(abs(units), _UNIT)
    if 2 * rest >= _UNIT:
        whole += 1
    return whole if units >= 0 else -whole


def _six(units: int) -> float:
    """round(float(value), 6) of units, in integers where that gives the same float."""
    micro, rest = divmod(units, _MICRO)
    twice = 2 * rest
    if abs(twice - _MICRO) < _NEAR or abs(units) > _LARGE:
        return round(units / _UNIT, 6)
    return (micro + (twice > _MICRO)) / 1_000_000


_BY_TWICE = (0, 0.5, 1)  # a duel score as stored (_SCORES), from twice the score


def _challenges(challenge: tuple[engine.ChallengeLine, ...]) -> list[list]:
    """The stored form of one pool's challenge, one list per line (listing order); from the
    integer core's units where it played the challenge, without a decimal: the same numbers."""
    if not all(line.units is not None for line in challenge):
        return [_challenge(line) for line in challenge]
    played = challenge[0].played
    n = len(challenge)
    duels: list[list[list]] = [[] for _ in challenge]
    if played is not None:
        pool = played[0]
        members, scores, expected = pool.members, pool.scores, pool.expected
        shown = [_shown_units(units) for units in pool.units]
        six = [[0.0] * n for _ in range(n)]
        for a in range(n):
            row, six_row = expected[a], six[a]
            for b in range(a + 1, n):
                # _six of both sides: they expect 1 together, so their 6-decimal numbers add
                # up to 1 too (rounding to even is symmetric) unless near a midpoint
                micro, rest = divmod(row[b], _MICRO)
                twice = 2 * rest
                if abs(twice - _MICRO) < _NEAR:
                    six_row[b], six[b][a] = _six(row[b]), _six(expected[b][a])
                else:
                    micro += twice > _MICRO
                    six_row[b], six[b][a] = micro / 1_000_000, (1_000_000 - micro) / 1_000_000
        duels = [
            [[members[b], shown[b], _BY_TWICE[scores[a][b]], six[a][b]] for b in range(n) if b != a]
            for a in range(n)
        ]
    stored = []
    for line, line_duels in zip(challenge, duels, strict=True):
        _before, change, after = line.units  # type: ignore[misc]
        stored.append(
            [
                _num(line.imps) if line.imps is not None else None,
                after / _UNIT,  # float(Decimal): both the nearest float to the exact number
                _shown_units(after),
                _six(change),
                _shown_units(change),
                line.k,
                line_duels,
            ]
        )
    return stored


def _round_table(
    out: engine.RoundOut, reasons: dict[str, str], names: tuple[str, ...], closed: bool
) -> ComputedTable:
    rows = []
    for pool in out.pools:
        lines: dict[str, list[engine.ChallengeLine]] = defaultdict(list)
        stored: dict[str, list[list]] = defaultdict(list)
        for challenge in pool.challenges:
            for line, made in zip(challenge, _challenges(challenge), strict=True):
                lines[line.player].append(line)
                stored[line.player].append(made)
        for row in pool.rows:
            own = lines[row.player]
            made = stored[row.player]
            if own and own[0].units is not None and own[-1].units is not None:
                # the rating after the round's last challenge, as that challenge stored it
                elo, elo_shown = made[-1][AFTER], made[-1][AFTER_SHOWN]
                start = own[0].units[0]
                start_float, start_shown = start / _UNIT, _shown_units(start)
            else:
                elo, elo_shown = float(row.elo), _shown(row.elo)
                start_decimal = own[0].elo_before if own else row.elo
                start_float, start_shown = float(start_decimal), _shown(start_decimal)
            detail = {
                "player": row.player,
                "pool": pool.number,
                "rank": row.rank,
                "imps": _num(row.imps),
                "elo": elo,
                "elo_shown": elo_shown,
                "move": row.move,
                "start": start_float,
                "start_shown": start_shown,
                "reason": reasons.get(row.player, ""),
                "challenges": made,
            }
            rows.append(
                ComputedRow(player=row.player, rank=row.rank, points=float(row.imps), detail=detail)
            )
    pools = [
        {
            "pool": pool.number,
            "name": names[pool.number - 1] if pool.number <= len(names) else "",
            "members": list(pool.members),
            "played": [
                any(line.imps is not None for line in challenge) for challenge in pool.challenges
            ],
        }
        for pool in out.pools
    ]
    return ComputedTable(
        kind=KIND_ROUND,
        key=str(out.number),
        position=out.number,
        data={
            "number": out.number,
            "challenges": len(out.elo_after),
            "given": out.follows is not None and out.pool_lists != out.follows,
            "closed": closed,
            "pools": pools,
        },
        rows=rows,
    )


def _elo_table(
    out: engine.LadderOut, rounds_played: dict[str, int], current: dict[str, int]
) -> ComputedTable:
    return ComputedTable(
        kind=KIND_ELO,
        data={
            "next_pools": [list(pool) for pool in out.next_pools],
            "rounds": len(out.rounds) if out.rounds else 0,
        },
        rows=[
            ComputedRow(
                player=row.player,
                rank=row.rank,
                points=float(row.elo),
                detail={
                    "player": row.player,
                    "rank": row.rank,
                    "elo": float(row.elo),
                    "elo_shown": _shown(row.elo),
                    "pool": current.get(row.player),
                    "rounds": rounds_played[row.player],
                },
            )
            for row in out.elo
        ],
    )


# A carry table's data: every exact rating after its round (as text), the pools the round's
# moves give, and how many rounds each player has been in a pool of so far.
CARRY_RATINGS, CARRY_NEXT, CARRY_PLAYED = "ratings", "next", "played"


def _carry(played: engine.RoundOut, rounds_played: dict[str, int]) -> ComputedTable:
    return ComputedTable(
        kind=KIND_CARRY,
        key=str(played.number),
        position=played.number,
        data={
            CARRY_RATINGS: {key: str(value) for key, value in played.ratings.items()},
            CARRY_NEXT: [list(pool) for pool in played.next_pools],
            CARRY_PLAYED: dict(rounds_played),
        },
    )


def stored_next_pools(season_id: int, after: int) -> list[list[str]] | None:
    """The pools the moves of round `after` give, from its stored carry (1 query), when the
    season's stored standings are those of its current results (the standings version not
    behind the data version: every change to results, pools or settings moves the data
    version); None otherwise. What the next-round page shows, without running the engine
    over the season (about 150 ms at 40 pools and 20 rounds)."""
    found = (
        StandingsTable.objects.filter(
            season_id=season_id,
            kind=KIND_CARRY,
            position=after,
            season__standings_version__gte=F("season__data_version"),
        )
        .values_list("data", flat=True)
        .first()
    )
    if not found or CARRY_NEXT not in found:
        return None
    return [list(pool) for pool in found[CARRY_NEXT]]


def _tables(
    data: LadderData,
    ladder: engine.LadderIn,
    played_before: dict[str, int],
    *,
    total: int,
    first: int = 1,
) -> Iterator[ComputedTable]:
    """The round tables from round `first` on, each with its carry, then the Elo ranking; each
    round is played, turned into its tables and dropped before the next (a generator: the
    recompute need not hold the season's engine output). `played_before`: how many rounds
    each player has been in a pool of before round `first` (the pools the engine plays:
    stored, or following from the moves)."""
    names = data.settings.pool_names
    last: engine.RoundOut | None = None
    rounds_played: dict[str, int] = defaultdict(int, played_before)
    count = 0
    for played, round_data in zip(engine.iter_rounds(ladder), data.rounds, strict=True):
        closed = first - 1 + count < total - 1
        table = _round_table(played, round_data.reasons, names, closed=closed)
        for pool in played.pools:
            for key in pool.members:
                rounds_played[key] += 1
        last = played
        count += 1
        yield table
        yield _carry(played, rounds_played)
    out = engine._finish([last] if last is not None else [], ladder)
    current = {key: pool.number for pool in last.pools for key in pool.members} if last else {}
    elo = _elo_table(out, rounds_played, current)
    elo.data["rounds"] = first - 1 + count
    yield elo


def compute(season: Season) -> Iterator[ComputedTable]:
    data = ladder_data(season)
    return _tables(data, engine_input(data), {}, total=len(data.rounds))


# --- incremental: one changed result recomputes its round and the rounds after it ----------


def update(season: Season, scopes: frozenset[str]) -> Update | None:
    """Recompute from the earliest round the scopes name, starting from the exact ratings and
    the next pools stored with the round before. None (a full recompute) when a scope is not a
    round's, or the stored rounds are not those of the season."""
    numbers = []
    for scope in scopes:
        if not scope.startswith(SCOPE_ROUND):
            return None
        try:
            numbers.append(int(scope.removeprefix(SCOPE_ROUND)))
        except ValueError:
            return None
    if not numbers:
        return None
    first = min(numbers)
    stored = dict(
        StandingsTable.objects.filter(season=season, kind=KIND_ROUND).values_list("position", "key")
    )
    rounds = list(
        Round.objects.filter(season=season, tournament=None)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if rounds != list(range(1, len(rounds) + 1)) or set(stored) != set(rounds):
        return None
    if first > len(rounds):
        return None
    ratings: dict[str, Decimal] | None = None
    follows = None
    played_before: dict[str, int] = {}
    if first > 1:
        before = (
            StandingsTable.objects.filter(season=season, kind=KIND_CARRY, position=first - 1)
            .values_list("data", flat=True)
            .first()
        )
        if not before or CARRY_RATINGS not in before or CARRY_PLAYED not in before:
            return None  # stored before the carry counted rounds played: a full recompute
        ratings = {key: Decimal(value) for key, value in before[CARRY_RATINGS].items()}
        follows = tuple(tuple(pool) for pool in before[CARRY_NEXT])
        played_before = before[CARRY_PLAYED]
    data = ladder_data(season, from_round=first)
    ladder = replace(engine_input(data), ratings=ratings, follows=follows)
    if any(r.pools is None for r in ladder.rounds):
        return None
    return Update(tables=list(_tables(data, ladder, played_before, total=len(rounds), first=first)))


def _pick(row: dict, fields: tuple[str, ...]) -> dict:
    return {name: row[name] for name in fields}


def round_pools(table) -> list[tuple[dict, list[dict]]]:
    """A stored round table's pools, each with its rows in rank order."""
    by_pool: dict[int, list[dict]] = defaultdict(list)
    for row in table.row_details:
        by_pool[row["pool"]].append(row)
    return [(pool, by_pool[pool["pool"]]) for pool in table.data["pools"]]


def document(season: Season, tables: list) -> dict:
    """The export_standings document of interchange.md, from the stored tables."""
    rounds = sorted((t for t in tables if t.kind == KIND_ROUND), key=lambda t: t.position)
    elo = next((t for t in tables if t.kind == KIND_ELO), None)
    return {
        "rounds": [
            {
                "number": t.data["number"],
                "elo_after": [
                    {r["player"]: r["challenges"][c][AFTER] for r in t.row_details}
                    for c in range(t.data["challenges"])
                ],
                "pools": [
                    {"pool": pool["pool"], "rows": [_pick(r, POOL_ROW_FIELDS) for r in rows]}
                    for pool, rows in round_pools(t)
                ],
            }
            for t in rounds
        ],
        "elo": [_pick(r, ELO_FIELDS) for r in elo.row_details] if elo else [],
        "next_pools": elo.data["next_pools"] if elo else [],
    }


def flat_tables(document: dict) -> dict[str, tuple[tuple[str, ...], list[dict]]]:
    """The document as flat tables for CSV, each with its header, empty or not."""
    return {
        "rounds": (
            ROUND_ROW_FIELDS,
            [
                {"round": r["number"], "pool": pool["pool"], **row}
                for r in document["rounds"]
                for pool in r["pools"]
                for row in pool["rows"]
            ],
        ),
        "elo-after": (
            ELO_AFTER_FIELDS,
            [
                {"round": r["number"], "challenge": c + 1, "player": player, "elo": elo}
                for r in document["rounds"]
                for c, after in enumerate(r["elo_after"])
                for player, elo in after.items()
            ],
        ),
        "elo": (ELO_FIELDS, document["elo"]),
        "next-pools": (
            NEXT_POOL_FIELDS,
            [
                {"pool": k + 1, "player": player}
                for k, pool in enumerate(document["next_pools"])
                for player in pool
            ],
        ),
    }
