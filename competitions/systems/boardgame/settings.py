"""Board-game circuit settings (rules.md §1), their bounds, and how a season's cap is set."""

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

from competitions.registry import INT, Setting, SettingsSpec

CAP_AUTO = "auto"
CAP_MANUAL = "manual"
CAP_OFF = "off"

FINAL_TABLE_SIZE_DEFAULT = 4
FINAL_TABLE_SIZE_MAX = 20
CAP_MAX = 100_000
MAX_GAMES = 500  # per-game final table sizes; a circuit plays a few dozen titles
GAME_MAX_LENGTH = 100

FIELDS = (
    Setting("rounds_per_tournament", _("Rounds per tournament"), INT, 3, 1, 20),
    Setting("best_n", _("Best tournaments counted (yearly ranking)"), INT, 5, 1, 100),
    Setting("interclub_counted", _("Players counted per club (interclub)"), INT, 3, 1, 50),
)
DEFAULTS: dict[str, int] = {
    **{s.name: s.default for s in FIELDS},
    "final_table_size": FINAL_TABLE_SIZE_DEFAULT,
}


@dataclass(frozen=True)
class CircuitSettings:
    rounds_per_tournament: int = 3
    best_n: int = 5
    interclub_counted: int = 3
    final_table_size: int = FINAL_TABLE_SIZE_DEFAULT
    final_table_sizes: dict[str, int] = field(default_factory=dict)
    cap_mode: str = CAP_AUTO
    cap: int | None = None  # only with cap_mode == CAP_MANUAL


def _table_size_ok(value: Any) -> bool:
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and 1 <= value <= FINAL_TABLE_SIZE_MAX
    )


def _validate_extra(raw: dict) -> list[tuple[str, str]]:
    """final_table_size (a number, or an object of game titles and sizes) and cap."""
    errors: list[tuple[str, str]] = []
    size_message = _("a final table size must be a whole number from 1 to %(max)s") % {
        "max": FINAL_TABLE_SIZE_MAX
    }
    if "final_table_size" in raw:
        value = raw["final_table_size"]
        if isinstance(value, dict):
            if len(value) > MAX_GAMES:
                errors.append(("final_table_size", _("at most %(n)s games") % {"n": MAX_GAMES}))
            for game, size in value.items():
                if not game.strip() or len(game) > GAME_MAX_LENGTH:
                    errors.append(
                        (
                            "final_table_size",
                            _("a game title of 1 to %(n)s characters, got %(game)r")
                            % {"n": GAME_MAX_LENGTH, "game": game[:40]},
                        )
                    )
                elif not _table_size_ok(size):
                    errors.append((f"final_table_size.{game}", size_message))
        elif not _table_size_ok(value):
            errors.append(
                (
                    "final_table_size",
                    _(
                        "final_table_size must be a whole number from 1 to %(max)s or an "
                        "object of game titles and sizes"
                    )
                    % {"max": FINAL_TABLE_SIZE_MAX},
                )
            )
    if "cap" in raw and raw["cap"] is not None:
        value = raw["cap"]
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or (isinstance(value, float) and not value.is_integer())
            or not 0 <= value <= CAP_MAX
        ):
            errors.append(
                (
                    "cap",
                    _("cap must be a whole number from 0 to %(max)s, or null for no cap")
                    % {"max": CAP_MAX},
                )
            )
    return errors


SPEC = SettingsSpec(
    fields=FIELDS,
    extra=_validate_extra,
    extra_names=frozenset({"final_table_size", "cap"}),
    form="competitions.systems.boardgame.forms.CircuitSettingsForm",
)


def parse_settings(raw: dict) -> CircuitSettings:
    """The settings of a season, defaults filled in. `raw` must be valid."""
    sizes = raw.get("final_table_size", FINAL_TABLE_SIZE_DEFAULT)
    if isinstance(sizes, dict):
        # the object form sizes games one by one; "*" (optional) sizes the games not listed
        per_game = dict(sizes)
        default_size = per_game.pop("*", FINAL_TABLE_SIZE_DEFAULT)
    else:
        default_size, per_game = sizes, {}
    if "cap" not in raw:
        cap_mode, cap = CAP_AUTO, None
    elif raw["cap"] is None:
        cap_mode, cap = CAP_OFF, None
    else:
        cap_mode, cap = CAP_MANUAL, int(raw["cap"])
    return CircuitSettings(
        rounds_per_tournament=raw.get("rounds_per_tournament", DEFAULTS["rounds_per_tournament"]),
        best_n=raw.get("best_n", DEFAULTS["best_n"]),
        interclub_counted=raw.get("interclub_counted", DEFAULTS["interclub_counted"]),
        final_table_size=default_size,
        final_table_sizes=per_game,
        cap_mode=cap_mode,
        cap=cap,
    )


def previous_label(label: str, back: int = 1) -> str | None:
    """A circuit season is a calendar year: the label of the season `back` years earlier."""
    try:
        return str(int(label) - back)
    except ValueError:
        return None
