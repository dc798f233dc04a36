"""Result models of the Othello Grand Prix (rules.md §2): a participant's place and rating."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from competitions.models.core import Player, Tournament


class Placement(models.Model):
    """An Othello tournament participant: final place, country and rating entry."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="placements")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="placements")
    place = models.PositiveSmallIntegerField(_("place"))
    country = models.CharField(_("country"), max_length=2)
    nordic = models.DecimalField(
        _("Nordic rating"), max_digits=8, decimal_places=2, null=True, blank=True
    )
    ffo = models.DecimalField(
        _("FFO rating"), max_digits=8, decimal_places=2, null=True, blank=True
    )
    provisional = models.BooleanField(_("provisional FFO rating"), default=False)
    uncertainty = models.DecimalField(
        _("uncertainty"), max_digits=8, decimal_places=2, null=True, blank=True
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament_id", "place"]
        verbose_name = _("placement")
        verbose_name_plural = _("placements")
        constraints = [
            models.CheckConstraint(condition=Q(place__gte=1), name="placement_place_positive"),
            models.UniqueConstraint(fields=["tournament", "place"], name="placement_place_unique"),
            models.UniqueConstraint(
                fields=["tournament", "player"], name="placement_player_unique"
            ),
            models.CheckConstraint(
                condition=(Q(nordic__isnull=True) | Q(nordic__gte=0))
                & (Q(ffo__isnull=True) | Q(ffo__gte=0))
                & (Q(uncertainty__isnull=True) | Q(uncertainty__gte=0)),
                name="placement_ratings_not_negative",
            ),
            models.CheckConstraint(condition=~Q(country=""), name="placement_country_given"),
        ]

    def __str__(self) -> str:
        return f"{self.place}. {self.player}"
