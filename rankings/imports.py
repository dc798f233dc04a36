"""The importer's promise (interchange.md): when an import returns, the season's standings are
up to date, broker or not.

The data layer's importer (`competitions.interchange.import_file`) stores the file in one
transaction and, like every writer, marks the season stale and sends its recompute after commit
(`results_changed`: mark and enqueue, nothing else). The callers that promise standings (the
`import_competition` and `load_demo` commands) import through here: the recompute is called
explicitly once the import is committed. With the eager queue it has run at commit already
and this finds the standings current.
"""

from typing import Any

from competitions import interchange
from competitions.interchange import ImportResult
from competitions.models import Season

from .services import season_recompute


def import_file(data: Any, *, replace: bool = False, dry_run: bool = False) -> ImportResult:
    """interchange.md's import_competition (`competitions.interchange.import_file`: its checks,
    its report, a dry run stores nothing), then the season's standings brought up to date."""
    result = interchange.import_file(data, replace=replace, dry_run=dry_run)
    if not result.dry_run:
        season_recompute(season_id=result.season.pk)
        result.season.refresh_from_db()
    return result


def import_competition(data: Any, *, replace: bool = False, dry_run: bool = False) -> Season:
    """Create the season described by the file (or replace it, if `replace`), with its
    standings up to date when it returns."""
    return import_file(data, replace=replace, dry_run=dry_run).season
