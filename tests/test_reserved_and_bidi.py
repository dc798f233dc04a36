"""Ids that would shadow the site's own addresses are refused or avoided, and names holding
bidirectional control characters are shown isolated (issue 45).

Reserved words (competitions.reserved): the list is checked against every URLconf (the site's
and every system's), a tournament called "New" gets a usable id on every system's manager page,
and a file or an admin form giving a reserved series slug or tournament id is refused, naming
the field.

Bidi: every name (series, season, club, player, tournament, group) of a season of every system
starts with U+202E (RIGHT-TO-LEFT OVERRIDE). A crawl of every public page (and every manager
page) then finds each such character inside a <bdi> or an element with dir="auto", so the
override cannot turn the text after the name around."""

import re
from html.parser import HTMLParser

import pytest
from django.core.exceptions import ValidationError
from django.db.models import CharField, Value
from django.db.models.functions import Concat
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from competitions.interchange import FileError
from competitions.models import Club, Group, Player, Season, Series, Tournament
from competitions.registry import all_systems
from competitions.reserved import RESERVED_WORDS, generated_key, is_reserved
from competitions.views import manage_url
from rankings.imports import import_competition, import_file
from tests.bridge_files import ladder_file
from tests.chess_files import chess_file
from tests.keizer_data import small_file
from tests.othello_files import gp_file
from tests.test_hostile_crawl import assert_no_server_errors, crawl

pytestmark = pytest.mark.django_db

# --- reserved words -------------------------------------------------------------------------------

# The URL variables whose values are ids of the data (a series' slug, a season's, a tournament's
# or a player's id): a literal segment beside one of them shadows the id of the same text.
ID_VARIABLES = {"series", "season", "tournament", "player"}
VARIABLE = re.compile(r"^<(?:\w+:)?(\w+)>$")


def _routes(patterns, prefix: str = ""):
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern):
            yield route


def site_routes() -> list[str]:
    """Every route of the site, with each system's pages below the season they belong to
    (they are resolved through `<path:rest>`, competitions.dispatch)."""
    routes = [r for r in _routes(get_resolver().url_patterns) if "<path:rest>" not in r]
    for spec in all_systems():
        if spec.pages is not None and spec.pages.urls:
            routes += _routes(get_resolver(spec.pages.urls).url_patterns, "<series>/<season>/")
        for urlconf in spec.manage_urls:
            routes += _routes(get_resolver(urlconf).url_patterns, "manage/<series>/<season>/")
    return routes


def shadowing_words(routes: list[str]) -> dict[str, set[str]]:
    """Per id variable, the literal path segments that stand beside it (same prefix)."""
    children: dict[tuple[str, ...], set[str]] = {}
    for route in routes:
        segments = [s for s in route.lstrip("^").split("/") if s]
        for i, segment in enumerate(segments):
            prefix = tuple(VARIABLE.sub(r"<\1>", s) for s in segments[:i])
            children.setdefault(prefix, set()).add(segment)
    found: dict[str, set[str]] = {}
    for segments in children.values():
        names = {m.group(1) for s in segments if (m := VARIABLE.match(s))} & ID_VARIABLES
        literals = {s for s in segments if "<" not in s and not s.startswith("^")}
        for name in names:
            found.setdefault(name, set()).update(literals)
    return found


def test_every_path_segment_beside_an_id_is_a_reserved_word(settings):
    found = shadowing_words(site_routes())
    # The crawl of the URLconfs sees what it should (the routes of issue 45 among them).
    assert {"admin", "manage", "help"} <= found["series"]
    assert "players" in found["season"]
    assert "new" in found["tournament"]
    static = settings.STATIC_URL.strip("/").split("/")[0]
    missing = {name: words - RESERVED_WORDS for name, words in found.items()}
    missing["series"] |= {static} - RESERVED_WORDS
    assert {name: words for name, words in missing.items() if words} == {}


def test_generated_ids_avoid_reserved_words():
    assert generated_key("new", set()) == "new-2"
    assert generated_key("new", {"new-2"}) == "new-3"
    assert generated_key("mechelen", set()) == "mechelen"
    assert is_reserved("Admin") and not is_reserved("admins")


SYSTEM_FILES = {
    "boardgame-circuit": None,  # the conftest's circuit_file
    "chess-bgp": chess_file,
    "othello-gp": gp_file,
}


def tournament_file(system: str, circuit_file) -> dict:
    return circuit_file if system == "boardgame-circuit" else SYSTEM_FILES[system]()


