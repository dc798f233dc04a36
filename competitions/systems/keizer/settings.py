"""Season settings of the Keizer competition (rules.md §4): every number a club might change,
with the rules' value as its default and bounds checked in one place (`SPEC.validate`).

The result shares (1, 1/2, 1/6, 2/3, ...) are exact fractions, so they are settings of text
such as "1/6" or "0.5", read with `fractions.Fraction`."""

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

# Lazy everywhere: labels are made at import, messages when they are shown; `_` so that
# makemessages finds them all.
from django.utils.translation import gettext_lazy as _

from competitions.registry import INT, TEXT, Setting, SettingsSpec

FRACTION_MAX_LENGTH = 20

# (setting name, result, default share) of rules.md §4.2's table.
RESULT_SHARES: tuple[tuple[str, Any, str], ...] = (
    ("points_win", _("Win (share of the opponent's value)"), "1"),
    ("points_draw", _("Draw (share of the opponent's value)"), "1/2"),
    ("points_loss", _("Loss (share of the opponent's value)"), "1/6"),
    ("points_bye", _("Bye (share of the player's own value)"), "2/3"),
    ("points_absent", _("Absent with notice (share of the own value)"), "1/2"),
    ("points_external", _("Playing externally (share of the own value)"), "2/3"),
    ("points_unexcused", _("Absent without notice (share of the own value)"), "0"),
)

FIELDS = (
    Setting(
        "top_value",
        _("Top value"),
        INT,
        0,
        0,
        100000,
        help_text=_("The value of the first place; 0 = automatic: 3 × (players − 1) / 2."),
    ),
    Setting("step", _("Value step between places"), INT, 1, 1, 1000),
    Setting("start_fade_rounds", _("Rounds over which start points fade"), INT, 10, 1, 100),
    *(
        Setting(
            name,
            label,
            TEXT,
            default,
            max_length=FRACTION_MAX_LENGTH,
            help_text=_("A fraction such as 1/6, or a decimal such as 0.5; from 0 to 1."),
        )
        for name, label, default in RESULT_SHARES
    ),
    Setting(
        "rematch_gap",
        _("Rounds before a rematch"),
        INT,
        7,
        0,
        100,
        help_text=_("Met in round m: not again before round m + this + 1."),
    ),
    Setting("max_meetings", _("Most meetings of two players in a season"), INT, 4, 1, 100),
    Setting("bye_gap", _("Rounds without a bye before the next one"), INT, 7, 0, 100),
    Setting("colour_balance", _("Largest colour balance (whites − blacks)"), INT, 2, 1, 100),
    Setting("colour_run", _("Most games in a row with the same colour"), INT, 2, 1, 100),
)

DEFAULTS = {s.name: s.default for s in FIELDS}


def parse_share(value: Any) -> Fraction | None:
    """A result share from its text ("1/6", "0.5", "1"), or None when it is not one."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        share = Fraction(value.strip())
    except (ValueError, ZeroDivisionError):
        return None
    return share if 0 <= share <= 1 else None


def _validate_shares(raw: dict) -> list[tuple[str, str]]:
    errors = []
    for name, _label, _default in RESULT_SHARES:
        if name in raw and isinstance(raw[name], str) and parse_share(raw[name]) is None:
            errors.append(
                (name, _("%(name)s must be a fraction from 0 to 1, such as 1/6") % {"name": name})
            )
    return errors


SPEC = SettingsSpec(fields=FIELDS, extra=_validate_shares)


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


def parse_settings(raw: dict) -> KeizerSettings:
    """The settings of a season, defaults filled in (`raw` must be valid)."""
    values = SPEC.resolved(raw)
    return KeizerSettings(
        top_value=values["top_value"] or None,
        step=values["step"],
        start_fade_rounds=values["start_fade_rounds"],
        shares={
            name.removeprefix("points_"): parse_share(values[name])
            for name, _label, _default in RESULT_SHARES
        },
        rematch_gap=values["rematch_gap"],
        max_meetings=values["max_meetings"],
        bye_gap=values["bye_gap"],
        colour_balance=values["colour_balance"],
        colour_run=values["colour_run"],
    )
