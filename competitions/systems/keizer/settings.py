"""Season settings of the Keizer competition (rules.md §4, keizer-variants.md §2): every number a
club might change, with the rules' value as its default and bounds checked in one place
(`SPEC.validate`).

The result shares (1, 1/2, 1/6, 2/3, ...) are exact fractions, so they are settings of text
such as "1/6" or "0.5", read with `fractions.Fraction`.

A preset (keizer-variants.md §4) is a named set of values: `{"preset": "kfc", ...}` applies the
preset, then the keys given (`resolved`). A season stores only what differs: the preset's name
and the keys a club changed."""

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

# Lazy everywhere: labels are made at import, messages when they are shown; `_` so that
# makemessages finds them all.
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from competitions.registry import BOOL, CHOICE, INT, TEXT, Setting, SettingsSpec

from .values import place_values

FRACTION_MAX_LENGTH = 20
SHARE_MAX = 2  # keizer-variants.md §2.4: De Pijp's 7/6 needs more than 1 (a Decision: 2)
RATIO_MAX = 100

SHARE_HELP = _("A fraction such as 1/6, or a decimal such as 0.5; from 0 to 2.")

# (setting name, result, default share, what it means) of rules.md §4.2's table, and the
# shares keizer-variants.md §2 adds.
RESULT_SHARES: tuple[tuple[str, Any, str], ...] = (
    ("points_win", _("Win (share of the opponent's value)"), "1"),
    ("points_draw", _("Draw (share of the opponent's value)"), "1/2"),
    ("points_loss", _("Loss (share of the opponent's value)"), "1/6"),
    ("points_bye", _("Bye (share of the player's own value)"), "2/3"),
    ("points_absent", _("Absent with notice (share of the own value)"), "1/2"),
    ("points_external", _("Playing externally (share of the own value)"), "2/3"),
    ("points_unexcused", _("Absent without notice (share of the own value)"), "0"),
    ("points_long_absent", _("Long-term absent (share of the own value)"), "1/3"),
    ("points_external_win", _("External game won (share of the own value)"), "1"),
    ("points_external_draw", _("External game drawn (share of the own value)"), "1/2"),
    ("points_external_loss", _("External game lost (share of the own value)"), "0"),
)
SHARE_HELPS = {
    "points_win": _("A win scores this share of the opponent's value."),
    "points_draw": _("A draw scores this share of the opponent's value."),
    "points_loss": _(
        "A loss scores this share of the opponent's value (0: a loss scores nothing)."
    ),
    "points_bye": _("The player without an opponent scores this share of their own value."),
    "points_absent": _(
        "A player who sent notice that they cannot come scores this share of their own value."
    ),
    "points_external": _(
        "A player playing for the club elsewhere (team match, rapid event) scores this share "
        "of their own value."
    ),
    "points_unexcused": _(
        "A player who stays away without notice scores this share of their own value."
    ),
    "points_long_absent": _(
        "A player marked as long-term absent (illness, a long trip) scores this share of their "
        "own value."
    ),
    "points_external_win": _(
        "With “external by result”: a player who won their external game scores this share of "
        "their own value."
    ),
    "points_external_draw": _(
        "With “external by result”: a player who drew their external game scores this share of "
        "their own value."
    ),
    "points_external_loss": _(
        "With “external by result”: a player who lost their external game scores this share of "
        "their own value."
    ),
}


def _share(name: str, label, default: str) -> Setting:
    return Setting(
        name,
        label,
        TEXT,
        default,
        max_length=FRACTION_MAX_LENGTH,
        help_text=format_lazy("{} {}", SHARE_HELPS[name], SHARE_HELP),
    )


