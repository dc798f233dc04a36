"""`make bench`: federation-scale data in PostgreSQL, and ratios measured side by side.

Every figure is a ratio of two things timed in the same run, interleaved, median of 5 (of 7 for
pages; these machines are noisy: read the ratios, not the seconds). Each system brings a module in
`systems/` (see `systems/README.md` for what it defines); this harness measures them all alike:

- `<system>.recompute_vs_load`: a full recompute of the largest season ÷ a bare load of its
  result rows (the floor). Envelope ≤ 12. The results did not change, so the recompute writes
  nothing (it writes only what differs from the stored standings);
  `<system>.recompute_all_written_vs_load` is the same with every stored line made to differ
  first, so that it writes the whole season (as after new settings); no envelope.
- `<system>.recompute_memory_vs_load`: peak Python memory of that recompute ÷ the bare load's.
  Envelope ≤ 2.
- `<system>.one_change_vs_full`: one changed result (saved as a manager's form saves it, the
  standings updated in the same request, as with the embedded eager default) ÷ the full
  recompute. `<system>.one_change_largest_vs_full`: the same at the system's largest size (a
  module's `largest`: the circuit's 2000 players × 30 tournaments). Envelope ≤ 0.3 there and
  for the changes a module lists in `GUARDED_CHANGES` (the ladder's latest round); the other
  changes are printed without one. `<system>.one_change_standings_only_vs_full` splits the
  change: the standings update alone (the save timed apart) ÷ the full recompute.
- `<system>.import_vs_bulk_insert`: importing the season's file (validation, change history;
  its standings are measured above) ÷ a bare bulk insert of the same rows. Envelope ≤ 5.
- `<system>.replace_vs_fresh_import`: `--replace` over the stored season ÷ a fresh import.
  Envelope ≤ 1.
- `<system>.page.<name>`: each public page of a season of 2000 players, rendered (the page
  cache emptied before each load: what the first visitor after a change waits for) ÷ a trivial
  page (the help page, which is never cached). Envelope ≤ 20.
  `<system>.page_queries_50_vs_2000` lists pages whose query count differs between 50 and 2000
  players (envelope: none). `<system>.page_cached.<name>`: the same page served from the page
  cache (rankings.pagecache) ÷ the help page; no envelope.
- `<system>.manage.<name>`: the manager's pages of that season where results are entered (a
  module's `manage_pages`), fetched by a manager of the series, ÷ the trivial page; no envelope.
  `<system>.manage_queries_50_vs_2000` compares their query counts as for the public pages.
- `<system>.rps_vs_trivial`: requests per second of the standings page under 20 concurrent
  anonymous clients against gunicorn (2 workers, each with the page cache in its memory) ÷ the
  same for the trivial page. Envelope ≥ 0.5 (issue 45).
- `<system>.<label>.<figure>`: the recompute, memory and change figures above again for each of
  a module's `VARIANTS` (the measured season's file with other settings), printed beside the
  default's under the same envelope (Keizer: `keizer.current.*`, `keizer.classic.*`).
- whatever the module adds (`extra`), e.g. pairing ÷ building the allowed-pairs graph.

The bench is a guard, not a target (docs/performance.md): it exits with status 1 when a figure
leaves the envelope.

Usage: make bench   [BENCH_ARGS="--only circuit --quick"]
Database: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/clubsite_bench), which
is dropped and created afresh.
"""

import argparse
import contextlib
import copy
import gc
import http.client
import importlib.util
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import ModuleType
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path[:0] = [str(ROOT), str(HERE)]

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/clubsite_bench"
# The envelope (issue 44, docs/performance.md).
TARGETS = {
    "recompute_vs_load": 12,
    "recompute_memory_vs_load": 2,
    "one_change_vs_full": 0.3,
    "import_vs_bulk_insert": 5,
    "replace_vs_fresh_import": 1,
    "page": 20,
}
# Figures that must reach a floor rather than stay under a ceiling.
FLOORS = {
    "rps_vs_trivial": 0.5,
}


