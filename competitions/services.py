"""Write paths for result entry: one transaction each, validated, keyword-only arguments."""

from collections.abc import Sequence
from datetime import date

from django.core.exceptions import ValidationError
from django.db.models import Max
from django.utils.text import slugify
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from .models import (
    Club,
    Player,
    Season,
    SeasonPlayer,
    Series,
    Tournament,
    new_draw_seed,
)
from .registry import get_system


def _unique_key(base: str, taken: set[str], fallback: str) -> str:
    base = slugify(base)[:56] or fallback
    key, n = base, 2
    while key in taken:
        key, n = f"{base}-{n}", n + 1
    return key


def season_create(*, series: Series, label: str, name: str = "") -> Season:
    label = label.strip()
    if Season.objects.filter(series=series, label=label).exists():
        raise ValidationError({"label": _("Season %(label)s already exists.") % {"label": label}})
    return Season.objects.create(
        series=series, label=label, name=name.strip() or f"{series.name} {label}"
    )


def season_settings_update(*, season: Season, settings: dict) -> Season:
    errors = get_system(season.system).settings.validate(settings)
    if errors:
        raise ValidationError(
            [f"{path}: {message}" if path else message for path, message in errors]
        )
    season.settings = settings
    season.save(update_fields=["settings"])
    return season


def club_create(*, series: Series, name: str) -> Club:
    taken = set(series.clubs.values_list("key", flat=True))
    return Club.objects.create(
        series=series, name=name.strip(), key=_unique_key(name, taken, "club")
    )


def player_create(*, series: Series, name: str, club: Club | None) -> Player:
    if club is not None and club.series_id != series.pk:
        raise ValidationError({"club": _("That club belongs to another series.")})
    taken = set(series.players.values_list("key", flat=True))
    return Player.objects.create(
        series=series, name=name.strip(), club=club, key=_unique_key(name, taken, "player")
    )


def tournament_create(
    *, season: Season, name: str, date: date | None, final: bool = False
) -> Tournament:
    if final and season.tournaments.filter(final=True).exists():
        raise ValidationError({"final": _("This season already has a final tournament.")})
    taken = set(season.tournaments.values_list("key", flat=True))
    base = f"{name}-{date.isoformat()}" if date else name
    return Tournament.objects.create(
        season=season,
        name=name.strip(),
        date=date,
        final=final,
        key=_unique_key(base, taken, "tournament"),
    )


def tournament_update(
    *, tournament: Tournament, name: str, date: date | None, final: bool
) -> Tournament:
    if (
        final
        and tournament.season.tournaments.filter(final=True).exclude(pk=tournament.pk).exists()
    ):
        raise ValidationError({"final": _("This season already has a final tournament.")})
    tournament.name, tournament.date, tournament.final = name.strip(), date, final
    tournament.save()
    return tournament


def tournament_redraw(*, tournament: Tournament) -> int:
    """A new lot draw for the prize ceremony: an explicit administrator action (rules.md §1.2)."""
    previous = tournament.draw_seed
    seed = new_draw_seed()
    while seed == previous:
        seed = new_draw_seed()
    tournament.draw_seed = seed
    tournament.save(update_fields=["draw_seed"])
    return seed


def season_entries_ensure(*, season: Season, players: Sequence[Player]) -> None:
    """Give each player without an entry in the season one, after the last one."""
    known = set(season.entries.filter(player__in=players).values_list("player_id", flat=True))
    last = season.entries.aggregate(m=Max("position"))["m"] or 0
    new = [
        SeasonPlayer(season=season, player=p, club_id=p.club_id, position=last + i + 1)
        for i, p in enumerate(p for p in players if p.pk not in known)
    ]
    bulk_create_with_history(new, SeasonPlayer)
