"""Names and clubs of a season's players, looked up once per page (one query)."""

from collections.abc import Iterable

from django.db.models import F, FilteredRelation, Q

from competitions.lookups import AnyOf
from competitions.models import Player, Season

from .urls_helpers import player_urls


class People:
    def __init__(self, season: Season, keys: Iterable[str]) -> None:
        self.series = season.series
        # key -> (name, the player's own club's name)
        self.players: dict[str, tuple[str, str]] = {}
        # key -> the club's name for this season ("" for none), for the season's players only
        self.season_clubs: dict[str, str] = {}
        found = (
            Player.objects.filter(AnyOf(F("key"), set(keys)), series_id=season.series_id)
            .annotate(entry=FilteredRelation("entries", condition=Q(entries__season=season)))
            .order_by()
            .values_list("key", "name", "club__name", "entry__id", "entry__club__name")
        )
        for key, name, club, entry, season_club in found:
            self.players[key] = (name, club or "")
            if entry is not None:
                self.season_clubs[key] = season_club or ""
        self.url = player_urls(self.series.slug)

    def name(self, key: str) -> str:
        found = self.players.get(key)
        return found[0] if found else key

    def club(self, key: str) -> str:
        if key in self.season_clubs:
            return self.season_clubs[key]
        found = self.players.get(key)
        return found[1] if found else ""

    def decorate(self, row: dict) -> dict:
        """The row with the player's name, club and page URL, for a table."""
        key = row["player"]
        return {**row, "name": self.name(key), "club": self.club(key), "url": self.url(key)}
