"""Write paths for result entry: one transaction each, validated, keyword-only arguments."""

from collections.abc import Sequence
from datetime import date

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.text import slugify
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from .boardgame import parse_settings, validate_settings
from .models import (
    Club,
    Player,
    Round,
    Season,
    SeasonPlayer,
    Seat,
    Series,
    Table,
    Tournament,
    new_draw_seed,
)


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
    errors = validate_settings(settings)
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


def round_of(*, tournament: Tournament, number: int) -> Round:
    """The round, unsaved when it has no table yet (table_save stores it with the first one)."""
    limit = parse_settings(tournament.season.settings).rounds_per_tournament
    if not 1 <= number <= limit:
        raise ValidationError(
            _("A tournament of this season has rounds 1 to %(n)s.") % {"n": limit}
        )
    found = Round.objects.filter(tournament=tournament, group=None, number=number).first()
    return found or Round(season=tournament.season, tournament=tournament, number=number)


def _ensure_entries(season: Season, players: Sequence[Player]) -> None:
    known = set(season.entries.filter(player__in=players).values_list("player_id", flat=True))
    last = season.entries.aggregate(m=Max("position"))["m"] or 0
    new = [
        SeasonPlayer(season=season, player=p, club_id=p.club_id, position=last + i + 1)
        for i, p in enumerate(p for p in players if p.pk not in known)
    ]
    bulk_create_with_history(new, SeasonPlayer)


def table_save(
    *, round_: Round, game: str, seats: Sequence[tuple[Player, int]], table: Table | None = None
) -> Table:
    """Create or replace a table's result. Ranks: 1 = best, equal ranks are a tie."""
    game = game.strip()
    if not game:
        raise ValidationError({"game": _("Which game was played at this table?")})
    players = [p for p, _rank in seats]
    if len(players) < 2:
        raise ValidationError(_("A table needs at least 2 players."))
    if len({p.pk for p in players}) != len(players):
        raise ValidationError(_("A player is listed twice at this table."))
    for player, rank in seats:
        if not 1 <= rank <= len(seats):
            raise ValidationError(
                _("%(player)s: rank %(rank)s at a table of %(n)s.")
                % {"player": player.name, "rank": rank, "n": len(seats)}
            )
    elsewhere = Seat.objects.filter(round_id=round_.pk, player__in=players).select_related(
        "player", "table"
    )
    if table is not None:
        elsewhere = elsewhere.exclude(table=table)
    clash = elsewhere.first()
    if clash is not None:
        raise ValidationError(
            _("%(player)s already plays at table %(n)s in this round.")
            % {"player": clash.player.name, "n": clash.table.number}
        )
    try:
        with transaction.atomic():
            if round_.pk is None:
                round_.save()
            if table is None:
                number = (round_.tables.aggregate(m=Max("number"))["m"] or 0) + 1
                table = Table.objects.create(round=round_, number=number, game=game)
            else:
                if table.game != game:
                    table.game = game
                    table.save(update_fields=["game"])
            current = {s.player_id: s for s in table.seats.all()}
            wanted = {p.pk: rank for p, rank in seats}
            for player_id, seat in current.items():
                if player_id not in wanted:
                    seat.delete()
            for player, rank in seats:
                seat = current.get(player.pk)
                if seat is None:
                    Seat.objects.create(table=table, player=player, rank=rank)
                elif seat.rank != rank:
                    seat.rank = rank
                    seat.save(update_fields=["rank", "round"])
            _ensure_entries(round_.season, players)
    except IntegrityError as exc:  # a concurrent entry seated the same player meanwhile
        raise ValidationError(
            _(
                "Somebody else changed this round meanwhile; nothing was "
                "saved. Please check and try again."
            )
        ) from exc
    return table


def table_delete(*, table: Table) -> None:
    table.delete()
