"""Reads of the series' data that the manager's pages and the public pages share (rankings
imports them; nothing here imports rankings)."""

from typing import NamedTuple

from .models import Player, Series
from .text import fold, name_order


class FoundPlayer(NamedTuple):
    name: str
    key: str
    club: str  # its name, "" without a club
    order: tuple[str, str, str]  # `name_order`: where it goes in a list of people


def players_found(series: Series, query: str = "") -> list[FoundPlayer]:
    """The series' players in name order (the same on every database), those whose name or
    club contains `query` when one is given, accents and case ignored. One query, whatever
    the number of players."""
    wanted = fold(query)
    return sorted(
        (
            FoundPlayer(name, key, club or "", name_order(name, key))
            for name, key, club in series.players.order_by().values_list(
                "name", "key", "club__name"
            )
            if not wanted or wanted in fold(name) or (club and wanted in fold(club))
        ),
        key=lambda player: player.order,
    )


def series_players(series_id: int, *, clubs: bool = False) -> list[Player]:
    """The series' players for a manager's choice or suggestion list, in name order (the same
    on every database), with their clubs when `clubs`. One query."""
    players = Player.objects.filter(series_id=series_id).order_by()
    if clubs:
        players = players.select_related("club")
    return sorted(players, key=lambda player: name_order(player.name, player.key))
