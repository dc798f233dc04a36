"""Stored standings: one row per standings table of a season, replaced in full by a recompute."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from competitions.models import Season


class StandingsTable(models.Model):
    """One computed table (a tournament, the yearly ranking, a game's ranking, ...).

    `data` holds the rows at full precision in the shape of interchange.md, plus what the pages
    show besides (names are looked up at display time, so a renamed player needs no recompute).
    """

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings_tables")
    kind = models.CharField(_("kind"), max_length=32)
    key = models.CharField(_("key"), max_length=200, blank=True)
    position = models.PositiveIntegerField(default=0)
    data = models.JSONField(default=dict)

    class Meta:
        ordering = ["season_id", "kind", "position"]
        verbose_name = _("standings table")
        verbose_name_plural = _("standings tables")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "kind", "key"], name="standings_table_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.season} · {self.kind} {self.key}".strip()
