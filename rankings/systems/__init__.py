"""The rankings layer of each competition system: `rankings/systems/<name>/`.

A system's `system.py` here attaches two parts to its spec (competitions.registry):

- `Standings`: `compute(season)` loads the season's results, runs the pure engine
  (`rankings/engines/<name>.py`) and returns `ComputedTable`s, which the shared recompute stores;
  `document(season, tables)` builds the export_standings document of interchange.md from the
  stored tables; `flat_tables(document)` gives its CSV tables.
- `Pages`: the public pages below /<series>/<season>/ (a URLconf and the overview view), the
  season tabs, the player page section and the help text.

Nothing lists the systems: `discover()` imports every `system.py` below this package.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.functional import Promise


@dataclass
class ComputedRow:
    """A standings line: `player` is the player's key (None for a line of a club)."""

    player: str | None
    rank: int | None
    points: float | int | None
    detail: dict[str, Any]


class RowsOf(Sequence):
    """A table's rows made from its items as they are read: a long table (a season's standings
    with every result of every player) does not hold all its detail dicts at once while the
    store encodes them one by one. Each read makes the row again."""

    def __init__(self, items: Sequence, make: Callable[[Any], ComputedRow]) -> None:
        self._items = items
        self._make = make

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._make(item) for item in self._items[index]]
        return self._make(self._items[index])

    def __iter__(self):
        return map(self._make, self._items)

    def __eq__(self, other) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)


@dataclass
class ComputedTable:
    kind: str
    key: str = ""
    position: int = 0
    data: dict[str, Any] = field(default_factory=dict)
    # a list, or RowsOf
    rows: Sequence[ComputedRow] = field(default_factory=list)


@dataclass
class Update:
    """What an incremental recompute changes: `tables` replace the stored tables of the same
    kind and key (or are added), `remove` names stored tables (kind, key) that are gone. Every
    other stored table stays as it is."""

    tables: list[ComputedTable] = field(default_factory=list)
    remove: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class ForeignFile:
    """A file of another program (e.g. KeizerForClubs) that `import_competition` reads as a
    season of this system: `recognises(raw)` says whether the bytes are such a file; `run(raw,
    *, series, season, replace, dry_run, next_round)` imports it and returns an object with the
    import's `result` (competitions.interchange.ImportResult) and the report's `lines`.
    `next_round`: also take the attendance the file holds for the round after its last one
    (`--next-round`), where the program keeps one."""

    recognises: Callable[[bytes], bool]
    run: Callable[..., Any]


def foreign_file(raw: bytes) -> ForeignFile | None:
    """The system's reader of this foreign file, if a system recognises it."""
    from competitions.registry import all_systems

    for spec in all_systems():
        reader = spec.standings.foreign_file if spec.standings is not None else None
        if reader is not None and reader.recognises(raw):
            return reader
    return None


@dataclass(frozen=True)
class Standings:
    compute: Callable[[Any], list[ComputedTable]]
    # (season, stored tables with their rows) -> the export_standings document
    document: Callable[[Any, list], dict]
    # document -> {table name: (header, rows)} for CSV
    flat_tables: Callable[[dict], dict]
    # (season, scopes) -> an Update, or None for a full compute. `scopes` are what changed since
    # the stored standings (SystemSpec.change_scope; "earlier": a season this one reads changed);
    # never "*", which always computes in full. The stored standings are complete and of this
    # code's format when it is called. Without it every change computes the season in full.
    update: Callable[[Any, frozenset[str]], Update | None] | None = None
    # season -> a digest (at most 64 characters) of what later seasons read of its stored
    # standings; needed when the system's `reads_earlier_seasons` is set.
    carry: Callable[[Any], str] | None = None
    # (season, proposed season settings, valid; a system may take proposed options of its parts
    # as keywords) -> the settings page's "Preview", computed in memory with the recompute's
    # engine: one table per part of the standings that would change, {"key" (unique on the
    # page), "what" (what its numbers are, e.g. places), "caption" (texts naming the part, e.g.
    # a tournament and a group), "changes": [{"name", "old", "new"}] (only the players whose
    # number would change)}; None: no preview.
    preview: Callable[[Any, dict], list[dict]] | None = None
    # A file of another program that a season of this system moves in from (import_competition
    # FILE --series --season); None: none.
    foreign_file: "ForeignFile | None" = None

    def recompute_url(self, season) -> str:
        """The manager's "Recompute now" of the season (rankings.manage), which the manager's
        season page of the data layer shows beside stale standings."""
        return reverse("season_recompute", args=[season.series.slug, season.slug])


@dataclass(frozen=True)
class Tab:
    """A tab of the season pages: `name` is a URL name of the system's `urls` ("" for the
    season overview)."""

    name: str
    label: str | Promise


@dataclass(frozen=True)
class Pages:
    # (request, season) -> the season overview page
    overview: Callable
    # Dotted path of the URLconf of the pages below /<series>/<season>/; views get (request,
    # season, **kwargs).
    urls: str | None = None
    tabs: Sequence[Tab] = ()
    # (player, season, rows) -> (template, context) of the player page's section for a season,
    # or None when the player has nothing to show there; `rows` are the player's StandingsRows
    # of the season, with their tables.
    player_section: Callable | None = None
    # The keys of a stored table's `data` that `player_section` reads from `row.table.data`;
    # the player page then reads only those (a table's whole data can be large, e.g. every
    # table of a tournament day). None: the whole data.
    player_table_keys: tuple[str, ...] | None = None
    # Template of the system's part of the help page.
    help_template: str | None = None

    def url(self, season, name: str = "", *args) -> str:
        """The season's public overview, or its public page `name` (a URL name of `urls`):
        what the data layer's manager pages link to (`{% public_url %}`)."""
        from rankings.urls_helpers import season_url

        return season_url(season, name, *args)


def discover() -> None:
    from competitions.discovery import import_system_modules

    import_system_modules("system", __name__)
