"""The pairings layer of each competition system that pairs its rounds:
`pairings/systems/<name>/system.py` attaches a `Pairing` to the system's spec and may add its
manager pages (`competitions.registry.add_manage_urls`). The engines themselves are pure, in
`pairings/engines/<name>.py`."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Pairing:
    # (season, **options) -> the next round's pairing (the `pair_round` JSON of interchange.md)
    pair_next_round: Callable[..., dict[str, Any]]
    # (season, pairing) -> stores the pairing as the next round's games
    save: Callable[..., Any] | None = None


def discover() -> None:
    from competitions.discovery import import_system_modules

    import_system_modules("system", __name__)
