"""Text as people type it: names compared without accents, case or spacing; numbers written
as a person would type them back."""

import datetime
import difflib
import unicodedata
from decimal import Decimal

from django.utils.formats import date_format
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString
from django.utils.translation import pgettext_lazy


def fold(text: str) -> str:
    """Text as a search compares it: no accents, no case, single spaces ("Aurélie  Dubois" and
    "aurelie dubois" are the same)."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


def name_order(name: str, key: str = "") -> tuple[str, str, str]:
    """Where a name goes in a list of people, the same on every database: "Émile" beside
    "Emma", not after "Zoë" as a byte order (SQLite, PostgreSQL's C collation) puts it."""
    return (fold(name), name, key)


def player_label(player) -> str:
    """How the suggestion lists and the typed forms name a player: "name (key)", unique even
    for equal names (every system's forms read it back)."""
    return f"{player.name} ({player.key})"


def near_miss(text: str, known: list[str]) -> str | None:
    """The known title `text` is probably a typo of ("Catann" -> "Catan"), or None when `text`
    is one of them (folded) or close to none."""
    folded = {fold(k): k for k in known}
    if fold(text) in folded:
        return None
    match = difflib.get_close_matches(fold(text), list(folded), n=1, cutoff=0.8)
    return folded[match[0]] if match else None


def known_spelling(text: str, known) -> str:
    """`text` as the known title it is the same as, whatever its case, accents and spacing
    ("catan " is "Catan", "7 wonders" is "7 Wonders"), else `text` with single spaces."""
    wanted = fold(text)
    for title in known:
        if fold(title) == wanted:
            return title
    return " ".join(text.split())


def plain_number(value: Decimal | int | None) -> str:
    """A stored number as a form field shows it and a person would type it: 12.50 -> "12.5",
    3.00 -> "3", None -> "". Never localised: an `<input type="number">` refuses "12,5", and
    a template's `{{ value }}` writes a Decimal with the page language's comma."""
    if value is None:
        return ""
    text = format(Decimal(value).normalize(), "f")
    return "0" if text in ("-0", "") else text


# Dates as each language writes them. Django's "M" is the month's abbreviation title-cased in
# every language ("4 Dec 2026" in Dutch and Swedish, which write "4 dec 2026"), and Norwegian
# puts a dot after the day ("4. des. 2026"): each language's formats are in its catalog
# (context "date format"; "b" is the abbreviation as the language writes it).
DATE_FORMATS = {
    "date": pgettext_lazy("date format", "j M Y"),
    "date_time": pgettext_lazy("date format", "j M Y, H:i"),
    "day_month": pgettext_lazy("date format", "j M"),
    "weekday": pgettext_lazy("date format", "D j M"),
    "weekday_year": pgettext_lazy("date format", "D j M Y"),
    "long": pgettext_lazy("date format", "l j F Y"),
}


def as_date(value):
    """An ISO date as stored standings keep it ("2026-03-09") as a date; anything else (a date,
    a datetime, None, text that is no date) as it is."""
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            return value
    return value


def local_date(value, kind: str = "date") -> str:
    """A date (or a datetime, already in local time; or an ISO date as stored standings keep
    it) in the reader's language; "" for none; any other text as it is."""
    if not value:
        return ""
    value = as_date(value)
    if isinstance(value, str):
        return value
    return date_format(value, str(DATE_FORMATS[kind]))


def isolated(value) -> SafeString:
    """A name as the page shows it: escaped, inside <bdi>, so that a name in another direction
    (Arabic, Hebrew) or holding bidirectional control characters (U+202E turns the text after
    it around) changes the order of nothing outside it. The characters are kept as typed
    (a name may need them); only their reach is limited. Never inside an attribute or <title>.
    "" for no value."""
    if value is None or value == "":
        return SafeString("")
    return SafeString(f"<bdi>{conditional_escape(value)}</bdi>")


def html_message(message: str, values: dict) -> SafeString:
    """A translated message with %(name)s placeholders, as HTML: the message and every value
    escaped, except values that are HTML already (an isolated name)."""
    return SafeString(
        conditional_escape(message) % {k: conditional_escape(v) for k, v in values.items()}
    )


def isolated_text(value) -> str:
    """A name inside a message that is text, not HTML (a flash message, a form error, a
    confirmation): between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE, the
    plain-text form of <bdi>, so that its direction or its control characters reach nothing
    outside it."""
    return f"\u2068{value}\u2069"
