"""The benchmark's gunicorn (scripts/bench/__main__.py) is handed to the systems only once its
workers answer: before the tenth round it was handed over as soon as the port accepted
connections, and the workers could still be loading the app while the first system measured
its recompute on the same two cores."""

import importlib.util
import os
import sys
from pathlib import Path

import pytest

HARNESS = Path(__file__).resolve().parent.parent / "scripts" / "bench" / "__main__.py"


@pytest.fixture(scope="module")
def harness():
    """The harness as a module; loading it puts scripts/ and scripts/bench/ first on sys.path,
    which is put back afterwards (its `common` must not shadow anything of later tests)."""
    saved = list(sys.path)
    spec = importlib.util.spec_from_file_location("bench_harness", HARNESS)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.path[:] = saved


def test_the_server_answers_as_soon_as_it_is_handed_over(harness, tmp_path):
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp_path / 'db.sqlite3'}"
    with harness.gunicorn(url, "/help/") as port:
        assert harness._answers(port, "/help/", timeout=1)


def test_a_server_that_does_not_start_is_an_error_not_a_missing_figure(harness):
    with pytest.raises(RuntimeError, match="gunicorn does not answer /help/"):
        with harness.gunicorn("no-such-database://", "/help/"):
            pass


def test_an_unknown_system_is_an_error_before_the_database_is_touched():
    """`--only` with a name that is no system module stops with the names to choose from,
    instead of dropping the bench database and printing no figure (it once printed
    "every target met" for `--only chess`; the module is bgp.py)."""
    import subprocess

    env = {**os.environ, "BENCH_DATABASE_URL": "postgres://nobody@127.0.0.1:1/none"}
    done = subprocess.run(
        [sys.executable, str(HARNESS.parent), "--only", "chess", "keizer"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 2
    assert "no system module chess" in done.stderr
    assert "bgp, circuit, gp, keizer, ladder" in done.stderr
    assert "figures" not in done.stdout
