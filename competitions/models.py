"""The competition data of all five systems: who played what, and with which result.

Shared by every system: series, seasons, clubs, players, tournaments and rounds. Each system adds
its own result models (tables with ranks, games with colours, placements, pools with IMPs,
attendance). Standings are never stored here; they live in `rankings`.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords


def new_draw_seed() -> int:
    return secrets.randbelow(2**31)


class System(models.TextChoices):
    BOARDGAME = "boardgame-circuit", _("Board-game circuit")
    OTHELLO = "othello-gp", _("Othello Grand Prix")
    CHESS = "chess-bgp", _("Chess groups and BGP points")
    KEIZER = "keizer", _("Keizer club competition")
    BRIDGE = "bridge-ladder", _("Bridge pool ladder")


class Series(models.Model):
    """A long-lived competition (a circuit, a Grand Prix, a club competition)."""

    slug = models.SlugField(_("slug"), max_length=64, unique=True)
    name = models.CharField(_("name"), max_length=200)
    system = models.CharField(_("system"), max_length=32, choices=System.choices)
    managers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="managed_series",
        verbose_name=_("competition managers"),
    )
    history = HistoricalRecords(m2m_fields=[managers])

    class Meta:
        ordering = ["name"]
        verbose_name = _("series")
        verbose_name_plural = _("series")

    def __str__(self) -> str:
        return self.name

    def is_manager(self, user) -> bool:
        if not user.is_authenticated:
            return False
        if user.is_staff:
            return True
        return self.managers.filter(pk=user.pk).exists()


class Club(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="clubs")
    key = models.CharField(_("id"), max_length=64, help_text=_("Stable id used in files."))
    name = models.CharField(_("name"), max_length=200)
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [
            models.UniqueConstraint(fields=["series", "key"], name="club_key_unique_in_series"),
        ]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A person in one series; `key` is the stable id that files of the series use."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="players")
    key = models.CharField(_("id"), max_length=64, help_text=_("Stable id used in files."))
    name = models.CharField(_("name"), max_length=200)
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("club"),
    )
    country = models.CharField(_("country"), max_length=2, blank=True)
    born = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["name", "key"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["series", "key"], name="player_key_unique_in_series"),
        ]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    """One season of a series; `settings` holds only what differs from the rules' defaults."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="seasons")
    label = models.CharField(_("season"), max_length=32, help_text=_("A year or a label."))
    name = models.CharField(_("name"), max_length=200)
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    previous_participants = models.JSONField(
        _("participants per tournament of the previous season"),
        default=list,
        blank=True,
        help_text=_("Only used for the cap when the previous season is not stored."),
    )
    closed = models.BooleanField(_("closed"), default=False)
    # Recompute bookkeeping: results bump data_version; a recompute stores the version it read.
    data_version = models.PositiveBigIntegerField(default=1, editable=False)
    standings_version = models.PositiveBigIntegerField(default=0, editable=False)
    standings_computed_at = models.DateTimeField(null=True, blank=True, editable=False)
    history = HistoricalRecords(
        excluded_fields=["data_version", "standings_version", "standings_computed_at"]
    )

    class Meta:
        ordering = ["series_id", "-label"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.UniqueConstraint(fields=["series", "label"], name="season_label_unique"),
        ]

    def __str__(self) -> str:
        return self.name or f"{self.series} {self.label}"

    @property
    def system(self) -> str:
        return self.series.system

    @property
    def recomputing(self) -> bool:
        return self.standings_version < self.data_version


