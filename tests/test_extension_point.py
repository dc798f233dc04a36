"""The extension point: a system is one spec; shared code dispatches through it and never names a
system; the apps depend one way; systems without standings say so instead of spinning."""

import ast
import io
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competitions.interchange import export_competition
from competitions.models import Season, SeasonPlayer, Series
from competitions.registry import all_systems, get_system, registered
from rankings.imports import import_competition
from rankings.models import StaleScope, StandingsTable
from rankings.systems import ComputedTable, Update
from rankings.urls_helpers import season_url
from tests.dummy import system as dummy

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.django_db

OTHER_SYSTEMS = ["othello-gp", "chess-bgp", "keizer", "bridge-ladder"]


# --- the dependency direction -------------------------------------------------------------------


def imported_modules(app: str) -> dict[str, set[str]]:
    """Every module each Python file of the app imports (migrations aside)."""
    found = {}
    for path in (ROOT / app).rglob("*.py"):
        if "migrations" in path.parts:
            continue
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
        found[str(path.relative_to(ROOT))] = names
    return found


# The same layers as the import-linter contract of `make lint` (pyproject.toml).
LAYERS = ["clubsite", "pairings", "rankings", "competitions"]


@pytest.mark.parametrize(
    "app,above", [(app, tuple(LAYERS[: LAYERS.index(app)])) for app in LAYERS[1:]]
)
def test_no_app_imports_an_app_above_it(app, above):
    upward = {
        path: sorted(n for n in names if n.split(".")[0] in above)
        for path, names in imported_modules(app).items()
    }
    assert {path: names for path, names in upward.items() if names} == {}


SYSTEM_WORDS = re.compile(
    r"boardgame|board.game|circuit|othello|chess|keizer|bridge|ludo|yearly|seat\b|tournament_bonus",
    re.IGNORECASE,
)
SHARED_MODULES = [
    "competitions/views.py",
    "competitions/urls.py",
    "competitions/dispatch.py",
    "competitions/services.py",
    "competitions/interchange.py",
    "competitions/models/core.py",
    "competitions/admin.py",
    "competitions/sync.py",
    "competitions/forms.py",
    "rankings/management/commands/load_demo.py",
    "rankings/management/commands/import_competition.py",
    "rankings/imports.py",
    "rankings/manage.py",
    "competitions/management/commands/export_competition.py",
    "rankings/views.py",
    "rankings/urls.py",
    "rankings/services.py",
    "rankings/selectors.py",
    "rankings/signals.py",
    "rankings/tasks.py",
    "rankings/exports.py",
    "rankings/management/commands/export_standings.py",
    "rankings/management/commands/recompute.py",
    "templates/base.html",
    "templates/rankings/_season_header.html",
    "templates/rankings/help.html",
    "templates/rankings/player.html",
    "templates/competitions/season.html",
]


@pytest.mark.parametrize("path", SHARED_MODULES)
def test_shared_code_names_no_system(path):
    text = (ROOT / path).read_text(encoding="utf-8")
    assert SYSTEM_WORDS.findall(text) == []


# Fields the shared models gave up to the systems (issue 44): a shared file that names one
# reads or writes a system's concept.
MOVED_FIELDS = {"start_points", "start_elo", "final", "previous_participants"}
SYSTEM_PARTS = ("systems", "engines", "migrations")


def shared_files() -> list[str]:
    """Every shared file: the apps' Python outside the systems' packages (and the engines,
    one per system, and the migrations), and the templates outside the systems' folders."""
    found = []
    for app in ("competitions", "rankings", "pairings"):
        for path in sorted((ROOT / app).rglob("*.py")):
            if not set(SYSTEM_PARTS) & set(path.relative_to(ROOT).parts):
                found.append(str(path.relative_to(ROOT)))
    for path in sorted((ROOT / "templates").rglob("*.html")):
        if len(path.relative_to(ROOT / "templates").parts) <= 2:  # templates/<app>/<name>
            found.append(str(path.relative_to(ROOT)))
    return found


def system_concepts() -> set[str]:
    """The names that belong to one system: the parts of each system's key and its package's
    name, the moved fields, and every field of a system's own models that is neither a
    relation nor a field of a shared model (start_elo, imps, rating, ...)."""
    from django.apps import apps

    shared, own = set(), set()
    for model in apps.get_models():
        if model._meta.app_label not in ("competitions", "rankings", "pairings"):
            continue
        if model.__name__.startswith("Historical"):
            continue
        fields = model._meta.get_fields()
        if ".systems." in model.__module__:
            own.update(f.name for f in fields if f.concrete and not f.is_relation)
        else:
            shared.update(f.name for f in fields)
    names = (own - shared) | MOVED_FIELDS
    for spec in all_systems():
        names.update(spec.key.split("-"))
        names.add(spec.file_section.split(".")[2])
    return names