# keizer-variants.md §4, in the file's value forms. "seed-club" (rules.md §4) is the default.
SEED_CLUB = "seed-club"
PRESETS: dict[str, dict[str, Any]] = {
    SEED_CLUB: {},
    "classic": {
        "own_value_once": True, "valuation": "current", "start_points": "none",
        "points_loss": "0", "points_bye": "2/3", "points_absent": "1/3",
        "points_external": "2/3", "points_unexcused": "0",
    },
    "haren-2016": {
        "own_value_once": True, "valuation": "current", "start_points": "none", "top_value": 80,
        "points_loss": "0", "points_absent": "1/3", "points_external": "1/3",
        "points_unexcused": "1/3", "points_bye": "2/3",
    },
    "kfc": {
        "own_value_once": True, "own_value_fade_rounds": 0, "valuation": "previous",
        "start_points": "none", "top_value": 0, "top_value_rounding": "half-even",
        "value_ratio": "3", "normalised_values": False, "points_loss": "0", "points_bye": "1/2",
        "points_absent": "7/20", "points_external": "7/10", "points_unexcused": "1/20",
        "withdrawn_credit": "3/4", "absence_halving": False, "rematch_gap": 4,
        "max_meetings": 100, "colour_run": 100,
    },
    "oppositie-sevilla": {
        "own_value_once": True, "valuation": "previous", "start_points": "none", "top_value": 50,
        "points_loss": "0", "points_bye": "3/4", "points_external": "2/3",
        "points_absent": "2/5", "absent_max": 5,
    },
    "bornse-dv": {
        "start_points": "none", "top_value": 70, "points_loss": "0", "points_bye": "2/3",
        "points_absent": "1/6", "absent_max": 8, "points_long_absent": "1/3",
        "long_absent_max": 10, "points_unexcused": "0", "external_by_result": True,
        "rematch_gap": 8, "max_meetings": 4,
    },
    "de-pijp-2005": {
        "start_points": "none", "top_value": 40, "points_loss": "1/6", "points_absent": "1/3",
        "absent_max": 2, "points_long_absent": "1/6", "points_unexcused": "0",
        "external_by_result": True, "points_external_win": "7/6",
        "points_external_draw": "5/6", "points_external_loss": "1/2",
    },
    "sliedrecht-2017": {
        "start_points": "none", "top_value": 60, "points_loss": "0", "points_bye": "2/3",
        "points_external": "2/3", "points_absent": "1/3", "absent_max": 10,
        "points_long_absent": "1/3", "long_absent_max": 0, "points_unexcused": "0",
        "max_meetings": 2,
    },
}  # fmt: skip
PRESET_CHOICES = (
    (SEED_CLUB, _("Seed club (rules.md §4): previous list, fading start points")),
    ("classic", _("Classic Keizer: own value once, list values itself (fixed point)")),
    ("haren-2016", _("Schaakclub Haren 2016")),
    ("kfc", _("KeizerForClubs (program defaults)")),
    ("oppositie-sevilla", _("SV Oppositie (program Sevilla)")),
    ("bornse-dv", _("Bornse Damvereniging (draughts)")),
    ("de-pijp-2005", _("De Pijp 2005–06")),
    ("sliedrecht-2017", _("Schaakclub Sliedrecht 2017")),
)

