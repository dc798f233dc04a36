"""The extension point: every competition system is described once, by one `SystemSpec`.

A system registers its spec from `competitions/systems/<name>/system.py`. The spec carries what
this app needs (identity, settings with bounds, tournament options, result models, file section,
manager pages, admin inlines, demo data). The higher apps attach their layer's parts to the same
spec from their own `systems/<name>/system.py`, in their `AppConfig.ready`:

- `rankings` attaches `standings` (load -> engine -> store) and `pages` (public pages, tabs,
  player sections, help text);
- `pairings` attaches `pairing` (the pairing engine and its pages), where the system has one.

Shared views, URLs, templates, the admin and the commands dispatch through the spec and never
name a system. Module references are dotted paths, imported when first needed, so a spec can be
registered while the app registry is still loading.
"""

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from importlib import import_module
from types import ModuleType
from typing import Any

from django.utils.functional import Promise
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _

# --- settings -----------------------------------------------------------------------------------

INT, NUMBER, BOOL, CHOICE, TEXT = "int", "number", "bool", "choice", "text"


@dataclass(frozen=True)
class Setting:
    """One season setting (rules.md: every number a club might change), with its bounds."""

    name: str
    label: str | Promise
    kind: str
    default: Any
    minimum: int | float | None = None
    maximum: int | float | None = None
    choices: Sequence[tuple[str, str | Promise]] = ()
    help_text: str | Promise = ""
    max_length: int = 100

    def problem(self, value: Any) -> str | None:
        """Why `value` is not acceptable, or None."""
        if self.kind == BOOL:
            return None if isinstance(value, bool) else _("must be true or false")
        if self.kind == TEXT:
            if not isinstance(value, str) or len(value) > self.max_length:
                return _("must be a text of at most %(n)s characters") % {"n": self.max_length}
            return None
        if self.kind == CHOICE:
            allowed = [key for key, _label in self.choices]
            if value not in allowed:
                return _("must be one of %(values)s") % {"values": ", ".join(allowed)}
            return None
        if self.kind == INT:
            if isinstance(value, bool) or not isinstance(value, int):
                return _("must be a whole number from %(min)s to %(max)s") % {
                    "min": self.minimum,
                    "max": self.maximum,
                }
        elif self.kind == NUMBER:
            if isinstance(value, bool) or not isinstance(value, int | float):
                return _("must be a number from %(min)s to %(max)s") % {
                    "min": self.minimum,
                    "max": self.maximum,
                }
        try:
            number = Decimal(str(value))
        except InvalidOperation:
            return _("must be a number")
        if not number.is_finite() or (
            (self.minimum is not None and number < Decimal(str(self.minimum)))
            or (self.maximum is not None and number > Decimal(str(self.maximum)))
        ):
            return _("must be from %(min)s to %(max)s") % {"min": self.minimum, "max": self.maximum}
        return None


@dataclass(frozen=True)
class SettingsSpec:
    """A system's season settings: defaults, validation with bounds (the one place, used by the
    settings form, the admin and the importer) and the form the manager pages show.

    `extra` validates what a plain list of settings cannot express (it gets the raw object and
    returns (path, message) pairs); `form` is a dotted path to a form class, else a form is
    built from `fields`; `template` the settings page's template, else the plain form page.
    `warnings` is a dotted path to a function (season, raw settings) -> messages about valid
    settings that are probably not meant for that season (the settings page and the import
    report show them; nothing is refused).
    """

    fields: Sequence[Setting] = ()
    extra: Callable[[dict], list[tuple[str, str]]] | None = None
    extra_names: frozenset[str] = frozenset()
    form: str | None = None
    template: str | None = None
    warnings: str | None = None

    @property
    def defaults(self) -> dict[str, Any]:
        return {s.name: s.default for s in self.fields}

    def field(self, name: str) -> Setting | None:
        return next((s for s in self.fields if s.name == name), None)

    def validate(self, raw: Any) -> list[tuple[str, str]]:
        """Problems in a settings object as (path below `settings`, message); empty when valid."""
        if not isinstance(raw, dict):
            return [("", _("settings must be an object"))]
        known = {s.name for s in self.fields} | set(self.extra_names)
        errors = [
            (key, _("unknown setting %(name)s") % {"name": key}) for key in raw if key not in known
        ]
        for setting in self.fields:
            if setting.name in raw:
                problem = setting.problem(raw[setting.name])
                if problem:
                    errors.append((setting.name, f"{setting.name} {problem}"))
        if self.extra is not None:
            errors.extend(self.extra(raw))
        return errors

    def resolved(self, raw: dict) -> dict[str, Any]:
        """The settings with defaults filled in (`raw` must be valid)."""
        return {**self.defaults, **{k: v for k, v in raw.items() if self.field(k)}}

    def warn(self, season: Any, raw: dict) -> list[str]:
        """Warnings about valid settings `raw` for `season` (its players, its rounds): what
        `warnings` finds; none without it or for settings that are not valid."""
        if self.warnings is None or self.validate(raw):
            return []
        return [str(message) for message in import_string(self.warnings)(season, raw)]


NO_SETTINGS = SettingsSpec()


