"""Write paths for result entry: one transaction each, validated, keyword-only arguments."""

import json
import logging
import time
from collections.abc import Callable, Sequence
from datetime import date
from typing import TypeVar

from django.core.exceptions import ValidationError
from django.db import IntegrityError, OperationalError, transaction
from django.db.models import Max, ProtectedError, QuerySet, RestrictedError
from django.db.models.deletion import Collector
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from .edits import Edit, changed, refuse_stale
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
from .text import fold, isolated_text

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


def _busy() -> ValidationError:
    return ValidationError(
        _("The database was busy with other changes; nothing was saved. Please try again.")
    )


def _create_keyed(
    rows: QuerySet,
    base: str,
    fallback: str,
    create: Callable[[str], T],
    *,
    fields: tuple[str, ...] = ("name",),
    same: Callable[[tuple], bool],
    refusal: ValidationError,
    refuse_same: bool,
) -> T:
    """`create(key)` a row of `rows` (its siblings) with a key made from `base` that none of
    them has; `refuse_same`: refused (`refusal`, which names the field) when one of them is
    the same thing (`same((key, *fields))`).

    Two managers creating at the same moment: the keys and `fields` are read in one statement,
    so the second either sees the first's row (and is refused, or takes the next key) or picks
    the same key, and the database's unique constraint refuses its insert. That insert runs in
    a savepoint (the caller's transaction stays usable), and then: the row that took the key
    being the same thing (stored meanwhile by someone else), `refusal`; another row that
    happened to take the same key, a new try with the keys stored now. Never a 500, nothing
    half-stored."""
    prefix = slugify(base)[:56] or fallback  # the keys of namesakes start so (_unique_key)
    for attempt in range(1, 4):
        stored = list(rows.values_list("key", *fields))
        if refuse_same and any(same(row) for row in stored if row[0].startswith(prefix)):
            raise refusal
        key = _unique_key(base, {row[0] for row in stored}, fallback)
        try:
            with transaction.atomic():
                return create(key)
        except IntegrityError as exc:
            holder = rows.filter(key=key).values_list("key", *fields).first()
            if holder is None:
                raise  # not the key: another constraint, a bug to see
            if same(holder):
                raise refusal from exc
            if attempt == 3:
                raise _busy() from exc
    raise AssertionError("unreachable")


def _same_name(name: str) -> Callable[[tuple], bool]:
    """Whether a row read as (key, name, ...) has `name`, whatever its accents, case and
    spacing."""
    wanted = fold(name)
    return lambda row: fold(row[1]) == wanted


def season_create(*, series: Series, label: str, name: str = "") -> Season:
    label = label.strip()
    exists = ValidationError({"label": _("Season %(label)s already exists.") % {"label": label}})
    for attempt in range(1, 4):
        if Season.objects.filter(series=series, label=label).exists():
            raise exists
        try:
            with transaction.atomic():  # a savepoint: see _create_keyed
                # Season.save() gives it a free slug (unique_season_slug), read when it runs.
                return Season.objects.create(
                    series=series, label=label, name=name.strip() or f"{series.name} {label}"
                )
        except IntegrityError as exc:
            # The same label stored meanwhile (refused above), or another one with the same
            # slug ("2026/27" and "2026-27"): a new try.
            if attempt == 3:
                raise _busy() from exc
    raise AssertionError("unreachable")


_UNSET = object()  # an option a settings object leaves out, with no default to stand for it


def _as_json(value):
    """A settings value as stored (JSON): a tuple is a list, as it comes back."""
    return json.loads(json.dumps(value, default=str))


def _option(spec, settings: dict, name: str):
    """An option's value in a settings object: as stored, else its default (a settings object
    stores only what differs from the defaults)."""
    if name in settings:
        return _as_json(settings[name])
    setting = spec.field(name)
    return _UNSET if setting is None else _as_json(setting.default)


def _set_by(season: Season, spec, name: str, value) -> list:
    """The history record that gave the season's option `name` its present `value` (the oldest
    of the newest records that all have it); empty when none is known."""
    found = []
    for record in season.history.order_by("-history_date", "-history_id")[:200]:
        if _option(spec, record.settings or {}, name) != value:
            break
        found = [record]
    return found


