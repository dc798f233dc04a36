"""Write paths of board-game result entry: one transaction each, validated."""

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from competitions.models import Player, Round, Tournament
from competitions.services import season_entries_ensure

from .models import Seat, Table
from .settings import parse_settings


def round_of(*, tournament: Tournament, number: int) -> Round:
    """The round, unsaved when it has no table yet (table_save stores it with the first one)."""
    limit = parse_settings(tournament.season.settings).rounds_per_tournament
    if not 1 <= number <= limit:
        raise ValidationError(
            _("A tournament of this season has rounds 1 to %(n)s.") % {"n": limit}
        )
    found = Round.objects.filter(tournament=tournament, group=None, number=number).first()
    return found or Round(season=tournament.season, tournament=tournament, number=number)


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
            season_entries_ensure(season=round_.season, players=players)
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
