"""Models of the Keizer competition (rules.md §4). Its results are the shared games and round
entries (competitions.models.games); what is its own is the start points set by hand."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from competitions.models.core import SeasonPlayer, related


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
