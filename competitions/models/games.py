"""Two-player games and what each player did in a round: shared by chess groups and Keizer.

A round's facts per player are one `RoundEntry` each (unique per round and player), so the
database itself forbids a player in two games of one round, or a game and a bye in one round.
A game is its result plus exactly two entries, one per colour; white and black are read from
the entries, never stored twice.
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .core import Player, Round, related


class Game(models.Model):
    """A game of chess (chess groups, Keizer): its result; the players are its two entries."""

    class Result(models.TextChoices):
        WHITE_WINS = "1-0", "1-0"
        BLACK_WINS = "0-1", "0-1"
        DRAW = "1/2-1/2", "½-½"
        WHITE_FORFEIT_WIN = "+-", "+-"
        BLACK_FORFEIT_WIN = "-+", "-+"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games")
    board = models.PositiveSmallIntegerField(_("board"), default=1)
    result = models.CharField(_("result"), max_length=8, choices=Result.choices, blank=True)
    manual = models.BooleanField(_("manual pair"), default=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["round_id", "board", "id"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.CheckConstraint(condition=Q(board__gte=1), name="game_board_positive"),
            # The target of RoundEntry's composite foreign key (an entry agrees with its game).
            models.UniqueConstraint(fields=["id", "round"], name="game_id_round"),
        ]

    def __str__(self) -> str:
        entries = {e.colour: e.player for e in self.entries.all()}
        white = entries.get(RoundEntry.Colour.WHITE, "?")
        black = entries.get(RoundEntry.Colour.BLACK, "?")
        return f"{white} - {black} {self.result}".strip()


class RoundEntry(models.Model):
    """What one player did in one round: played a game (with a colour), had a bye or a walkover,
    or registered as present, absent with notice, external or absent without notice."""

    class Status(models.TextChoices):
        PLAYED = "played", _("played")
        PRESENT = "present", _("present")
        ABSENT = "absent", _("absent with notice")
        LONG_ABSENT = "long_absent", _("long-term absent")
        EXTERNAL = "external", _("playing externally")
        UNEXCUSED = "unexcused", _("absent without notice")
        BYE = "bye", _("bye")
        WALKOVER = "walkover", _("walkover")

    class Colour(models.TextChoices):
        WHITE = "white", _("white")
        BLACK = "black", _("black")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="round_entries")
    status = models.CharField(_("status"), max_length=16, choices=Status.choices)
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, null=True, blank=True, related_name="entries"
    )
    colour = models.CharField(_("colour"), max_length=5, choices=Colour.choices, blank=True)
    volunteer_bye = models.BooleanField(_("volunteers for the bye"), default=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["round_id", "player__key"]
        verbose_name = _("round entry")
        verbose_name_plural = _("round entries")
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="round_entry_once_per_round"),
            models.UniqueConstraint(
                fields=["game", "colour"],
                condition=Q(game__isnull=False),
                name="round_entry_one_player_per_colour",
            ),
            # A game and a colour exactly when the player played.
            models.CheckConstraint(
                condition=(
                    Q(status="played", game__isnull=False) & ~Q(colour="")
                    | ~Q(status="played") & Q(game__isnull=True, colour="")
                ),
                name="round_entry_game_iff_played",
            ),
        ]

    def __str__(self) -> str:
        return f"{related(self, 'player')}: {self.get_status_display()}"

    @classmethod
    def sides(cls, white: Player, black: Player) -> tuple[tuple[Player, str], tuple[Player, str]]:
        """A game's two players with their colours."""
        return ((white, cls.Colour.WHITE), (black, cls.Colour.BLACK))

    @classmethod
    def played(
        cls, round_: Round, white: Player, black: Player, game: Game | None = None
    ) -> list["RoundEntry"]:
        """The two entries of a game, unsaved: white's and black's, both played."""
        return [
            cls(round=round_, player=p, status=cls.Status.PLAYED, game=game, colour=colour)
            for p, colour in cls.sides(white, black)
        ]
