"""Models of the board-game circuit (rules.md §1): tables with ranks, imported totals, the
season's final tournament and the previous season's participant counts."""

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from competitions.models.core import Player, Round, Season, Tournament, related


class HistoricTotal(models.Model):
    """An imported yearly total of a season that is not in the system (board game, LUDO)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="historic_totals")
    label = models.CharField(_("season"), max_length=32)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="historic_totals")
    # A float keeps a file's JSON number exactly (on SQLite too); the engine reads its shortest
    # decimal form, so 812.4 counts as exactly 812.4. Tournament points are never negative
    # (rules.md §1.1-1.2), so neither is a yearly total.
    points = models.FloatField(_("points"), validators=[MinValueValidator(0)])
    history = HistoricalRecords()

    class Meta:
        ordering = ["season_id", "label", "player__key"]
        verbose_name = _("imported yearly total")
        verbose_name_plural = _("imported yearly totals")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "label", "player"], name="historic_total_unique"
            ),
            models.CheckConstraint(condition=Q(points__gte=0), name="historic_total_not_negative"),
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


class FinalTournament(models.Model):
    """The season's final tournament (rules.md §1.3): it counts beside the best regular ones
    and not for the per-game ranking. A season has at most one (its row is unique); the
    database keeps `season` equal to the tournament's (`LINKS`, competitions/consistency.py)."""

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="circuit_final")
    tournament = models.OneToOneField(
        Tournament,
        on_delete=models.CASCADE,
        related_name="circuit_final",
        verbose_name=_("final tournament"),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("final tournament")
        verbose_name_plural = _("final tournaments")

    def __str__(self) -> str:
        return related(self, "tournament")

    def clean(self) -> None:
        if self.tournament_id is not None and self.season_id is not None:
            if self.tournament.season_id != self.season_id:
                raise ValidationError(
                    {"tournament": _("This tournament belongs to another season.")}
                )


class PreviousParticipants(models.Model):
    """The participants per tournament of the season before, for the cap (rules.md §1.2) when
    that season is not stored."""

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="circuit_previous")
    previous_participants = models.JSONField(
        _("participants per tournament of the previous season"),
        help_text=_("Only used for the cap when the previous season is not stored."),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("previous season's participants")
        verbose_name_plural = _("previous season's participants")

    def __str__(self) -> str:
        return ", ".join(str(count) for count in self.previous_participants)

    def clean(self) -> None:
        if not (
            isinstance(self.previous_participants, list)
            and self.previous_participants
            and all(type(count) is int and count >= 1 for count in self.previous_participants)
        ):
            raise ValidationError(
                {"previous_participants": _("A list of whole numbers, each at least 1.")}
            )


# Copied keys the database keeps in agreement (the form of competitions.consistency.LINKS).
LINKS = (
    (
        "final_tournament_season_agrees",
        "competitions_finaltournament",
        ("tournament_id", "season_id"),
        "competitions_tournament",
        ("id", "season_id"),
    ),
)