def fresh_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def setup(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ["CELERY_BROKER_URL"] = ""  # the embedded default: tasks run in the request
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    # The app loaded as a worker loads it (clubsite.wsgi), which freezes what it loaded for the
    # collector: the pages and recomputes timed here run in a process like a worker's. Before
    # the twentieth round the bench's process kept those objects unfrozen, and the full
    # collection `timed` makes before each timing walked them every time (60-90 ms, about a
    # third of the bench's time) and probably left the CPU caches cold for what it timed.
    import clubsite.wsgi  # noqa: F401


def system_names() -> list[str]:
    """The system modules' names (their file stems), in order."""
    return [p.stem for p in sorted((HERE / "systems").glob("*.py")) if not p.name.startswith("_")]


def system_modules(only: list[str] | None) -> list[ModuleType]:
    """The system modules (those named in `only`, when given)."""
    modules = []
    for name in system_names():
        if only and name not in only:
            continue
        path = HERE / "systems" / f"{name}.py"
        spec = importlib.util.spec_from_file_location(f"bench_systems.{name}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        modules.append(module)
    return modules


class Report:
    def __init__(self) -> None:
        self.misses: list[str] = []
        self.count = 0

    def line(self, name: str, value: float | str, target_key: str | None = None) -> None:
        self.count += 1
        target = TARGETS.get(target_key or "")
        floor = FLOORS.get(target_key or "")
        if isinstance(value, float):
            shown = f"{value:.3f}" if value < 1 else f"{value:.2f}"
        else:
            shown = str(value)
        note = ""
        if target is not None and isinstance(value, float):
            ok = value <= target
            note = f"  # envelope <= {target}: {'ok' if ok else 'OUTSIDE'}"
            if not ok:
                self.misses.append(f"{name}: {shown} > {target}")
        if floor is not None and isinstance(value, float):
            ok = value >= floor
            note = f"  # envelope >= {floor}: {'ok' if ok else 'OUTSIDE'}"
            if not ok:
                self.misses.append(f"{name}: {shown} < {floor}")
        print(f"{name}: {shown}{note}", flush=True)

    def info(self, text: str) -> None:
        print(f"# {text}", flush=True)


@contextlib.contextmanager
def no_recompute():
    """An import without its standings: only the storing is timed (the recompute is measured
    on its own)."""
    import rankings.imports
    import rankings.tasks

    saved = rankings.imports.season_recompute, rankings.tasks.season_recompute
    rankings.imports.season_recompute = rankings.tasks.season_recompute = lambda **kw: False
    try:
        yield
    finally:
        rankings.imports.season_recompute, rankings.tasks.season_recompute = saved


def renamed(data: dict, slug: str) -> dict:
    data = copy.deepcopy(data)
    data["series"] = slug
    return data


def settle() -> None:
    """VACUUM ANALYZE after bulk writes, as autovacuum does on a live site within a minute:
    without it the planner has no statistics for the fresh rows and reads through the dead
    ones of the replaced standings. Then a CHECKPOINT, as the background writer would have
    done by then: the bulk writes' pages are flushed before anything is timed, not while a
    page is (where the user may; otherwise the server checkpoints on its own schedule)."""
    from django.db import DatabaseError, connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
        with contextlib.suppress(DatabaseError):
            cursor.execute("CHECKPOINT")


@contextlib.contextmanager
def no_delete_signals():
    """Deletes without their signals: with a receiver (the change history's, one history row per
    deleted row) Django's collector reads every row it deletes and deletes them in batches;
    without, it deletes each kind of row with one query (16 s against 0.2 s for a ladder
    season). Only for the bench's own cleanup of the series it made to time imports."""
    from django.db.models import signals

    saved = {}
    for signal in (signals.pre_delete, signals.post_delete):
        saved[signal] = signal.receivers[:]
        signal.receivers.clear()
        signal.sender_receivers_cache.clear()
    try:
        yield
    finally:
        for signal, receivers in saved.items():
            signal.receivers[:] = receivers
            signal.sender_receivers_cache.clear()


def drop_series(slug: str) -> None:
    """Cleanup, not timed: the series' seasons first (their results cascade, and some systems'
    results protect the players), then the series, without per-row signals."""
    from django.db import transaction

    from competitions.models import Season, Series
    from competitions.signals import bulk_write

    with no_recompute(), bulk_write(), no_delete_signals(), transaction.atomic():
        Season.objects.filter(series__slug=slug).delete()
        Series.objects.filter(slug=slug).delete()


drop_series.seasons_first = True


# --- the figures -------------------------------------------------------------------------------


def every_line_differs(season) -> None:
    """Make every stored table and line of the season look different from what a recompute
    computes (their hashes flipped), so the next recompute writes them all again."""
    from django.db import connection

    from rankings.models import StandingsRow, StandingsTable

    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {StandingsTable._meta.db_table} SET digest = coalesce(digest, 0) # 1, "
            "lines_digest = coalesce(lines_digest, 0) # 1 WHERE season_id = %s",
            [season.pk],
        )
        cursor.execute(
            f"UPDATE {StandingsRow._meta.db_table} SET digest = coalesce(digest, 0) # 1 "
            "WHERE season_id = %s",
            [season.pk],
        )


def save_then_update(change, season) -> tuple[float, float]:
    """A change in its two parts, median of RUNS each: the save alone (the recompute held
    back), then the season's standings brought up to date (the update, and what it passes on
    to later seasons)."""
    from common import RUNS, timed

    from rankings.services import season_recompute

    t_save, t_update = [], []
    for _ in range(RUNS):
        with no_recompute():
            t_save.append(timed(change))
        t_update.append(timed(lambda: season_recompute(season_id=season.pk)))
    return statistics.median(t_save), statistics.median(t_update)


def bench_system(module: ModuleType, args, report: Report, trivial_path: str) -> None:
    from common import RUNS, peak_memory, side_by_side, timed
    from django.test import Client

    from competitions.models import Season
    from rankings.imports import import_competition
    from rankings.services import season_recompute

    name = module.NAME
    # What the systems measured before this one left alive (their data, caches) is frozen, as
    # clubsite.wsgi freezes what the app loaded: the collector walks only what this system
    # makes, so a figure does not depend on the systems measured before it (the ladder, measured
    # last, read 13.3-14.1 after the other four and 10.2 after chess alone).
    gc.collect()
    gc.freeze()
    started = time.perf_counter()
    parts: dict[str, float] = {}
    mark = [started]

    def part(label: str) -> None:
        """How long the bench spent on each part of a system (where the ten minutes go)."""
        now = time.perf_counter()
        parts[label] = parts.get(label, 0.0) + now - mark[0]
        mark[0] = now

    files = module.federation(quick=args.quick)
    seasons = []
    load_time = 0.0
    for data in files:
        load_time += timed(lambda d=data: seasons.append(import_competition(d)))
    count, measured_file = len(files), files[-1]
    # Only the measured season's file is read again (its import, below). The others (the
    # circuit's nine earlier seasons, 46,000 objects the collector tracks) would be walked by
    # the collection before every timing that follows: 11 ms each, 0.3 ms without them.
    del files, data
    season = seasons[-1]
    settle()
    part("data")
    report.info(
        f"{name}: {count} season(s) generated and imported in {load_time:.1f} s; "
        f"measured: {season.series.slug} {season.label} ({module.describe(season)})"
    )

    # The measured season, and the module's variants of it (`VARIANTS`: its file again with
    # other settings, in a series of its own), each measured alike, its figures printed beside
    # the default's as `<name>.<label>.<figure>` under the same envelope.
    measured = [("", season)]
    for label, settings in getattr(module, "VARIANTS", ()):
        variant = renamed(measured_file, f"{season.series.slug}-{label}")
        variant["settings"] = settings
        variant_season = import_competition(variant)
        del variant
        settle()
        report.info(f"{name}.{label}: settings {settings} ({module.describe(variant_season)})")
        measured.append((f"{label}.", variant_season))
    part("variants")

    def recompute_of(measured_season):
        return lambda: season_recompute(season_id=measured_season.pk, force=True)

    for prefix, measured_season in measured:
        full, shown = recompute_of(measured_season), f"{name}.{prefix}".rstrip(".")

        def bare(measured_season=measured_season):
            module.bare_load(measured_season)

        t_full, t_bare = side_by_side(full, bare)
        report.line(f"{name}.{prefix}recompute_vs_load", t_full / t_bare, "recompute_vs_load")
        report.info(
            f"{shown}: full recompute {t_full * 1000:.0f} ms, bare load {t_bare * 1000:.0f} ms"
        )
        # The full recompute above finds the stored standings as it computes them (the results
        # did not change) and writes nothing. Here every stored line is made to differ first
        # (untimed): the recompute writes the whole season, as after a change of its settings.
        t_all, t_floor = [], []
        for _ in range(RUNS):
            every_line_differs(measured_season)
            t_all.append(timed(full))
            t_floor.append(timed(bare))
        t_all, t_floor = statistics.median(t_all), statistics.median(t_floor)
        report.line(
            f"{name}.{prefix}recompute_all_written_vs_load",
            t_all / t_floor,
            "recompute_all_written_vs_load",
        )
        report.info(
            f"{shown}: full recompute writing every line {t_all * 1000:.0f} ms, "
            f"bare load {t_floor * 1000:.0f} ms"
        )
        report.line(
            f"{name}.{prefix}recompute_memory_vs_load",
            peak_memory(full) / peak_memory(bare),
            "recompute_memory_vs_load",
        )
    part("recompute")

    for prefix, measured_season in measured:
        full, shown = recompute_of(measured_season), f"{name}.{prefix}".rstrip(".")
        # A variant's changes are those of its season in place of the measured one.
        for label, target in module.changes([*seasons[:-1], measured_season]):
            change = module.change(target)
            t_change, t_full = side_by_side(change, full)
            guarded = label in getattr(module, "GUARDED_CHANGES", ())
            report.line(
                f"{name}.{prefix}{label}_vs_full",
                t_change / t_full,
                "one_change_vs_full" if guarded else None,
            )
            report.info(f"{shown}: {label} {t_change * 1000:.0f} ms")
            # The same change in its two parts: the save alone (the recompute held back), then
            # the standings brought up to date (the update, and what it passes on to later
            # seasons). No target: the figure above is the one with a target.
            changed = target[0] if isinstance(target, tuple) else target
            t_save, t_update = save_then_update(change, changed)
            report.line(f"{name}.{prefix}{label}_standings_only_vs_full", t_update / t_full)
            report.info(
                f"{shown}: {label}: the save {t_save * 1000:.0f} ms, then the standings "
                f"{t_update * 1000:.0f} ms (a full recompute {t_full * 1000:.0f} ms)"
            )
    part("changes")

    # The same change at the system's largest size, where the issue sets its target (a module
    # that defines `largest`): a season of its own, dropped afterwards.
    largest = getattr(module, "largest", None)
    if largest is not None:
        data = largest(quick=args.quick)
        # Written as the module's bulk insert writes it, then its standings computed once: the
        # same stored standings as after an import (tested), in half the time (at 2000 x 30 on
        # a slow host, 27 s against 57 s; the import is measured on its own, below).
        with no_recompute():
            module.bulk_insert(data, data["series"])
        slug = data["series"]
        del data  # not read again; the collection before each timing would walk it
        big = Season.objects.get(series__slug=slug)
        season_recompute(season_id=big.pk, force=True)
        settle()

        def full_largest():
            season_recompute(season_id=big.pk, force=True)

        change = module.change(big)
        t_change, t_full = side_by_side(change, full_largest)
        report.line(f"{name}.one_change_largest_vs_full", t_change / t_full, "one_change_vs_full")
        t_save, t_update = save_then_update(change, big)
        report.info(
            f"{name}: largest ({module.describe(big)}): one change {t_change * 1000:.0f} ms "
            f"(the save {t_save * 1000:.0f} ms, then the standings {t_update * 1000:.0f} ms), "
            f"a full recompute {t_full * 1000:.0f} ms"
        )
        drop_series(slug)
        part("largest")

    # Import ÷ bulk insert, and replace ÷ fresh, of the measured season's file in a new series.
    data = measured_file

    def bulk_floor(slug: str) -> None:
        # The file's copy is made before, as the import's is.
        copied = renamed(data, slug)
        module.bulk_insert(copied, slug)

    t_import, t_bulk, t_replace = [], [], []
    for run in range(3):
        slug_a, slug_b = f"bench-import-{run}", f"bench-bulk-{run}"
        with no_recompute():
            t_import.append(timed(lambda s=slug_a: import_competition(renamed(data, s))))
            t_bulk.append(timed(lambda s=slug_b: bulk_floor(s)))
            t_replace.append(
                timed(lambda s=slug_a: import_competition(renamed(data, s), replace=True))
            )
        drop_series(slug_a)
        drop_series(slug_b)
    m_import, m_bulk, m_replace = (statistics.median(t) for t in (t_import, t_bulk, t_replace))
    report.line(f"{name}.import_vs_bulk_insert", m_import / m_bulk, "import_vs_bulk_insert")
    report.line(f"{name}.replace_vs_fresh_import", m_replace / m_import, "replace_vs_fresh_import")
    report.info(
        f"{name}: import {m_import * 1000:.0f} ms, bulk insert {m_bulk * 1000:.0f} ms, "
        f"replace {m_replace * 1000:.0f} ms"
    )
    part("imports")

    # Pages at 50 and 2000 players.
    small = import_competition(module.field(50))
    big = import_competition(module.field(args.players))
    settle()
    part("page data")
    measure_pages(name, "page", Client(), module.pages, small, big, report, trivial_path, "page")
    manage_pages = getattr(module, "manage_pages", None)
    if manage_pages is not None:
        manager = manager_client(small, big)
        measure_pages(
            name, "manage", manager, manage_pages, small, big, report, trivial_path, runs=RUNS
        )

    part("pages")
    if args.server:
        path = module.rps_page(big)
        page_rps, trivial_rps = rps_side_by_side(args.server, path, trivial_path)
        report.line(f"{name}.rps_vs_trivial", page_rps / trivial_rps, "rps_vs_trivial")
        report.info(
            f"{name}: {page_rps:.0f} requests/s against {trivial_rps:.0f} for the trivial page"
        )
        part("requests/s")

    extra = getattr(module, "extra", None)
    if extra is not None:
        for key, value, target in extra(quick=args.quick):
            if target is not None:
                TARGETS[f"{name}.{key}"] = target
            report.line(f"{name}.{key}", value, f"{name}.{key}")
        part("extra")
    report.info(
        f"{name}: done in {time.perf_counter() - started:.0f} s ("
        + ", ".join(f"{label} {seconds:.0f} s" for label, seconds in parts.items())
        + ")"
    )


def measure_pages(
    name: str,
    kind: str,
    client,
    pages,
    small,
    big,
    report,
    trivial_path: str,
    target=None,
    runs: int | None = None,
) -> None:
    """Each page `pages(big)` names (the season of 2000 players) ÷ the trivial page, side by
    side (medians of `runs` loads, PAGE_RUNS unless given), printed as `<name>.<kind>.<page>`
    (with `target`'s target, if any); a page that does not answer 200 is a miss. The query
    counts of the pages `pages(small)` names too (50 players) are compared:
    `<name>.<kind>_queries_50_vs_2000`.

    Each page is rendered: the page cache (the process's memory) is emptied before each load,
    inside the timing (a few microseconds), so the figure is the render, not the cache. For
    the public pages, `<name>.page_cached.<page>` is the same page served from the cache
    (after one load that stores it)."""
    from common import PAGE_RUNS, fetch, side_by_side
    from django.core.cache import caches

    page_cache = caches["pages"]

    def rendered(path: str):
        page_cache.clear()
        return client.get(path)

    prefix = f"{name}.{kind}"
    shown_as = "" if kind == "page" else f"{kind} "  # the public pages' lines as they were
    small_pages = dict(pages(small))
    differing = []
    for page, path in pages(big):
        page_cache.clear()
        status, size, queries = fetch(client, path)
        if status != 200:
            report.line(f"{prefix}.{page}", f"HTTP {status}")
            report.misses.append(f"{prefix}.{page}: HTTP {status}")
            continue
        if page in small_pages:
            page_cache.clear()
            _s, _z, small_queries = fetch(client, small_pages[page])
            if small_queries != queries:
                differing.append(f"{page} {small_queries}/{queries}")
        t_page, t_trivial = side_by_side(
            lambda p=path: rendered(p), lambda: client.get(trivial_path), runs or PAGE_RUNS
        )
        report.line(f"{prefix}.{page}", t_page / t_trivial, target)
        report.info(
            f"{name}: {shown_as}{page} {t_page * 1000:.1f} ms, {size / 1024:.0f} KiB, "
            f"{queries} queries"
        )
        if kind == "page":
            client.get(path)  # stored
            t_cached, t_trivial = side_by_side(
                lambda p=path: client.get(p), lambda: client.get(trivial_path), runs or PAGE_RUNS
            )
            report.line(f"{name}.page_cached.{page}", t_cached / t_trivial)
            report.info(f"{name}: {page} from the page cache {t_cached * 1000:.1f} ms")
    report.line(f"{prefix}_queries_50_vs_2000", ", ".join(differing) or "equal")
    if differing:
        report.misses.append(f"{prefix}_queries_50_vs_2000: {', '.join(differing)}")


def manager_client(*seasons):
    """A client logged in as a manager of the seasons' series (the manager's pages)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    user, _created = get_user_model().objects.get_or_create(username="bench-manager")
    for season in seasons:
        season.series.managers.add(user)
    client = Client()
    client.force_login(user)
    return client


# --- requests per second against gunicorn --------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _answers(port: int, path: str, timeout: float = 5) -> bool:
    """Whether a GET of `path` answers 200."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Host": "localhost"})
        response = conn.getresponse()
        response.read()
        return response.status == 200
    except OSError:
        return False
    finally:
        conn.close()


