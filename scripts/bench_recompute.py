"""Benchmark: how a season's full recompute and a standings page scale with the field size.

Prints times measured side by side in one run and their ratios to the smallest season (this
machine is noisy: read the ratios, not the seconds). Linear scaling means ratio ≈ size ratio.

Usage: python scripts/bench_recompute.py   (uses DATABASE_URL, else a throwaway SQLite file)
"""

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
if "DATABASE_URL" not in os.environ:
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from competitions.interchange import import_competition  # noqa: E402
from rankings.services import season_recompute  # noqa: E402

SIZES = (40, 80, 160)
TOURNAMENTS = 8
GAMES = ["Catan", "Carcassonne", "Azul", "Splendor", "7 Wonders"]


def season_file(players: int, seed: int = 1) -> dict:
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(players)]
    tournaments = []
    for t in range(TOURNAMENTS):
        rounds = []
        for _ in range(3):
            order = ids[:]
            rng.shuffle(order)
            tables = [
                {
                    "game": rng.choice(GAMES),
                    "results": [
                        {"player": p, "rank": r + 1} for r, p in enumerate(order[i : i + 4])
                    ],
                }
                for i in range(0, players - players % 4, 4)
            ]
            rounds.append({"tables": tables})
        tournaments.append(
            {
                "id": f"t{t}",
                "name": f"T{t}",
                "date": f"2025-{t + 1:02d}-01",
                "draw_seed": t,
                "rounds": rounds,
            }
        )
    return {
        "format": "competition/1",
        "system": "boardgame-circuit",
        "series": f"bench-{players}",
        "season": "2025",
        "name": f"Bench {players}",
        "clubs": [{"id": f"c{i}", "name": f"Club {i}"} for i in range(8)],
        "players": [
            {"id": p, "name": f"Player {p}", "club": f"c{i % 8}"} for i, p in enumerate(ids)
        ],
        "previous_participants": [players] * 8,
        "tournaments": tournaments,
    }


def best_of(runs: int, func) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    call_command("migrate", verbosity=0)
    client = Client()
    seasons = {size: import_competition(season_file(size)) for size in SIZES}
    rows = []
    for size, season in seasons.items():
        recompute = best_of(5, lambda s=season: season_recompute(season_id=s.pk, force=True))
        url = f"/bench-{size}/2025/yearly/"
        page = best_of(5, lambda u=url: client.get(u))
        rows.append((size, recompute, page))
    base = rows[0]
    print(f"{'players':>8} {'recompute s':>12} {'ratio':>6} {'yearly page s':>14} {'ratio':>6}")
    for size, recompute, page in rows:
        print(
            f"{size:>8} {recompute:>12.4f} {recompute / base[1]:>6.2f} {page:>14.4f} "
            f"{page / base[2]:>6.2f}"
        )
    print(f"(size ratio of the largest to the smallest: {SIZES[-1] / SIZES[0]:.0f})")


if __name__ == "__main__":
    main()
