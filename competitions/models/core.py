"""The shared competition data: series, seasons, clubs, players, tournaments, groups and rounds.

Every system uses these, and they name no system. What a system adds (its results, what it
keeps per season, entry or tournament) stands in its own module,
`competitions/systems/<name>/models.py`, or, for the two-player games that more than one system
plays, in `games.py`. Standings are never stored here; they live in `rankings`.
"""

import re
import secrets

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import F, Q
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from competitions.reserved import generated_key, is_reserved, validate_not_reserved

# A stable id (a player's, a club's, a tournament's) stands in URLs and file names.
KEY_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
key_validator = RegexValidator(
    KEY_PATTERN,
    _("Use letters, digits, '.', '-' and '_' (at most 64, starting with a letter or digit)."),
)


def related(obj, name: str) -> str:
    """str() of a related object, or its id when it is gone: a history row may outlive the
    rows it points to (a table deleted with its round by an import), and its page must show."""
    try:
        return str(getattr(obj, name))
    except ObjectDoesNotExist:
        return f"#{getattr(obj, name + '_id')}"


def new_draw_seed() -> int:
    return secrets.randbelow(2**31)


def system_choices() -> list[tuple[str, str]]:
    """The registered competition systems (competitions.registry), for Series.system."""
    from competitions.registry import all_systems

    return [(spec.key, spec.name) for spec in all_systems()]


class Series(models.Model):
    """A long-lived competition (a tour of tournaments, a Grand Prix, a club competition)."""

    slug = models.SlugField(
        _("slug"), max_length=64, unique=True, validators=[validate_not_reserved]
    )
    name = models.CharField(_("name"), max_length=200)
    system = models.CharField(_("system"), max_length=32, choices=system_choices)
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
        permissions = [("manage_all_series", _("Can manage every series on the manager pages"))]

    def __str__(self) -> str:
        return self.name

    def is_manager(self, user) -> bool:
        """Whether the user may change this series on the manager pages: one of its managers,
        or someone given the permission to manage every series. Being staff is not enough."""
        if not user.is_authenticated or not user.is_active:
            return False
        if user.has_perm("competitions.manage_all_series"):
            return True
        return self.managers.filter(pk=user.pk).exists()


class Club(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="clubs")
    key = models.CharField(
        _("id"), max_length=64, validators=[key_validator], help_text=_("Stable id used in files.")
    )
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
    """A person in one series; `key` is the stable id that files of the series use.

    The birth year is a fact of the person and is kept here only. A country, where a system
    records one, is stored with each tournament result, as the files give it.
    """

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="players")
    key = models.CharField(
        _("id"), max_length=64, validators=[key_validator], help_text=_("Stable id used in files.")
    )
    name = models.CharField(_("name"), max_length=200)
    club = models.ForeignKey(
        Club,
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("club"),
    )
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


def season_slug(label: str) -> str:
    """The URL form of a season label: `2026/27` -> `2026-27`, `Été 2025` -> `ete-2025`."""
    return slugify(re.sub(r"[\W_]+", "-", label)).strip("-")[:40] or "season"


