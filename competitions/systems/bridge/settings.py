"""Bridge ladder settings (rules.md §5): every number the club may change, with its bounds."""

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competitions.registry import BOOL, INT, Setting, SettingsSpec

POOL_NAME_MAX_LENGTH = 100
MAX_POOL_NAMES = 500
ELO_MAX = 5000

FIELDS = (
    Setting("pool_size", gettext_lazy("Players per pool"), INT, 5, 2, 20),
    Setting("challenges_per_round", gettext_lazy("Challenges per round"), INT, 3, 1, 20),
    Setting("start_elo", gettext_lazy("Start Elo"), INT, 1250, 0, ELO_MAX),
    Setting("k", gettext_lazy("K-factor"), INT, 25, 1, 200),
    Setting(
        "moves",
        gettext_lazy("Players promoted and relegated per pool"),
        INT,
        2,
        1,
        10,
        help_text=gettext_lazy("At most half the pool size."),
    ),
    Setting(
        "dynamic_k",
        gettext_lazy("Dynamic K-factor by rating band"),
        BOOL,
        False,
        help_text=gettext_lazy("Off: everybody plays with the K-factor above."),
    ),
    Setting("k_low", gettext_lazy("K-factor of the low band"), INT, 40, 1, 200),
    Setting("k_low_below", gettext_lazy("Low band: ratings below"), INT, 1200, 0, ELO_MAX),
    Setting("k_high", gettext_lazy("K-factor of the high band"), INT, 15, 1, 200),
    Setting("k_high_above", gettext_lazy("High band: ratings above"), INT, 1400, 0, ELO_MAX),
)
DEFAULTS: dict[str, Any] = {s.name: s.default for s in FIELDS}


@dataclass(frozen=True)
class LadderSettings:
    pool_size: int = 5
    challenges_per_round: int = 3
    start_elo: int = 1250
    k: int = 25
    moves: int = 2
    dynamic_k: bool = False
    k_low: int = 40
    k_low_below: int = 1200
    k_high: int = 15
    k_high_above: int = 1400
    pool_names: tuple[str, ...] = ()

    def pool_name(self, number: int) -> str:
        """The club's name of pool `number` (1 = top), or ""."""
        return self.pool_names[number - 1] if 0 < number <= len(self.pool_names) else ""

    def engine_numbers(self) -> dict[str, Any]:
        """The numbers the ladder engine needs."""
        return {
            "pool_size": self.pool_size,
            "start_elo": Decimal(self.start_elo),
            "k": self.k,
            "moves": self.moves,
            "dynamic_k": self.dynamic_k,
            "k_low": self.k_low,
            "k_low_below": Decimal(self.k_low_below),
            "k_high": self.k_high,
            "k_high_above": Decimal(self.k_high_above),
        }


def _validate_extra(raw: dict) -> list[tuple[str, str]]:
    """What single settings cannot check: the pool names, and settings that bound each other."""
    errors: list[tuple[str, str]] = []
    if "pool_names" in raw:
        names = raw["pool_names"]
        if not isinstance(names, list) or len(names) > MAX_POOL_NAMES:
            errors.append(
                (
                    "pool_names",
                    _("pool_names must be a list of at most %(n)s texts") % {"n": MAX_POOL_NAMES},
                )
            )
        else:
            for i, name in enumerate(names):
                if not isinstance(name, str) or len(name) > POOL_NAME_MAX_LENGTH:
                    errors.append(
                        (
                            f"pool_names[{i}]",
                            _("a pool name is a text of at most %(n)s characters")
                            % {"n": POOL_NAME_MAX_LENGTH},
                        )
                    )
    resolved = {**DEFAULTS, **raw}
    pool_size, moves = resolved["pool_size"], resolved["moves"]
    if _int(pool_size) and _int(moves) and 2 * moves > pool_size:
        errors.append(
            (
                "moves",
                _(
                    "moves must be at most half the pool size (%(moves)s up and %(moves)s down "
                    "in a pool of %(size)s)"
                )
                % {"moves": moves, "size": pool_size},
            )
        )
    low, high = resolved["k_low_below"], resolved["k_high_above"]
    if _int(low) and _int(high) and low > high:
        errors.append(
            ("k_low_below", _("the low band must end at or below the start of the high band"))
        )
    return errors


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


SPEC = SettingsSpec(
    fields=FIELDS,
    extra=_validate_extra,
    extra_names=frozenset({"pool_names"}),
    form="competitions.systems.bridge.forms.LadderSettingsForm",
)


def parse_settings(raw: dict) -> LadderSettings:
    """The settings of a season, defaults filled in. `raw` must be valid."""
    values = {s.name: raw.get(s.name, s.default) for s in FIELDS}
    return LadderSettings(**values, pool_names=tuple(raw.get("pool_names", ())))
