"""The Dutch, Swedish and Norwegian catalogs: complete, well-formed, compiled and in use.

A string added to the code without `make messages` + translation + compilemessages fails here
(see locale/README.md).
"""

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from tests.conftest import skip_or_fail

BASE_DIR = Path(settings.BASE_DIR)
LOCALE_DIR = BASE_DIR / "locale"
LANGS = ["nl", "sv", "nb"]
NPLURALS = 2
PLURAL_FORMS = "nplurals=2; plural=(n != 1);"
# %(name)s, %(count)d, %(value)r ... and plain %s / %d, with optional flags, width and precision
PLACEHOLDER_RE = re.compile(r"%(?:\([^)]*\))?[#0 +-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa%]")
KEYWORD_RE = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(\".*\")\s*$")


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / "django.po"


def parse_po(path: Path) -> list[dict]:
    """Entries as dicts: msgid, msgid_plural, msgstr or msgstr[n], msgctxt, flags, line.

    Obsolete (#~) entries are left out; the header is the entry with msgid "".
    """
    entries: list[dict] = []
    entry: dict = {"flags": set()}
    key = None

    def finish():
        if "msgid" in entry:
            entries.append(entry)

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line:
            finish()
            entry, key = {"flags": set()}, None
            continue
        if line.startswith("#,"):
            entry["flags"].update(flag.strip() for flag in line[2:].split(","))
            continue
        if line.startswith("#"):
            continue
        match = KEYWORD_RE.match(line)
        if match:
            key = match.group(1)
            entry.setdefault("line", number)
            entry[key] = ast.literal_eval(match.group(2))
        elif line.startswith('"') and key:
            entry[key] += ast.literal_eval(line)
        else:
            raise AssertionError(f"{path}:{number}: cannot parse {raw!r}")
    finish()
    return entries


def translations(entry: dict) -> list[str]:
    if "msgid_plural" in entry:
        return [entry[f"msgstr[{n}]"] for n in range(NPLURALS) if f"msgstr[{n}]" in entry]
    return [entry.get("msgstr", "")]


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER_RE.findall(text))


def header(entries: list[dict]) -> dict[str, str]:
    (head,) = [e for e in entries if e["msgid"] == "" and "msgctxt" not in e]
    fields = {}
    for line in head["msgstr"].splitlines():
        name, _, value = line.partition(":")
        fields[name.strip()] = value.strip()
    return fields


def messages(entries: list[dict]) -> list[dict]:
    return [e for e in entries if e["msgid"] != "" or "msgctxt" in e]


def where(lang: str, entry: dict) -> str:
    return f"{lang}/LC_MESSAGES/django.po:{entry['line']} {entry['msgid']!r}"


@pytest.fixture(scope="module", params=LANGS)
def catalog(request):
    path = po_path(request.param)
    assert path.exists(), f"{path} is missing: run makemessages (locale/README.md)"
    return request.param, parse_po(path)


def test_header(catalog):
    lang, entries = catalog
    fields = header(entries)
    head = next(e for e in entries if e["msgid"] == "")
    assert "fuzzy" not in head["flags"]
    assert fields["Project-Id-Version"] == "clubsite"
    assert fields["Language"] == lang
    assert fields["Content-Type"] == "text/plain; charset=UTF-8"
    assert fields["Plural-Forms"] == PLURAL_FORMS


def test_every_entry_translated_and_not_fuzzy(catalog):
    lang, entries = catalog
    assert len(messages(entries)) > 100
    problems = []
    for entry in messages(entries):
        if "fuzzy" in entry["flags"]:
            problems.append(f"fuzzy: {where(lang, entry)}")
        forms = translations(entry)
        expected = NPLURALS if "msgid_plural" in entry else 1
        if len(forms) != expected or not all(form.strip() for form in forms):
            problems.append(f"untranslated: {where(lang, entry)}")
    assert not problems, "\n".join(problems)