def named_in(path: Path) -> tuple[list[str], list[str]]:
    """What a shared file names, prose aside: (words, texts). A Python file's identifiers,
    attributes, arguments, imported modules and the words of its string literals (docstrings
    and comments left out), with those literals; a template's words and text, its comments
    left out."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        text = re.sub(r"\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}", "", text, flags=re.S)
        return re.findall(r"[A-Za-z_]\w*", text), [text]
    tree = ast.parse(text)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    words, texts = [], []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            words.append(node.id)
        elif isinstance(node, ast.Attribute):
            words.append(node.attr)
        elif isinstance(node, ast.keyword | ast.arg) and node.arg:
            words.append(node.arg)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            words.append(node.name)
        elif isinstance(node, ast.ImportFrom | ast.Import):
            modules = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for name in [*modules, *(alias.name for alias in node.names)]:
                words.extend(name.split("."))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                texts.append(node.value)
                words.extend(re.findall(r"[A-Za-z_]\w*", node.value))
    return words, texts


@pytest.mark.parametrize("path", shared_files())
def test_shared_code_names_no_system_concept(path):
    """No system's key, name, package or field in the code of a shared file: what one system
    keeps is in its own models and read through its own modules."""
    concepts = system_concepts()
    words, texts = named_in(ROOT / path)
    named = {w for w in words if w in concepts or SYSTEM_WORDS.fullmatch(w)}
    systems = [str(spec.name) for spec in all_systems()] + [spec.key for spec in all_systems()]
    named.update(system for system in systems for text in texts if system in text)
    assert sorted(named) == []


def test_the_concept_check_sees_a_system_field_in_shared_code(tmp_path):
    """The check above is not vacuous: the moved fields and a system's own fields are concepts,
    and a shared file that reads one, or names a system in a string, is caught."""
    concepts = system_concepts()
    assert {"start_points", "start_elo", "final", "previous_participants"} <= concepts
    assert {"imps", "rating", "keizer", "bridge", "circuit", "othello", "chess"} <= concepts
    assert not {"season", "player", "tournament", "round", "position", "name"} & concepts
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""Prose may say keizer."""\n'
        "# and so may a comment: start_elo\n"
        "def f(entry):\n"
        "    return entry.start_points, {'system': 'bridge-ladder'}\n"
    )
    words, texts = named_in(sample)
    assert "start_points" in words and "start_elo" not in words and "keizer" not in words
    assert "bridge-ladder" in texts


def test_every_system_is_registered_once_with_settings_defaults_inside_their_bounds():
    keys = [spec.key for spec in all_systems()]
    assert sorted(keys) == sorted(["boardgame-circuit", *OTHER_SYSTEMS])
    for spec in all_systems():
        assert spec.settings.validate({}) == []
        assert spec.settings.validate(spec.settings.defaults) == [], spec.key
        for setting in spec.settings.fields:
            if setting.maximum is not None:
                assert spec.settings.validate({setting.name: setting.maximum + 1}), setting
    assert get_system("boardgame-circuit").available


# --- a dummy system, registered from the test -----------------------------------------------------


@pytest.fixture
def dummy_system(settings):
    templates = str(Path(dummy.__file__).parent / "templates")
    settings.TEMPLATES = [
        {**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], templates]}
    ]
    with registered(dummy.SPEC, standings=dummy.STANDINGS, pages=dummy.PAGES) as spec:
        yield spec


def dummy_file(**changes) -> dict:
    data = {
        "format": "competition/1",
        "system": "entry-list",
        "series": "entries",
        "season": "2026/27",
        "name": "Entry list 2026/27",
        "settings": {"top": 2},
        "clubs": [{"id": "c1", "name": "Club <One>"}],
        "players": [
            {"id": "p1", "name": "Ann", "club": "c1"},
            {"id": "p2", "name": "Bo"},
            {"id": "p3", "name": "Cy"},
        ],
    }
    data.update(changes)
    return data