# --- demo data ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DemoSeries:
    """A demo series: its slug and name, and a pure generator of its competition files
    (interchange.md) in import order; `last_season` is present once the demo is loaded."""

    slug: str
    name: str
    files: Callable[[], list[dict]]
    last_season: str


# --- the spec -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SystemSpec:
    """Everything shared code needs to know about one competition system."""

    key: str  # the `system` of files and series, e.g. "boardgame-circuit"
    name: str | Promise
    settings: SettingsSpec = NO_SETTINGS
    # Per-tournament flags (Tournament.options), e.g. a county championship; None: no options.
    tournament_options: SettingsSpec | None = None
    # What a group may set for itself (Group.options), checked where the system's pages and
    # files check it; None: no group options. The admin shows them read-only, by these labels,
    # and links to `group_page`: the dotted path of `(group) -> URL` of the manager page where
    # they are changed (with its checks and preview).
    group_options: SettingsSpec | None = None
    group_page: str | None = None
    # The system's result models and how a row reaches its season(s): a change recomputes them.
    result_models: Mapping[type, Callable[[Any], Iterable[int]]] = field(default_factory=dict)
    # How many earlier seasons of its series a season's standings read (0: none). When a
    # recompute changes what later seasons read of a season (`Standings.carry`), that many
    # following seasons are recomputed too.
    reads_earlier_seasons: int = 0
    # (model, changed row) -> the part of its season the change reaches (e.g. "t:12", one
    # tournament), which the system's `Standings.update` understands; None: the whole season.
    # Without it every change recomputes the whole season.
    change_scope: Callable[[type, Any], str | None] | None = None
    # Dotted path of the module reading and writing the system's section of the competition
    # file: `read(data, ctx)` and `write(season) -> dict` (with "players", and optionally
    # "player_fields": {player id: extra fields of its players entry}). None: no files yet.
    file_section: str | None = None
    # Dotted paths of the URLconfs of the manager pages under /manage/<series>/<season>/ (a
    # higher layer adds its own with `add_manage_urls`, e.g. the pairing pages).
    manage_urls: tuple[str, ...] = ()
    # Dotted path of `panel(request, season) -> (template, context)`, the system's part of the
    # manager's season page.
    manage_panel: str | None = None
    # Dotted path of the admin module: registers the system's ModelAdmins and may define
    # SEASON_INLINES, TOURNAMENT_INLINES, GROUP_INLINES, ROUND_INLINES and ENTRY_INLINES (a
    # season entry's page) for the shared admin pages, and SHARED_MODELS (the shared models its
    # section of the admin index lists too, see competitions/admin_site.py).
    admin: str | None = None
    demo: DemoSeries | None = None
    # Attached by the higher apps (see the module docstring). `pairing` says by its type what
    # it pairs: the season's next round, or a part of the season on that part's own page
    # (pairings.systems.SeasonPairing, PairedElsewhere).
    standings: Any = None
    pages: Any = None
    pairing: Any = None

    @property
    def available(self) -> bool:
        """Whether standings can be computed for this system yet."""
        return self.standings is not None

    def file_module(self) -> ModuleType | None:
        return import_module(self.file_section) if self.file_section else None

    def admin_module(self) -> ModuleType | None:
        return import_module(self.admin) if self.admin else None

    def panel(self) -> Callable | None:
        return import_string(self.manage_panel) if self.manage_panel else None

    def group_page_url(self, group) -> str | None:
        """The manager page of a group's options (`group_page`), None without one."""
        return import_string(self.group_page)(group) if self.group_page else None


class UnknownSystem(LookupError):
    pass


_registry: dict[str, SystemSpec] = {}


def register(spec: SystemSpec) -> SystemSpec:
    if spec.key in _registry:
        raise ValueError(f"competition system {spec.key!r} is registered twice")
    _registry[spec.key] = spec
    return spec


def attach(key: str, **parts: Any) -> SystemSpec:
    """Attach a higher layer's parts (standings, pages, pairing) to a registered system."""
    spec = get_system(key)
    for name in parts:
        if getattr(spec, name) is not None:
            raise ValueError(f"{name} of competition system {key!r} is attached twice")
    _registry[key] = replace(spec, **parts)
    return _registry[key]


def add_manage_urls(key: str, urlconf: str) -> SystemSpec:
    """Add a higher layer's manager pages (e.g. pairings) to a registered system."""
    spec = get_system(key)
    _registry[key] = replace(spec, manage_urls=(*spec.manage_urls, urlconf))
    return _registry[key]


def unregister(key: str) -> None:
    _registry.pop(key, None)


def get_system(key: str) -> SystemSpec:
    try:
        return _registry[key]
    except KeyError:
        raise UnknownSystem(key) from None


def find_system(key: str) -> SystemSpec | None:
    return _registry.get(key)


def all_systems() -> list[SystemSpec]:
    return list(_registry.values())


@contextmanager
def registered(spec: SystemSpec, **parts: Any) -> Iterator[SystemSpec]:
    """Register a system for the length of a block (tests of the extension point)."""
    register(spec)
    try:
        yield attach(spec.key, **parts) if parts else spec
    finally:
        unregister(spec.key)


def discover(package: str = "competitions.systems") -> None:
    """Import every system's `system.py` under `package`: each registers or attaches."""
    from competitions.discovery import import_system_modules

    import_system_modules("system", package)