FIELDS = (
    Setting(
        "preset",
        _("Variant (preset)"),
        CHOICE,
        SEED_CLUB,
        choices=PRESET_CHOICES,
        help_text=_(
            "A set of values a club or program uses; every option below starts from it, and "
            "what you change stays changed."
        ),
    ),
    # values (keizer-variants.md §1.2)
    Setting(
        "top_value",
        _("Top value"),
        INT,
        0,
        0,
        100000,
        help_text=_(
            "The value of the first place; 0 = automatic: about the value ratio times the "
            "value of the last place."
        ),
    ),
    Setting(
        "step",
        _("Value step between places"),
        INT,
        1,
        1,
        1000,
        help_text=_("Each place down the list is worth this much less."),
    ),
    Setting(
        "top_value_rounding",
        _("Rounding of the automatic top value"),
        CHOICE,
        "half-up",
        choices=(
            ("half-up", _("half up (10.5 becomes 11)")),
            ("half-even", _("half to even (10.5 becomes 10, as KeizerForClubs)")),
        ),
        help_text=_("How the automatic top value is rounded to a whole number."),
    ),
    Setting(
        "value_ratio",
        _("Ratio of the first to the last value"),
        TEXT,
        "3",
        max_length=FRACTION_MAX_LENGTH,
        help_text=_(
            "The first place is worth about this many times the last (3: a win against the "
            "leader counts three times a win against the last). Above 1, at most 100."
        ),
    ),
    Setting(
        "normalised_values",
        _("Normalised values (last place worth 1)"),
        BOOL,
        False,
        help_text=_(
            "Values run from the ratio down to 1 in equal steps with decimals, so a win "
            "against the last player is worth 1 (KeizerForClubs “Wicker”)."
        ),
    ),
    # own value and valuation (§1.4, §1.5)
    Setting(
        "own_value_once",
        _("Count the own value once"),
        BOOL,
        False,
        help_text=_(
            "Each player's score starts with their own value, as if they had beaten "
            "themselves once: a player who only lost scores their own value."
        ),
    ),
    Setting(
        "own_value_fade_rounds",
        _("Rounds over which the own value fades"),
        INT,
        0,
        0,
        100,
        help_text=_(
            "0: the own value always counts in full; otherwise it counts less every round and "
            "is gone after this many rounds."
        ),
    ),
    Setting(
        "valuation",
        _("Which list values the results"),
        CHOICE,
        "previous",
        choices=(
            ("previous", _("the previous list (the list the round was paired from)")),
            ("current", _("the new list itself (classic Keizer, computed until it is stable)")),
        ),
        help_text=_(
            "With the new list itself, the list is recomputed until every score is valued "
            "with the list it makes (a fixed point)."
        ),
    ),
    Setting(
        "fixed_point_max_passes",
        _("Most recomputations per round"),
        INT,
        100,
        1,
        1000,
        help_text=_(
            "When the list values itself: stop after this many recomputations; 1 is the same "
            "as valuing with the previous list."
        ),
    ),
    # start points (§1.4, §2.9)
    Setting(
        "start_points",
        _("Start points"),
        CHOICE,
        "fading",
        choices=(
            ("fading", _("fading over the first rounds")),
            ("none", _("only for the initial list")),
            ("permanent", _("counting all season")),
        ),
        help_text=_(
            "Start points order the initial list; they can fade away, count only before the "
            "first round, or count all season."
        ),
    ),
    Setting(
        "start_fade_rounds",
        _("Rounds over which start points fade"),
        INT,
        10,
        1,
        100,
        help_text=_("Start points count less every round and are gone after this many rounds."),
    ),
    # results (§1.3, §2.4, §2.5)
    *(_share(name, label, default) for name, label, default in RESULT_SHARES[:8]),
    Setting(
        "external_by_result",
        _("Score external games by their result"),
        BOOL,
        False,
        help_text=_(
            "A player playing elsewhere scores by their result there (the three shares below), "
            "when it is entered; otherwise the share for playing externally."
        ),
    ),
    *(_share(name, label, default) for name, label, default in RESULT_SHARES[8:]),
    # absences (§2.6, §2.7)
    Setting(
        "absent_max",
        _("Most paid absences with notice"),
        INT,
        0,
        0,
        1000,
        help_text=_("Absences with notice beyond this number score nothing; 0 = no limit."),
    ),
    Setting(
        "long_absent_max",
        _("Most paid long-term absences"),
        INT,
        0,
        0,
        1000,
        help_text=_("Long-term absences beyond this number score nothing; 0 = no limit."),
    ),
    Setting(
        "absence_halving",
        _("Halve repeated absences"),
        BOOL,
        False,
        help_text=_(
            "Each absence (with or without notice) is worth half the one before: the second "
            "pays 1/2, the third 1/4 of the share."
        ),
    ),
    # withdrawn players (§2.8)
    Setting(
        "withdrawn_credit",
        _("Credit for games against a withdrawn player"),
        TEXT,
        "",
        max_length=FRACTION_MAX_LENGTH,
        help_text=_(
            "Empty: withdrawn players stay on the list. A share from 0 to 1: withdrawn players "
            "leave every list, and a game against one scores this share of the result's share, "
            "taken of the player's own value (3/4: a win scores 3/4 of their own value)."
        ),
    ),
    # pairing (rules.md §4.3)
    Setting(
        "rematch_gap",
        _("Rounds before a rematch"),
        INT,
        7,
        0,
        100,
        help_text=_("Met in round m: not again before round m + this + 1."),
    ),
    Setting(
        "max_meetings",
        _("Most meetings of two players in a season"),
        INT,
        4,
        1,
        100,
        help_text=_("Two players are not paired again once they have met this often."),
    ),
    Setting(
        "bye_gap",
        _("Rounds without a bye before the next one"),
        INT,
        7,
        0,
        100,
        help_text=_("A player who had the bye does not get it again within this many rounds."),
    ),
    Setting(
        "colour_balance",
        _("Largest colour balance (whites − blacks)"),
        INT,
        2,
        1,
        100,
        help_text=_("No player gets more whites than blacks (or the reverse) by more than this."),
    ),
    Setting(
        "colour_run",
        _("Most games in a row with the same colour"),
        INT,
        2,
        1,
        100,
        help_text=_("No player gets the same colour more often in a row than this."),
    ),
)

