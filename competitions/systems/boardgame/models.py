"""Result models of the board-game circuit (rules.md §1): tables with ranks, imported totals."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from competitions.models.core import Player, Round, Season, related


class HistoricTotal(models.Model):
    """An imported yearly total of a season that is not in the system (board game, LUDO)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="historic_totals")
    label = models.CharField(_("season"), max_length=32)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="historic_totals")
    # A float keeps a file's JSON number exactly (on SQLite too); the engine reads its shortest
    # decimal form, so 812.4 counts as exactly 812.4.
    points = models.FloatField(_("points"))
    history = HistoricalRecords()

    class Meta:
        ordering = ["season_id", "label", "player__key"]
        verbose_name = _("imported yearly total")
        verbose_name_plural = _("imported yearly totals")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "label", "player"], name="historic_total_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{related(self, 'player')} {self.label}: {self.points}"


class Table(models.Model):
    """A board-game table: one game title, 2 or more seated players."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    game = models.CharField(_("game"), max_length=100)
    history = HistoricalRecords()

    class Meta:
        ordering = ["round_id", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=~Q(game=""), name="table_game_not_empty"),
        ]

    def __str__(self) -> str:
        table = _("table")  # outside the f-string, where makemessages finds it
        return f"{related(self, 'round')} · {table} {self.number} · {self.game}"


class Seat(models.Model):
    """A player's finishing rank at a board-game table (1 = best; equal ranks are a tie)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # Copied from the table so the database itself forbids a player twice in one round.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats", editable=False)
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="seats")
    rank = models.PositiveSmallIntegerField(_("rank"))
    history = HistoricalRecords()

    class Meta:
        ordering = ["table_id", "rank", "player__key"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.CheckConstraint(condition=Q(rank__gte=1), name="seat_rank_positive"),
            models.UniqueConstraint(fields=["table", "player"], name="seat_player_unique_at_table"),
            models.UniqueConstraint(fields=["round", "player"], name="seat_player_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{related(self, 'player')}: {self.rank}"

    def save(self, *args, **kwargs):
        self.round_id = self.table.round_id
        super().save(*args, **kwargs)
