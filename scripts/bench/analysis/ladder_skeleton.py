"""How close any ladder recompute could come to its floor: the plainest Python that does what
every recompute of the ladder must do, timed side by side with the floor and the real full
recompute (docs/performance.md, "Why the misses remain"). Not part of `make bench`.

The float skeleton reads the floor's rows (`ladder.bare_load`), groups them by round, challenge
and pool, rates every virtual duel of every challenge with floats (`10.0 ** x`, no exact
decimals), keeps one line per player and challenge with its duels, and encodes and hashes the
lines as the store does to compare them with the stored ones.

The exact skeleton (twenty-fifth round) does the same with the engine's exact ratings: integers
of 10**-PLACES, each duel's expectation from the engine's own integer core (`_weaker_int`,
whose cache is warm, as it is for every recompute of the bench after its first), once per pair
(the other side gets exactly 1 - E); its ratings after the season are checked equal to the
engine's. `exact_no_duels` is that skeleton keeping no duels in the lines: what a ladder that
stored each line's rating, change and IMPs, and explained the duels from them when a page is
read, would still have to do.

The skeletons leave out what the real recompute also does: the pool standings, promotion and
relegation, the Elo ranking, the stored index, the lock, the version claim and the commit.

Run after `make bench` (or `make bench BENCH_ARGS="--only ladder --no-server"`), on the same
database: `.venv/bin/python scripts/bench/analysis/ladder_skeleton.py`.
"""

import hashlib
from collections import defaultdict

import harness  # the bench's environment, before Django loads
import orjson

START, K = 1250.0, 25.0


def _grouped(rows, imp=None) -> tuple[dict[tuple, list], dict[tuple, dict], list[int]]:
    """The floor's rows as pools by (round, pool), IMPs (as read, or made by `imp`) by (round,
    challenge) and player, and the challenges' numbers."""
    pools: dict[tuple, list] = defaultdict(list)
    imps: dict[tuple, dict] = defaultdict(dict)
    for round_id, number, player, last in rows:
        if isinstance(last, str):  # a pool member and the reason of its place
            pools[(round_id, number)].append(player)
        else:  # an IMP score of a challenge
            imps[(round_id, number)][player] = last if imp is None else imp(last)
    return pools, imps, sorted({number for _round, number in imps})


def skeleton(bare_load, season) -> bytes:
    pools, imps, challenges = _grouped(bare_load(season), float)
    elo: dict[str, float] = defaultdict(lambda: START)
    hasher = hashlib.blake2b(digest_size=8)
    chunk: list = []
    for (round_id, _pool), players in sorted(pools.items()):
        for number in challenges:
            scores = imps.get((round_id, number), {})
            before = {p: elo[p] for p in players}
            for p in players:
                mine = scores.get(p)
                duels = []
                won = expected = 0.0
                for q in players:
                    if q is p:
                        continue
                    theirs = scores.get(q)
                    if mine is None:
                        s = 0.5 if theirs is None else 0.0
                    elif theirs is None or mine > theirs:
                        s = 1.0
                    else:
                        s = 0.5 if mine == theirs else 0.0
                    e = 1.0 / (1.0 + 10.0 ** ((before[q] - before[p]) / 400.0))
                    won += s
                    expected += e
                    duels.append((q, before[q], s, e))
                change = K * (won - expected)
                elo[p] = before[p] + change
                chunk.append((p, round_id, number, mine, before[p], change, duels))
                if len(chunk) == 100:
                    hasher.update(orjson.dumps(chunk))
                    chunk = []
    hasher.update(orjson.dumps(chunk))
    return hasher.digest()


def exact_skeleton(bare_load, season, *, duels: bool = True, kept: dict | None = None) -> bytes:
    """The skeleton in the engine's exact units; `kept`, if given, receives every player's
    rating after the season (in units)."""
    from rankings.engines import bridge as engine

    unit = 10**engine.PLACES
    half, micro = unit // 2, unit // 10**6
    start, k = 1250 * unit, 25
    cache, weaker = engine._WEAKER_UNITS, engine._weaker_int
    pools, imps, challenges = _grouped(bare_load(season))  # IMPs as Decimals, exact
    elo: dict[str, int] = defaultdict(lambda: start)
    hasher = hashlib.blake2b(digest_size=8)
    chunk: list = []
    for (round_id, _pool), players in sorted(pools.items()):
        n = len(players)
        for number in challenges:
            scores = imps.get((round_id, number), {})
            own = [scores.get(p) for p in players]
            ratings = [elo[p] for p in players]
            played = any(x is not None for x in own)  # else no duels, no change (the engine)
            twice, expected = [0] * n, [0] * n
            kept_duels: list[list] = [[] for _ in range(n)]
            for i in range(n if played else 0):
                mine, rating = own[i], ratings[i]
                for j in range(i + 1, n):
                    theirs = own[j]
                    # twice the duel score, inline as in the float skeleton (a call per duel
                    # would be timed too)
                    if mine is None:
                        s = 1 if theirs is None else 0
                    elif theirs is None or mine > theirs:
                        s = 2
                    else:
                        s = 1 if mine == theirs else 0
                    twice[i] += s
                    twice[j] += 2 - s
                    d = ratings[j] - rating
                    if d == 0:
                        e = half
                    elif d > 0:
                        e = cache.get(d) or weaker(d)
                    else:
                        e = unit - (cache.get(-d) or weaker(-d))
                    expected[i] += e
                    expected[j] += unit - e
                    if duels:
                        shown = (e + micro // 2) // micro
                        kept_duels[i].append(
                            (players[j], (ratings[j] + half) // unit, s / 2, shown / 1e6)
                        )
                        kept_duels[j].append(
                            (players[i], (rating + half) // unit, 1 - s / 2, 1 - shown / 1e6)
                        )
            for i, p in enumerate(players):
                change = k * (twice[i] * half - expected[i]) if played else 0
                after = ratings[i] + change
                elo[p] = after
                imp = None if own[i] is None else float(own[i])
                six = (change + micro // 2) // micro / 1e6
                chunk.append((p, round_id, number, imp, after / unit, six, kept_duels[i]))
            if len(chunk) >= 100:
                hasher.update(orjson.dumps(chunk))
                chunk = []
    hasher.update(orjson.dumps(chunk))
    if kept is not None:
        kept.update(elo)
    return hasher.digest()


def check(season) -> None:
    """The exact skeleton computes the engine's ratings: every player's rating after the
    season, to the last of its 30 decimals (so its time is that of the real work)."""
    import ladder

    from competitions.systems.bridge.selectors import ladder_data
    from rankings.engines import bridge as engine
    from rankings.systems.bridge.ladder import engine_input

    kept: dict = {}
    exact_skeleton(ladder.bare_load, season, kept=kept)
    out = engine.run_ladder(engine_input(ladder_data(season)))
    found = {row.player: engine.units_of(row.elo) for row in out.elo}
    assert kept == found, "the exact skeleton's ratings differ from the engine's"
    print(f"# the exact skeleton's ratings equal the engine's ({len(found)} players)")


def main() -> None:
    harness.load_app()
    import ladder

    from competitions.models import Season

    season = Season.objects.get(series__slug="bench-ladder")
    check(season)
    harness.report(
        season,
        {
            "float_skeleton": lambda: skeleton(ladder.bare_load, season),
            "exact_skeleton": lambda: exact_skeleton(ladder.bare_load, season),
            "exact_no_duels": lambda: exact_skeleton(ladder.bare_load, season, duels=False),
        },
        lambda: ladder.bare_load(season),
    )


if __name__ == "__main__":
    main()
