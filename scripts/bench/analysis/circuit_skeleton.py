"""How close any circuit recompute could come to its floor: the plainest exact Python that does
what every recompute of the board-game circuit must do, timed side by side with the floor and
the real full recompute (docs/performance.md, "Why the misses remain"). Not part of `make
bench`.

The skeleton reads the floor's rows (`circuit.bare_load`: the season's seats) and what the real
recompute reads beside them with the real recompute's own functions (the cap and its source,
the clubs, the two seasons before from their stored yearly totals, the tournaments). It scores
every table exactly, as integers at one scale (120: every placement, bonus and tie-break
fraction of a table of 2 to 6 is a whole number of 1/120), each tie pattern once; ranks each
day, gives the bonus, the interclub and the prize ceremony with its draw; keeps one line per
player and tournament with the tables it explains, and per tournament its tables; then the
yearly ranking (best 5 and the final, with what counted), LUDO with its terms, and every game's
ranking with its finalists and each line's tables; and encodes and hashes every table and line
as the store does to compare them with the stored ones. Its tournament points, yearly, LUDO
and per-game points are checked equal to the engine's.

It leaves out what the real recompute also does: the exact parts each stored tournament keeps
for a later update, the lock, the version claim, the stored index and the commit (the fixed
part, measured apart as a full recompute of an empty season).

Run after `make bench` (or `make bench BENCH_ARGS="--only circuit --no-server"`), on the same
database: `.venv/bin/python scripts/bench/analysis/circuit_skeleton.py`.
"""

import hashlib
import math
from collections import defaultdict
from fractions import Fraction

import harness  # the bench's environment, before Django loads
import orjson

SCALE = 120  # lcm of 2(x - 1) and 2x(x - 1) for x = 2..6: every seat's numbers are n / 120
_PATTERNS: dict[tuple[int, ...], list[tuple]] = {}


def _pattern(ranks: tuple[int, ...]) -> list[tuple]:
    """Per seat of a table whose ranks are `ranks` (sorted): the engine's (place, placement,
    bonus, fraction, score) as JSON numbers, and the score in 1/120; once per tie pattern."""
    from rankings.engines.boardgame import _score_pattern

    found = _PATTERNS.get(ranks)
    if found is None:
        found = []
        for place, placement, bonus, fraction, score in _score_pattern(ranks):
            units = score * SCALE
            assert units.denominator == 1
            found.append((float(place), float(placement), int(bonus), float(fraction),
                          float(score), int(units)))  # fmt: skip
        _PATTERNS[ranks] = found
    return found


def _ranked(keys: dict[str, int]) -> list[tuple[int, str]]:
    """The engine's competition ranks (rank_by), best first, ties by key."""
    from rankings.engines.common import rank_by

    return rank_by(keys, key=keys.__getitem__, tie_order=lambda key: key)


