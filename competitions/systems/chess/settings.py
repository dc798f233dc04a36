"""Chess group and BGP settings (rules.md §3): every number a club may change, with its bounds.

The BGP scales are texts of whole numbers ("20 17 15 ..."), checked by `extra`."""

import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competitions.registry import BOOL, CHOICE, INT, TEXT, Setting, SettingsSpec

from . import start_numbers
from . import tiebreak_codes as codes
from .models import RATING_MAX

SMALL_SCALE = (20, 17, 15, 13, 11, 10, 9, 8, 7, 6)
LARGE_SCALE = tuple(range(20, 5, -1))
POINTS_MAX = 1000
SCALE_MAX_PLACES = 100
# A group's rounds and players as a file may bring them: a double round robin of 50 players,
# an open of a thousand (monrad_long_from's bound is the same 100 rounds).
ROUNDS_MAX = 100
GROUP_PLAYERS_MAX = 1000


TIEBREAKS_MAX_LENGTH = 200
# chess-othello-options.md §2.1: a county championship's BGP scale.
COUNTY_WINNER_OTHERS, COUNTY_DENSE = "winner_others", "dense"
GROUP_FORMAT_CHOICES = (
    (codes.AUTO, gettext_lazy("automatic")),
    (codes.MONRAD, gettext_lazy("Monrad (Swiss)")),
    (codes.ROUND_ROBIN, gettext_lazy("round robin")),
)


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
    # chess-othello-options.md §2: the BGP rule options, each with its source and year.
    Setting(
        "county_scale",
        gettext_lazy("BGP scale of a county championship"),
        CHOICE,
        COUNTY_WINNER_OTHERS,
        choices=(
            (
                COUNTY_WINNER_OTHERS,
                gettext_lazy("winner and others: the two numbers above (USF rules before 2024)"),
            ),
            (COUNTY_DENSE, gettext_lazy("the long scale whatever the participants (USF 2024)")),
        ),
        help_text=gettext_lazy(
            "Source: USF, “Oppdatering av regler i BGP/UGP”, 26 April 2024: from the 2024 "
            "season a county championship gives points on the dense scale, in the player's age "
            "class. Recommended from 2024."
        ),
    ),
    Setting(
        "beginners_after_class",
        gettext_lazy("BGP: beginners placed after their age class"),
        BOOL,
        False,
        help_text=gettext_lazy(
            "Source: USF rules for BGP/UGP, point 3 (2024): players marked as beginners go on "
            "the result list after the players of their age class (give them their age class)."
        ),
    ),
    Setting(
        "bgp_best_n",
        gettext_lazy("BGP: results counted in the season"),
        INT,
        0,
        0,
        ROUNDS_MAX,
        help_text=gettext_lazy(
            "0: every result counts (today's USF rules). Source of a limit: “BGP & UGP i sjakk "
            "1998”, the best 5 results count."
        ),
    ),
    Setting(
        "bgp_alt_scale",
        gettext_lazy("BGP points by place, small-class and single-club scale"),
        TEXT,
        "",
        max_length=400,
        help_text=gettext_lazy(
            "Empty: off. Source: the BGP rules of 1996 (3b) and 1998 (b), e.g. 17 14 12 10 9 8 "
            "7 6 5 (1998): for a class with few players, or a tournament of one club only."
        ),
    ),
    Setting(
        "bgp_alt_class_under",
        gettext_lazy("BGP: a class is small with fewer players than"),
        INT,
        6,
        1,
        GROUP_PLAYERS_MAX,
        help_text=gettext_lazy(
            "Source: BGP rules 1996 and 1998, “mindre enn 6 deltakere”. Counted over the whole "
            "tournament, beginners left out."
        ),
    ),
    Setting(
        "bgp_alt_single_club",
        gettext_lazy("BGP: the small-class scale also when every participant is of one club"),
        BOOL,
        True,
        help_text=gettext_lazy(
            "Source: BGP rules 1996 and 1998, “bare deltakere fra ett lokallag”. A participant "
            "without a club makes it not single-club."
        ),
    ),
    # chess-othello-options.md §1.1: the tie-break list and its options.
    Setting(
        "tiebreaks",
        gettext_lazy("Tie-breaks"),
        TEXT,
        codes.NSF,
        max_length=TIEBREAKS_MAX_LENGTH,
        help_text=gettext_lazy(
            "Codes separated by spaces, applied in order after points: NSF (today's Monrad "
            "and Berger), FIDE-RR, FIDE-SWISS, FIDE-SWISS-RATED, or FIDE codes such as "
            "BH/C1 BH SB DE WIN BWG. A tournament or group may have its own list."
        ),
    ),
    Setting(
        "unplayed_rounds",
        gettext_lazy("Unplayed rounds in FIDE tie-breaks"),
        CHOICE,
        codes.FIDE2023,
        choices=(
            (codes.FIDE2023, gettext_lazy("FIDE 2023: a dummy opponent with the player's points")),
            (codes.FIDE2026, gettext_lazy("FIDE 2026: the dummy capped")),
            (codes.FIDE2009, gettext_lazy("FIDE 2009: a virtual opponent")),
        ),
    ),
    Setting(
        "group_format",
        gettext_lazy("Group format"),
        CHOICE,
        codes.AUTO,
        choices=GROUP_FORMAT_CHOICES,
        help_text=gettext_lazy(
            "Automatic: a round robin once every two players of the group have met."
        ),
    ),
    Setting(
        "final_ties",
        gettext_lazy("Players still equal after every tie-break"),
        CHOICE,
        codes.SHARE,
        choices=(
            (codes.SHARE, gettext_lazy("share the place")),
            (codes.LOT, gettext_lazy("are ordered by lot")),
        ),
    ),
    Setting(
        "aro_unrated",
        gettext_lazy("Rating of an unrated opponent in ARO"),
        TEXT,
        "",
        max_length=4,
        help_text=gettext_lazy("Empty: games against unrated opponents are left out."),
    ),
)

