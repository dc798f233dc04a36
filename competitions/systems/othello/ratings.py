"""A participant's rating entry (rules.md §2): how a file, a typed line or a CSV cell gives it,
and how the pages and the typed form write it back.

One entry per participant: a Nordic rating, an FFO rating (provisional with an uncertainty or
not), both, or none (a debutant). Ratings are kept exactly as given, to 2 decimals.
"""

import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.formats import get_format
from django.utils.translation import gettext as _

from .settings import RATING_MAX, UNCERTAINTY_MAX

RATING_FIELDS = ("nordic", "ffo", "provisional", "uncertainty")


class RatingError(ValueError):
    """A rating entry that cannot be stored; `field` names the part at fault ("" the whole)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class RatingEntry:
    nordic: Decimal | None = None
    ffo: Decimal | None = None
    provisional: bool = False
    uncertainty: Decimal | None = None

    @property
    def debutant(self) -> bool:
        return self.nordic is None and self.ffo is None

    @classmethod
    def of(cls, placement) -> "RatingEntry":
        return cls(
            nordic=placement.nordic,
            ffo=placement.ffo,
            provisional=placement.provisional,
            uncertainty=placement.uncertainty,
        )


def rating_number(value: Any, field: str, *, maximum: int = RATING_MAX) -> Decimal:
    """A JSON number (or a Decimal) as a rating: from 0 to `maximum`, at most 2 decimals."""
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        raise RatingError(field, _("expected a number"))
    if isinstance(value, float) and not math.isfinite(value):
        raise RatingError(field, _("expected a finite number"))
    number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    if not 0 <= number <= maximum:
        raise RatingError(
            field, _("must be from 0 to %(max)s, got %(value)s") % {"max": maximum, "value": value}
        )
    if number.as_tuple().exponent < -2 and number != number.quantize(Decimal("0.01")):
        raise RatingError(field, _("at most 2 decimals, got %(value)s") % {"value": value})
    return number.quantize(Decimal("0.01"))


def json_number(value: Decimal | None) -> int | float | None:
    """A stored rating as a JSON number: whole numbers as integers, 1850.5 as 1850.5."""
    if value is None:
        return None
    return int(value) if value == value.to_integral_value() else float(value)


def entry_from_json(raw: Any) -> RatingEntry:
    """interchange.md: `{"nordic": 1850}`, `{"ffo": 1900, "provisional": true,
    "uncertainty": 350}`, `{}` (a debutant). Unknown fields are refused: a misspelt
    "nordci" would otherwise turn a rated player into a debutant."""
    if not isinstance(raw, dict):
        raise RatingError(
            "", _('expected an object such as {"nordic": 1850}, or {} for a debutant')
        )
    for key in raw:
        if key not in RATING_FIELDS:
            raise RatingError(
                key,
                _("unknown rating field %(name)r (known: %(known)s)")
                % {"name": key, "known": ", ".join(RATING_FIELDS)},
            )
    provisional = raw.get("provisional", False)
    if not isinstance(provisional, bool):
        raise RatingError("provisional", _("expected true or false"))
    return RatingEntry(
        nordic=None if raw.get("nordic") is None else rating_number(raw["nordic"], "nordic"),
        ffo=None if raw.get("ffo") is None else rating_number(raw["ffo"], "ffo"),
        provisional=provisional,
        uncertainty=(
            None
            if raw.get("uncertainty") is None
            else rating_number(raw["uncertainty"], "uncertainty", maximum=UNCERTAINTY_MAX)
        ),
    )


def stored_entry(raw: dict) -> RatingEntry:
    """A rating object written by this application back as an entry, without the bounds a
    file's entry must meet (the admin may have stored any rating the database accepts)."""

    def number(key: str) -> Decimal | None:
        value = raw.get(key)
        return (
            None if value is None else Decimal(repr(value) if isinstance(value, float) else value)
        )

    return RatingEntry(
        nordic=number("nordic"),
        ffo=number("ffo"),
        provisional=raw.get("provisional") is True,
        uncertainty=number("uncertainty"),
    )


def entry_to_json(entry: RatingEntry) -> dict:
    """The rating object of interchange.md (only the parts that are there)."""
    data: dict[str, Any] = {}
    if entry.nordic is not None:
        data["nordic"] = json_number(entry.nordic)
    if entry.ffo is not None:
        data["ffo"] = json_number(entry.ffo)
    if entry.provisional:
        data["provisional"] = True
    if entry.uncertainty is not None:
        data["uncertainty"] = json_number(entry.uncertainty)
    return data


