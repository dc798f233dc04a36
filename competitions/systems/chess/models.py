"""Result models of chess groups (rules.md §3): the players of a group with their class.

The games themselves are the shared `competitions.models.games` (also used by Keizer)."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from competitions.models.core import Group, Player


class GroupPlayer(models.Model):
    """A player of a chess group, with the BGP class he plays in there (his birth year is the
    player's own, `Player.born`)."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="group_entries")
    position = models.PositiveSmallIntegerField(default=0)
    player_class = models.CharField(_("class"), max_length=50, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["group_id", "position"]
        verbose_name = _("group player")
        verbose_name_plural = _("group players")
        constraints = [
            models.UniqueConstraint(fields=["group", "player"], name="group_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.group}"
