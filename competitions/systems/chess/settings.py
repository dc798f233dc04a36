"""Chess group and BGP settings (rules.md §3): every number a club may change, with its bounds.

The BGP scales are texts of whole numbers ("20 17 15 ..."), checked by `extra`."""

import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competitions.registry import INT, TEXT, Setting, SettingsSpec

SMALL_SCALE = (20, 17, 15, 13, 11, 10, 9, 8, 7, 6)
LARGE_SCALE = tuple(range(20, 5, -1))
POINTS_MAX = 1000
SCALE_MAX_PLACES = 100
# A group's rounds and players as a file may bring them: a double round robin of 50 players,
# an open of a thousand (monrad_long_from's bound is the same 100 rounds).
ROUNDS_MAX = 100
GROUP_PLAYERS_MAX = 1000


def _text(scale: tuple[int, ...]) -> str:
    return " ".join(str(n) for n in scale)


FIELDS = (
    Setting(
        "monrad_long_from",
        gettext_lazy("Rounds from which Monrad cuts the two lowest"),
        INT,
        7,
        2,
        100,
        help_text=gettext_lazy(
            "With fewer rounds the lowest opponent is cut from the first column only."
        ),
    ),
    Setting(
        "bgp_large_over",
        gettext_lazy("BGP long scale with more participants than"),
        INT,
        50,
        0,
        100_000,
    ),
    Setting(
        "bgp_small",
        gettext_lazy("BGP points by place, short scale"),
        TEXT,
        _text(SMALL_SCALE),
        max_length=400,
        help_text=gettext_lazy("Whole numbers separated by spaces, first place first."),
    ),
    Setting(
        "bgp_large",
        gettext_lazy("BGP points by place, long scale"),
        TEXT,
        _text(LARGE_SCALE),
        max_length=400,
        help_text=gettext_lazy("Whole numbers separated by spaces, first place first."),
    ),
    Setting(
        "bgp_further", gettext_lazy("BGP points for every further place"), INT, 5, 0, POINTS_MAX
    ),
    Setting(
        "county_winner",
        gettext_lazy("BGP points of a class winner at a county championship"),
        INT,
        20,
        0,
        POINTS_MAX,
    ),
    Setting(
        "county_others",
        gettext_lazy("BGP points of everyone else at a county championship"),
        INT,
        10,
        0,
        POINTS_MAX,
    ),
)

SCALE_RE = re.compile(r"^\s*\d{1,4}(\s+\d{1,4})*\s*$")


def parse_scale(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in text.split())


def _validate_extra(raw: dict) -> list[tuple[str, str]]:
    """The BGP scales: 1 to 100 whole numbers from 0 to 1000, separated by spaces."""
    errors = []
    for name in ("bgp_small", "bgp_large"):
        value = raw.get(name)
        if not isinstance(value, str):
            continue  # the field's own check reports it
        if not SCALE_RE.match(value) or not (
            1 <= len(value.split()) <= SCALE_MAX_PLACES
            and all(int(n) <= POINTS_MAX for n in value.split())
        ):
            errors.append(
                (
                    name,
                    _(
                        "%(name)s must be 1 to %(places)s whole numbers from 0 to %(max)s, "
                        "separated by spaces"
                    )
                    % {"name": name, "places": SCALE_MAX_PLACES, "max": POINTS_MAX},
                )
            )
    return errors


SPEC = SettingsSpec(fields=FIELDS, extra=_validate_extra)


@dataclass(frozen=True)
class ChessSettings:
    monrad_long_from: int = 7
    bgp_large_over: int = 50
    bgp_small: tuple[int, ...] = SMALL_SCALE
    bgp_large: tuple[int, ...] = LARGE_SCALE
    bgp_further: int = 5
    county_winner: int = 20
    county_others: int = 10


def parse_settings(raw: dict[str, Any]) -> ChessSettings:
    """The settings of a season, defaults filled in. `raw` must be valid."""
    values = SPEC.resolved(raw)
    return ChessSettings(
        monrad_long_from=values["monrad_long_from"],
        bgp_large_over=values["bgp_large_over"],
        bgp_small=parse_scale(values["bgp_small"]),
        bgp_large=parse_scale(values["bgp_large"]),
        bgp_further=values["bgp_further"],
        county_winner=values["county_winner"],
        county_others=values["county_others"],
    )
