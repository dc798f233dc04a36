"""Names and clubs of a season's players, looked up once per page (two queries)."""

from collections.abc import Iterable

from django.urls import reverse

from competitions.models import Player, Season, SeasonPlayer


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
        # Player ids hold only URL-safe characters (KEY_PATTERN): a player's page address is
        # the series' player index plus the id, without a reverse() per player.
        self._players_url = reverse("players", args=[self.series.slug])

    def name(self, key: str) -> str:
        found = self.players.get(key)
        return found[0] if found else key

    def club(self, key: str) -> str:
        if key in self.season_clubs:
            return self.season_clubs[key]
        found = self.players.get(key)
        return found[1] if found else ""

    def url(self, key: str) -> str:
        return f"{self._players_url}{key}/"

    def decorate(self, row: dict) -> dict:
        """The row with the player's name, club and page URL, for a table."""
        key = row["player"]
        return {**row, "name": self.name(key), "club": self.club(key), "url": self.url(key)}
