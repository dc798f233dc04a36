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
import importlib
import os
import statistics
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent), str(HERE.parent / "systems")]
os.environ["DATABASE_URL"] = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/clubsite_bench"
)
os.environ["CELERY_BROKER_URL"] = ""
os.environ["DEBUG"] = "false"  # as the bench runs
os.environ.setdefault("LOG_LEVEL", "WARNING")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")

import orjson  # noqa: E402

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
    # The app loaded and frozen as the bench loads it, before what needs it.
    importlib.import_module("clubsite.wsgi")
    import ladder
    from common import side_by_side

    from competitions.models import Season
    from rankings.services import season_recompute

    season = Season.objects.get(series__slug="bench-ladder")
    floor = lambda: ladder.bare_load(season)  # noqa: E731
    figures: dict[str, list[float]] = {"skeleton_vs_load": [], "recompute_vs_load": []}
    for _ in range(3):
        t_skel, t_floor = side_by_side(lambda: skeleton(ladder.bare_load, season), floor)
        figures["skeleton_vs_load"].append(t_skel / t_floor)
        t_full, t_floor = side_by_side(
            lambda: season_recompute(season_id=season.pk, force=True), floor
        )
        figures["recompute_vs_load"].append(t_full / t_floor)
    from fixed_part import fixed_vs_load

    figures["empty_season_vs_load"] = fixed_vs_load(season, floor)
    for name, runs in figures.items():
        shown = " ".join(f"{r:.2f}" for r in runs)
        print(f"{name}: {statistics.median(runs):.2f}  # runs: {shown}")


if __name__ == "__main__":
    main()