# Players are girls and boys, women and men: the text speaks of "the player" or "they", never
# "he" or "she". Swedish and Norwegian pronouns name a person only (Dutch "hij" and "hem" also
# stand for an evening or a walkover, so Dutch is read by eye).
GENDERED = {
    "en": re.compile(r"\b(he|him|his|himself|she|her|hers|herself)\b", re.I),
    "sv": re.compile(r"\b(han|hans|honom|hon|henne|hennes)\b", re.I),
    "nb": re.compile(r"\b(han|hans|ham|hun|henne|hennes)\b", re.I),
}


def test_text_about_players_is_gender_neutral(catalog):
    lang, entries = catalog
    problems = []
    for entry in messages(entries):
        texts = [("en", entry["msgid"]), *((lang, form) for form in translations(entry))]
        for language, text in texts:
            pattern = GENDERED.get(language)
            if pattern is not None and pattern.search(text):
                problems.append(f"{language}: {where(lang, entry)}")
    assert not problems, "\n".join(problems)


def test_placeholders_kept(catalog):
    lang, entries = catalog
    problems = []
    for entry in messages(entries):
        if "msgid_plural" in entry:
            sources = [entry["msgid"], entry["msgid_plural"]]
        else:
            sources = [entry["msgid"]]
        for n, form in enumerate(translations(entry)):
            source = sources[min(n, len(sources) - 1)]
            if placeholders(form) != placeholders(source):
                problems.append(
                    f"{where(lang, entry)}: {placeholders(source)} != {placeholders(form)} "
                    f"in {form!r}"
                )
    assert not problems, "\n".join(problems)


