"""Promotion and relegation as the data layer reaches them (rules.md §5).

Who moves up or down follows from the pool standings, and so from Elo. The data of a ladder
follows from those moves too: a file's later rounds may leave their pools out, and the next
round starts with the pools the moves give. So the ladder's rules (`engine.py`, pure) live with
the data, and the rankings app above computes the standings with the same engine.

Everything here is plain data: player keys, lists, Decimals.
"""

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from . import engine
from .settings import LadderSettings

PoolLists = list[list[str]]


@dataclass(frozen=True)
class RoundData:
    number: int
    pools: PoolLists | None  # None: the pools follow from the moves of the round before
    challenges: list[dict[str, Decimal]]  # per challenge: IMPs of the players who played it
    reasons: dict[str, str] = field(default_factory=dict)  # kept reasons of manual moves


@dataclass(frozen=True)
class LadderData:
    settings: LadderSettings
    start_elo: dict[str, Decimal]
    rounds: list[RoundData]


@dataclass(frozen=True)
class LadderState:
    pools: list[PoolLists]  # per round, the pools played
    follows: list[PoolLists | None]  # per round, the pools the round before's moves give
    next_pools: PoolLists  # what the moves of the last round give
    elo: dict[str, Decimal]  # every player's rating after the last challenge


def engine_input(data: LadderData) -> engine.LadderIn:
    return engine.LadderIn(
        rounds=tuple(
            engine.RoundIn(
                number=r.number,
                pools=tuple(tuple(pool) for pool in r.pools) if r.pools is not None else None,
                challenges=tuple(r.challenges),
            )
            for r in data.rounds
        ),
        start_elo=data.start_elo,
        settings=engine.Settings(**data.settings.engine_numbers()),
    )


def _lists(pools: engine.Pools) -> PoolLists:
    return [list(pool) for pool in pools]


def state(data: LadderData) -> LadderState:
    """The pools of every round, the moves' pools, the next round's pools and the ratings."""
    out = engine.run_ladder(engine_input(data))
    return LadderState(
        pools=[_lists(r.pool_lists) for r in out.rounds],
        follows=[_lists(r.follows) if r.follows is not None else None for r in out.rounds],
        next_pools=_lists(out.next_pools),
        elo={row.player: row.elo for row in out.elo},
    )


def reshape(
    pools: Sequence[Sequence[str]],
    *,
    leaving: Collection[str],
    joining: Sequence[str],
    pool_size: int,
) -> PoolLists:
    return _lists(
        engine.reshape_pools(pools, leaving=leaving, joining=joining, pool_size=pool_size)
    )