class SeasonPlayer(models.Model):
    """A player's entry in a season: file order, start points (Keizer), start Elo (bridge)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="entries")
    position = models.PositiveIntegerField(_("position"), default=0)
    # The club the player represented in this season (clubs change between seasons).
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("club"),
    )
    start_points = models.DecimalField(
        _("start points"), max_digits=12, decimal_places=4, null=True, blank=True
    )
    start_elo = models.DecimalField(
        _("start Elo"), max_digits=12, decimal_places=4, null=True, blank=True
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["season_id", "position", "player__key"]
        verbose_name = _("season entry")
        verbose_name_plural = _("season entries")
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="season_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.season}"


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
        return f"{self.player} {self.label}: {self.points}"


class Tournament(models.Model):
    """A tournament or event day of a season (board game, Othello, chess)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="tournaments")
    key = models.CharField(_("id"), max_length=64)
    name = models.CharField(_("name"), max_length=200)
    date = models.DateField(_("date"), null=True, blank=True)
    final = models.BooleanField(_("final tournament"), default=False)
    county_championship = models.BooleanField(_("county championship"), default=False)
    draw_seed = models.BigIntegerField(
        _("lot draw seed"),
        default=new_draw_seed,
        help_text=_("Seed of the prize ceremony's lot draw; change it only to re-draw."),
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["season_id", F("date").asc(nulls_last=True), "key"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.UniqueConstraint(fields=["season", "key"], name="tournament_key_unique"),
            models.UniqueConstraint(
                fields=["season"], condition=Q(final=True), name="one_final_per_season"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Group(models.Model):
    """A chess group of a tournament (crosstable)."""

    class Scale(models.TextChoices):
        ONE_HALF_ZERO = "1-half-0", "1-½-0"
        THREE_TWO_ONE = "3-2-1", "3-2-1"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="groups")
    name = models.CharField(_("name"), max_length=100)
    position = models.PositiveSmallIntegerField(default=0)
    scale = models.CharField(
        _("points scale"), max_length=8, choices=Scale.choices, default=Scale.ONE_HALF_ZERO
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament_id", "position", "name"]
        verbose_name = _("group")
        verbose_name_plural = _("groups")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="group_name_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class GroupPlayer(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="group_entries")
    position = models.PositiveSmallIntegerField(default=0)
    player_class = models.CharField(_("class"), max_length=50, blank=True)
    born = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["group_id", "position"]
        verbose_name = _("group player")
        verbose_name_plural = _("group players")
        constraints = [
            models.UniqueConstraint(fields=["group", "player"], name="group_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.group}"


class Round(models.Model):
    """A round of a tournament (board game), of a chess group, or of a season (Keizer, bridge)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="rounds")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="rounds"
    )
    group = models.ForeignKey(
        Group, on_delete=models.CASCADE, null=True, blank=True, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField(_("round"))
    date = models.DateField(_("date"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["season_id", "tournament_id", "group_id", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.UniqueConstraint(
                fields=["tournament", "number"],
                condition=Q(tournament__isnull=False, group__isnull=True),
                name="round_number_unique_in_tournament",
            ),
            models.UniqueConstraint(
                fields=["group", "number"],
                condition=Q(group__isnull=False),
                name="round_number_unique_in_group",
            ),
            models.UniqueConstraint(
                fields=["season", "number"],
                condition=Q(tournament__isnull=True, group__isnull=True),
                name="round_number_unique_in_season",
            ),
        ]

    def __str__(self) -> str:
        return str(_("Round %(number)s") % {"number": self.number})


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
        return f"{self.round} · {_('table')} {self.number} · {self.game}"


class Seat(models.Model):
    """A player's finishing rank at a board-game table (1 = best; equal ranks are a tie)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # Copied from the table so the database itself forbids a player twice in one round.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats", editable=False)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
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
        return f"{self.player}: {self.rank}"

    def save(self, *args, **kwargs):
        self.round_id = self.table.round_id
        super().save(*args, **kwargs)


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
        ]

    def __str__(self) -> str:
        return f"{self.place}. {self.player}"


class Game(models.Model):
    """A chess game (chess groups, Keizer): white, black and the result."""

    class Result(models.TextChoices):
        WHITE_WINS = "1-0", "1-0"
        BLACK_WINS = "0-1", "0-1"
        DRAW = "1/2-1/2", "½-½"
        WHITE_FORFEIT_WIN = "+-", "+-"
        BLACK_FORFEIT_WIN = "-+", "-+"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games")
    white = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="games_white")
    black = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="games_black")
    result = models.CharField(_("result"), max_length=8, choices=Result.choices, blank=True)
    manual = models.BooleanField(_("manual pair"), default=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["round_id", "id"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.CheckConstraint(condition=~Q(white=F("black")), name="game_two_players"),
            models.UniqueConstraint(fields=["round", "white"], name="game_white_once_per_round"),
            models.UniqueConstraint(fields=["round", "black"], name="game_black_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.white} - {self.black} {self.result}"


class Attendance(models.Model):
    """What a player did in a round without a game: Keizer registrations, byes, walkovers."""

    class Status(models.TextChoices):
        PRESENT = "present", _("present")
        ABSENT = "absent", _("absent with notice")
        EXTERNAL = "external", _("playing externally")
        UNEXCUSED = "unexcused", _("absent without notice")
        BYE = "bye", _("bye")
        WALKOVER = "walkover", _("walkover")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="attendance")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="attendance")
    status = models.CharField(_("status"), max_length=16, choices=Status.choices)
    volunteer_bye = models.BooleanField(_("volunteers for the bye"), default=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["round_id", "player__key"]
        verbose_name = _("attendance")
        verbose_name_plural = _("attendance")
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="attendance_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.get_status_display()}"


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