def skeleton(bare_load, season, kept: dict | None = None) -> bytes:
    from rankings.engines.boardgame import ceremony_places, draw_order
    from rankings.systems.boardgame.standings import (
        _yearly_of,
        cap_source,
        engine_settings,
        season_clubs,
    )

    cap = cap_source(season)
    limit = cap["cap"]
    settings = engine_settings(season)
    clubs = season_clubs(season)
    prev, prev2 = _yearly_of(season, 1), _yearly_of(season, 2)
    tournaments = sorted(season.tournaments.all(), key=lambda t: t.pk)
    seats: dict[int, dict[int, list]] = defaultdict(dict)  # tournament -> table -> seats
    for t_id, round_number, table_id, table_number, game, player, rank in bare_load(season):
        table = seats[t_id].get(table_id)
        if table is None:
            table = seats[t_id][table_id] = [round_number, table_number, game, []]
        table[3].append((rank, player))
    hasher = hashlib.blake2b(digest_size=8)
    points: dict[str, dict[str, int]] = defaultdict(dict)  # player -> tournament -> 1/120
    game_sums: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    game_counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    game_tables: dict[tuple[str, str], list] = defaultdict(list)
    finals = set()
    for t in tournaments:
        if t.final:
            finals.add(t.key)
        tables = sorted(seats.get(t.pk, {}).values(), key=lambda table: (table[0], table[1]))
        daily: dict[str, int] = defaultdict(int)
        at: dict[str, list[int]] = defaultdict(list)
        stored_tables = []
        for index, (round_number, number, game, table_seats) in enumerate(tables):
            table_seats.sort()
            numbers = _pattern(tuple(rank for rank, _player in table_seats))
            results = []
            for (rank, player), (place, placement, bonus, fraction, score, units) in zip(
                table_seats, numbers, strict=True
            ):
                daily[player] += units
                at[player].append(index)
                results.append([player, rank, place, placement, bonus, fraction, score])
                if not t.final:
                    game_sums[game][player] += units
                    game_counts[game][player] += 1
                    game_tables[(game, player)].append((t.key, round_number, number, score))
            stored_tables.append([round_number, number, game, results])
        participants = len(daily)
        capped = participants if limit is None else min(participants, limit)
        lines, by_rank, club_best = [], [], defaultdict(list)
        for rank, player in _ranked(daily):
            bonus = max(0, capped - rank + 1)
            total = daily[player] + bonus * SCALE
            points[player][t.key] = total
            lines.append([player, rank, daily[player] / SCALE, bonus, total / SCALE, at[player]])
            by_rank.append((rank, player))
            club = clubs.get(player)
            if club is not None and len(club_best[club]) < settings.interclub_counted:
                club_best[club].append((player, daily[player]))
        club_scores = {club: sum(d for _p, d in best) for club, best in club_best.items()}
        interclub = [
            [club, rank, club_scores[club] / SCALE, [p for p, _d in club_best[club]]]
            for rank, club in _ranked(club_scores)
        ]
        p10 = ceremony_places(participants)
        ceremony = [["winner", player] for rank, player in by_rank if rank == 1]
        ceremony += [["club", club] for club, rank, *_rest in interclub if rank == 1]
        ceremony += [["place", player] for rank, player in by_rank if 2 <= rank <= p10]
        drawn = [player for rank, player in by_rank if rank > max(1, p10)]
        ceremony += [["draw", player] for player in draw_order(drawn, t.draw_seed)]
        hasher.update(orjson.dumps([t.key, participants, stored_tables, ceremony, interclub]))
        for start in range(0, len(lines), 100):
            hasher.update(orjson.dumps(lines[start : start + 100]))
    # rules.md §1.3: the best n regular tournaments plus the final, with what counted
    order = {t.key: i for i, t in enumerate(sorted(tournaments, key=lambda t: (t.date, t.key)))}
    yearly: dict[str, int] = {}
    counted: dict[str, list] = {}
    for player, got in points.items():
        regular = sorted((-n, order[key], key) for key, n in got.items() if key not in finals)
        chosen = [(order[key], key, -n) for n, _i, key in regular[: settings.best_n]]
        chosen += [(order[key], key, n) for key, n in got.items() if key in finals]
        chosen.sort()
        yearly[player] = sum(n for _i, _key, n in chosen)
        counted[player] = [[key, n / SCALE] for _i, key, n in chosen]
    yearly_lines = [
        [player, rank, yearly[player] / SCALE, counted[player]] for rank, player in _ranked(yearly)
    ]
    for start in range(0, len(yearly_lines), 100):
        hasher.update(orjson.dumps(yearly_lines[start : start + 100]))
    # rules.md §1.4: LUDO as integers of 1 / (3 × the common denominator)
    common = math.lcm(SCALE, *{v.denominator for values in (prev, prev2) for v in values.values()})
    ludo: dict[str, int] = defaultdict(int)
    for player, n in yearly.items():
        ludo[player] += 3 * n * (common // SCALE)
    for values, weight in ((prev, 2), (prev2, 1)):
        for player, value in values.items():
            ludo[player] += weight * value.numerator * (common // value.denominator)
    ludo_lines = [
        [player, rank, ludo[player] / (3 * common),
         [float(prev2.get(player, 0)), float(prev.get(player, 0)), yearly.get(player, 0) / SCALE]]
        for rank, player in _ranked(ludo)
    ]  # fmt: skip
    for start in range(0, len(ludo_lines), 100):
        hasher.update(orjson.dumps(ludo_lines[start : start + 100]))
    # rules.md §1.5: per game, the sum of round scores / (max(N, 3) + 1), and the finalists
    game_points: dict[tuple[str, str], Fraction] = {}
    for game in sorted(game_sums):
        size = settings.final_table_sizes.get(game, settings.final_table_size)
        sums, counts = game_sums[game], game_counts[game]
        divisors = {p: max(counts[p], 3) + 1 for p in sums}
        divided = math.lcm(1, *set(divisors.values()))  # ranked on sum × divided / divisor
        keys = {p: n * (divided // divisors[p]) for p, n in sums.items()}
        lines = []
        for rank, player in _ranked(keys):
            value = Fraction(sums[player], SCALE * divisors[player])
            game_points[(game, player)] = value
            lines.append([player, rank, float(value), counts[player], rank <= size,
                          game_tables[(game, player)]])  # fmt: skip
        for start in range(0, len(lines), 100):
            hasher.update(orjson.dumps([game, *lines[start : start + 100]]))
    if kept is not None:
        kept.update(
            points={
                (key, p): Fraction(n, SCALE) for p, got in points.items() for key, n in got.items()
            },
            yearly={p: Fraction(n, SCALE) for p, n in yearly.items()},
            ludo={p: Fraction(n, 3 * common) for p, n in ludo.items()},
            games=game_points,
        )
    return hasher.digest()


def check(season) -> None:
    """The skeleton computes what the engine computes: every tournament's points, the yearly,
    LUDO and per-game points (so its time is that of the real work, not of a shortcut)."""
    import circuit

    from rankings.engines import boardgame as engine
    from rankings.systems.boardgame.standings import load_season

    kept: dict = {}
    skeleton(circuit.bare_load, season, kept)
    season_in, _extras = load_season(season)
    out = engine.compute_season(season_in)
    points = {(t.id, r.player): r.points for t in out.tournaments for r in t.standings}
    assert kept["points"] == points, "tournament points differ"
    assert kept["yearly"] == {r.player: r.points for r in out.yearly}, "yearly differs"
    assert kept["ludo"] == {r.player: r.points for r in out.ludo}, "LUDO differs"
    games = {(g.game, r.player): r.points for g in out.games for r in g.rows}
    assert kept["games"] == games, "per-game points differ"
    print(
        f"# the skeleton's points equal the engine's ({len(points):,} tournament lines, "
        f"{len(kept['yearly']):,} yearly, {len(kept['ludo']):,} LUDO, {len(games):,} per game)"
    )


def main() -> None:
    harness.load_app()
    import circuit

    from competitions.models import Season

    season = Season.objects.filter(series__slug="bench-circuit").order_by("-label").first()
    check(season)
    harness.report(
        season,
        {"skeleton": lambda: skeleton(circuit.bare_load, season)},
        lambda: circuit.bare_load(season),
    )


if __name__ == "__main__":
    main()
