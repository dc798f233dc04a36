"""The competition file of interchange.md: the common part; each system reads and writes its own
section (`SystemSpec.file_section`).

Reading validates as it goes and raises `FileError` with the JSON path of the first fault; the
caller runs it inside one transaction, so a rejected file stores nothing.
"""

import datetime
import re
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competitions.models import Club, Player, Season, SeasonPlayer, Series
from competitions.models.core import KEY_PATTERN
from competitions.registry import find_system, get_system
from competitions.reserved import is_reserved, reserved_message
from competitions.signals import bulk_write, results_changed
from competitions.sync import Sync

FORMAT = "competition/1"
SLUG_RE = re.compile(r"^[-a-zA-Z0-9_]+$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# Ids of players, clubs, tournaments...: they stand in URLs and file names, so no '/', no
# spaces, nothing a browser or a spreadsheet would read differently.
ID_RE = re.compile(KEY_PATTERN)
COMMON_KEYS = ("format", "system", "series", "season", "name", "settings", "clubs", "players")
MAX_DEPTH = 32  # no competition file nests deeper than this


def check_storable(data: Any) -> None:
    """Refuse what no database column can hold, before anything is read: text with a NUL
    character or a lone surrogate, and nesting deeper than any competition file needs. The
    walk is iterative, so a pathological file cannot exhaust the stack."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise FileError(
                path,
                _("nested deeper than %(n)s levels; not a competition file") % {"n": MAX_DEPTH},
            )
        if isinstance(value, dict):
            for key, item in value.items():
                _check_text(key, join(path, "(key)"))
                stack.append((item, join(path, str(key)), depth + 1))
        elif isinstance(value, list):
            stack.extend((item, join(path, i), depth + 1) for i, item in enumerate(value))
        elif isinstance(value, str):
            _check_text(value, path)


def _check_text(value: str, path: str) -> None:
    if "\x00" in value:
        raise FileError(path, _("text with a NUL character cannot be stored"))
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise FileError(
            path, _("text with an invalid character (a lone surrogate) cannot be stored")
        ) from None


class FileError(ValueError):
    """A fault in a competition file, located by its JSON path."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


def join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


# What a value should be, named in an error message ("expected an object, got null"): translated
# when a message is written. The readers name them for every row of a file (three per result
# row), and a gettext call for each was a fifth of replacing a season of 10,000 rows.
AN_OBJECT = gettext_lazy("an object")
A_LIST = gettext_lazy("a list")
TEXT = gettext_lazy("text")
A_WHOLE_NUMBER = gettext_lazy("a whole number")
A_PLAYER_ID = gettext_lazy("a player id")
TRUE_OR_FALSE = gettext_lazy("true or false")


def expect(value: Any, kind: type | tuple[type, ...], path: str, what: str) -> Any:
    ok = isinstance(value, kind) and not (isinstance(value, bool) and bool not in _tuple(kind))
    if not ok:
        raise FileError(
            path, _("expected %(what)s, got %(got)s") % {"what": what, "got": _describe(value)}
        )
    return value


def _tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return _("a boolean")
    if isinstance(value, int | float):
        return _("the number %(value)s") % {"value": value}
    if isinstance(value, str):
        return _("the text %(value)r") % {"value": value[:40]}
    if isinstance(value, list):
        return A_LIST
    if isinstance(value, dict):
        return AN_OBJECT
    return type(value).__name__


def field_of(
    obj: dict,
    key: str,
    path: str,
    kind: type | tuple[type, ...],
    what: str,
    *,
    required: bool = True,
    default: Any = None,
) -> Any:
    if key not in obj:
        if required:
            raise FileError(join(path, key), _("missing"))
        return default
    return expect(obj[key], kind, join(path, key), what)


def text(
    obj: dict,
    key: str,
    path: str,
    *,
    required: bool = True,
    default: str = "",
    max_length: int = 200,
) -> str:
    value = field_of(obj, key, path, str, TEXT, required=required, default=default)
    if required and not value.strip():
        raise FileError(join(path, key), _("must not be empty"))
    if len(value) > max_length:
        raise FileError(join(path, key), _("longer than %(n)s characters") % {"n": max_length})
    return value


def whole(
    obj: dict,
    key: str,
    path: str,
    *,
    required: bool = True,
    default: int | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
) -> int | None:
    value = field_of(obj, key, path, int, A_WHOLE_NUMBER, required=required, default=default)
    if value is not None and minimum is not None and value < minimum:
        raise FileError(join(path, key), _("must be at least %(n)s") % {"n": minimum})
    if value is not None and maximum is not None and value > maximum:
        raise FileError(join(path, key), _("must be at most %(n)s") % {"n": maximum})
    return value


def file_id(obj: dict, key: str, path: str) -> str:
    """An id of the file (a player, a club, a tournament): letters, digits, '.', '-' and '_'."""
    value = text(obj, key, path, max_length=64)
    if not ID_RE.match(value):
        raise FileError(
            join(path, key),
            _(
                "%(value)r is not a valid id: use letters, digits, '.', '-' and '_' "
                "(at most 64, starting with a letter or digit)"
            )
            % {"value": value[:40]},
        )
    return value


def not_reserved(value: str, path: str) -> str:
    """An id that stands in URLs beside the site's own words (a series slug, a tournament id):
    not one of them (competitions.reserved)."""
    if is_reserved(value):
        raise FileError(path, reserved_message(value))
    return value


def date_of(obj: dict, key: str, path: str) -> datetime.date | None:
    value = field_of(obj, key, path, (str, type(None)), _("a date YYYY-MM-DD"), required=False)
    if value is None:
        return None
    try:
        if not DATE_RE.match(value):  # fromisoformat also takes 20250316 and week dates
            raise ValueError(value)
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise FileError(
            join(path, key), _("%(value)r is not a date YYYY-MM-DD") % {"value": value}
        ) from None


def season_entries(season: Season, others: Q) -> tuple[list[SeasonPlayer], list[Player]]:
    """What a file's `players` list writes: the season's entries in file order (each player's
    club the one of this season, not the current one), and the players with results in the
    season (`others`, a filter on Player) but no entry, by key."""
    entries = list(season.entries.select_related("player", "club").order_by("position", "id"))
    for entry in entries:
        entry.player.club = entry.club
    rest = (
        Player.objects.filter(others)
        .exclude(pk__in={e.player_id for e in entries})
        .select_related("club")
        .distinct()
        .order_by("key")
    )
    return entries, list(rest)


def season_players(season: Season, others: Q) -> list[Player]:
    """The players of `season_entries`, the entered ones first."""
    entries, rest = season_entries(season, others)
    return [e.player for e in entries] + rest


@dataclass
class ReadContext:
    """What a system's section reader needs: the season, the file's players by id, and the
    writer (competitions.sync) that stores rows in bulk, or, when the import replaces a stored
    season, writes only what differs."""

    season: Season
    players: dict[str, Player] = field(default_factory=dict)
    clubs: dict[str, Club] = field(default_factory=dict)
    sync: Sync = field(default_factory=lambda: Sync(replacing=False))

    @property
    def replacing(self) -> bool:
        return self.sync.replacing

    def player(self, value: Any, path: str) -> Player:
        expect(value, str, path, A_PLAYER_ID)
        try:
            return self.players[value]
        except KeyError:
            raise FileError(
                path, _("unknown player %(id)r (not in players)") % {"id": value}
            ) from None


def _read_common(data: Any) -> dict:
    expect(data, dict, "", _("a JSON object"))
    fmt = field_of(data, "format", "", str, TEXT)
    if fmt != FORMAT:
        raise FileError(
            "format",
            _("unsupported format %(value)r, expected %(expected)r")
            % {"value": fmt, "expected": FORMAT},
        )
    system = field_of(data, "system", "", str, TEXT)
    spec = find_system(system)
    if spec is None:
        raise FileError("system", _("unknown system %(value)r") % {"value": system})
    if spec.file_section is None:
        raise FileError("system", _("%(value)s files cannot be imported yet") % {"value": system})
    series = text(data, "series", "", max_length=64)
    if not SLUG_RE.match(series):
        raise FileError("series", _("a series id may hold only letters, digits, - and _"))
    not_reserved(series, "series")
    return {
        "system": system,
        "series": series,
        "season": text(data, "season", "", max_length=32),
        "name": text(data, "name", "", required=False, default=""),
        "settings": field_of(data, "settings", "", dict, AN_OBJECT, required=False, default={}),
        "clubs": field_of(data, "clubs", "", list, A_LIST, required=False, default=[]),
        "players": field_of(data, "players", "", list, A_LIST),
    }


def _read_people(common: dict, series: Series, ctx: ReadContext) -> None:
    clubs: list[Club] = []
    for i, raw in enumerate(common["clubs"]):
        path = f"clubs[{i}]"
        expect(raw, dict, path, AN_OBJECT)
        key = file_id(raw, "id", path)
        if key in ctx.clubs:
            raise FileError(join(path, "id"), _("duplicate club id %(id)r") % {"id": key})
        club = Club(series=series, key=key, name=text(raw, "name", path))
        ctx.clubs[key] = club
        clubs.append(club)
    # Clubs and players belong to the series: the file's are created or updated, the others
    # (of other seasons) stay.
    ctx.sync.rows(
        Club,
        clubs,
        existing=Club.objects.filter(series=series, key__in=list(ctx.clubs)),
        key=lambda c: c.key,
        fields=["name"],
        delete=False,
    )
    players: list[Player] = []
    for i, raw in enumerate(common["players"]):
        path = f"players[{i}]"
        expect(raw, dict, path, AN_OBJECT)
        key = file_id(raw, "id", path)
        if key in ctx.players:
            raise FileError(join(path, "id"), _("duplicate player id %(id)r") % {"id": key})
        club_key = field_of(raw, "club", path, (str, type(None)), _("a club id"), required=False)
        club = None
        if club_key is not None:
            club = ctx.clubs.get(club_key)
            if club is None:
                raise FileError(
                    join(path, "club"), _("unknown club %(id)r (not in clubs)") % {"id": club_key}
                )
        player = Player(series=series, key=key, name=text(raw, "name", path), club=club)
        ctx.players[key] = player
        players.append(player)
    ctx.sync.rows(
        Player,
        players,
        existing=Player.objects.filter(series=series, key__in=list(ctx.players)),
        key=lambda p: p.key,
        fields=["name", "club_id"],
        delete=False,
    )
    entries = [
        SeasonPlayer(season=ctx.season, player=p, position=i, club=p.club)
        for i, p in enumerate(players)
    ]
    ctx.sync.rows(
        SeasonPlayer,
        entries,
        existing=SeasonPlayer.objects.filter(season=ctx.season).select_related("player")
        if ctx.replacing
        else None,
        key=lambda e: e.player.key,
        fields=["position", "club_id"],
        name=str(_("season entries")),
    )


@dataclass
class Changes:
    """What an import changes in the season it replaces, by the system's result keys."""

    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unit: str = ""

    @property
    def none(self) -> bool:
        return not (self.added or self.changed or self.removed)

    def summary(self, examples: int = 5) -> list[str]:
        lines = [
            _("%(unit)s: %(added)s added, %(changed)s changed, %(removed)s removed.")
            % {
                "unit": self.unit,
                "added": len(self.added),
                "changed": len(self.changed),
                "removed": len(self.removed),
            }
        ]
        for label, keys in (
            (_("added"), self.added),
            (_("changed"), self.changed),
            (_("removed"), self.removed),
        ):
            for key in keys[:examples]:
                lines.append(f"  {label}: {key}")
            if len(keys) > examples:
                lines.append("  " + _("… and %(n)s more") % {"n": len(keys) - examples})
        return lines


@dataclass
class ImportResult:
    season: Season
    replaced: bool
    changes: Changes | None
    dry_run: bool
    # Valid settings probably not meant for this season (SettingsSpec.warn): reported, stored.
    warnings: list[str] = field(default_factory=list)


class _DryRun(Exception):
    """Raised inside the import's transaction to roll a dry run back."""

    def __init__(self, result: ImportResult) -> None:
        self.result = result


def _flatten(value: Any, path: str, out: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _flatten(item, join(path, str(key)), out)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _flatten(item, join(path, index), out)
    else:
        out[path] = value


def result_keys(section, document: dict) -> tuple[str, dict[str, Any]]:
    """The results of a competition file by a stable key: the system's own `result_keys` when
    its file section has one (e.g. a table of a round of a tournament), else every value by its
    JSON path."""
    if hasattr(section, "result_keys"):
        return section.result_keys(document)
    body = {k: v for k, v in document.items() if k not in COMMON_KEYS}
    flat: dict[str, Any] = {}
    _flatten(body, "", flat)
    return _("values"), flat


def compare(section, old: dict, new: dict) -> Changes:
    unit, before = result_keys(section, old)
    _unit, after = result_keys(section, new)
    return Changes(
        added=sorted(k for k in after if k not in before),
        changed=sorted(k for k in after if k in before and after[k] != before[k]),
        removed=sorted(k for k in before if k not in after),
        unit=unit,
    )


def import_file(data: Any, *, replace: bool = False, dry_run: bool = False) -> ImportResult:
    """interchange.md's import_competition: refuses to replace an existing season unless
    `replace`, reports what a replacement changes, and with `dry_run` stores nothing. One
    transaction; like every writer it marks the season stale and sends its recompute after
    commit (`results_changed`). The promise of up-to-date standings when the import returns is
    the caller's (`rankings.imports`)."""
    check_storable(data)
    common = _read_common(data)
    spec = get_system(common["system"])
    section = spec.file_module()
    try:
        with transaction.atomic(), bulk_write():
            result = _import(data, common, spec, section, replace=replace, dry_run=dry_run)
            result.warnings = spec.settings.warn(result.season, common["settings"])
            if dry_run:
                raise _DryRun(result)
    except _DryRun as done:
        return done.result
    return result


def _import(data, common, spec, section, *, replace: bool, dry_run: bool) -> ImportResult:
    # the file names the season ("... 2025"); a new series takes that name without the label
    series_name = common["name"].removesuffix(common["season"]).strip(" -–")
    series, created = Series.objects.get_or_create(
        slug=common["series"],
        defaults={"name": series_name or common["series"], "system": common["system"]},
    )
    if not created and series.system != common["system"]:
        raise FileError(
            "system",
            _("series %(series)s is a %(system)s series")
            % {"series": series.slug, "system": series.system},
        )
    old = Season.objects.filter(series=series, label=common["season"]).select_related("series")
    old = old.select_for_update().first()
    before = None
    if old is not None:
        if not replace:
            raise FileError(
                "season",
                _(
                    "series %(series)s has a season %(season)s already; importing would replace "
                    "it whole. Use --replace to replace it (with --dry-run first to see what "
                    "changes)."
                )
                % {"series": series.slug, "season": old.label},
            )
    settings = common["settings"]
    for path, message in spec.settings.validate(settings):
        raise FileError(join("settings", path) if path else "settings", message)
    if old is not None and getattr(section, "SYNC", False):
        return _replace(data, common, section, old, dry_run=dry_run)
    if old is not None:
        before = export_competition(old)
        old.delete()
    season = Season.objects.create(
        series=series,
        label=common["season"],
        name=common["name"] or f"{series.name} {common['season']}",
        settings=settings,
    )
    ctx = ReadContext(season=season)
    _read_people(common, series, ctx)
    section.read(data, ctx)
    ctx.sync.finish()
    changes = compare(section, before, export_competition(season)) if before else None
    if not dry_run:
        results_changed.send(sender=Season, season_ids={season.pk})
    return ImportResult(
        season=season, replaced=before is not None, changes=changes, dry_run=dry_run
    )


def _replace(data, common, section, season: Season, *, dry_run: bool) -> ImportResult:
    """Replace a stored season by the file, writing only what differs (competitions.sync):
    the season keeps its row, its stored standings and its change history."""
    name = common["name"] or f"{season.series.name} {common['season']}"
    season_changed = season.name != name or season.settings != common["settings"]
    if season_changed:
        season.name = name
        season.settings = common["settings"]
        season.save(update_fields=["name", "settings"])
    ctx = ReadContext(season=season, sync=Sync(replacing=True))
    _read_people(common, season.series, ctx)
    section.read(data, ctx)
    ctx.sync.finish()
    if (ctx.sync.changed or season_changed) and not dry_run:
        results_changed.send(sender=Season, season_ids={season.pk})
    return ImportResult(season=season, replaced=True, changes=ctx.sync, dry_run=dry_run)


def export_competition(season: Season) -> dict:
    section = get_system(season.system).file_module()
    body = section.write(season)
    players = body.pop("players")
    # A system may add fields to its players' entries (e.g. start points), by player id.
    player_fields = body.pop("player_fields", {})
    clubs = sorted({p.club for p in players if p.club is not None}, key=lambda c: c.key)
    document: dict[str, Any] = {
        "format": FORMAT,
        "system": season.system,
        "series": season.series.slug,
        "season": season.label,
        "name": season.name,
    }
    if season.settings:
        document["settings"] = season.settings
    document["clubs"] = [{"id": c.key, "name": c.name} for c in clubs]
    document["players"] = [
        {
            "id": p.key,
            "name": p.name,
            **({"club": p.club.key} if p.club else {}),
            **player_fields.get(p.key, {}),
        }
        for p in players
    ]
    document.update(body)
    return document