class Season(models.Model):
    """One season of a series; `settings` holds only what differs from the rules' defaults."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="seasons")
    label = models.CharField(_("season"), max_length=32, help_text=_("A year or a label."))
    slug = models.SlugField(_("slug"), max_length=48, editable=False)
    name = models.CharField(_("name"), max_length=200)
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    closed = models.BooleanField(_("closed"), default=False)
    # Recompute bookkeeping: results bump data_version; the task for a version is sent once
    # (enqueued_version); a recompute stores the version it read (standings_version).
    data_version = models.PositiveBigIntegerField(default=1, editable=False)
    enqueued_version = models.PositiveBigIntegerField(default=0, editable=False)
    standings_version = models.PositiveBigIntegerField(default=0, editable=False)
    standings_computed_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Since when the stored standings lag behind the results, and why the last attempt to bring
    # them up to date failed (the queue unreachable, a recompute error); shown to managers.
    stale_since = models.DateTimeField(null=True, blank=True, editable=False)
    recompute_error = models.TextField(blank=True, editable=False)
    # A digest of what later seasons read of this season's standings (Standings.carry): when a
    # recompute changes it, the later seasons that read this one are recomputed too.
    standings_carry = models.CharField(max_length=64, blank=True, editable=False)
    history = HistoricalRecords(
        excluded_fields=[
            "data_version",
            "enqueued_version",
            "standings_version",
            "standings_computed_at",
            "stale_since",
            "recompute_error",
            "standings_carry",
        ]
    )

    class Meta:
        ordering = ["series_id", "-label"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.UniqueConstraint(fields=["series", "label"], name="season_label_unique"),
            models.UniqueConstraint(fields=["series", "slug"], name="season_slug_unique"),
        ]

    def __str__(self) -> str:
        return self.name or f"{self.series} {self.label}"

    def save(self, *args, **kwargs):
        if not self.slug:
            self.slug = unique_season_slug(self.series_id, self.label, exclude=self.pk)
        super().save(*args, **kwargs)

    @property
    def system(self) -> str:
        return self.series.system

    @property
    def stale(self) -> bool:
        """Results changed since the stored standings were computed."""
        return self.standings_version < self.data_version


def unique_season_slug(series_id: int, label: str, *, exclude: int | None = None) -> str:
    """The season's slug: its label's, neither taken in the series nor one of the site's words
    (competitions.reserved: /<series>/players/ is the players' index), which get "-season"."""
    base = season_slug(label)
    if is_reserved(base):
        base = f"{base}-season"
    others = Season.objects.filter(series_id=series_id).exclude(pk=exclude)
    taken = set(others.values_list("slug", flat=True))
    return generated_key(base, taken)


class SeasonPlayer(models.Model):
    """A player's entry in a season: file order and club. What a system keeps per entry (start
    points, a start rating) is in its own models, one-to-one with the entry."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="entries")
    position = models.PositiveIntegerField(_("position"), default=0)
    # The club the player represented in this season (clubs change between seasons).
    club = models.ForeignKey(
        Club,
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("club"),
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
        return f"{related(self, 'player')} @ {related(self, 'season')}"


def tournament_order(path: str) -> list:
    """The order a season lists its tournaments in (Tournament.Meta: the dated ones by date,
    the undated last, then by key), for rows reached through `path` (e.g. "round__tournament"):
    one query of a season's results in its tournaments' order."""
    return [F(f"{path}__date").asc(nulls_last=True), f"{path}__key", f"{path}_id"]


class Tournament(models.Model):
    """A tournament or event day of a season.

    `options` holds the flags a system defines for its tournaments (e.g. a county championship),
    validated by the system's `tournament_options`; `draw_seed` seeds any lot a system draws
    (a prize ceremony's order, a first round's pairing). What else a system keeps per
    tournament is in its own models.
    """

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="tournaments")
    key = models.CharField(
        _("id"), max_length=64, validators=[key_validator, validate_not_reserved]
    )
    name = models.CharField(_("name"), max_length=200)
    date = models.DateField(_("date"), null=True, blank=True)
    options = models.JSONField(_("options"), default=dict, blank=True)
    draw_seed = models.BigIntegerField(
        _("lot draw seed"),
        default=new_draw_seed,
        help_text=_("Seed of the tournament's lot draw; change it only to re-draw."),
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["season_id", F("date").asc(nulls_last=True), "key"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.UniqueConstraint(fields=["season", "key"], name="tournament_key_unique"),
            # The target of Round's composite foreign key (a round agrees with its season).
            models.UniqueConstraint(fields=["id", "season"], name="tournament_id_season"),
        ]

    def __str__(self) -> str:
        return self.name


class Group(models.Model):
    """A group (section) of a tournament, with its own table.

    `options` holds what a system lets a group set for itself (e.g. a group's own
    tie-break list), validated by that system, as `Tournament.options`."""

    class Scale(models.TextChoices):
        ONE_HALF_ZERO = "1-half-0", "1-½-0"
        THREE_TWO_ONE = "3-2-1", "3-2-1"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="groups")
    name = models.CharField(_("name"), max_length=100)
    position = models.PositiveSmallIntegerField(default=0)
    scale = models.CharField(
        _("points scale"), max_length=8, choices=Scale.choices, default=Scale.ONE_HALF_ZERO
    )
    options = models.JSONField(_("options"), default=dict, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament_id", "position", "name"]
        verbose_name = _("group")
        verbose_name_plural = _("groups")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="group_name_unique"),
            # The target of Round's composite foreign key (a round agrees with its tournament).
            models.UniqueConstraint(fields=["id", "tournament"], name="group_id_tournament"),
        ]

    def __str__(self) -> str:
        return self.name


class Round(models.Model):
    """A round of a tournament, of a tournament's group, or of a season (a system without
    tournaments).

    `season` is kept on every round so a season's results load in one query; the database makes
    it agree with the tournament, and the tournament with the group (composite foreign keys on
    PostgreSQL, triggers on SQLite: see `competitions/consistency.py`).
    """

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
            models.CheckConstraint(
                condition=Q(group__isnull=True) | Q(tournament__isnull=False),
                name="round_group_has_tournament",
            ),
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
