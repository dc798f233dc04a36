"""Board-game circuit settings (rules.md §1) and how the season's cap is resolved."""

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

DEFAULTS: dict[str, int] = {
    "rounds_per_tournament": 3,
    "best_n": 5,
    "interclub_counted": 3,
    "final_table_size": 4,
}

CAP_AUTO = "auto"
CAP_MANUAL = "manual"
CAP_OFF = "off"


@dataclass(frozen=True)
class CircuitSettings:
    rounds_per_tournament: int = 3
    best_n: int = 5
    interclub_counted: int = 3
    final_table_size: int = 4
    final_table_sizes: dict[str, int] = field(default_factory=dict)
    cap_mode: str = CAP_AUTO
    cap: int | None = None  # only with cap_mode == CAP_MANUAL


def _positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def validate_settings(raw: Any) -> list[tuple[str, str]]:
    """Problems in a settings object as (path below `settings`, message); empty when valid."""
    if not isinstance(raw, dict):
        return [("", _("settings must be an object"))]
    errors: list[tuple[str, str]] = []
    known = set(DEFAULTS) | {"cap"}
    for key in raw:
        if key not in known:
            errors.append((key, _("unknown setting %(name)s") % {"name": key}))
    for key in ("rounds_per_tournament", "best_n", "interclub_counted"):
        if key in raw and not _positive_int(raw[key]):
            errors.append((key, _("%(name)s must be a whole number of at least 1") % {"name": key}))
    if "final_table_size" in raw:
        value = raw["final_table_size"]
        if isinstance(value, dict):
            for game, size in value.items():
                if not _positive_int(size):
                    errors.append(
                        (
                            f"final_table_size.{game}",
                            _("a final table size must be a whole number of at least 1"),
                        )
                    )
        elif not _positive_int(value):
            errors.append(
                (
                    "final_table_size",
                    _(
                        "final_table_size must be a whole number of at least 1 or an "
                        "object of game titles and sizes"
                    ),
                )
            )
    if "cap" in raw and raw["cap"] is not None:
        value = raw["cap"]
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or value < 0
            or (isinstance(value, float) and not value.is_integer())
        ):
            errors.append(
                ("cap", _("cap must be a whole number of at least 0, or null for no cap"))
            )
    return errors


def parse_settings(raw: dict) -> CircuitSettings:
    """The settings of a season, defaults filled in. `raw` must be valid."""
    sizes = raw.get("final_table_size", DEFAULTS["final_table_size"])
    if isinstance(sizes, dict):
        # the object form sizes games one by one; "*" (optional) sizes the games not listed
        per_game = dict(sizes)
        default_size = per_game.pop("*", DEFAULTS["final_table_size"])
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