def season_settings_update(
    *,
    season: Season,
    settings: dict,
    shown: dict | None = None,
    label: Callable[[str], str] | None = None,
) -> Season:
    """Store the season's settings. From a form (`shown`: the stored settings the form was
    opened with), architecture.md "One write per action": only the options this manager changed
    are written, over the settings as stored now; an option someone else changed since the form
    was opened and this manager changed too refuses the whole save, naming it (`label`: an
    option's name for people) and who changed it when. Without `shown` (a file, a script) the
    settings are stored whole."""
    spec = get_system(season.system).settings
    errors = spec.validate(settings)
    if errors:
        raise ValidationError(
            [f"{path}: {message}" if path else message for path, message in errors]
        )
    if shown is None:
        season.settings = settings
        season.save(update_fields=["settings"])
        return season
    shown = shown if isinstance(shown, dict) else {}
    names = sorted({*shown, *settings})
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        stored = dict(locked.settings or {})
        edits = changed(
            Edit(name, _option(spec, shown, name), _option(spec, settings, name)) for name in names
        )
        refuse_stale(
            edits,
            lambda name: _option(spec, stored, name),
            label=label or (lambda name: str(getattr(spec.field(name), "label", name))),
            records=lambda name: _set_by(locked, spec, name, _option(spec, stored, name)),
        )
        if not edits:
            season.settings = stored
            return season
        for edit in edits:
            if edit.key in settings:
                stored[edit.key] = settings[edit.key]
            else:
                stored.pop(edit.key, None)
        errors = spec.validate(stored)
        if errors:  # this manager's change and another's do not go together
            raise ValidationError(
                [
                    _(
                        "Nothing was saved: together with what someone else changed since this "
                        "page was opened, the settings are not valid — reload."
                    ),
                    *(f"{path}: {message}" if path else message for path, message in errors),
                ]
            )
        locked.settings = stored
        locked.save(update_fields=["settings"])
    season.settings = stored
    return season


def club_create(*, series: Series, name: str) -> Club:
    """Add a club to the series; a second club of the same name is refused (a list of clubs
    could not tell them apart), also when two managers add it at the same moment."""
    name = name.strip()
    return _create_keyed(
        series.clubs.all(),
        name,
        "club",
        lambda key: Club.objects.create(series=series, name=name, key=key),
        same=_same_name(name),
        refusal=ValidationError(
            {"name": _("This series has a club %(name)s already.") % {"name": name}}
        ),
        refuse_same=True,
    )


def player_create(
    *, series: Series, name: str, club: Club | None, namesake_ok: bool = True
) -> Player:
    """Add a player to the series. `namesake_ok` False: the caller found nobody of that name
    (a name typed at a table, in a file, a form that showed no namesake), and a namesake
    added since by someone else is refused rather than doubled. Two of the same name added at
    the same moment: the second is refused, whoever the caller."""
    if club is not None and club.series_id != series.pk:
        raise ValidationError({"club": _("That club belongs to another series.")})
    name = name.strip()
    return _create_keyed(
        series.players.all(),
        name,
        "player",
        lambda key: Player.objects.create(series=series, name=name, club=club, key=key),
        same=_same_name(name),
        refusal=ValidationError(
            {
                "name": _(
                    "A player named %(name)s was added to this series meanwhile; nothing was "
                    "saved. Reload to see them."
                )
                % {"name": name}
            }
        ),
        refuse_same=not namesake_ok,
    )


def tournament_create(
    *, season: Season, name: str, date: date | None, namesake_ok: bool = True
) -> Tournament:
    """Add a tournament to the season. `namesake_ok` False (the manager was shown none and
    confirmed none): a tournament of the same name on the same date is refused, as is one
    created at the same moment, always."""
    name = name.strip()
    same_name = _same_name(name)
    base = f"{name}-{date.isoformat()}" if date else name
    return _create_keyed(
        season.tournaments.all(),
        base,
        "tournament",
        lambda key: Tournament.objects.create(season=season, name=name, date=date, key=key),
        fields=("name", "date"),
        same=lambda row: row[2] == date and same_name(row),
        refusal=ValidationError(
            {
                "name": _(
                    "A tournament named %(name)s on that date was added to this season "
                    "meanwhile; nothing was saved."
                )
                % {"name": name}
            }
        ),
        refuse_same=not namesake_ok,
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


def row_lock(obj) -> bool:
    """Lock `obj`'s row for the rest of the transaction (FOR NO KEY UPDATE: rows that refer to
    it can still be added meanwhile). Whoever removes something (a round, a table) and whoever
    writes into it take this lock first, so they run one after the other, each seeing what
    the other stored. False when the row is gone."""
    return type(obj)._default_manager.select_for_update(no_key=True).filter(pk=obj.pk).exists()


def delete_or_refuse(obj) -> None:
    """Delete `obj` with what hangs on it. A row added to it by someone else while it was
    being deleted makes the database refuse the deletion (when it commits): said, with
    nothing deleted, instead of a 500."""
    try:
        with transaction.atomic():
            obj.delete()
    except IntegrityError as exc:
        raise CannotDelete(
            _(
                "Something was added to %(name)s meanwhile; nothing was deleted. Look at it "
                "again before deleting it."
            )
            % {"name": obj}
        ) from exc


def season_delete(*, season: Season) -> None:
    delete_or_refuse(season)


def tournament_delete(*, tournament: Tournament) -> None:
    delete_or_refuse(tournament)


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
