"""Othello Grand Prix settings (rules.md §2), their bounds, and the tournament flags.

Every number of §2 is a season setting with the rules' value as its default. The coefficients
are decimal numbers: a stored 0.539 is read as exactly 539/1000 (by its shortest decimal form),
never as the binary float nearest to it. The federation's own season rules (the SM tie-break,
the EGP rule) are switches, off by default, so rules.md stays what a season computes unless a
manager turns them on.
"""

import datetime
import re
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competitions.registry import BOOL, CHOICE, INT, NUMBER, TEXT, Setting, SettingsSpec

COUNTRY_RE = re.compile(r"^[A-Z]{2}$")
RATING_MAX = 5000  # far above any Othello rating; a bound, so a typo cannot make M absurd
UNCERTAINTY_MAX = 2000
PARTICIPANTS_MAX = 1000
WORLD_MAX = 100_000  # a world-ranking position
SEED_MAX = 2**63 - 1

# chess-othello-options.md §3.1: the points series' reading; §3.3: the season tie-break keys
# (the engine's names; `rankings.engines.othello` has the same).
CHAINED, DIRECT = "chained", "direct"
TIEBREAK_KEYS = ("SM", "WOF", "WORLD", "NR", "LOT")
TIEBREAK_DATA = "tiebreak_data"  # per player: {"p1": {"wof": 1893, "world": 312}}
# §3.3 "Also the list's date": one WOF list per season, its date as YYYY-MM-DD ("" not given)
WOF_LIST_DATE = "wof_list_date"

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
        "series_rule",
        gettext_lazy("Points series"),
        CHOICE,
        CHAINED,
        choices=(
            (CHAINED, gettext_lazy("Chained: each place x times the points of the place above")),
            (DIRECT, gettext_lazy("Direct: place k gets M · x^(k−1), the last place 1")),
        ),
        help_text=gettext_lazy("Both floored exactly; chained is the reading used so far."),
    ),
    Setting(
        "season_tiebreaks",
        gettext_lazy("Season tie-breaks after points"),
        TEXT,
        "",
        max_length=40,
        help_text=gettext_lazy(
            "Keys in order, separated by spaces: SM, WOF, WORLD, NR, LOT. The federation's "
            "list is “SM WOF WORLD LOT”. Empty: equal points share the rank (or the SM "
            "tie-break above)."
        ),
    ),
    Setting(
        WOF_LIST_DATE,
        gettext_lazy("Date of the WOF rating list"),
        TEXT,
        "",
        max_length=10,
        help_text=gettext_lazy(
            "The list whose WOF ratings the WOF tie-break compares (the tie-break data below), "
            "e.g. the last list before the season's standings are final; the pages that "
            "explain the tie-breaks name it. Empty: not given."
        ),
    ),
    Setting(
        "tiebreak_seed",
        gettext_lazy("Seed of the lot (LOT)"),
        INT,
        0,
        0,
        SEED_MAX,
        help_text=gettext_lazy("The same seed gives the same lot; a new seed draws again."),
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


def tiebreak_keys(text: str) -> tuple[str, ...]:
    """The keys of a `season_tiebreaks` text (spaces or commas between them)."""
    return tuple(text.replace(",", " ").split())


def _tiebreaks_problem(text: Any) -> str | None:
    if not isinstance(text, str):
        return None  # the setting's own check names it
    keys = tiebreak_keys(text)
    for key in keys:
        if key not in TIEBREAK_KEYS:
            return _("season_tiebreaks: unknown key %(key)s (the keys are %(keys)s)") % {
                "key": key,
                "keys": ", ".join(TIEBREAK_KEYS),
            }
    if len(set(keys)) != len(keys):
        return _("season_tiebreaks names a key twice")
    return None


def wof_list_date(text: str) -> datetime.date | None:
    """The WOF list's date of a `wof_list_date` text; None when empty or not a date."""
    if not isinstance(text, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        return None


def _rating_problem(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return True
    number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    return not (0 <= number <= RATING_MAX) or number.as_tuple().exponent < -2


def tiebreak_data_problems(data: Any) -> list[tuple[str, str]]:
    """Problems in `tiebreak_data`: an object of player ids, each an object with an optional
    `wof` (a rating, 0 to 5000, at most 2 decimals) and `world` (a position, 1 to 100000)."""
    if not isinstance(data, dict):
        return [(TIEBREAK_DATA, _("tiebreak_data must be an object of player ids"))]
    for player, values in data.items():
        path = f"{TIEBREAK_DATA}.{player}"
        if not isinstance(values, dict) or set(values) - {"wof", "world"}:
            return [(path, _("%(path)s must be an object with wof and world") % {"path": path})]
        if "wof" in values and _rating_problem(values["wof"]):
            return [
                (
                    f"{path}.wof",
                    _("%(path)s.wof must be a rating from 0 to %(max)s, at most 2 decimals")
                    % {"path": path, "max": RATING_MAX},
                )
            ]
        world = values.get("world")
        if "world" in values and (
            isinstance(world, bool) or not isinstance(world, int) or not 1 <= world <= WORLD_MAX
        ):
            return [
                (
                    f"{path}.world",
                    _("%(path)s.world must be a whole number from 1 to %(max)s")
                    % {"path": path, "max": WORLD_MAX},
                )
            ]
    return []


def _validate_extra(raw: dict) -> list[tuple[str, str]]:
    if "country" in raw and isinstance(raw["country"], str):
        if not COUNTRY_RE.match(raw["country"]):
            return [("country", _("country must be two capital letters, e.g. SE"))]
    problem = _tiebreaks_problem(raw.get("season_tiebreaks", ""))
    if problem:
        return [("season_tiebreaks", problem)]
    if isinstance(raw.get(WOF_LIST_DATE), str) and raw[WOF_LIST_DATE]:
        if wof_list_date(raw[WOF_LIST_DATE]) is None:
            return [
                (
                    WOF_LIST_DATE,
                    _("wof_list_date must be a date written YYYY-MM-DD, e.g. 2025-03-01"),
                )
            ]
    if TIEBREAK_DATA in raw:
        return tiebreak_data_problems(raw[TIEBREAK_DATA])
    return []


SPEC = SettingsSpec(
    fields=FIELDS,
    extra=_validate_extra,
    extra_names=frozenset({TIEBREAK_DATA}),
    form="competitions.systems.othello.forms.GPSettingsForm",
)


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
    series_rule: str = CHAINED
    season_tiebreaks: tuple[str, ...] = ()
    tiebreak_seed: int = 0
    wof_list_date: datetime.date | None = None
    # each player's (WOF rating, world position), either None when not given
    tiebreak_data: dict[str, tuple[Fraction | None, int | None]] = field(default_factory=dict)


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
        series_rule=s["series_rule"],
        season_tiebreaks=tiebreak_keys(s["season_tiebreaks"]),
        tiebreak_seed=s["tiebreak_seed"],
        wof_list_date=wof_list_date(s[WOF_LIST_DATE]),
        tiebreak_data={
            player: (
                None if values.get("wof") is None else exact(values["wof"]),
                values.get("world"),
            )
            for player, values in ((raw or {}).get(TIEBREAK_DATA) or {}).items()
        },
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
