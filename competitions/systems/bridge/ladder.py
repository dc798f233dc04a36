"""Promotion and relegation as the data layer reaches them (rules.md §5): a hook.

Who moves up or down follows from the pool standings, and so from Elo: that is the rankings
engine (`rankings/engines/bridge.py`), in an app above this one. This layer needs it too, to read
a file whose later rounds leave their pools out and to start the next round. So it offers a hook
(architecture.md: a lower app that needs a higher one offers a hook instead), and
`rankings/systems/bridge/system.py` plugs the engine in when the apps are ready.

Everything crossing the hook is plain data: player keys, lists, Decimals.
"""

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Protocol

from django.core.exceptions import ImproperlyConfigured

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


class LadderEngine(Protocol):
    def state(self, data: LadderData) -> LadderState: ...

    def stored_next_pools(self, season_id: int, after: int) -> PoolLists | None:
        """The pools the moves of round `after` give, as the season's stored standings hold
        them, when those are of the season's current results; None otherwise."""
        ...

    def reshape(
        self,
        pools: Sequence[Sequence[str]],
        *,
        leaving: Collection[str],
        joining: Sequence[str],
        pool_size: int,
    ) -> PoolLists: ...


_engine: LadderEngine | None = None


def plug(engine: LadderEngine) -> None:
    global _engine
    _engine = engine


def engine() -> LadderEngine:
    if _engine is None:
        raise ImproperlyConfigured("the bridge ladder engine is not plugged in (rankings app)")
    return _engine
