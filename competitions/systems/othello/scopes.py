"""What a change of GP results reaches (SystemSpec.change_scope): a placement its tournament
("t:<tournament id>"), whose table and the season standings are all that an update
recomputes (rankings.systems.othello.standings.update)."""

from .models import Placement

SCOPE_PREFIX = "t:"


def tournament_scope(tournament_id: int) -> str:
    return f"{SCOPE_PREFIX}{tournament_id}"


def change_scope(model, row) -> str | None:
    """A changed placement reaches its tournament; anything else (a tournament's name, date
    or flags, a setting, a player) the whole season."""
    if model is Placement:
        return tournament_scope(row.tournament_id)
    return None
