"""Benchmark of the Keizer pairer (rules.md §4.3) and a comparison with a greedy pairer.

1. Speed. Pairs 60 and 200 present players after a 30-round history and prints each time as a
   ratio to building the allowed-pairs graph for the same input: reading the history and the
   n² rule checks, the work any pairer has to do. Measured side by side in one run (this
   machine is noisy: read the ratios, not the milliseconds). Target: at most 20 at 200 players.
2. Completeness. A plain greedy top-down pairer (the highest unpaired player takes the highest
   allowed player below him, no look-ahead) on the same kind of inputs, and on constructed
   inputs where greedy gets stuck: how often greedy fails where ours completes.

Usage: python scripts/bench_pairing.py   (pure Python, no database)
"""

import random
import statistics
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pairings.engines.keizer import (  # noqa: E402
    History,
    NoPairing,
    PastGame,
    Rules,
    _Facts,
    _Rater,
    allowed_graph,
    pair_round,
    stages,
)

SIZES = (60, 200)
HISTORY_ROUNDS = 30
REPEATS = 5
RULES = Rules()


def season(players: int, rounds: int, seed: int) -> tuple[list[str], History, list[str]]:
    """A club of `players` with `rounds` evenings paired by our pairer (about 90 % present
    each evening, a ranking that drifts), and the ranking of the present players of the next."""
    rng = random.Random(seed)
    keys = [f"p{i}" for i in range(players)]
    strength = {k: rng.gauss(0, 1) for k in keys}
    games: list[PastGame] = []
    byes: list[tuple[int, str]] = []
    for number in range(1, rounds + 2):
        present = [k for k in keys if rng.random() < 0.9]
        ranking = sorted(present, key=lambda k: -(strength[k] + rng.gauss(0, 0.3)))
        if number > rounds:
            return keys, History(games=tuple(games), byes=tuple(byes)), ranking
        out = pair_round(
            number=number,
            ranking=ranking,
            history=History(games=tuple(games), byes=tuple(byes)),
            rules=RULES,
        )
        games += [PastGame(number, p.white, p.black) for p in out.pairs]
        if out.bye:
            byes.append((number, out.bye))
    raise AssertionError("unreachable")


def build_graph(number: int, ranking: list[str], history: History) -> list[list[int]]:
    """The baseline: read the history, check every pair once under all the rules."""
    rater = _Rater(_Facts(history, RULES), number)
    return allowed_graph(ranking, rater, stages(RULES, bye=False)[0])


def timed(fn, repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def greedy(number: int, ranking: list[str], history: History) -> bool:
    """A plain greedy top-down pairer under all the rules: True when it pairs everyone."""
    facts = _Facts(history, RULES)
    rater = _Rater(facts, number)
    stage = stages(RULES, bye=False)[0]
    left = list(ranking)
    if len(left) % 2:
        bye = next((p for p in reversed(left) if not facts.had_bye_recently(p, number)), None)
        if bye is None:
            return False
        left.remove(bye)
    while left:
        top = left.pop(0)
        partner = next((p for p in left if rater.allowed(top, p, stage)), None)
        if partner is None:
            return False
        left.remove(partner)
    return True


def ours_strict(number: int, ranking: list[str], history: History) -> bool:
    """Ours completes under all the rules (nothing relaxed)."""
    try:
        return not pair_round(number=number, ranking=ranking, history=history, rules=RULES).relaxed
    except NoPairing:
        return False


def stuck_cases(count: int, seed: int) -> list[tuple[int, list[str], History]]:
    """Inputs built so that greedy gets stuck although a pairing exists: after a normal
    history, the two lowest-ranked players met last round (greedy pairs down the list and
    leaves them to each other), or a low player met everybody near the top but the leader."""
    rng = random.Random(seed)
    cases = []
    for i in range(count):
        keys, history, ranking = season(rng.choice((12, 20, 30)), 8, seed=seed * 1000 + i)
        number = 10  # the history has evenings 1-8; the constructed games are on evening 9
        if len(ranking) % 2:
            ranking = ranking[:-1]
        games = list(history.games)
        if i % 2:
            games.append(PastGame(number - 1, ranking[-1], ranking[-2]))
        else:
            low = ranking[-1]
            games += [
                PastGame(number - 1 - j % 3, *((low, p) if j % 2 else (p, low)))
                for j, p in enumerate(ranking[1:-1])
            ]
        cases.append((number, ranking, History(games=tuple(games), byes=history.byes)))
    return cases


def main() -> None:
    print("Keizer pairing: time of a whole pairing as a ratio to building the allowed-pairs graph")
    print(f"({HISTORY_ROUNDS}-round history, median of {REPEATS} runs)\n")
    print(f"{'present':>8} {'graph ms':>9} {'pairing ms':>11} {'ratio':>6}  relaxed")
    for size in SIZES:
        keys, history, ranking = season(size + size // 5, HISTORY_ROUNDS, seed=size)
        ranking = ranking[:size]  # exactly `size` present
        number = HISTORY_ROUNDS + 1
        graph = timed(partial(build_graph, number, ranking, history))
        pair = partial(pair_round, number=number, ranking=ranking, history=history, rules=RULES)
        out = pair()
        pairing = timed(pair)
        print(
            f"{len(ranking):>8} {graph * 1000:>9.1f} {pairing * 1000:>11.1f} "
            f"{pairing / graph:>6.1f}  {list(out.relaxed) or '-'}"
        )
    # A field that needs relaxing: the lowest player met everybody in the last 6 rounds, so the
    # stages of step 6 run one by one until the rematch gap is small enough to pair him.
    keys, history, ranking = season(240, HISTORY_ROUNDS, seed=200)
    ranking = ranking[:200]
    number = HISTORY_ROUNDS + 1
    low = ranking[-1]
    extra = tuple(
        PastGame(number - 1 - j % 6, *((low, p) if j % 2 else (p, low)))
        for j, p in enumerate(ranking[:-1])
    )
    history = History(games=history.games + extra, byes=history.byes)
    graph = timed(partial(build_graph, number, ranking, history))
    pair = partial(pair_round, number=number, ranking=ranking, history=history, rules=RULES)
    out = pair()
    pairing = timed(pair)
    print(
        f"{len(ranking):>8} {graph * 1000:>9.1f} {pairing * 1000:>11.1f} "
        f"{pairing / graph:>6.1f}  {list(out.relaxed) or '-'}  (constructed: relaxation needed)"
    )

    print("\nGreedy top-down (no look-ahead) against ours, under all the rules:")
    random_cases = []
    for i in range(200):
        keys, history, ranking = season(random.Random(i).choice((10, 16, 24)), 12, seed=10_000 + i)
        random_cases.append((13, ranking, history))
    for label, cases in (("random seasons", random_cases), ("constructed", stuck_cases(100, 7))):
        greedy_fails = sum(not greedy(*case) for case in cases)
        ours_done = sum(ours_strict(*case) for case in cases)
        both = sum(not greedy(*case) and ours_strict(*case) for case in cases)
        print(
            f"  {label:<15} {len(cases):>4} inputs: greedy stuck {greedy_fails:>4}, ours complete "
            f"{ours_done:>4}, greedy stuck where ours completes {both:>4}"
        )


if __name__ == "__main__":
    main()
