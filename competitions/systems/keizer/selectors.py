"""Read paths of the Keizer manager pages: the evenings with their state, an evening's games."""

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, F, Q

from competitions.models import Game, Round, RoundEntry, Season, SeasonPlayer
from competitions.text import name_order

from .settings import parse_settings, value_warnings

Status = RoundEntry.Status

ATTENDANCE_TAKEN, PAIRED, COMPLETE, EMPTY = "attendance", "paired", "complete", "empty"


@dataclass
class Evening:
    round: Round
    counts: Counter = field(default_factory=Counter)
    games: int = 0
    missing: int = 0  # games without a result

    @property
    def number(self) -> int:
        return self.round.number

    @property
    def state(self) -> str:
        if not self.counts:
            return EMPTY
        if self.counts[Status.PRESENT]:
            return ATTENDANCE_TAKEN
        if self.missing:
            return PAIRED
        return COMPLETE

    @property
    def present(self) -> int:
        return self.counts[Status.PRESENT] + self.counts[Status.PLAYED] + self.counts[Status.BYE]


def evenings(season: Season) -> list[Evening]:
    """The season's evenings in order, with their attendance counts and state (3 queries)."""
    rounds = {
        r.pk: Evening(round=r)
        for r in Round.objects.filter(season=season, tournament=None, group=None).order_by("number")
    }
    counts = (
        RoundEntry.objects.filter(round_id__in=list(rounds))
        .values_list("round_id", "status")
        .annotate(n=Count("id"))
        .order_by()
    )
    for round_id, status, n in counts:
        rounds[round_id].counts[status] = n
    games = (
        Game.objects.filter(round_id__in=list(rounds))
        .values("round_id")
        .annotate(n=Count("id"), missing=Count("id", filter=Q(result="")))
        .order_by()
    )
    for row in games:
        rounds[row["round_id"]].games = row["n"]
        rounds[row["round_id"]].missing = row["missing"]
    return list(rounds.values())


def list_entries(season: Season) -> list[SeasonPlayer]:
    """The season's list (initial order) with players and clubs, and each entry's start points
    set by hand (`start_points`, None: the value of the place)."""
    return list(
        season.entries.select_related("player", "club")
        .annotate(start_points=F("keizer_start__start_points"))
        .order_by("position", "player__name")
    )


@dataclass
class Board:
    game: Game
    white: object = None
    black: object = None


def boards(round_: Round) -> list[Board]:
    """An evening's games by board, with both players (2 queries)."""
    games = {g.pk: Board(game=g) for g in round_.games.order_by("board", "id")}
    for entry in RoundEntry.objects.filter(game_id__in=list(games)).select_related("player"):
        setattr(games[entry.game_id], entry.colour, entry.player)
    return list(games.values())


def round_lists(round_: Round) -> dict[str, list]:
    """An evening's players without a game, by status, in name order (1 query)."""
    lists: dict[str, list] = defaultdict(list)
    entries = round_.entries.exclude(status=Status.PLAYED).select_related("player").order_by()
    for entry in sorted(entries, key=lambda e: name_order(e.player.name, e.player.key)):
        lists[entry.status].append(entry)
    return lists


def settings_warnings(season: Season, raw: dict) -> list[str]:
    """Warnings about settings `raw` (valid) for the season's list (SettingsSpec.warnings):
    the values reaching 0 or less (keizer-variants.md §7 item 8) for the players on it (with
    `withdrawn_credit` set, the withdrawn are on no list)."""
    settings = parse_settings(raw)
    entries = SeasonPlayer.objects.filter(season=season)
    if settings.withdrawn_credit is not None:
        entries = entries.filter(keizer_withdrawal__isnull=True)
    return value_warnings(entries.count(), settings)