@contextlib.contextmanager
def gunicorn(url: str, ready_path: str):
    """gunicorn with 2 workers, yielded once they answer `ready_path`: the app is loaded
    before the workers fork (`--preload`), so the first system's timings do not share the 2
    cores with workers still importing it (until the tenth round the server was handed over
    as soon as its port accepted connections)."""
    port = free_port()
    # As deployed (docker-compose, production settings): connections kept between requests.
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "CELERY_BROKER_URL": "",
        "DEBUG": "false",
        "CONN_MAX_AGE": "60",
    }
    process = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "clubsite.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--log-level",
            "warning",
            "--preload",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while not _answers(port, ready_path):
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError(f"gunicorn does not answer {ready_path} on port {port}")
            time.sleep(0.2)
        for _ in range(4):  # a few more, which the workers take as they come: a warm-up
            _answers(port, ready_path)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


def rps(port: int, path: str, seconds: float = 3.0, clients: int = 20) -> float:
    done = [0] * clients
    errors = [0] * clients
    stop = time.monotonic() + seconds

    def client(i: int) -> None:
        while time.monotonic() < stop:
            if _answers(port, path, timeout=30):
                done[i] += 1
            else:
                errors[i] += 1

    start = time.monotonic()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if sum(errors):
        print(f"# {sum(errors)} failed requests on {path}", flush=True)
    return sum(done) / (time.monotonic() - start)