def test_a_dummy_system_imports_exports_and_recomputes_without_shared_edits(
    dummy_system, django_capture_on_commit_callbacks
):
    season = import_competition(dummy_file())
    assert season.slug == "2026-27"
    assert not season.stale
    assert export_competition(season) == {**dummy_file(), "settings": {"top": 2}}

    out = io.StringIO()
    call_command("export_standings", "entries", "2026/27", stdout=out)
    assert json.loads(out.getvalue()) == {
        "list": [
            {"player": "p1", "rank": 1, "points": 2},
            {"player": "p2", "rank": 2, "points": 1},
            {"player": "p3", "rank": 3, "points": 0},
        ]
    }

    # A change through the ORM recomputes through the shared signal, task and store.
    with django_capture_on_commit_callbacks(execute=True):
        entry = SeasonPlayer.objects.get(season=season, player__key="p1")
        entry.position = 10
        entry.save()
    season.refresh_from_db()
    assert not season.stale
    out = io.StringIO()
    call_command("export_standings", "entries", "2026/27", stdout=out)
    assert [r["player"] for r in json.loads(out.getvalue())["list"]] == ["p2", "p3", "p1"]


def test_a_dummy_system_gets_working_public_and_shared_pages(client, dummy_system):
    season = import_competition(dummy_file())
    overview = client.get(season_url(season))
    assert overview.status_code == 200
    assert "1. Ann<br>2. Bo<br>3. Cy" in overview.content.decode()
    assert season_url(season) == "/entries/2026-27/"
    qualified = client.get(season_url(season, "qualified"))
    assert qualified.content.decode() == "qualified: p1, p2"
    assert client.get(season_url(season) + "nothing/").status_code == 404
    player = client.get(reverse("player", args=["entries", "p2"]))
    assert '<p class="dummy-section">Entry list 2026/27: rank 2</p>' in player.content.decode()
    download = client.get(reverse("standings_download", args=["entries", "2026-27", "zip"]))
    assert download.status_code == 200 and download.content[:2] == b"PK"
    assert client.get(reverse("help")).status_code == 200


def test_a_dummy_system_gets_working_manager_and_admin_pages(admin_client, dummy_system):
    season = import_competition(dummy_file())
    page = admin_client.get(reverse("manage:season", args=["entries", season.slug]))
    assert page.status_code == 200
    assert "Result entry for the Entry list is not available yet" in page.content.decode()
    settings_url = reverse("manage:season_settings", args=["entries", season.slug])
    assert admin_client.get(settings_url).status_code == 200
    refused = admin_client.post(settings_url, {"top": "11"})
    assert refused.status_code == 400
    assert admin_client.post(settings_url, {"top": "3"}).status_code == 302
    season.refresh_from_db()
    assert season.settings == {"top": 3}
    change = reverse("admin:competitions_season_change", args=[season.pk])
    assert admin_client.get(change).status_code == 200


# --- systems that are not available yet -----------------------------------------------------------


@pytest.fixture
def system_without_standings():
    """A system whose standings are not built yet: the dummy system registered without its
    standings and pages (every real system has standings now)."""
    with registered(dummy.SPEC) as spec:
        assert not spec.available
        yield spec.key


