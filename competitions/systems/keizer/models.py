"""Models of the Keizer competition (rules.md §4). Its results are the shared games and round
entries (competitions.models.games); what is its own is the start points set by hand."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from competitions.models.core import SeasonPlayer, related
from competitions.models.games import RoundEntry


class StartPoints(models.Model):
    """Start points set by hand for a player on the season's list (rules.md §4.1), e.g. a late
    entrant's; a player without a row starts with the value of their place."""

    entry = models.OneToOneField(
        SeasonPlayer,
        on_delete=models.CASCADE,
        related_name="keizer_start",
        verbose_name=_("season entry"),
    )
    start_points = models.DecimalField(_("start points"), max_digits=12, decimal_places=4)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("start points")
        verbose_name_plural = _("start points")

    def __str__(self) -> str:
        return f"{related(self, 'entry')}: {self.start_points}"


class Withdrawal(models.Model):
    """A player who has withdrawn from the season (keizer-variants.md §2.8): never paired; with
    the setting `withdrawn_credit` on no list, and games against him credited."""

    entry = models.OneToOneField(
        SeasonPlayer,
        on_delete=models.CASCADE,
        related_name="keizer_withdrawal",
        verbose_name=_("season entry"),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("withdrawal")
        verbose_name_plural = _("withdrawals")

    def __str__(self) -> str:
        return f"{related(self, 'entry')}: {_('withdrawn')}"


class ExternalResult(models.Model):
    """The result of a player's external game (keizer-variants.md §2.5): his own result, for a
    round entry with the status external."""

    class Result(models.TextChoices):
        WIN = "1", _("won")
        DRAW = "1/2", _("drew")
        LOSS = "0", _("lost")

    entry = models.OneToOneField(
        RoundEntry,
        on_delete=models.CASCADE,
        related_name="keizer_external",
        verbose_name=_("round entry"),
    )
    result = models.CharField(_("external result"), max_length=3, choices=Result.choices)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("external result")
        verbose_name_plural = _("external results")

    def __str__(self) -> str:
        return f"{related(self, 'entry')}: {self.result}"
