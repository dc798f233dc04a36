"""A merge of two players of a series, kept so staff can undo it (competitions.merging)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .core import Player, Series


class PlayerMerge(models.Model):
    """A duplicate player merged into the kept one: the duplicate as it was, the rows that
    moved to the kept player (by model and id) and the duplicate's season entries that were
    removed because the kept player had one in that season. Undoing puts exactly those back."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="player_merges")
    # No database constraint: the kept player may be merged in turn (deleted), and come back
    # with the same id when that merge is undone; this merge can be undone again then.
    kept = models.ForeignKey(
        Player,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
        verbose_name=_("kept player"),
    )
    kept_name = models.CharField(_("kept player"), max_length=200)
    # The duplicate as it was (it is deleted): its id, key, name, club and birth year.
    duplicate_id = models.BigIntegerField()
    duplicate_key = models.CharField(_("id of the duplicate"), max_length=64)
    duplicate_name = models.CharField(_("duplicate"), max_length=200)
    duplicate_club_id = models.BigIntegerField(null=True)
    duplicate_born = models.PositiveSmallIntegerField(null=True)
    # {"app_label.model": [row ids]}: the rows moved to the kept player.
    moved = models.JSONField(default=dict)
    # The duplicate's season entries removed (the kept player had one): their stored fields.
    removed_entries = models.JSONField(default=list)
    season_ids = models.JSONField(default=list)
    merged_at = models.DateTimeField(_("merged at"), auto_now_add=True)
    merged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("merged by"),
    )
    undone_at = models.DateTimeField(_("undone at"), null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("undone by"),
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["-merged_at", "-id"]
        verbose_name = _("player merge")
        verbose_name_plural = _("player merges")

    def __str__(self) -> str:
        return _("%(duplicate)s merged into %(kept)s") % {
            "duplicate": self.duplicate_name,
            "kept": self.kept_name,
        }

    @property
    def moved_count(self) -> int:
        return sum(len(ids) for ids in self.moved.values())
