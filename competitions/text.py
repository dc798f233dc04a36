"""Text as people type it: names compared without accents, case or spacing; numbers written
as a person would type them back."""

import difflib
import unicodedata
from decimal import Decimal


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


def plain_number(value: Decimal | int | None) -> str:
    """A stored number as a form field shows it and a person would type it: 12.50 -> "12.5",
    3.00 -> "3", None -> "". Never localised: an `<input type="number">` refuses "12,5", and
    a template's `{{ value }}` writes a Decimal with the page language's comma."""
    if value is None:
        return ""
    text = format(Decimal(value).normalize(), "f")
    return "0" if text in ("-0", "") else text
