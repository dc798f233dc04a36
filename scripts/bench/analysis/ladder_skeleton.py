"""How close any ladder recompute could come to its floor: the plainest Python that does what
every recompute of the ladder must do, timed side by side with the floor and the real full
recompute (docs/performance.md, "Why the misses remain"). Not part of `make bench`.

The skeleton reads the floor's rows (`ladder.bare_load`), groups them by round, challenge and
pool, rates every virtual duel of every challenge with floats (`10.0 ** x`, no exact
decimals), keeps one line per player and challenge with its duels, and encodes and hashes the
lines as the store does to compare them with the stored ones. It leaves out what the real
recompute also does: exact 30-place ratings, the pool standings, promotion and relegation, the
stored index, the lock, the version claim and the commit.

Run after `make bench` (or `make bench BENCH_ARGS="--only ladder --no-server"`), on the same
database: `.venv/bin/python scripts/bench/analysis/ladder_skeleton.py`.
"""

import hashlib
from collections import defaultdict

import harness  # the bench's environment, before Django loads
import orjson

START, K = 1250.0, 25.0


def skeleton(bare_load, season) -> bytes:
    pools: dict[tuple, list] = defaultdict(list)  # (round, pool) -> players
    imps: dict[tuple, dict] = defaultdict(dict)  # (round, challenge) -> player -> IMPs
    for round_id, number, player, last in bare_load(season):
        if isinstance(last, str):  # a pool member and the reason of its place
            pools[(round_id, number)].append(player)
        else:  # an IMP score of a challenge
            imps[(round_id, number)][player] = float(last)
    elo: dict[str, float] = defaultdict(lambda: START)
    hasher = hashlib.blake2b(digest_size=8)
    chunk: list = []
    challenges = sorted({number for _round, number in imps})
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


def main() -> None:
    harness.load_app()
    import ladder

    from competitions.models import Season

    season = Season.objects.get(series__slug="bench-ladder")
    harness.report(
        season, lambda: skeleton(ladder.bare_load, season), lambda: ladder.bare_load(season)
    )


if __name__ == "__main__":
    main()
