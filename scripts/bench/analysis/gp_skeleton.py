"""How close any GP recompute could come to its floor: the plainest exact Python that does what
every recompute of the Othello GP must do (rules.md §2), timed side by side with the floor and
the real full recompute (docs/performance.md, "Why the misses remain"). Not part of
`make bench`.

The skeleton reads the floor's rows (`gp.bare_load`: the placements, unordered), groups them
by tournament and sorts each by place, rates each distinct rating entry once on integers
(hundredths of a rating point: exact, as the rules require), sums the ranking sum S, makes the
maximum M and the points series with the exact integer criterion of the real engine, and gives
each placement its points. It keeps one line per participant with what a page needs to explain
it (the rating entry as the file gives it, the points of the place), a table's data (S, M, the
series, the order), and the season standings (best five, with each player's results), and
encodes and hashes the lines and the data as the store does to compare them with the stored
ones. It leaves out what the real recompute also does: the engine's objects, the exact text of
M, the stored index, the lock, the version claim and the commit.

Run after `make bench` (or `make bench BENCH_ARGS="--only gp --no-server"`), on the same
database: `.venv/bin/python scripts/bench/analysis/gp_skeleton.py`.
"""

import hashlib
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction

import harness  # the bench's environment, before Django loads
import orjson

# rules.md §2 in units of 1/100 000 of a rating point (0.539 has 3 decimals, a rating 2):
# NR = nordic, or 0.539 r + 172 (r = max(r - uncertainty, 1600) when provisional), or 1000.
UNIT = 100_000
HUNDREDTH = UNIT // 100
NR_FACTOR, NR_OFFSET = 539, 172 * UNIT  # 0.539 = 539 / 1000, applied to hundredths
PROVISIONAL_FLOOR, DEBUTANT, FLOOR = 1600 * 100, 1000 * UNIT, 900 * UNIT
BEST_N, COUNTRY = 5, "SE"


def hundredths(value: Decimal | None) -> int | None:
    return None if value is None else int(value * 100)


def rated(nordic, ffo, provisional, uncertainty) -> int:
    """A rating entry's contribution max(0, NR - 900), in 1/UNIT."""
    if nordic is not None:
        nr = hundredths(nordic) * HUNDREDTH
    elif ffo is not None:
        r = hundredths(ffo)
        if provisional:
            r = max(r - (hundredths(uncertainty) or 0), PROVISIONAL_FLOOR)
        nr = NR_FACTOR * r + NR_OFFSET  # 0.539 r, r in hundredths: 539 r in 1/UNIT
    else:
        nr = DEBUTANT
    return max(0, nr - FLOOR)


def series(s: int, n: int) -> list[int]:
    """M = 0.004 S + 7 (S in 1/UNIT: M = (4 S + 7 000 UNIT) / (1000 UNIT)), then the points of
    places 1..n by the engine's own exact criterion (one Fraction per tournament)."""
    from rankings.engines.othello import points_series

    return points_series(Fraction(4 * s + 7000 * UNIT, 1000 * UNIT), n)


def rating_json(nordic, ffo, provisional, uncertainty) -> dict:
    data: dict = {}
    if nordic is not None:
        data["nordic"] = int(nordic) if nordic == nordic.to_integral_value() else float(nordic)
    if ffo is not None:
        data["ffo"] = int(ffo) if ffo == ffo.to_integral_value() else float(ffo)
    if provisional:
        data["provisional"] = True
    if uncertainty is not None:
        data["uncertainty"] = float(uncertainty)
    return data


def skeleton(bare_load, season, keep: dict | None = None) -> bytes:
    """The hash of every table's data and lines; `keep` (optional) receives each tournament's
    (player, points) in place order and its ranking sum, to check them against the engine's."""
    by_tournament: dict[int, list] = defaultdict(list)
    for row in bare_load(season):
        by_tournament[row[0]].append(row)
    entries: dict[tuple, tuple[int, dict]] = {}  # rating entry -> (contribution, its JSON)
    hasher = hashlib.blake2b(digest_size=8)
    results: dict[str, list] = defaultdict(list)  # player -> [(tournament, points)]
    for tournament_id in sorted(by_tournament):
        rows = sorted(by_tournament[tournament_id], key=lambda r: (r[2], r[1]))
        parts = []
        for row in rows:
            key = row[4:]
            found = entries.get(key)
            if found is None:
                found = entries[key] = (rated(*key), rating_json(*key))
            parts.append(found)
        s = sum(part for part, _json in parts)
        points = series(s, len(rows))
        lines = []
        for row, (_part, json), g in zip(rows, parts, points, strict=True):
            got = g if row[3] == COUNTRY else None
            lines.append(
                (
                    row[1],
                    row[2],
                    got,
                    {
                        "player": row[1],
                        "place": row[2],
                        "points": got,
                        "country": row[3],
                        "rating": json,
                        "series_points": g,
                    },
                )
            )
            if got is not None:
                results[row[1]].append((tournament_id, got))
        data = {
            "participants": len(rows),
            "ranking_sum": s / UNIT,
            "ranking_sum_text": str(Decimal(s) / UNIT),
            "max_points": (4 * s + 7000 * UNIT) / (1000 * UNIT),
            "series": points,
            "order": [row[1] for row in rows],
            "other_country": [i for i, row in enumerate(rows) if row[3] != COUNTRY],
        }
        if keep is not None:
            keep[tournament_id] = (s, [(line[0], line[2]) for line in lines])
        hasher.update(orjson.dumps(data))
        for start in range(0, len(lines), 100):
            hasher.update(orjson.dumps(lines[start : start + 100]))
    totals = []
    for player, got in results.items():
        best = sorted(got, key=lambda r: r[1], reverse=True)[:BEST_N]
        totals.append((sum(p for _t, p in best), player, best, got))
    totals.sort(key=lambda t: (-t[0], t[1]))
    standings, rank, last = [], 0, None
    for i, (total, player, best, got) in enumerate(totals):
        if total != last:
            rank, last = i + 1, total
        counted = sorted(t for t, _p in best)
        standings.append(
            (
                player,
                rank,
                total,
                {
                    "player": player,
                    "rank": rank,
                    "points": total,
                    "counted": counted,
                    "results": [{"tournament": t, "points": p} for t, p in got],
                },
            )
        )
    for start in range(0, len(standings), 100):
        hasher.update(orjson.dumps(standings[start : start + 100]))
    return hasher.digest()


def check(season) -> None:
    """The skeleton computes what the engine computes: every tournament's ranking sum and every
    participant's points (so its time is that of the real work, not of a shortcut)."""
    import gp

    from rankings.systems.othello.standings import KIND_TOURNAMENT, compute

    kept: dict = {}
    skeleton(gp.bare_load, season, kept)
    by_key = {t.key: t.pk for t in season.tournaments.all()}
    checked = 0
    for table in compute(season):
        if table.kind != KIND_TOURNAMENT:
            continue
        s, lines = kept[by_key[table.key]]
        assert Decimal(s) / UNIT == Decimal(table.data["ranking_sum_text"]), table.key
        assert lines == [(row.player, row.points) for row in table.rows], table.key
        checked += len(lines)
    print(f"# the skeleton's ranking sums and points equal the engine's ({checked} placements)")


def main() -> None:
    harness.load_app()
    import gp

    from competitions.models import Season

    season = Season.objects.get(series__slug="bench-gp")
    check(season)
    harness.report(
        season, {"skeleton": lambda: skeleton(gp.bare_load, season)}, lambda: gp.bare_load(season)
    )


if __name__ == "__main__":
    main()
