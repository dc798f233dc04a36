"""Stored standings of a season, written by each recompute (an update writes only the tables
and lines that came out different: `digest` tells them apart without reading the JSON).

A `StandingsTable` is one table a system shows (a tournament, the yearly ranking, a game's
ranking, ...) with what belongs to the table as a whole in `data` (e.g. a tournament's cap, its
seat results and prize ceremony). Its lines are `StandingsRow`s: one per player, with the rank,
the points and the system's detail at full precision. So a player's results across seasons and
systems are one indexed query, and a page reads only the lines it shows.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from competitions.models import Player, Season


class StandingsTable(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings_tables")
    kind = models.CharField(_("kind"), max_length=32)
    key = models.CharField(_("key"), max_length=200, blank=True)
    position = models.PositiveIntegerField(default=0)
    data = models.JSONField(default=dict)
    # A hash of `data` as written (rankings.services._digest); null if written before.
    digest = models.BigIntegerField(null=True, blank=True, editable=False)
    # A hash of the table's lines as written, in order (rankings.services._lines_digest): a
    # recompute that computes the same lines leaves them without reading them; null if
    # written before.
    lines_digest = models.BigIntegerField(null=True, blank=True, editable=False)

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

    def save(self, *args, **kwargs) -> None:
        # The store writes in bulk with the digest of what it wrote; a table saved one by one
        # (by hand, in a shell) may hold anything, so the next recompute writes it again.
        self.digest = self.lines_digest = None
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "digest", "lines_digest"}
        super().save(*args, **kwargs)


class StandingsRow(models.Model):
    """One line of a standings table, in rank order (`position`)."""

    # No index of their own for `table` and `player`: the two indexes below lead with them and
    # serve every lookup by either; each index more is kept up to date at every line written.
    table = models.ForeignKey(
        StandingsTable, on_delete=models.CASCADE, related_name="rows", db_index=False
    )
    # Copied from the table, so a season's or a player's rows need no join.
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings_rows")
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="standings_rows",
        db_index=False,
    )
    position = models.PositiveIntegerField(default=0)
    rank = models.PositiveIntegerField(_("rank"), null=True, blank=True)
    # For sorting and display; the exact value is in `detail`.
    points = models.FloatField(_("points"), null=True, blank=True)
    detail = models.JSONField(default=dict)
    # A hash of `detail` as written (rankings.services._digest); null if written before.
    digest = models.BigIntegerField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["table_id", "position"]
        verbose_name = _("standings row")
        verbose_name_plural = _("standings rows")
        indexes = [
            models.Index(fields=["player", "season"], name="standings_row_player"),
            models.Index(fields=["table", "position"], name="standings_row_order"),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.rank}"

    def save(self, *args, **kwargs) -> None:
        # As StandingsTable.save: a line saved one by one is written again by the next recompute
        # (and its table's lines compared one by one).
        self.digest = None
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "digest"}
        super().save(*args, **kwargs)
        StandingsTable.objects.filter(pk=self.table_id).update(lines_digest=None)


class StaleScope(models.Model):
    """What changed in a season since its standings were stored: one line per change, with the
    system's scope of it (`SystemSpec.change_scope`, e.g. one tournament), "*" for anything, or
    "earlier" when an earlier season's standings that this season reads changed. A recompute
    reads the lines, updates only what they reach, and deletes them with the new standings."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="stale_scopes")
    scope = models.CharField(max_length=200)

    class Meta:
        verbose_name = _("stale scope")
        verbose_name_plural = _("stale scopes")
        indexes = [models.Index(fields=["season"], name="stale_scope_season")]

    def __str__(self) -> str:
        return f"{self.season} · {self.scope}"