SCALE_RE = re.compile(r"^\s*\d{1,4}(\s+\d{1,4})*\s*$")


def parse_scale(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in text.split())


def _validate_extra(raw: dict) -> list[tuple[str, str]]:
    """The BGP scales: 1 to 100 whole numbers from 0 to 1000, separated by spaces."""
    errors = []
    for name in ("bgp_small", "bgp_large", "bgp_alt_scale"):
        value = raw.get(name)
        if not isinstance(value, str):
            continue  # the field's own check reports it
        if name == "bgp_alt_scale" and not value.strip():
            continue  # empty: off
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
    value = raw.get("tiebreaks")
    if isinstance(value, str):
        errors.extend(("tiebreaks", m) for m in tiebreak_problems(value))
    value = raw.get("aro_unrated")
    if isinstance(value, str) and value and not (value.isdigit() and int(value) <= RATING_MAX):
        errors.append(
            (
                "aro_unrated",
                _("aro_unrated must be empty or a whole number from 0 to %(max)s")
                % {"max": RATING_MAX},
            )
        )
    return errors


def tiebreak_problems(text: str) -> list[str]:
    """What is wrong with a tie-break list, in words (empty when nothing)."""
    messages = []
    for problem, found in codes.validate(text):
        names = ", ".join(found)
        if problem == codes.EMPTY:
            messages.append(_("The tie-break list is empty."))
        elif problem == codes.TOO_MANY:
            messages.append(
                _("At most %(n)s tie-break codes; remove %(codes)s.")
                % {"n": codes.MAX_CODES, "codes": names}
            )
        elif problem == codes.UNKNOWN:
            messages.append(
                _("Unknown tie-break code %(codes)s (known: %(known)s).")
                % {"codes": names, "known": codes.KNOWN_TEXT}
            )
        else:
            messages.append(_("Tie-break %(codes)s is listed twice.") % {"codes": names})
    return messages


SPEC = SettingsSpec(
    fields=FIELDS, extra=_validate_extra, template="competitions/chess/settings.html"
)

# Tournament.options and Group.options (chess-othello-options.md §1.1): a tournament may have
# its own tie-break list, a group its own list and format; empty means the level above's. (The
# lot of `final_ties = lot` is drawn with the tournament's stored `draw_seed`.)
COUNTY = "county_championship"
DENSE = "dense_scale"  # chess-othello-options.md §2.5: the dense scale granted on application
OWN_TIEBREAKS = "tiebreaks"
OWN_FORMAT = "format"


