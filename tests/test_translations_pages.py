"""Every user-facing string of a page, a form or an error is translated: each page is rendered in
English and in Dutch, Swedish and Norwegian, and any text that stays English there is a defect,
unless it is data (names, titles, numbers) or a word the language writes the same way (the
catalog says so: its translation equals the English). Numbers are written the language's way."""

import copy
import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from competitions.models import Club, Player, Season, Series, Tournament
from competitions.systems.boardgame.models import Table
from competitions.views import manage_url
from rankings.imports import import_competition
from rankings.urls_helpers import season_url
from tests.test_hostile_crawl import TAG
from tests.test_translations import LANGS, parse_po, po_path, translations

pytestmark = pytest.mark.django_db

SKIP_TAGS = {"script", "style", "select", "option", "pre", "code"}
ATTRIBUTES = ("placeholder", "title", "aria-label", "alt")
# Proper names and symbols the pages show in every language.
ALWAYS = {"Clubsite", "#", "CSV", "XLSX", "JSON", "Elo", "IMPs", "★", "–", "…", "·", "×", "→"}


class Texts(HTMLParser):
    """The visible text of a page, node by node, and the text of a few attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in SKIP_TAGS:
            self.skip += 1
        for name, value in attrs:
            if name in ATTRIBUTES and value:
                self.texts.append(" ".join(value.split()))

    def handle_endtag(self, tag):
        if tag in SKIP_TAGS and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.texts.append(" ".join(data.split()))


def visible(html: str) -> list[str]:
    parser = Texts()
    parser.feed(html)
    return parser.texts


def same_in(lang: str) -> set[str]:
    """The catalog's entries that the language writes as English does."""
    same = set()
    for entry in parse_po(po_path(lang)):
        if entry["msgid"] and any(t == entry["msgid"] for t in translations(entry)):
            same.add(entry["msgid"])
    return same


def data_strings() -> set[str]:
    found = set()
    for model, fields in (
        (Player, ["name", "key"]),
        (Club, ["name"]),
        (Series, ["name"]),
        (Season, ["name", "label"]),
        (Tournament, ["name", "key"]),
        (Table, ["game"]),
    ):
        for row in model.objects.values_list(*fields):
            found.update(str(v) for v in row if v)
    return found


def is_data(text: str, data: set[str], same: set[str]) -> bool:
    """Names and titles, numbers, formulas, and words the language writes as English does:
    nothing left to translate."""
    rest = text
    for value in sorted(data, key=len, reverse=True):
        rest = rest.replace(value, " ")
    rest = re.sub(r"[\d\s.,:;!?()\[\]/+\-−×=<>«»“”\"'#*%&·–—…→★✔|@]+", " ", rest)
    words = [w for w in rest.split() if len(w) > 1]
    return all(w in same or w in {"max", "min"} for w in words)


def words_of(texts: set[str]) -> set[str]:
    return {w for text in texts for w in re.findall(r"[^\W\d_]+", text)}


@pytest.fixture
def circuit(circuit_file, django_user_model):
    data = copy.deepcopy(circuit_file)
    import_competition(data)
    older = copy.deepcopy(circuit_file)
    older["season"], older["name"] = "2024", "Belgian board game circuit 2024"
    del older["history"]
    import_competition(older)
    user = django_user_model.objects.create_user("secretary", password="pw-secretary-1")
    series = Series.objects.get()
    series.managers.add(user)
    return Season.objects.get(label="2025"), user


def page_set(season: Season) -> dict[str, tuple[str, dict | None]]:
    """Every page of the circuit, public and manager, and forms with their errors (POST)."""
    table = Table.objects.filter(round__season=season).first()
    public = {
        "home": ("/", None),
        "help": ("/help/", None),
        "season": (season_url(season), None),
        "tournament": (season_url(season, "tournament", "t1"), None),
        "live": (season_url(season, "tournament_live", "t1"), None),
        "yearly": (season_url(season, "yearly"), None),
        "ludo": (season_url(season, "ludo"), None),
        "games": (season_url(season, "games"), None),
        "game": (season_url(season, "game", "catan"), None),
        "players": ("/belgian-circuit/players/?q=an", None),
        "player": ("/belgian-circuit/players/p1/", None),
        "login": ("/accounts/login/", None),
        "login-error": ("/accounts/login/", {"username": "x", "password": "y"}),
    }
    manager = {
        "dashboard": ("/manage/", None),
        "manage-season": (manage_url(season), None),
        "settings": (f"/manage/belgian-circuit/{season.slug}/settings/", None),
        "settings-error": (
            f"/manage/belgian-circuit/{season.slug}/settings/",
            {"rounds_per_tournament": "0", "cap_mode": "manual"},
        ),
        "season-edit": (f"/manage/belgian-circuit/{season.slug}/edit/", None),
        "season-delete": (f"/manage/belgian-circuit/{season.slug}/delete/", None),
        "new-season": ("/manage/belgian-circuit/seasons/new/", None),
        "manage-tournament": (manage_url(season, "tournament", "t1"), None),
        "tournament-warning": (
            manage_url(season, "tournament_create"),
            {"name": "Gent", "date": "2031-03-16"},
        ),
        "tournament-delete": (manage_url(season, "tournament_delete", "t1"), None),
        "round": (manage_url(season, "round", "t1", 1), None),
        "round-errors": (
            manage_url(season, "round", "t1", 3),
            {"game": "Catann", "player_1": "Nobody Known", "player_2": "p2", "rank_3": "2"},
        ),
        "round-warnings": (
            manage_url(season, "round", "t1", 3),
            {"game": "Catann", "player_1": "p1", "rank_1": "2", "player_2": "p2", "rank_2": "2"},
        ),
        "table-edit": (manage_url(season, "table_edit", "t1", 1, table.pk), None),
        "players": ("/manage/belgian-circuit/players/", None),
        "player-edit": ("/manage/belgian-circuit/players/p1/", None),
        "player-delete": ("/manage/belgian-circuit/players/p1/delete/", None),
    }
    return public, manager