DEFAULTS = {s.name: s.default for s in FIELDS}
SHARE_NAMES = tuple(name for name, _label, _default in RESULT_SHARES)


def parse_fraction(value: Any, low: Fraction, high: Fraction, *, above: bool = False):
    """A fraction from its text ("1/6", "0.5", "1") within [low, high] (or (low, high] with
    `above`), or None when it is not one."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        found = Fraction(value.strip())
    except (ValueError, ZeroDivisionError):
        return None
    if found > high or found < low or (above and found == low):
        return None
    return found


def parse_share(value: Any) -> Fraction | None:
    """A result share from its text ("1/6", "0.5", "1"), or None when it is not one."""
    return parse_fraction(value, Fraction(0), Fraction(SHARE_MAX))


def _validate_extra(raw: dict) -> list[tuple[str, str]]:
    errors = []
    for name in SHARE_NAMES:
        if name in raw and isinstance(raw[name], str) and parse_share(raw[name]) is None:
            errors.append(
                (name, _("%(name)s must be a fraction from 0 to 2, such as 1/6") % {"name": name})
            )
    ratio = raw.get("value_ratio")
    if (
        isinstance(ratio, str)
        and parse_fraction(ratio, Fraction(1), Fraction(RATIO_MAX), above=True) is None
    ):
        errors.append(
            (
                "value_ratio",
                _("value_ratio must be a number above 1 and at most 100, such as 3 or 5/2"),
            )
        )
    credit = raw.get("withdrawn_credit")
    if (
        isinstance(credit, str)
        and credit.strip()
        and parse_fraction(credit, Fraction(0), Fraction(1)) is None
    ):
        errors.append(
            (
                "withdrawn_credit",
                _("withdrawn_credit must be empty or a fraction from 0 to 1, such as 3/4"),
            )
        )
    return errors


SPEC = SettingsSpec(
    fields=FIELDS,
    extra=_validate_extra,
    form="competitions.systems.keizer.forms.KeizerSettingsForm",
    template="competitions/keizer/settings.html",
    warnings="competitions.systems.keizer.selectors.settings_warnings",
)


def preset_values(name: str) -> dict[str, Any]:
    """Every setting's value under a preset (the defaults, then the preset's values)."""
    return {**DEFAULTS, **PRESETS.get(name, {}), "preset": name}


def resolved(raw: dict) -> dict[str, Any]:
    """The settings of a season with the preset and then the defaults filled in (`raw` must be
    valid): keizer-variants.md §4, the preset first, then the keys given."""
    preset = raw.get("preset", SEED_CLUB)
    return {**preset_values(preset), **{k: v for k, v in raw.items() if k in DEFAULTS}}


def changed(raw: dict) -> dict[str, Any]:
    """The keys a club changed from its preset's values (what the settings page marks)."""
    values = preset_values(raw.get("preset", SEED_CLUB))
    return {k: v for k, v in raw.items() if k in DEFAULTS and k != "preset" and v != values[k]}


@dataclass(frozen=True)
class KeizerSettings:
    top_value: int | None = None
    step: int = 1
    start_fade_rounds: int = 10
    shares: dict[str, Fraction] = field(default_factory=dict)  # by result
    rematch_gap: int = 7
    max_meetings: int = 4
    bye_gap: int = 7
    colour_balance: int = 2
    colour_run: int = 2
    preset: str = SEED_CLUB
    own_value_once: bool = False
    own_value_fade_rounds: int = 0
    valuation: str = "previous"
    fixed_point_max_passes: int = 100
    top_value_rounding: str = "half-up"
    value_ratio: Fraction = Fraction(3)
    normalised_values: bool = False
    external_by_result: bool = False
    absent_max: int = 0
    long_absent_max: int = 0
    absence_halving: bool = False
    withdrawn_credit: Fraction | None = None
    start_points: str = "fading"


