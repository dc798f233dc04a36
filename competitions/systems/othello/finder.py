"""The player finder of the typed GP standings: each suggestion carries what a whole line needs
besides the place (the player's country and rating entry at their latest tournament of the
series), so the page's script inserts a line that reads as typed (entry.py), not a bare name."""

from django.db.models import F, OuterRef, Subquery
from django.utils.html import escape
from django.utils.safestring import SafeString

from competitions.models import Player
from competitions.text import player_label

from .models import Placement
from .ratings import RatingEntry, typed


def latest_placements(series_id: int, player_ids: list[int] | None = None) -> dict[int, Placement]:
    """Each player's placement at their latest tournament of the series (the latest season,
    then the season's order backwards: the undated last tournaments first), by player id; of
    the players `player_ids` only, when given. One query."""
    latest = Placement.objects.filter(
        player=OuterRef("player"), tournament__season__series_id=series_id
    ).order_by(
        "-tournament__season__label",
        F("tournament__date").desc(nulls_first=True),
        "-tournament__key",
        "-pk",
    )
    found = Placement.objects.filter(
        tournament__season__series_id=series_id, pk=Subquery(latest.values("pk")[:1])
    ).select_related("tournament")
    if player_ids is not None:
        found = found.filter(player_id__in=player_ids)
    return {p.player_id: p for p in found}


def finder_options(players: list[Player], series_id: int, country: str) -> SafeString:
    """The `<option>`s of the finder's `<datalist>`: "Name (id)", with the player's latest
    country and rating entry (the series' country and a debutant's for a player without a
    tournament yet) in data attributes. Written in one pass, as the other suggestion lists."""
    latest = latest_placements(series_id)
    entries = {pk: (p.country, typed(RatingEntry.of(p))) for pk, p in latest.items()}
    return SafeString(
        "".join(
            f'<option value="{escape(player_label(p))}" data-country="{escape(c)}" '
            f'data-rating="{escape(r)}"></option>'
            for p in players
            for c, r in [entries.get(p.pk, (country, typed(RatingEntry())))]
        )
    )