def test_msgfmt_check(catalog):
    lang, _entries = catalog
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        skip_or_fail("GNU gettext (msgfmt) is not installed")
    result = subprocess.run(
        [msgfmt, "--check-format", "--check-header", "-o", "/dev/null", str(po_path(lang))],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr


def test_compiled_catalog_matches_po(catalog):
    """The .mo in use gives every msgstr of the .po: compilemessages was run after editing."""
    lang, entries = catalog
    mo = po_path(lang).with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: run compilemessages"
    stale = []
    with translation.override(lang):
        for entry in messages(entries):
            context = entry.get("msgctxt")
            if "msgid_plural" in entry:
                for n, count in enumerate((1, 2)):
                    if context is None:
                        got = translation.ngettext(entry["msgid"], entry["msgid_plural"], count)
                    else:
                        got = translation.npgettext(
                            context, entry["msgid"], entry["msgid_plural"], count
                        )
                    if got != entry[f"msgstr[{n}]"]:
                        stale.append(f"{where(lang, entry)} [{n}]: {got!r}")
            else:
                if context is None:
                    got = translation.gettext(entry["msgid"])
                else:
                    got = translation.pgettext(context, entry["msgid"])
                if got != entry["msgstr"]:
                    stale.append(f"{where(lang, entry)}: {got!r}")
    assert not stale, "run compilemessages; the .mo differs from the .po:\n" + "\n".join(stale)


@pytest.mark.parametrize("lang", LANGS)
def test_gettext_and_plurals(lang):
    entries = {e["msgid"]: e for e in parse_po(po_path(lang))}
    with translation.override(lang):
        yearly = translation.gettext("Yearly ranking")
        assert yearly != "Yearly ranking"
        assert yearly == entries["Yearly ranking"]["msgstr"]

        singular, plural = "%(n)s participant", "%(n)s participants"
        entry = entries[singular]
        assert entry["msgid_plural"] == plural
        for n, form in ((1, 0), (0, 1), (2, 1), (21, 1)):
            got = translation.ngettext(singular, plural, n) % {"n": n}
            assert got == entry[f"msgstr[{form}]"] % {"n": n}
            english = (singular if n == 1 else plural) % {"n": n}
            assert got != english


@pytest.mark.django_db
def test_language_switch_shows_dutch_home_page(client):
    dutch = {e["msgid"]: e.get("msgstr") for e in parse_po(po_path("nl"))}["Competitions"]
    assert dutch and dutch != "Competitions"
    # the request activates Dutch in this thread; put the previous language back afterwards
    with translation.override(translation.get_language()):
        response = client.post("/i18n/setlang/", {"language": "nl", "next": "/"})
        assert response.status_code == 302
        assert response.headers["Location"] == "/"
        page = client.get("/")
    assert page.status_code == 200
    html = page.content.decode()
    assert '<html lang="nl">' in html
    assert dutch in html


def test_catalogs_cover_the_code(tmp_path):
    """makemessages finds no msgid that the catalogs lack (a new string is not translated yet).

    Runs makemessages on a copy of the project, so the real catalogs stay untouched.
    """
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        skip_or_fail("GNU gettext (xgettext, msgmerge) is not installed")
    before = {lang: po_path(lang).read_bytes() for lang in LANGS}
    copy = tmp_path / "project"
    shutil.copytree(
        BASE_DIR,
        copy,
        ignore=shutil.ignore_patterns(
            ".*", "__pycache__", "node_modules", "staticfiles", "tests", "*.sqlite3*", "*.mo"
        ),
    )
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "makemessages",
            *(f"-l{lang}" for lang in LANGS),
            "--ignore=.venv",
            "--ignore=staticfiles",
            "--ignore=tests",
            "--no-obsolete",
        ],
        cwd=copy,
        capture_output=True,
        text=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "clubsite.settings"},
    )
    assert result.returncode == 0, result.stderr
    assert before == {lang: po_path(lang).read_bytes() for lang in LANGS}, "real catalogs changed"
    problems = []
    for lang in LANGS:
        fresh = copy / "locale" / lang / "LC_MESSAGES" / "django.po"
        known = {(e.get("msgctxt"), e["msgid"]) for e in parse_po(po_path(lang))}
        for entry in messages(parse_po(fresh)):
            if (entry.get("msgctxt"), entry["msgid"]) not in known:
                problems.append(f"{lang}: {entry['msgid']!r}")
    assert not problems, (
        "strings in the code that the catalogs lack; run `make messages`, translate them and "
        "compile (locale/README.md):\n" + "\n".join(problems)
    )
    # And the other way: every translated entry is still found. One that is not either lost
    # its last use, or hides from makemessages (it does not look inside an f-string's braces:
    # the Keizer breakdown's "Rd" did), and the next `make messages` drops its translation.
    lost = []
    for lang in LANGS:
        fresh = copy / "locale" / lang / "LC_MESSAGES" / "django.po"
        found = {(e.get("msgctxt"), e["msgid"]) for e in parse_po(fresh)}
        for entry in messages(parse_po(po_path(lang))):
            if (entry.get("msgctxt"), entry["msgid"]) not in found:
                lost.append(f"{lang}: {entry['msgid']!r}")
    assert not lost, "catalog entries makemessages no longer finds:\n" + "\n".join(lost)


# xgettext (makemessages) finds only the names Django gives it: _, gettext, gettext_lazy,
# ngettext, pgettext... An alias such as `gettext_lazy as _l` hides every string marked with it
# from the catalogs, and the page shows English in every language.
KNOWN_KEYWORDS = {"_"}
ALIAS = re.compile(
    r"from django\.utils\.translation import .*\b(?:n|p|np)?gettext(?:_lazy|_noop)? as (\w+)"
)


def test_translation_functions_are_imported_under_names_makemessages_knows():
    root = Path(__file__).resolve().parent.parent
    found = []
    for path in root.glob("*/**/*.py"):
        if ".venv" in path.parts or "tests" in path.parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = ALIAS.search(line)
            if match and match.group(1) not in KNOWN_KEYWORDS:
                found.append(f"{path.relative_to(root)}:{number}: as {match.group(1)}")
    assert not found, found
