"""Write paths of the Othello GP manager pages: one transaction each, validated; a tournament's
standings are written inside `bulk_write()` with one `results_changed` naming the tournament."""

from collections.abc import Sequence
from datetime import date

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from competitions import services as shared
from competitions.edits import Edit, refuse_stale
from competitions.models import Player, Season, Tournament
from competitions.signals import bulk_write, results_changed

from .entry import EntryRow
from .models import Placement
from .ratings import RatingEntry
from .scopes import tournament_scope
from .settings import TOURNAMENT_OPTIONS, tournament_flags

# Places are moved out of the way (place + this) before they are set, so swapping two places
# never meets the (tournament, place) unique constraint halfway.
PLACE_SHIFT = 10_000


def _options(*, season: Season, sm: bool, egp: bool, exclude: int | None = None) -> dict:
    options = {name: True for name, on in (("sm", sm), ("egp", egp)) if on}
    errors = TOURNAMENT_OPTIONS.validate(options)
    if errors:
        raise ValidationError({"egp": [message for _path, message in errors]})
    if sm:
        others = season.tournaments.exclude(pk=exclude)
        other = next((t for t in others if tournament_flags(t.options)[0]), None)
        if other is not None:
            raise ValidationError(
                {
                    "sm": _("%(name)s is this season's Swedish championship already.")
                    % {"name": other.name}
                }
            )
    return options


def _lock(season: Season) -> None:
    """The season's row lock: two managers making a tournament the SM at the same moment wait
    for each other, and the second sees the first one's (one SM a season)."""
    Season.objects.select_for_update(no_key=True).filter(pk=season.pk).exists()


def tournament_create(
    *,
    season: Season,
    name: str,
    date: date | None,
    sm: bool = False,
    egp: bool = False,
    namesake_ok: bool = True,
) -> Tournament:
    with transaction.atomic():
        _lock(season)
        options = _options(season=season, sm=sm, egp=egp)
        tournament = shared.tournament_create(
            season=season, name=name, date=date, namesake_ok=namesake_ok
        )
        if options:
            tournament.options = options
            tournament.save(update_fields=["options"])
    return tournament


def tournament_update(
    *, tournament: Tournament, name: str, date: date | None, sm: bool, egp: bool
) -> Tournament:
    with transaction.atomic():
        _lock(tournament.season)
        options = _options(season=tournament.season, sm=sm, egp=egp, exclude=tournament.pk)
        tournament.name, tournament.date = name.strip(), date
        tournament.options = {
            **{k: v for k, v in (tournament.options or {}).items() if k not in ("sm", "egp")},
            **options,
        }
        tournament.save()
    return tournament


def standings_save(
    *,
    tournament: Tournament,
    rows: Sequence[EntryRow],
    shown: Sequence[EntryRow] | None = None,
) -> list[Player]:
    """A tournament's final standings (rules.md §2: places 1..n, each once; one rating entry
    each). New players (rows with `new_name`) are added to the series. One transaction, one
    recompute of the tournament; returns the players added.

    `shown`: the standings the form showed. A line sent back as shown is left as it is stored,
    and a player neither shown nor sent (added meanwhile) keeps their line; a line someone else
    changed since the form showed it, and that the manager changed too, refuses the whole save
    (competitions.edits.refuse_stale). None (a file, a script): `rows` replace the stored
    standings."""
    n = len(rows)
    if sorted(row.place for row in rows) != list(range(1, n + 1)):
        raise ValidationError(_("The places must be 1 to %(n)s, each once.") % {"n": n})
    season = tournament.season
    try:
        with transaction.atomic(), bulk_write():
            Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
            if shown is not None:
                _refuse_stale_lines(tournament, rows, shown)
            added = [
                shared.player_create(
                    series=season.series, name=row.new_name, club=None, namesake_ok=False
                )
                for row in rows
                if row.player is None
            ]
            new_players = iter(added)
            players = [row.player or next(new_players) for row in rows]
            if len({p.pk for p in players}) != n:
                raise ValidationError(_("A player is listed twice."))
            current = {p.player_id: p for p in tournament.placements.all()}
            wanted = {p.pk for p in players}
            as_shown = {r.player.pk: r for r in shown if r.player} if shown is not None else None
            removed = [
                placement
                for placement in current.values()
                if placement.player_id not in wanted
                and (as_shown is None or placement.player_id in as_shown)
            ]
            for placement in removed:
                placement.delete()
            changed, created, moved = [], [], []
            for row, player in zip(rows, players, strict=True):
                if as_shown is not None and as_shown.get(player.pk) == row:
                    continue  # left as shown
                fields = {
                    "place": row.place,
                    "country": row.country,
                    "nordic": row.rating.nordic,
                    "ffo": row.rating.ffo,
                    "provisional": row.rating.provisional,
                    "uncertainty": row.rating.uncertainty,
                }
                placement = current.get(player.pk)
                if placement is None:
                    created.append(Placement(tournament=tournament, player=player, **fields))
                elif any(getattr(placement, k) != v for k, v in fields.items()):
                    if placement.place != row.place:
                        moved.append(placement)
                    for key, value in fields.items():
                        setattr(placement, key, value)
                    changed.append(placement)
            if moved:
                # Places are unique in a tournament: the lines that move pass through places
                # no line holds first (a line that keeps its place collides with none of them,
                # the places being 1 to n, each once).
                final = {p.pk: p.place for p in moved}
                for placement in moved:
                    placement.place = final[placement.pk] + PLACE_SHIFT
                Placement.objects.bulk_update(moved, ["place"])
                for placement in moved:
                    placement.place = final[placement.pk]
            if changed:
                bulk_update_with_history(
                    changed,
                    Placement,
                    ["place", "country", "nordic", "ffo", "provisional", "uncertainty"],
                )
            bulk_create_with_history(created, Placement)
            shared.season_entries_ensure(season=season, players=players)
            if removed or changed or created:
                # Only this tournament's results changed (new players are new lines of it).
                results_changed.send(
                    sender=Season, season_ids={season.pk}, scope=tournament_scope(tournament.pk)
                )
    except IntegrityError as exc:  # a concurrent save of the same tournament meanwhile
        raise ValidationError(
            _(
                "Somebody else changed this tournament meanwhile; nothing was saved. "
                "Please check and try again."
            )
        ) from exc
    return added


def _line(row: EntryRow) -> tuple:
    return (row.place, row.country, row.rating)


def _refuse_stale_lines(
    tournament: Tournament, rows: Sequence[EntryRow], shown: Sequence[EntryRow]
) -> None:
    """Per player, the line the form showed, the one sent (None: no line) and the stored one:
    refused when someone else changed a line the manager changed too."""
    stored = {
        p.player_id: p for p in tournament.placements.select_for_update().select_related("player")
    }
    as_shown = {r.player.pk: r for r in shown if r.player is not None}
    sent = {r.player.pk: r for r in rows if r.player is not None}
    names = {pk: p.player.name for pk, p in stored.items()}
    names.update({pk: r.player.name for pk, r in {**as_shown, **sent}.items()})
    refuse_stale(
        [
            Edit(
                pk,
                _line(as_shown[pk]) if pk in as_shown else None,
                _line(sent[pk]) if pk in sent else None,
            )
            for pk in {**as_shown, **sent}
        ],
        lambda pk: (
            (stored[pk].place, stored[pk].country, RatingEntry.of(stored[pk]))
            if pk in stored
            else None
        ),
        label=lambda pk: names[pk],
        records=lambda pk: Placement.history.filter(
            tournament_id=tournament.pk, player_id=pk
        ).select_related("history_user")[:1],
    )
