"""Bridge ladder standings (rules.md §5): load a season, run the engine, give the tables.

Stored tables: one per round (kind "round", key the round number) whose rows are the players of
the round in ladder order (pool 1 in rank order, then pool 2, ...), each row holding everything
about that player in that round (IMPs, Elo before and after each challenge, the duels); and the
club's Elo ranking (kind "elo") with the next round's pools. So a pool page reads one table and
a player page only the player's own rows.
"""

from collections import defaultdict
from decimal import Decimal
from typing import Any

from competitions.models import Season
from competitions.systems.bridge.selectors import ladder_data
from rankings.engines import bridge as engine
from rankings.systems import ComputedRow, ComputedTable

from .ladder import engine_input

KIND_ROUND = "round"
KIND_ELO = "elo"

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


def challenge_of(stored: list) -> dict[str, Any]:
    return dict(zip(CHALLENGE_FIELDS, stored, strict=True))


def _challenge(line: engine.ChallengeLine) -> list:
    return [
        _num(line.imps) if line.imps is not None else None,
        float(line.elo_after),
        engine.shown(line.elo_after),
        round(float(line.change), 6),
        engine.shown(line.change),
        line.k,
        [
            [d.opponent, engine.shown(d.opponent_elo), _num(d.score), round(float(d.expected), 6)]
            for d in line.duels
        ],
    ]


def _round_table(
    out: engine.RoundOut, reasons: dict[str, str], names: tuple[str, ...], closed: bool
) -> ComputedTable:
    rows = []
    for pool in out.pools:
        lines: dict[str, list[engine.ChallengeLine]] = defaultdict(list)
        for challenge in pool.challenges:
            for line in challenge:
                lines[line.player].append(line)
        for row in pool.rows:
            own = lines[row.player]
            start = own[0].elo_before if own else row.elo
            detail = {
                "player": row.player,
                "pool": pool.number,
                "rank": row.rank,
                "imps": _num(row.imps),
                "elo": float(row.elo),
                "elo_shown": engine.shown(row.elo),
                "move": row.move,
                "start": float(start),
                "start_shown": engine.shown(start),
                "reason": reasons.get(row.player, ""),
                "challenges": [_challenge(line) for line in own],
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


def compute(season: Season) -> list[ComputedTable]:
    data = ladder_data(season)
    out = engine.run_ladder(engine_input(data))
    names = data.settings.pool_names
    tables = [
        _round_table(r, d.reasons, names, closed=i < len(out.rounds) - 1)
        for i, (r, d) in enumerate(zip(out.rounds, data.rounds, strict=True))
    ]
    current: dict[str, int] = {}
    rounds_played: dict[str, int] = defaultdict(int)
    for r in out.rounds:
        for pool in r.pools:
            for key in pool.members:
                rounds_played[key] += 1
    if out.rounds:
        current = {key: pool.number for pool in out.rounds[-1].pools for key in pool.members}
    tables.append(
        ComputedTable(
            kind=KIND_ELO,
            data={
                "next_pools": [list(pool) for pool in out.next_pools],
                "rounds": len(out.rounds),
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
                        "elo_shown": engine.shown(row.elo),
                        "pool": current.get(row.player),
                        "rounds": rounds_played[row.player],
                    },
                )
                for row in out.elo
            ],
        )
    )
    return tables


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
