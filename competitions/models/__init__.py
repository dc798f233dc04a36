"""The competition data: shared models (`core`, `games`), then each system's own result models,
found in `competitions/systems/<name>/models.py` (no list to edit when a system is added)."""

from competitions.discovery import import_system_modules

from .core import (
    Club,
    Group,
    Player,
    Round,
    Season,
    SeasonPlayer,
    Series,
    Tournament,
    new_draw_seed,
    season_slug,
    tournament_order,
    unique_season_slug,
)
from .games import Game, RoundEntry
from .merges import PlayerMerge

import_system_modules("models")

__all__ = [
    "Club",
    "Game",
    "Group",
    "Player",
    "PlayerMerge",
    "Round",
    "RoundEntry",
    "Season",
    "SeasonPlayer",
    "Series",
    "Tournament",
    "new_draw_seed",
    "season_slug",
    "tournament_order",
    "unique_season_slug",
]
