"""Which code serves which competition system.

Adding a system means adding one module per layer and one entry here:
- `standings`: module with `compute(season) -> list[StandingsTable]` (unsaved rows) and
  `document(season) -> dict` (the export_standings shape of interchange.md);
- `interchange`: module with `read(data, ctx)` and `write(season) -> dict` for the system's
  section of the competition file;
- `depends_on_previous`: whether a season's standings read earlier seasons of the series
  (so a change there must recompute the later ones too).
"""

from dataclasses import dataclass
from importlib import import_module
from types import ModuleType


@dataclass(frozen=True)
class SystemSpec:
    system: str
    standings: str
    interchange: str
    depends_on_previous: bool = False

    def standings_module(self) -> ModuleType:
        return import_module(self.standings)

    def interchange_module(self) -> ModuleType:
        return import_module(self.interchange)


SYSTEMS: dict[str, SystemSpec] = {
    spec.system: spec
    for spec in [
        SystemSpec(
            system="boardgame-circuit",
            standings="rankings.standings.boardgame",
            interchange="competitions.interchange.boardgame",
            depends_on_previous=True,
        ),
    ]
}


class UnsupportedSystem(LookupError):
    pass


def get_system(system: str) -> SystemSpec:
    try:
        return SYSTEMS[system]
    except KeyError:
        raise UnsupportedSystem(system) from None