def _own_list(raw: dict) -> list[tuple[str, str]]:
    value = raw.get(OWN_TIEBREAKS)
    if isinstance(value, str) and value.strip():
        return [(OWN_TIEBREAKS, m) for m in tiebreak_problems(value)]
    return []


def _own_tiebreaks_setting() -> Setting:
    return Setting(
        OWN_TIEBREAKS,
        gettext_lazy("Tie-breaks"),
        TEXT,
        "",
        max_length=TIEBREAKS_MAX_LENGTH,
        help_text=gettext_lazy("Empty: the season's list."),
    )


TOURNAMENT_OPTIONS = SettingsSpec(
    fields=(
        Setting(COUNTY, gettext_lazy("County championship"), BOOL, False),
        Setting(
            DENSE,
            gettext_lazy("BGP dense scale granted"),
            BOOL,
            False,
            help_text=gettext_lazy(
                "Source: the BGP rules of 1996 and 1998 (c): the long scale on application, "
                "normally one such tournament in each district."
            ),
        ),
        _own_tiebreaks_setting(),
    ),
    extra=_own_list,
)
GROUP_OPTIONS = SettingsSpec(
    fields=(
        _own_tiebreaks_setting(),
        Setting(
            OWN_FORMAT,
            gettext_lazy("Group format"),
            CHOICE,
            "",
            choices=(("", gettext_lazy("the season's")), *GROUP_FORMAT_CHOICES),
        ),
        # issue 46: by rating (the default) or as the organiser set them (start_numbers.py)
        Setting(
            start_numbers.START_NUMBERS,
            gettext_lazy("Start numbers"),
            CHOICE,
            start_numbers.BY_RATING,
            choices=start_numbers.CHOICES,
        ),
    ),
    extra=_own_list,
)


def group_tiebreaks(season: "ChessSettings", tournament_options: dict, group_options: dict):
    """The list and format a group uses: its own, else its tournament's, else the season's. (A
    value the pages and files would refuse, e.g. typed into the admin's raw options, is passed
    over.)"""
    tiebreaks = season.tiebreaks
    for options in (group_options, tournament_options):
        own = options.get(OWN_TIEBREAKS)
        if isinstance(own, str) and own.strip() and codes.is_known(own):
            tiebreaks = own.strip()
            break
    group_format = group_options.get(OWN_FORMAT)
    if group_format not in codes.GROUP_FORMATS:
        group_format = season.group_format
    return tiebreaks, group_format


@dataclass(frozen=True)
class ChessSettings:
    monrad_long_from: int = 7
    bgp_large_over: int = 50
    bgp_small: tuple[int, ...] = SMALL_SCALE
    bgp_large: tuple[int, ...] = LARGE_SCALE
    bgp_further: int = 5
    county_winner: int = 20
    county_others: int = 10
    tiebreaks: str = codes.NSF
    unplayed_rounds: str = codes.FIDE2023
    group_format: str = codes.AUTO
    final_ties: str = codes.SHARE
    aro_unrated: int | None = None
    county_scale: str = COUNTY_WINNER_OTHERS
    beginners_after_class: bool = False
    bgp_best_n: int = 0
    bgp_alt_scale: tuple[int, ...] = ()
    bgp_alt_class_under: int = 6
    bgp_alt_single_club: bool = True


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
        tiebreaks=values["tiebreaks"],
        unplayed_rounds=values["unplayed_rounds"],
        group_format=values["group_format"],
        final_ties=values["final_ties"],
        aro_unrated=int(values["aro_unrated"]) if values["aro_unrated"] else None,
        county_scale=values["county_scale"],
        beginners_after_class=values["beginners_after_class"],
        bgp_best_n=values["bgp_best_n"],
        bgp_alt_scale=parse_scale(values["bgp_alt_scale"]),
        bgp_alt_class_under=values["bgp_alt_class_under"],
        bgp_alt_single_club=values["bgp_alt_single_club"],
    )