@pytest.mark.parametrize("system", sorted(SYSTEM_FILES))
def test_a_tournament_called_new_gets_a_usable_manager_page(
    system, circuit_file, django_user_model, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        season = import_competition(tournament_file(system, circuit_file))
    user = django_user_model.objects.create_user("secretary", password="pw-secretary-1")
    season.series.managers.add(user)
    client = Client()
    client.force_login(user)
    response = client.post(manage_url(season, "tournament_create"), {"name": "New", "date": ""})
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament = Tournament.objects.get(season=season, name="New")
    assert not is_reserved(tournament.key)
    assert response["Location"] == manage_url(season, "tournament", tournament.key)
    assert client.get(response["Location"]).status_code == 200


@pytest.mark.parametrize("system", sorted(SYSTEM_FILES))
@pytest.mark.parametrize("word", ["new", "New", "manage"])
def test_the_file_refuses_a_reserved_tournament_id(system, word, circuit_file):
    data = tournament_file(system, circuit_file)
    data["tournaments"][0]["id"] = word
    with pytest.raises(FileError) as refused:
        import_file(data)
    assert refused.value.path == "tournaments[0].id"
    assert repr(word) in refused.value.message
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("word", ["admin", "help", "manage", "accounts", "static", "Admin"])
def test_the_file_refuses_a_reserved_series_slug(word, circuit_file):
    circuit_file["series"] = word
    with pytest.raises(FileError) as refused:
        import_file(circuit_file)
    assert refused.value.path == "series"
    assert not Series.objects.exists()


def test_the_admin_forms_refuse_reserved_series_slugs_and_tournament_ids(admin_client, season):
    response = admin_client.post(
        "/admin/competitions/series/add/",
        {"name": "Admin", "slug": "admin", "system": "boardgame-circuit"},
    )
    assert response.status_code == 200 and "addresses use" in response.content.decode()
    assert not Series.objects.filter(slug="admin").exists()
    tournament = Tournament(season=season, key="new", name="New")
    with pytest.raises(ValidationError) as refused:
        tournament.full_clean()
    assert "key" in refused.value.message_dict


def test_a_season_label_that_is_a_reserved_word_gets_another_slug(season):
    other = Season.objects.create(series=season.series, label="Players", name="x")
    assert other.slug == "players-season"


# --- bidirectional control characters in names -----------------------------------------

RLO = "\u202e"
NAMED = (Series, Season, Club, Player, Tournament, Group)


def rlo_names() -> None:
    """A season of every system, each name starting with U+202E."""
    for model in NAMED:
        model.objects.update(name=Concat(Value(RLO), "name", output_field=CharField()))


@pytest.fixture
def rtl_data(circuit_file, django_user_model, django_capture_on_commit_callbacks):
    ladder = ladder_file(
        pools=[["a1", "a2", "a3", "a4", "a5"], ["b1", "b2", "b3", "b4", "b5"]],
        rounds=[
            {
                "number": 1,
                "challenges": [{"imps": {"a1": 3, "a2": -1, "b1": 2, "b2": 0}}],
            }
        ],
    )
    with django_capture_on_commit_callbacks(execute=True):
        for data in (circuit_file, chess_file(), gp_file(), small_file(), ladder):
            import_competition(data)
    rlo_names()
    from django.core.management import call_command

    call_command("recompute", stdout=open("/dev/null", "w"))  # noqa: SIM115
    manager = django_user_model.objects.create_user("manager", password="pw-manager-123")
    for series in Series.objects.all():
        series.managers.add(manager)
    return manager


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
VOID |= {"track", "wbr", "param"}
# Text that is not running text of the page: the tab's title, a list's options, scripts.
OWN_CONTEXT = {"title", "option", "script", "style", "textarea", "datalist"}


class Isolation(HTMLParser):
    """Collects the text around each U+202E that no <bdi> or dir="auto" element holds."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.loose: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        isolating = tag == "bdi" or dict(attrs).get("dir") == "auto"
        self.stack.append((tag, isolating))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        # U+2068 ... U+2069 (first strong isolate ... pop directional isolate): the plain-text
        # <bdi> of messages built as text (competitions.text.isolated_text)
        data = re.sub("\u2068[^\u2069]*\u2069", "", data)
        if RLO not in data:
            return
        if any(tag in OWN_CONTEXT for tag, _ in self.stack):
            return
        if not any(isolating for _, isolating in self.stack):
            where = " > ".join(tag for tag, _ in self.stack[-3:])
            self.loose.append(f"{where}: {data.strip()[:60]!r}")


def unisolated(html: str) -> list[str]:
    parser = Isolation()
    parser.feed(html)
    return parser.loose


def summary(loose: dict[str, list[str]]) -> str:
    """Each loose place once, with the first page it was found on."""
    places: dict[str, str] = {}
    for url, found in loose.items():
        for place in found:
            places.setdefault(re.sub(r"'.*", "", place) + place[place.find("'") :][:30], url)
    return "\n".join(f"{place}  ({url})" for place, url in sorted(places.items()))


def crawl_for_isolation(client, starts, within):
    loose: dict[str, list[str]] = {}
    shown = []

    def inspect(url, html):
        if RLO in html:
            shown.append(url)
        found = unisolated(html)
        if found:
            loose[url] = found

    seen = crawl(client, starts, within, inspect)
    assert_no_server_errors(seen)
    return seen, shown, loose


def test_the_isolation_check_sees_a_loose_override():
    assert unisolated(f"<p>{RLO}evil</p>") != []
    assert unisolated(f"<p><bdi>{RLO}evil</bdi> after</p>") == []
    assert unisolated(f'<p><span dir="auto">{RLO}evil</span></p>') == []
    assert unisolated(f"<p><bdi>x</bdi>{RLO}evil</p>") != []
    assert unisolated(f"<p>\u2068{RLO}evil\u2069 after</p>") == []


def test_every_public_page_isolates_names_with_bidi_controls(client, rtl_data):
    seen, shown, loose = crawl_for_isolation(client, ["/", "/help/"], ("/",))
    # Every system's pages were reached and showed the names.
    for system in ("belgian-circuit", "telemark-bgp", "de-toren", "bbo"):
        assert any(url.startswith(f"/{system}/") for url in shown), system
    assert any("/tournaments/" in url for url in shown)
    assert any("/players/" in url for url in shown)
    assert loose == {}, summary(loose)


def test_every_manager_page_isolates_names_with_bidi_controls(client, rtl_data):
    client.force_login(rtl_data)
    seen, shown, loose = crawl_for_isolation(client, ["/manage/"], ("/manage/",))
    assert any("/tournaments/" in url for url in shown)
    assert loose == {}, summary(loose)