def test_a_season_of_a_system_without_standings_says_so_without_reloading(
    system_without_standings, admin_client, client, django_user_model
):
    system = system_without_standings
    # The series in the admin, as staff would; the season on the manager page.
    response = admin_client.post(
        reverse("admin:competitions_series_add"),
        {"slug": "club", "name": "Club competition", "system": system},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    manager = django_user_model.objects.create_user("manager", password="pw-manager-12")
    Series.objects.get(slug="club").managers.add(manager)
    client.force_login(manager)
    created = client.post(
        reverse("manage:season_create", args=["club"]), {"label": "2026/27", "name": ""}
    )
    assert created.status_code == 302
    season = Season.objects.get(series__slug="club")
    manage_page = client.get(created["Location"])
    assert manage_page.status_code == 200
    assert "is not available yet" in manage_page.content.decode()
    # Staff add a season in the admin too.
    admin_added = admin_client.post(
        reverse("admin:competitions_season_add"),
        {
            "series": season.series_id,
            "label": "2027",
            "name": "Club 2027",
            "settings": "{}",
            "entries-TOTAL_FORMS": "0",
            "entries-INITIAL_FORMS": "0",
        },
    )
    assert admin_added.status_code == 302, admin_added.content.decode()[:3000]

    client.logout()
    for label in ("2026/27", "2027"):
        season = Season.objects.get(series__slug="club", label=label)
        assert season.stale, "results could change; no engine will ever catch up"
        public = client.get(season_url(season))
        html = public.content.decode()
        assert public.status_code == 200
        assert "are not available yet" in html
        assert 'http-equiv="refresh"' not in html
        assert "Recomputing" not in html
    assert (
        client.get(reverse("standings_download", args=["club", "2027", "json"])).status_code == 404
    )


# --- reads never write; tasks are idempotent; the importer computes once ---------------------


def test_a_download_of_stale_standings_reads_them_and_writes_nothing(client, season):
    season.data_version += 5  # results changed; no recompute has run
    Season.objects.filter(pk=season.pk).update(data_version=season.data_version)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(
            reverse("standings_download", args=["belgian-circuit", "2025", "json"])
        )
    assert response.status_code == 200
    writes = [q["sql"] for q in ctx.captured_queries if not q["sql"].lstrip().startswith("SELECT")]
    assert writes == []
    season.refresh_from_db()
    assert season.stale
    page = client.get(season_url(season))
    assert 'http-equiv="refresh"' in page.content.decode()


def test_a_task_for_an_old_data_version_does_nothing(season, monkeypatch):
    from rankings.tasks import recompute_season
    from tests.helpers import patch_standings

    calls = []
    compute = get_system("boardgame-circuit").standings.compute
    patch_standings(
        monkeypatch, "boardgame-circuit", compute=lambda s: calls.append(s) or compute(s)
    )
    season.refresh_from_db()
    assert not recompute_season(season.pk, season.standings_version)  # a late duplicate
    assert calls == []
    Season.objects.filter(pk=season.pk).update(data_version=season.data_version + 1)
    assert recompute_season(season.pk, season.data_version + 1)
    assert len(calls) == 1


def test_an_import_computes_each_season_once(
    circuit_file, monkeypatch, django_capture_on_commit_callbacks
):
    from tests.helpers import patch_standings

    calls = []
    compute = get_system("boardgame-circuit").standings.compute
    patch_standings(
        monkeypatch, "boardgame-circuit", compute=lambda s: calls.append(s.pk) or compute(s)
    )
    with django_capture_on_commit_callbacks(execute=True):
        season = import_competition(circuit_file)
    assert calls == [season.pk]


# --- incremental recompute: scopes, updates, the rest kept ---------------------------------------


def _per_player_compute(season):
    """One table per player (kind "entry", key = player), plus the dummy's list."""
    tables = dummy.compute(season)
    for key, position in SeasonPlayer.objects.filter(season=season).values_list(
        "player__key", "position"
    ):
        tables.append(ComputedTable(kind="entry", key=key, data={"position": position}))
    return tables


def test_a_system_with_scopes_updates_only_what_a_change_reaches(
    django_capture_on_commit_callbacks,
):
    seen: list[frozenset] = []

    def update(season, scopes):
        seen.append(scopes)
        changed = [scope.removeprefix("entry:") for scope in scopes]
        positions = dict(
            SeasonPlayer.objects.filter(season=season, player__key__in=changed).values_list(
                "player__key", "position"
            )
        )
        return Update(
            tables=[
                ComputedTable(kind="entry", key=key, data={"position": positions[key]})
                for key in changed
            ]
        )

    def scope(model, row):
        return f"entry:{row.player.key}" if model is SeasonPlayer else None

    spec = replace(dummy.SPEC, key="entry-scoped", change_scope=scope)
    standings = replace(dummy.STANDINGS, compute=_per_player_compute, update=update)
    with registered(spec, standings=standings):
        season = import_competition(dummy_file(system="entry-scoped"))
        before = dict(StandingsTable.objects.filter(season=season).values_list("key", "pk"))
        assert seen == [], "an import computes in full"

        with django_capture_on_commit_callbacks(execute=True):
            entry = SeasonPlayer.objects.get(season=season, player__key="p2")
            entry.position = 7
            entry.save()

        assert seen == [frozenset({"entry:p2"})]
        season.refresh_from_db()
        assert not season.stale
        after = dict(StandingsTable.objects.filter(season=season).values_list("key", "pk"))
        assert after.keys() == before.keys()
        # The stored tables stay; the one the update recomputed has its new data written.
        assert after == before
        assert StandingsTable.objects.get(season=season, key="p2").data == {"position": 7}
        assert not StaleScope.objects.filter(season=season).exists()

        # A change the system cannot place (the season's own row) computes the whole season.
        with django_capture_on_commit_callbacks(execute=True):
            season.name = "Renamed"
            season.save()
        assert len(seen) == 1
        # In full, over the stored tables: what came out as stored keeps its row (a full
        # recompute writes only what differs), and the stored data is what the compute gives.
        again = dict(StandingsTable.objects.filter(season=season).values_list("key", "pk"))
        assert again == after
        computed = {(t.kind, t.key): t.data for t in _per_player_compute(season)}
        assert {
            (t.kind, t.key): t.data for t in StandingsTable.objects.filter(season=season)
        } == computed
        assert not StaleScope.objects.filter(season=season).exists()
        assert not Season.objects.get(pk=season.pk).stale
