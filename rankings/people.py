"""Names and clubs of a season's players, looked up once per page (two queries)."""

from collections.abc import Iterable

from competitions.models import Player, Season, SeasonPlayer

from .urls_helpers import player_url


class People:
    def __init__(self, season: Season, keys: Iterable[str]) -> None:
        keys = set(keys)
        self.series = season.series
        self.players = {
            p.key: p
            for p in Player.objects.filter(series_id=season.series_id, key__in=keys).select_related(
                "club"
            )
        }
        self.season_clubs = {
            e.player.key: e.club
            for e in SeasonPlayer.objects.filter(
                season=season, player__key__in=keys
            ).select_related("player", "club")
        }

    def name(self, key: str) -> str:
        player = self.players.get(key)
        return player.name if player else key

    def club(self, key: str) -> str:
        if key in self.season_clubs:
            club = self.season_clubs[key]
        else:
            player = self.players.get(key)
            club = player.club if player else None
        return club.name if club else ""

    def decorate(self, row: dict) -> dict:
        """The row with the player's name, club and page URL, for a table."""
        key = row["player"]
        return {
            **row,
            "name": self.name(key),
            "club": self.club(key),
            "url": player_url(self.series.slug, key),
        }
