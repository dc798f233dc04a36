"""Models of the bridge ladder (rules.md §5): pools, challenges, IMP scores and start Elos."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from competitions.models.core import Player, Round, SeasonPlayer, related


class Pool(models.Model):
    """A bridge pool in a round (pool 1 is the top)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pools")
    number = models.PositiveSmallIntegerField(_("pool"))
    history = HistoricalRecords()

    class Meta:
        ordering = ["round_id", "number"]
        verbose_name = _("pool")
        verbose_name_plural = _("pools")
        constraints = [
            models.CheckConstraint(condition=Q(number__gte=1), name="pool_number_positive"),
            models.UniqueConstraint(fields=["round", "number"], name="pool_number_unique"),
        ]

    def __str__(self) -> str:
        return str(_("Pool %(number)s") % {"number": self.number})


class PoolMember(models.Model):
    pool = models.ForeignKey(Pool, on_delete=models.CASCADE, related_name="members")
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="pool_members", editable=False
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="pool_entries")
    position = models.PositiveSmallIntegerField(default=0)
    reason = models.CharField(_("reason for a manual move"), max_length=300, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["pool_id", "position"]
        verbose_name = _("pool member")
        verbose_name_plural = _("pool members")
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="pool_member_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.pool}"

    def save(self, *args, **kwargs):
        self.round_id = self.pool.round_id
        super().save(*args, **kwargs)


class Challenge(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="challenges")
    number = models.PositiveSmallIntegerField(_("challenge"))
    history = HistoricalRecords()

    class Meta:
        ordering = ["round_id", "number"]
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        constraints = [
            models.CheckConstraint(condition=Q(number__gte=1), name="challenge_number_positive"),
            models.UniqueConstraint(fields=["round", "number"], name="challenge_number_unique"),
        ]

    def __str__(self) -> str:
        return str(_("Challenge %(number)s") % {"number": self.number})


class ChallengeScore(models.Model):
    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="scores")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="challenge_scores")
    imps = models.DecimalField(_("IMPs"), max_digits=10, decimal_places=2)
    history = HistoricalRecords()

    class Meta:
        ordering = ["challenge_id", "player__key"]
        verbose_name = _("challenge score")
        verbose_name_plural = _("challenge scores")
        constraints = [
            models.UniqueConstraint(
                fields=["challenge", "player"], name="challenge_score_once_per_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.imps}"


class StartElo(models.Model):
    """A player's start Elo set for the season (rules.md §5); a player without a row starts at
    the season's setting."""

    entry = models.OneToOneField(
        SeasonPlayer,
        on_delete=models.CASCADE,
        related_name="ladder_start",
        verbose_name=_("season entry"),
    )
    start_elo = models.DecimalField(_("start Elo"), max_digits=12, decimal_places=4)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("start Elo")
        verbose_name_plural = _("start Elos")

    def __str__(self) -> str:
        return f"{related(self, 'entry')}: {self.start_elo}"
