"""Write paths for result entry: one transaction each, validated, keyword-only arguments."""

import logging
import time
from collections.abc import Callable, Sequence
from datetime import date
from typing import TypeVar

from django.core.exceptions import ValidationError
from django.db import OperationalError, transaction
from django.db.models import Max, ProtectedError, RestrictedError
from django.db.models.deletion import Collector
from django.utils import timezone
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
    unique_season_slug,
)
from .registry import get_system
from .reserved import generated_key
from .text import isolated_text

logger = logging.getLogger(__name__)
T = TypeVar("T")

# What two writers at once can run into; the transaction is retried.
CONFLICTS = ("deadlock detected", "could not serialize", "database is locked", "table is locked")


def is_conflict(error: OperationalError) -> bool:
    return any(text in str(error).lower() for text in CONFLICTS)


def retry_on_conflict(write: Callable[[], T], *, attempts: int = 4) -> T:
    """Run a write (one transaction) again when it lost a deadlock or waited too long for a
    lock; after the last attempt the user is told, with nothing stored, instead of a 500."""
    for attempt in range(1, attempts + 1):
        try:
            return write()
        except OperationalError as exc:
            if not is_conflict(exc):
                raise
            logger.warning("write conflict (attempt %s of %s): %s", attempt, attempts, exc)
            if attempt == attempts:
                raise ValidationError(
                    _(
                        "The database was busy with other changes; nothing was saved. "
                        "Please try again."
                    )
                ) from exc
            time.sleep(0.05 * 2**attempt)
    raise AssertionError("unreachable")


def changed_by_message(records) -> str:
    """ "Changed by X at T — reload": from the newest of some history records."""
    newest = max(records, key=lambda r: r.history_date, default=None)
    if newest is None:
        return _("Somebody else changed this meanwhile; nothing was saved. Reload to see it.")
    who = newest.history_user.get_username() if newest.history_user else _("someone")
    when = timezone.localtime(newest.history_date).strftime("%H:%M:%S")
    return _(
        "This was changed by %(user)s at %(time)s since you opened it; nothing was saved. "
        "Reload to see the change."
    ) % {"user": who, "time": when}


def _unique_key(base: str, taken: set[str], fallback: str) -> str:
    """An id made from a name: its slug, neither taken nor one of the site's words
    (competitions.reserved: a tournament called "New" does not get the id `new`)."""
    return generated_key(slugify(base)[:56] or fallback, taken)


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


def tournament_create(*, season: Season, name: str, date: date | None) -> Tournament:
    taken = set(season.tournaments.values_list("key", flat=True))
    base = f"{name}-{date.isoformat()}" if date else name
    return Tournament.objects.create(
        season=season,
        name=name.strip(),
        date=date,
        key=_unique_key(base, taken, "tournament"),
    )


def tournament_update(*, tournament: Tournament, name: str, date: date | None) -> Tournament:
    tournament.name, tournament.date = name.strip(), date
    tournament.save()
    return tournament


def tournament_redraw(*, tournament: Tournament) -> int:
    """A new seed for the tournament's lot draw: an explicit administrator action."""
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
    missing = [p for p in players if p.pk not in known]
    if not missing:
        return  # everyone has an entry (a correction, as a rule): nothing more to read
    last = season.entries.aggregate(m=Max("position"))["m"] or 0
    new = [
        SeasonPlayer(season=season, player=p, club_id=p.club_id, position=last + i + 1)
        for i, p in enumerate(missing)
    ]
    bulk_create_with_history(new, SeasonPlayer)


def season_update(*, season: Season, label: str, name: str) -> Season:
    """Rename a season; its URL follows its new label."""
    label = label.strip()
    if (
        Season.objects.filter(series_id=season.series_id, label=label)
        .exclude(pk=season.pk)
        .exists()
    ):
        raise ValidationError({"label": _("Season %(label)s already exists.") % {"label": label}})
    if label != season.label:
        season.slug = unique_season_slug(season.series_id, label, exclude=season.pk)
    season.label = label
    season.name = name.strip() or f"{season.series.name} {label}"
    season.save()
    return season


class CannotDelete(ValidationError):
    pass


def deletion_summary(obj) -> list[str]:
    """What deleting `obj` deletes with it, by kind ("3 tournaments", "41 seats"), as the
    confirmation page names it. Derived rows (history, standings) are not listed. Raises
    CannotDelete, saying why, when rows that must stay (results) refer to it."""
    collector = Collector(using="default")
    try:
        collector.collect([obj])
    except (ProtectedError, RestrictedError) as exc:
        raise CannotDelete(_blocked_message(obj, exc)) from exc
    counts: dict[str, int] = {}
    for model, instances in collector.data.items():
        if model is type(obj) or not model._meta.app_label == "competitions":
            continue
        if model.__name__.startswith("Historical"):
            continue
        counts[str(model._meta.verbose_name_plural)] = len(instances)
    for queryset in collector.fast_deletes:
        model = queryset.model
        if model._meta.app_label == "competitions" and not model.__name__.startswith("Historical"):
            name = str(model._meta.verbose_name_plural)
            counts[name] = counts.get(name, 0) + queryset.count()
    return [f"{n} {name}" for name, n in sorted(counts.items()) if n]


def season_delete(*, season: Season) -> None:
    season.delete()


def tournament_delete(*, tournament: Tournament) -> None:
    tournament.delete()


def player_update(*, player: Player, name: str, club: Club | None) -> Player:
    if club is not None and club.series_id != player.series_id:
        raise ValidationError({"club": _("That club belongs to another series.")})
    player.name, player.club = name.strip(), club
    player.save()
    return player


def player_delete(*, player: Player) -> None:
    """Delete a player who has no results; one with results is refused, naming where."""
    try:
        with transaction.atomic():
            player.delete()
    except (ProtectedError, RestrictedError) as exc:
        raise CannotDelete(_blocked_message(player, exc)) from exc


def _blocked_message(obj, exc) -> str:
    blocking = exc.protected_objects if isinstance(exc, ProtectedError) else exc.restricted_objects
    kinds = sorted({str(o._meta.verbose_name_plural) for o in blocking})
    return _(
        "%(name)s has results (%(kinds)s), so deleting would lose them. Correct or delete "
        "those results first, or keep it."
    ) % {"name": isolated_text(obj), "kinds": ", ".join(kinds)}