def rps_side_by_side(port: int, path: str, trivial: str) -> tuple[float, float]:
    """Requests/s of the page and of the trivial page, interleaved, medians of 2. Both are
    requested a few times first, which the workers take as they come (the trivial page was, by
    `gunicorn`): each worker renders the page once and serves it from its page cache from then
    on, which is what a crowd asks for between two changes. The render itself is the
    `page.<name>` figure (in a 3-second window, a render of each worker would weigh in this
    one as if a crowd saw a change every three seconds)."""
    for _ in range(4):
        _answers(port, path)
        _answers(port, trivial)
    page, base = [], []
    for _ in range(2):
        page.append(rps(port, path))
        base.append(rps(port, trivial))
    return statistics.median(page), statistics.median(base)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="system modules to run (file names)")
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke test")
    parser.add_argument("--players", type=int, default=2000, help="players of the page season")
    parser.add_argument("--no-server", action="store_true", help="skip requests per second")
    args = parser.parse_args()
    # A name that is no module is an error, not a bench that measures nothing.
    unknown = sorted(set(args.only or ()) - set(system_names()))
    if unknown:
        parser.error(
            f"no system module {', '.join(unknown)} (choose from {', '.join(system_names())})"
        )
    if args.quick:
        args.players = min(args.players, 200)
    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    started = time.perf_counter()
    fresh_database(url)
    setup(url)

    from common import side_by_side
    from django.test import Client
    from django.urls import reverse

    report = Report()
    trivial = reverse("help")
    client = Client()
    client.get(trivial)
    t_trivial, _ = side_by_side(lambda: client.get(trivial), lambda: None)
    report.info(f"trivial page {trivial}: {t_trivial * 1000:.1f} ms")
    modules = system_modules(args.only)
    with contextlib.ExitStack() as stack:
        args.server = None if args.no_server else stack.enter_context(gunicorn(url, trivial))
        for module in modules:
            bench_system(module, args, report, trivial)
    minutes = (time.perf_counter() - started) / 60
    report.info(f"{report.count} figures in {minutes:.1f} minutes")
    if report.misses:
        report.info("outside the envelope: " + "; ".join(report.misses))
        return 1
    report.info("every figure within the envelope")
    return 0


if __name__ == "__main__":
    sys.exit(main())
