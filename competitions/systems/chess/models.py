"""Result models of chess groups (rules.md §3): the players of a group with their class.

The games themselves are the shared `competitions.models.games` (also used by Keizer): a game is
a `Game` with two `RoundEntry` rows (status `played`, colours white and black), a walkover is a
`RoundEntry` with status `walkover`, and a round not played has no entry.
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from competitions.models.core import Group, Player

RATING_MAX = 4000


class GroupPlayer(models.Model):
    """A player of a chess group, with the BGP class he plays in there (his birth year is the
    player's own, `Player.born`). `position` is his start number (1 = first): the file's order,
    or the order by rating the manager set before round 1."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="group_entries")
    position = models.PositiveSmallIntegerField(_("start number"), default=0)
    player_class = models.CharField(_("class"), max_length=50, blank=True)
    rating = models.PositiveSmallIntegerField(_("rating"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["group_id", "position"]
        verbose_name = _("group player")
        verbose_name_plural = _("group players")
        constraints = [
            models.UniqueConstraint(fields=["group", "player"], name="group_player_unique"),
            models.CheckConstraint(
                condition=Q(rating__isnull=True) | Q(rating__lte=RATING_MAX),
                name="group_player_rating_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.group}"
