"""Othello Grand Prix settings (rules.md §2), their bounds, and the tournament flags.

Every number of §2 is a season setting with the rules' value as its default. The coefficients
are decimal numbers: a stored 0.539 is read as exactly 539/1000 (by its shortest decimal form),
never as the binary float nearest to it. The federation's own season rules (the SM tie-break,
the EGP rule) are switches, off by default, so rules.md stays what a season computes unless a
manager turns them on.
"""

import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competitions.registry import BOOL, INT, NUMBER, TEXT, Setting, SettingsSpec

COUNTRY_RE = re.compile(r"^[A-Z]{2}$")
RATING_MAX = 5000  # far above any Othello rating; a bound, so a typo cannot make M absurd
UNCERTAINTY_MAX = 2000
PARTICIPANTS_MAX = 1000

FIELDS = (
    Setting("best_n", gettext_lazy("Best tournaments counted"), INT, 5, 1, 100),
    Setting(
        "country",
        gettext_lazy("Country whose players score"),
        TEXT,
        "SE",
        max_length=2,
        help_text=gettext_lazy("Two capital letters, e.g. SE."),
    ),
    Setting(
        "max_factor",
        gettext_lazy("Max points: factor a of the ranking sum"),
        NUMBER,
        0.004,
        0,
        1,
        help_text=gettext_lazy("M = a · ranking sum + b; the federation's a is 0.004."),
    ),
    Setting(
        "max_base",
        gettext_lazy("Max points: base b"),
        NUMBER,
        7,
        2,
        1000,
        help_text=gettext_lazy("M = a · ranking sum + b; the federation's b is 7."),
    ),
    Setting(
        "nr_factor",
        gettext_lazy("FFO to Nordic: factor"),
        NUMBER,
        0.539,
        0,
        2,
        help_text=gettext_lazy("Nordic-equivalent = factor · FFO rating + offset (0.539 and 172)."),
    ),
    Setting("nr_offset", gettext_lazy("FFO to Nordic: offset"), NUMBER, 172, -3000, 3000),
    Setting(
        "provisional_floor",
        gettext_lazy("Provisional FFO rating: lowest value after the uncertainty"),
        NUMBER,
        1600,
        0,
        RATING_MAX,
    ),
    Setting("debutant_rating", gettext_lazy("Rating of a debutant"), NUMBER, 1000, 0, RATING_MAX),
    Setting(
        "rating_floor",
        gettext_lazy("Ranking sum: rating that counts nothing"),
        NUMBER,
        900,
        0,
        RATING_MAX,
        help_text=gettext_lazy("Each participant adds max(0, rating − this) to the ranking sum."),
    ),
    Setting(
        "sm_tiebreak",
        gettext_lazy("Break ties by the Swedish championship (SM), then by rating"),
        BOOL,
        False,
        help_text=gettext_lazy(
            "The federation's rule; off: equal points share the rank (rules.md)."
        ),
    ),
    Setting(
        "egp_rule",
        gettext_lazy("European GP points count only with a Swedish GP played"),
        BOOL,
        False,
        help_text=gettext_lazy(
            "The federation's rule; off: a European GP counts like any other tournament."
        ),
    ),
)


def _validate_extra(raw: dict) -> list[tuple[str, str]]:
    if "country" in raw and isinstance(raw["country"], str):
        if not COUNTRY_RE.match(raw["country"]):
            return [("country", _("country must be two capital letters, e.g. SE"))]
    return []


SPEC = SettingsSpec(fields=FIELDS, extra=_validate_extra)


def _both_flags(raw: dict) -> list[tuple[str, str]]:
    if raw.get("sm") is True and raw.get("egp") is True:
        return [
            ("egp", _("a tournament cannot be both the Swedish championship and a European GP"))
        ]
    return []


TOURNAMENT_OPTIONS = SettingsSpec(
    fields=(
        Setting("sm", gettext_lazy("Swedish championship (SM)"), BOOL, False),
        Setting("egp", gettext_lazy("European GP (EGP)"), BOOL, False),
    ),
    extra=_both_flags,
)


def exact(value: Any) -> Fraction:
    """A setting's number exactly as written: 0.004 is 4/1000 (its shortest decimal form)."""
    if isinstance(value, float):
        return Fraction(Decimal(repr(value)))
    return Fraction(value)


@dataclass(frozen=True)
class GPSettings:
    best_n: int
    country: str
    max_factor: Fraction
    max_base: Fraction
    nr_factor: Fraction
    nr_offset: Fraction
    provisional_floor: Fraction
    debutant_rating: Fraction
    rating_floor: Fraction
    sm_tiebreak: bool
    egp_rule: bool


def parse_settings(raw: dict) -> GPSettings:
    """The settings of a season, defaults filled in, numbers exact (`raw` must be valid)."""
    s = SPEC.resolved(raw or {})
    return GPSettings(
        best_n=s["best_n"],
        country=s["country"],
        **{
            name: exact(s[name])
            for name in (
                "max_factor",
                "max_base",
                "nr_factor",
                "nr_offset",
                "provisional_floor",
                "debutant_rating",
                "rating_floor",
            )
        },
        sm_tiebreak=bool(s["sm_tiebreak"]),
        egp_rule=bool(s["egp_rule"]),
    )


def tournament_flags(options: Any) -> tuple[bool, bool]:
    """(sm, egp) of a tournament's options; anything but a stored `true` is off."""
    options = options if isinstance(options, dict) else {}
    return options.get("sm") is True, options.get("egp") is True


def decimal_text(value: Fraction | int, places: int = 6) -> str:
    """An exact value as a decimal: exactly when it has a finite decimal form (every S, M and
    NR of decimal coefficients has one), else rounded half up to `places` decimals."""
    value = Fraction(value)
    numerator, denominator = abs(value.numerator), value.denominator
    rest, twos, fives = denominator, 0, 0
    while rest % 2 == 0:
        rest, twos = rest // 2, twos + 1
    while rest % 5 == 0:
        rest, fives = rest // 5, fives + 1
    if rest == 1:
        digits = max(twos, fives)
        units = numerator * 10**digits // denominator  # exact
    else:
        digits = places
        units = (2 * numerator * 10**digits + denominator) // (2 * denominator)
    text = str(units).rjust(digits + 1, "0")
    if digits:
        text = f"{text[:-digits]}.{text[-digits:]}".rstrip("0").rstrip(".")
    return ("-" if value < 0 and units else "") + text