def fetch(client: Client, lang: str, url: str, post: dict | None) -> str:
    client.cookies["django_language"] = lang
    response = client.post(url, post) if post is not None else client.get(url)
    assert response.status_code in (200, 400, 429), (lang, url, response.status_code)
    return response.content.decode()


def test_every_page_form_and_error_is_translated(circuit):
    season, user = circuit
    public, manager = page_set(season)
    # A name typed into a form and shown back (isolated in <bdi>, a text of its own) is data.
    typed = {"Nobody Known"}
    data = data_strings() | ALWAYS | typed
    problems = []
    for pages, login in ((public, False), (manager, True)):
        client = Client()
        if login:
            client.force_login(user)
        for name, (url, post) in pages.items():
            english = set(visible(fetch(client, "en", url, post)))
            for lang in LANGS:
                same = same_in(lang)
                same_words = words_of(same)
                html = fetch(client, lang, url, post)
                for text in visible(html):
                    if text in english and text not in same and not is_data(text, data, same_words):
                        problems.append(f"{lang} {name}: {text!r}")
                # Numbers the language's way: 1570,40, never 1570.40.
                for number in re.findall(r"<td[^>]*>\s*(\d+\.\d{2})\s*</td>", html):
                    problems.append(f"{lang} {name}: number {number} with a decimal point")
    assert problems == [], "\n".join(sorted(set(problems)))


# A number written with a decimal point in the visible text ("0.781282", "−12.7"), not part of
# a word, an address or a date.
DOTTED = re.compile(r"(?<![\w./\-−])[−-]?\d+\.\d+(?![\w./])")


# A button's text, tags and arrows left out ("← Vorige avond"); the first letter of its label.
BUTTON = re.compile(r'<(a|button)\b[^>]*class="[^"]*\bbtn\b[^"]*"[^>]*>(.*?)</\1>', re.S)
FIRST_LETTER = re.compile(r"[^\W\d_]")


def lowercase_buttons(html: str, data: set[str]) -> set[str]:
    """Buttons whose label starts with a small letter ("vorige avond" beside "Partijen van
    ronde 3"), unless the label starts with stored data (a player's key may be "djchili74")."""
    found = set()
    for _tag, inner in BUTTON.findall(html):
        label = " ".join(TAG.sub(" ", inner).split())
        letter = FIRST_LETTER.search(label)
        if letter is None or letter.group().isupper():
            continue
        if any(label[letter.start() :].startswith(value) for value in data if value):
            continue
        found.add(label)
    return found


def test_every_system_s_public_numbers_use_the_language_s_decimal_separator(client, settings):
    """The demo of all five systems, every public page in Dutch: explanations wrote their
    numbers with a point (the GP's "M = 0.004 × 11222.344", the ladder's IMPs and expected
    scores, the Keizer weight) beside tables that write "51,89"; dates wrote "4 Dec 2026".
    Every button's label starts with a capital, as a sentence does (the Keizer pages had
    "← vorige avond" beside "Partijen van ronde 3")."""
    from django.core.management import call_command

    from tests.test_hostile_crawl import TITLE_CASED_MONTH, crawl

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    every_value = data_strings()
    data = {text for text in every_value if DOTTED.search(text)}
    client.cookies["django_language"] = "nl"
    dotted: dict[str, set[str]] = {}
    small: dict[str, set[str]] = {}
    pages = []

    def inspect(url, html):
        pages.append(url)
        if found := lowercase_buttons(html, every_value):
            small[url] = found
        for text in visible(html):
            for value in data:
                text = text.replace(value, " ")
            found = DOTTED.findall(text) + TITLE_CASED_MONTH.findall(text)
            if found:
                dotted.setdefault(url, set()).update(found)

    seen = crawl(client, ["/"], ("/",), inspect)
    assert all(status < 500 for status in seen.values())
    systems = {url.split("/")[1] for url in pages if url.count("/") > 2}
    assert len(systems) >= 5, systems  # every demo series was reached
    assert dotted == {}
    assert small == {}


def test_the_tournament_s_facts_each_start_with_a_capital(circuit):
    """The facts under a circuit tournament's name wrap one under the other on a phone, so
    each starts as a line does: "Bonustak 50", not "bonustak 50" (nor "ikke noe bonustak"), and
    "Søndag 5. januar 2025", not "søndag"."""
    from django.utils import translation

    season, _user = circuit
    url = season_url(season, "tournament", "t1")
    client = Client()
    for lang in ("en", *LANGS):
        html = fetch(client, lang, url, None)
        facts = re.search(r'tournament-facts">(.*?)<span class="ms-md-auto', html, re.S).group(1)
        with translation.override(lang):
            capped = [translation.gettext("Bonus cap"), translation.gettext("No bonus cap")]
        found = [label for label in capped if label in facts]
        assert found, (lang, facts)
        assert all(label[0].isupper() for label in found), (lang, found)
        assert not any(label[0].lower() + label[1:] in facts for label in capped), (lang, facts)
        # The date first: "Søndag 5. januar 2025", not "søndag".
        first = FIRST_LETTER.search(TAG.sub(" ", facts)).group()
        assert first.isupper(), (lang, facts)
