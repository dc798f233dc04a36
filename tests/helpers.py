"""Helpers shared by the tests: importing the circuit file, reading stored standings, counting
queries and what a manager's action writes."""

import copy
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from competitions.models import Season
from rankings.imports import import_competition
from rankings.models import StandingsRow, StandingsTable
from rankings.selectors import standings_document, standings_table

ROOT = Path(__file__).resolve().parent.parent


def run_probe(code: str, env: dict[str, str]) -> dict:
    """Run Python `code` in a process of its own at the project's root, with the app's
    development settings plus `env` (the test run's DJANGO_ENV and SECRET_KEY left out), and
    give the JSON object it printed last. For what must not touch the test process (freezing
    its objects for the garbage collector, say)."""
    clean = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ENV", "SECRET_KEY")}
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "clubsite.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def import_circuit(circuit_file: dict, *, series: str = "") -> Season:
    """Import (a copy of) the circuit file, optionally as another series."""
    data = copy.deepcopy(circuit_file)
    if series:
        data["series"] = series
    return import_competition(data)


def fresh(season: Season) -> Season:
    season.refresh_from_db()
    return season


def recompute_afresh(season: Season) -> str:
    """The season's standings as a full recompute into an empty store writes them (`stored`):
    the reference an update, or a full recompute over stored standings, must match. (A forced
    recompute over stored standings writes only what differs, so it is not a reference by
    itself.)"""
    from rankings.services import season_recompute

    clear_standings(season)
    season_recompute(season_id=season.pk, force=True)
    return stored(season)


def clear_standings(season: Season) -> None:
    """Delete the season's stored standings (its next full recompute writes every line)."""
    StandingsRow.objects.filter(season=season).delete()
    StandingsTable.objects.filter(season=season).delete()


def stored(season: Season) -> str:
    """Every stored standings table of the season with its rows, as one canonical JSON text."""
    tables = StandingsTable.objects.filter(season=season).order_by("kind", "key", "position")
    rows = StandingsRow.objects.filter(season=season).order_by(
        "table__kind", "table__key", "position"
    )
    return json.dumps(
        {
            "tables": [[t.kind, t.key, t.position, t.data] for t in tables],
            "rows": [
                [r.table.kind, r.table.key, r.position, r.rank, r.points, r.detail]
                for r in rows.select_related("table")
            ],
        },
        sort_keys=True,
    )


def document(season: Season) -> dict:
    """The export_standings document of the stored standings."""
    return standings_document(season=fresh(season))


def tournament_of(doc: dict, key: str) -> dict:
    return next(t for t in doc["tournaments"] if t["id"] == key)


def row_of(rows: list[dict], player: str) -> dict:
    return next(row for row in rows if row["player"] == player)


def tournament_rows(season: Season, tournament: str) -> list[dict]:
    """The stored daily ranking of a tournament (its rows' details, in rank order)."""
    return standings_table(season=season, kind="tournament", key=tournament).row_details


def daily(season: Season, tournament: str, player: str):
    """A player's stored daily total at a tournament."""
    return row_of(tournament_rows(season, tournament), player)["daily"]


def season_rows(season: Season, kind: str, key: str = "") -> list[dict]:
    return standings_table(season=season, kind=kind, key=key).row_details


def approx(value: Fraction | float):
    """An exact value as the stored float must hold it (rules.md's 1e-9 bars, tighter)."""
    return pytest.approx(float(value), rel=1e-12, abs=1e-12)


def patch_spec(monkeypatch, system: str, **fields) -> None:
    """Replace fields of a registered system's spec (e.g. its demo) for one test."""
    from dataclasses import replace

    from competitions import registry

    monkeypatch.setitem(registry._registry, system, replace(registry.get_system(system), **fields))


def patch_standings(monkeypatch, system: str, **functions) -> None:
    """Replace functions of a registered system's standings part (e.g. compute) for one test."""
    from dataclasses import replace

    from competitions import registry

    standings = registry.get_system(system).standings
    patch_spec(monkeypatch, system, standings=replace(standings, **functions))


def python_calls(fn):
    """(the number of Python and C function calls `fn()` makes, its result): a measure of work
    that does not depend on the machine's speed or load, for tests that guard against a
    computation growing faster than its input (timings belong to `make bench`)."""
    count = 0

    def profile(_frame, event, _arg):
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        result = fn()
    finally:
        sys.setprofile(previous)
    return count, result


_CSRF = 'name="csrfmiddlewaretoken" value="[^"]+"'


def without_csrf(page: str | bytes) -> str | bytes:
    """A page without its CSRF token (a new one in every response), to compare two pages."""
    if isinstance(page, bytes):
        return re.sub(_CSRF.encode(), b"", page)
    return re.sub(_CSRF, "", page)


def count_queries(client, url) -> int:
    """The queries of one page, which must answer 200."""
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


@dataclass
class Writes:
    """What one manager action wrote, as `count_writes` saw it."""

    # Transactions committed: outermost atomic blocks, and statements that wrote in autocommit
    # (each its own transaction). The recomputes' and the after-commit hooks' left out.
    transactions: int = 0
    # Recomputes run (the recompute task's calls of rankings.services.season_recompute).
    recomputes: int = 0
    # `results_changed` as sent: (season ids, scope).
    signals: list[tuple[frozenset[int], str | None]] = field(default_factory=list)


_WRITES = ("INSERT", "UPDATE", "DELETE")


@contextmanager
def count_writes() -> Iterator[Writes]:
    """Count the transactions, recomputes and `results_changed` signals of the code run inside.

    Needs a test outside a test transaction (`@pytest.mark.django_db(transaction=True)`): inside
    one nothing commits. The recompute task runs eagerly, after commit (tests/conftest.py)."""
    from unittest import mock

    from django.db import DEFAULT_DB_ALIAS, connections

    from competitions.signals import results_changed
    from rankings import tasks

    connection = connections[DEFAULT_DB_ALIAS]
    assert not connection.in_atomic_block, "count_writes needs django_db(transaction=True)"
    writes = Writes()
    elsewhere = 0  # > 0 while after-commit hooks or a recompute run
    real_commit, real_hooks = connection.commit, connection.run_and_clear_commit_hooks
    real_recompute = tasks.season_recompute

    def commit():
        if not elsewhere:
            writes.transactions += 1
        return real_commit()

    def hooks():
        nonlocal elsewhere
        elsewhere += 1
        try:
            return real_hooks()
        finally:
            elsewhere -= 1

    def recompute(**kwargs):
        nonlocal elsewhere
        writes.recomputes += 1
        elsewhere += 1
        try:
            return real_recompute(**kwargs)
        finally:
            elsewhere -= 1

    def statement(execute, sql, params, many, context):
        if (
            not elsewhere
            and not connection.in_atomic_block
            and sql.lstrip().upper().startswith(_WRITES)
        ):
            writes.transactions += 1  # autocommitted
        return execute(sql, params, many, context)

    def signalled(sender, season_ids, scope=None, **kwargs):
        writes.signals.append((frozenset(season_ids), scope))

    results_changed.connect(signalled, weak=False, dispatch_uid="tests-count-writes")
    connection.commit, connection.run_and_clear_commit_hooks = commit, hooks
    try:
        with (
            mock.patch.object(tasks, "season_recompute", recompute),
            connection.execute_wrapper(statement),
        ):
            yield writes
    finally:
        del connection.commit, connection.run_and_clear_commit_hooks
        results_changed.disconnect(dispatch_uid="tests-count-writes")
