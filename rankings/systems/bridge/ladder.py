"""The ladder engine (rankings/engines/bridge.py) plugged into the data layer's hook
(competitions/systems/bridge/ladder.py), so file import and "start next round" get the pools
that promotion and relegation give."""

from collections.abc import Callable, Collection, Sequence

from competitions.systems.bridge.ladder import LadderData, LadderState, PoolLists
from rankings.engines import bridge as engine


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


class LadderEngine:
    def __init__(self, stored_next_pools: Callable[[int, int], PoolLists | None]) -> None:
        self._stored_next_pools = stored_next_pools

    def stored_next_pools(self, season_id: int, after: int) -> PoolLists | None:
        return self._stored_next_pools(season_id, after)

    def state(self, data: LadderData) -> LadderState:
        out = engine.run_ladder(engine_input(data))
        return LadderState(
            pools=[_lists(r.pool_lists) for r in out.rounds],
            follows=[_lists(r.follows) if r.follows is not None else None for r in out.rounds],
            next_pools=_lists(out.next_pools),
            elo={row.player: row.elo for row in out.elo},
        )

    def reshape(
        self,
        pools: Sequence[Sequence[str]],
        *,
        leaving: Collection[str],
        joining: Sequence[str],
        pool_size: int,
    ) -> PoolLists:
        return _lists(
            engine.reshape_pools(pools, leaving=leaving, joining=joining, pool_size=pool_size)
        )
