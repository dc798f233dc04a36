"""The pairings layer of each competition system that pairs its rounds:
`pairings/systems/<name>/system.py` attaches a pairing to the system's spec and may add its
manager pages (`competitions.registry.add_manage_urls`). The engines themselves are pure, in
`pairings/engines/<name>.py`.

A pairing says what it pairs, by its type:

- `SeasonPairing`: the season's next round, from the attendance stored for it (a Keizer club
  evening). `manage.py pair_round` pairs and stores it, as the manager's pairing page does.
- `PairedElsewhere`: a part of the season, on that part's own manager page (a youth-chess
  group's next Monrad round); never a whole season's round, so `pair_round` refuses it with
  one line saying where it is paired.
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from django.utils.functional import Promise

if TYPE_CHECKING:
    from competitions.models import Season

PairingJson = dict[str, Any]  # the `pair_round` JSON of interchange.md


class PairSeasonRound(Protocol):
    def __call__(self, season: "Season", /, **options: Any) -> PairingJson:
        """The season's next round's pairing."""


class PairPart(Protocol):
    def __call__(self, season: "Season", /, *, group: Any, **options: Any) -> PairingJson:
        """The next round's pairing of one part of the season (a group)."""


class SavePairing(Protocol):
    def __call__(self, season: "Season", pairing: PairingJson, /) -> Any:
        """Store a pairing made by the pairing's `pair_next_round` as the next round."""


@dataclass(frozen=True)
class SeasonPairing:
    pair_next_round: PairSeasonRound
    save: SavePairing


@dataclass(frozen=True)
class PairedElsewhere:
    pair_next_round: PairPart
    save: SavePairing
    # Where a manager pairs it, for `pair_round`'s refusal (a translatable phrase).
    where: str | Promise


Pairing = SeasonPairing | PairedElsewhere


def discover() -> None:
    from competitions.discovery import import_system_modules

    import_system_modules("system", __name__)