def parse_settings(raw: dict) -> KeizerSettings:
    """The settings of a season, preset and defaults filled in (`raw` must be valid)."""
    values = resolved(raw)
    credit = values["withdrawn_credit"]
    return KeizerSettings(
        top_value=values["top_value"] or None,
        step=values["step"],
        start_fade_rounds=values["start_fade_rounds"],
        shares={name.removeprefix("points_"): parse_share(values[name]) for name in SHARE_NAMES},
        rematch_gap=values["rematch_gap"],
        max_meetings=values["max_meetings"],
        bye_gap=values["bye_gap"],
        colour_balance=values["colour_balance"],
        colour_run=values["colour_run"],
        preset=values["preset"],
        own_value_once=values["own_value_once"],
        own_value_fade_rounds=values["own_value_fade_rounds"],
        valuation=values["valuation"],
        fixed_point_max_passes=values["fixed_point_max_passes"],
        top_value_rounding=values["top_value_rounding"],
        value_ratio=Fraction(values["value_ratio"].strip()),
        normalised_values=values["normalised_values"],
        external_by_result=values["external_by_result"],
        absent_max=values["absent_max"],
        long_absent_max=values["long_absent_max"],
        absence_halving=values["absence_halving"],
        withdrawn_credit=Fraction(credit.strip()) if credit.strip() else None,
        start_points=values["start_points"],
    )


def value_warnings(players: int, settings: KeizerSettings) -> list[str]:
    """keizer-variants.md §7 item 8: a warning when the values of a list of `players` reach 0
    or less (a top value set by hand with more than top / step + 1 players, or an automatic
    one rounded down to it), so that a result against the last players scores nothing or less.
    Not a refusal: no source says what should happen, and a club may mean it."""
    if players < 2 or settings.normalised_values:  # normalised: the last place is worth 1
        return []
    values = place_values(
        players,
        top_value=settings.top_value,
        step=settings.step,
        ratio=settings.value_ratio,
        normalised_values=False,
        rounding=settings.top_value_rounding,
    )
    if values[-1] > 0:
        return []
    first = next(place for place, value in enumerate(values, 1) if value <= 0)
    numbers = {
        "players": players,
        "top": values[0],
        "step": settings.step,
        "first": first,
        "last": values[-1],
        "needed": settings.step * (players - 1) + 1,
    }
    if settings.top_value:
        return [
            _(
                "With %(players)s players on the list, the top value %(top)s and a step of "
                "%(step)s give place %(first)s and every place below it a value of 0 or less "
                "(the last place: %(last)s), so a result against those players scores "
                "nothing or less. A top value of at least %(needed)s, or 0 (automatic), "
                "avoids it."
            )
            % numbers
        ]
    return [
        _(
            "With %(players)s players on the list, the automatic top value %(top)s and a step "
            "of %(step)s give place %(first)s and every place below it a value of 0 or less "
            "(the last place: %(last)s), so a result against those players scores nothing or "
            "less. A lower ratio of the first to the last value, or a top value of at least "
            "%(needed)s, avoids it."
        )
        % numbers
    ]


def shown_value(setting: Setting, value: Any) -> str:
    """A setting's value as a page shows it: yes/no, a choice's label, a number or fraction."""
    if setting.kind == BOOL:
        return str(_("yes") if value else _("no"))
    if setting.kind == CHOICE:
        return str(dict(setting.choices).get(value, value))
    if value == "":
        return "–"
    return str(value)


def described(raw: dict) -> dict[str, Any]:
    """A season's rules as its pages explain them (keizer-variants.md): the preset's name and
    every option whose value differs from rules.md §4's, with the sentence that explains it."""
    values = resolved(raw)
    preset = FIELDS[0]
    return {
        "preset": values["preset"],
        "preset_label": shown_value(preset, values["preset"]),
        "options": [
            {
                "name": s.name,
                "label": s.label,
                "value": shown_value(s, values[s.name]),
                "help": s.help_text,
            }
            for s in FIELDS[1:]
            if values[s.name] != s.default
        ],
    }
