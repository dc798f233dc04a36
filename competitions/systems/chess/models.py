"""Result models of chess groups (rules.md §3): the players of a group with their class.

The games themselves are the shared `competitions.models.games` (also used by Keizer): a game is
a `Game` with two `RoundEntry` rows (status `played`, colours white and black), a walkover is a
`RoundEntry` with status `walkover`, and a round not played has no entry.
"""

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from competitions.models.core import Group, Player, Tournament
from competitions.text import isolated_text

RATING_MAX = 4000


class GroupPlayer(models.Model):
    """A player of a chess group, with the BGP class he plays in there (his birth year is the
    player's own, `Player.born`). `position` is his start number (1 = first): the file's order
    or the manager's; before round 1 a group numbering by rating shows and pairs by rating
    instead, and storing round 1 writes those numbers here (start_numbers.py).

    A player plays in one group of a tournament (rules.md §3: BGP points are per tournament, a
    second group would count them twice). `tournament` is the group's, copied so the database
    itself refuses a second group (`group_player_once_per_tournament`); it is set from the group
    on save and kept equal to it by the database (`LINKS`, competitions/consistency.py)."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="members")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="group_players", editable=False
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="group_entries")
    position = models.PositiveSmallIntegerField(_("start number"), default=0)
    player_class = models.CharField(_("class"), max_length=50, blank=True)
    rating = models.PositiveSmallIntegerField(_("rating"), null=True, blank=True)
    # chess-othello-options.md §2.2: a beginner-class player (his class is his age class).
    beginner = models.BooleanField(
        _("beginner"),
        default=False,
        help_text=_("Plays in a beginners' class; the BGP places may put them after their class."),
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["group_id", "position"]
        verbose_name = _("group player")
        verbose_name_plural = _("group players")
        constraints = [
            models.UniqueConstraint(fields=["group", "player"], name="group_player_unique"),
            models.UniqueConstraint(
                fields=["tournament", "player"], name="group_player_once_per_tournament"
            ),
            models.CheckConstraint(
                condition=Q(rating__isnull=True) | Q(rating__lte=RATING_MAX),
                name="group_player_rating_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.group}"

    def save(self, *args, **kwargs):
        self.tournament_id = self.group.tournament_id
        super().save(*args, **kwargs)

    def clean(self) -> None:
        """The admin's check of the one group per tournament (its forms leave `tournament`
        out, so Django's own constraint check would skip it)."""
        if self.group_id is None or self.player_id is None:
            return
        self.tournament_id = self.group.tournament_id
        other = (
            GroupPlayer.objects.filter(tournament_id=self.tournament_id, player_id=self.player_id)
            .exclude(pk=self.pk)
            .select_related("group", "tournament", "player")
            .first()
        )
        if other is not None:
            raise ValidationError({"player": in_two_groups(other, self.group)})


def in_two_groups(member: "GroupPlayer", group: Group) -> str:
    """The refusal of a second group: names the player, the tournament and both groups."""
    return _(
        "%(player)s already plays in group %(other)s of %(tournament)s; a player plays in one "
        "group of a tournament, so cannot be added to group %(group)s as well."
    ) % {
        "player": isolated_text(member.player.name),
        "other": isolated_text(member.group.name),
        "tournament": isolated_text(member.tournament.name),
        "group": isolated_text(group.name),
    }


# Copied keys the database keeps in agreement (the form of competitions.consistency.LINKS).
LINKS = (
    (
        "group_player_tournament_agrees_with_group",
        "competitions_groupplayer",
        ("group_id", "tournament_id"),
        "competitions_group",
        ("id", "tournament_id"),
    ),
)
