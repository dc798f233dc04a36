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
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from competitions.models import Club, Player, Season, SeasonPlayer, Series
from competitions.registry import find_system, get_system
from competitions.signals import bulk_write, results_changed, standings_wanted

FORMAT = "competition/1"
SLUG_RE = re.compile(r"^[-a-zA-Z0-9_]+$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


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
        return _("a list")
    if isinstance(value, dict):
        return _("an object")
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
    value = field_of(obj, key, path, str, _("text"), required=required, default=default)
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
    value = field_of(obj, key, path, int, _("a whole number"), required=required, default=default)
    if value is not None and minimum is not None and value < minimum:
        raise FileError(join(path, key), _("must be at least %(n)s") % {"n": minimum})
    if value is not None and maximum is not None and value > maximum:
        raise FileError(join(path, key), _("must be at most %(n)s") % {"n": maximum})
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


@dataclass
class ReadContext:
    """What a system's section reader needs: the season and the file's players by id."""

    season: Season
    players: dict[str, Player] = field(default_factory=dict)
    clubs: dict[str, Club] = field(default_factory=dict)

    def player(self, value: Any, path: str) -> Player:
        expect(value, str, path, _("a player id"))
        try:
            return self.players[value]
        except KeyError:
            raise FileError(
                path, _("unknown player %(id)r (not in players)") % {"id": value}
            ) from None


def _read_common(data: Any) -> dict:
    expect(data, dict, "", _("a JSON object"))
    fmt = field_of(data, "format", "", str, _("text"))
    if fmt != FORMAT:
        raise FileError(
            "format",
            _("unsupported format %(value)r, expected %(expected)r")
            % {"value": fmt, "expected": FORMAT},
        )
    system = field_of(data, "system", "", str, _("text"))
    spec = find_system(system)
    if spec is None:
        raise FileError("system", _("unknown system %(value)r") % {"value": system})
    if spec.file_section is None:
        raise FileError("system", _("%(value)s files cannot be imported yet") % {"value": system})
    series = text(data, "series", "", max_length=64)
    if not SLUG_RE.match(series):
        raise FileError("series", _("a series id may hold only letters, digits, - and _"))
    return {
        "system": system,
        "series": series,
        "season": text(data, "season", "", max_length=32),
        "name": text(data, "name", "", required=False, default=""),
        "settings": field_of(
            data, "settings", "", dict, _("an object"), required=False, default={}
        ),
        "clubs": field_of(data, "clubs", "", list, _("a list"), required=False, default=[]),
        "players": field_of(data, "players", "", list, _("a list")),
    }


def _read_people(common: dict, series: Series, ctx: ReadContext) -> None:
    for i, raw in enumerate(common["clubs"]):
        path = f"clubs[{i}]"
        expect(raw, dict, path, _("an object"))
        key = text(raw, "id", path, max_length=64)
        if key in ctx.clubs:
            raise FileError(join(path, "id"), _("duplicate club id %(id)r") % {"id": key})
        club, _created = Club.objects.update_or_create(
            series=series, key=key, defaults={"name": text(raw, "name", path)}
        )
        ctx.clubs[key] = club
    entries = []
    for i, raw in enumerate(common["players"]):
        path = f"players[{i}]"
        expect(raw, dict, path, _("an object"))
        key = text(raw, "id", path, max_length=64)
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
        defaults: dict[str, Any] = {"name": text(raw, "name", path), "club": club}
        player, _created = Player.objects.update_or_create(
            series=series, key=key, defaults=defaults
        )
        ctx.players[key] = player
        entries.append(SeasonPlayer(season=ctx.season, player=player, position=i, club=club))
    bulk_create_with_history(entries, SeasonPlayer)


def import_competition(data: Any) -> Season:
    """Create the season described by the file, or replace it whole. One transaction; the
    standings are up to date when it returns."""
    common = _read_common(data)
    spec = get_system(common["system"])
    section = spec.file_module()
    with transaction.atomic(), bulk_write():
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
        Season.objects.filter(series=series, label=common["season"]).delete()
        settings = common["settings"]
        for path, message in spec.settings.validate(settings):
            raise FileError(join("settings", path) if path else "settings", message)
        season = Season.objects.create(
            series=series,
            label=common["season"],
            name=common["name"] or f"{series.name} {common['season']}",
            settings=settings,
        )
        ctx = ReadContext(season=season)
        _read_people(common, series, ctx)
        section.read(data, ctx)
        results_changed.send(sender=Season, season_ids={season.pk})
    # The command promises standings that are up to date when it returns, broker or not.
    standings_wanted.send(sender=Season, season_id=season.pk)
    season.refresh_from_db()
    return season


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
