"""Names and clubs of a season's players, looked up once per page (two queries)."""

from collections.abc import Iterable

from competitions.models import Player, Season, SeasonPlayer

from .urls_helpers import player_urls


class People:
    def __init__(self, season: Season, keys: Iterable[str]) -> None:
        keys = set(keys)
        self.series = season.series
        # key -> (name, the player's own club's name)
        self.players = {
            key: (name, club or "")
            for key, name, club in Player.objects.filter(
                series_id=season.series_id, key__in=keys
            ).values_list("key", "name", "club__name")
        }
        # key -> the club's name for this season ("" for none)
        self.season_clubs = {
            key: club or ""
            for key, club in SeasonPlayer.objects.filter(
                season=season, player__key__in=keys
            ).values_list("player__key", "club__name")
        }
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
