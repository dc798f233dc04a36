"""Every system's full recompute ÷ its floor on the database a whole `make bench` leaves, timed
side by side as the bench times them (docs/performance.md, "The floor depends on the
database"). Not part of `make bench`.

The bench measures each system's recompute right after generating its data, when the shared
result tables (rounds and round entries are chess's and Keizer's, players everybody's) hold
that system's data and that of the systems measured before it, not yet the 50- and
2000-player seasons of its pages. On the database it leaves, the same queries read the same
rows among many more: PostgreSQL plans them differently (hash joins over whole tables, nested
loops over a larger player table), and both the floor and the recompute take longer. This
prints, for each system's measured season, three ratios of medians of five interleaved
timings, their median, and the milliseconds of the last pair.

Run after `make bench`, on the same database:
`.venv/bin/python scripts/bench/analysis/full_database.py`.
"""

import importlib
import statistics

import harness  # the bench's environment, before Django loads

SYSTEMS = ("bgp", "circuit", "gp", "keizer", "ladder")  # scripts/bench/systems/<stem>.py


def main() -> None:
    harness.load_app()
    from common import side_by_side

    from competitions.models import Season
    from rankings.services import season_recompute

    for stem in SYSTEMS:
        module = importlib.import_module(stem)
        # The measured season: the latest of the system's federation series (bench-<stem>).
        season = (
            Season.objects.select_related("series")
            .filter(series__slug=f"bench-{stem}")
            .order_by("-label")
            .first()
        )
        if season is None:
            print(f"# {stem}: no bench-{stem} series in this database (run make bench first)")
            continue
        ratios = []
        for _ in range(3):
            t_full, t_floor = side_by_side(
                lambda s=season: season_recompute(season_id=s.pk, force=True),
                lambda m=module, s=season: m.bare_load(s),
            )
            ratios.append(t_full / t_floor)
        shown = " ".join(f"{r:.2f}" for r in ratios)
        print(f"{module.NAME}.recompute_vs_load: {statistics.median(ratios):.2f}  # runs: {shown}")
        print(
            f"# {module.NAME}: full recompute {t_full * 1000:.0f} ms, "
            f"bare load {t_floor * 1000:.0f} ms (the last pair)"
        )


if __name__ == "__main__":
    main()