# --- the typed form: "N1850", "F2100", "P1900/350", "debutant" ---------------------------------

DEBUTANT_WORDS = {"d", "deb", "debutant", "-", "–", "—"}
NUMBER = r"\d{1,5}(?:[.,]\d{1,2})?"
TOKEN_RE = re.compile(
    rf"(?P<kind>nordic|n|ffo|f|provisional|prov|p)?\s*(?P<rating>{NUMBER})"
    rf"(?:\s*(?:/|±|\+/?-)\s*(?P<uncertainty>{NUMBER}))?",
    re.IGNORECASE,
)


def _decimal(text: str) -> Decimal:
    try:
        return Decimal(text.replace(",", "."))
    except InvalidOperation:  # pragma: no cover - the pattern admits digits only
        raise RatingError("", _("%(text)r is not a number") % {"text": text}) from None


def parse_typed(text: str) -> RatingEntry:
    """A rating entry as a manager types it: `1850` or `N1850` (Nordic), `F2100` (FFO),
    `P1900/350` (provisional FFO with uncertainty 350), `debutant` (or `d`, `-`); Nordic and
    FFO together as `N1850 F2100`. Empty is refused: a missing entry is an error, not a
    debutant."""
    text = " ".join(text.split())
    if not text:
        raise RatingError("", _("no rating entry (write e.g. N1850, F2100, P1900/350 or debutant)"))
    if text.casefold() in DEBUTANT_WORDS:
        return RatingEntry()
    nordic = ffo = uncertainty = None
    provisional = False
    position = 0
    while position < len(text):
        match = TOKEN_RE.match(text, position)
        if match is None or (match.end() < len(text) and text[match.end()] != " "):
            raise RatingError(
                "",
                _(
                    "cannot read the rating entry %(text)r (write e.g. N1850, F2100, "
                    "P1900/350 or debutant)"
                )
                % {"text": text},
            )
        kind = (match["kind"] or "n").casefold()[0]
        value = _decimal(match["rating"])
        if kind == "n":
            if match["uncertainty"] or nordic is not None:
                raise RatingError("", _("one Nordic rating, without an uncertainty"))
            nordic = value
        else:
            if ffo is not None:
                raise RatingError("", _("one FFO rating per entry"))
            ffo = value
            if kind == "p":
                provisional = True
                if match["uncertainty"] is None:
                    raise RatingError(
                        "", _("a provisional FFO rating needs its uncertainty, e.g. P1900/350")
                    )
            if match["uncertainty"] is not None:
                provisional = True
                uncertainty = _decimal(match["uncertainty"])
        position = match.end() + 1
    return RatingEntry(
        nordic=None if nordic is None else rating_number(nordic, "nordic"),
        ffo=None if ffo is None else rating_number(ffo, "ffo"),
        provisional=provisional,
        uncertainty=(
            None
            if uncertainty is None
            else rating_number(uncertainty, "uncertainty", maximum=UNCERTAINTY_MAX)
        ),
    )


def _plain(value: Decimal) -> str:
    return str(json_number(value))


def typed(entry: RatingEntry) -> str:
    """The typed form of an entry, so a stored tournament can be corrected as text."""
    if entry.debutant:
        return "debutant"
    parts = []
    if entry.nordic is not None:
        parts.append(f"N{_plain(entry.nordic)}")
    if entry.ffo is not None:
        if entry.provisional:
            parts.append(f"P{_plain(entry.ffo)}/{_plain(entry.uncertainty or Decimal(0))}")
        else:
            parts.append(f"F{_plain(entry.ffo)}")
    return " ".join(parts)


def describe(entry: RatingEntry) -> str:
    """The entry in words, for the pages ("FFO 1900, provisional ± 350"; "Nordic 1850,5" in a
    language that writes decimals with a comma)."""
    if entry.debutant:
        return _("debutant")
    separator = get_format("DECIMAL_SEPARATOR")

    def shown(value: Decimal) -> str:
        return _plain(value).replace(".", separator)

    parts = []
    if entry.nordic is not None:
        parts.append(_("Nordic %(rating)s") % {"rating": shown(entry.nordic)})
    if entry.ffo is not None:
        if entry.provisional:
            parts.append(
                _("FFO %(rating)s, provisional ± %(uncertainty)s")
                % {
                    "rating": shown(entry.ffo),
                    "uncertainty": shown(entry.uncertainty or Decimal(0)),
                }
            )
        else:
            parts.append(_("FFO %(rating)s") % {"rating": shown(entry.ffo)})
    return "; ".join(parts)
