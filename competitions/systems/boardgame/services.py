"""Write paths of board-game result entry: one transaction each, validated. A table's save
writes its rows inside `bulk_write()` and sends one `results_changed` naming its tournament, so
one recompute of that tournament follows (architecture.md "One write per action")."""

import hashlib
import json
from collections.abc import Sequence
from datetime import date

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from simple_history.utils import bulk_update_with_history

from competitions import services as shared
from competitions.models import Player, Round, Season, Series, Tournament
from competitions.services import (
    changed_by_message,
    player_create,
    retry_on_conflict,
    season_entries_ensure,
)
from competitions.signals import bulk_write, results_changed
from competitions.text import fold, known_spelling

from .models import FinalTournament, Seat, Table
from .settings import parse_settings
from .system import tournament_scope

# --- tournaments ---------------------------------------------------------------------------------


def _set_final(tournament: Tournament, final: bool) -> None:
    """Make the tournament the season's final (rules.md §1.3), or no longer the final. The
    database allows one final a season: a second one is refused in words."""
    taken = ValidationError({"final": _("This season already has a final tournament.")})
    stored = FinalTournament.objects.filter(season_id=tournament.season_id).first()
    if final and stored is None:
        try:
            with transaction.atomic():
                FinalTournament.objects.create(
                    season_id=tournament.season_id, tournament=tournament
                )
        except IntegrityError as exc:  # another manager made one meanwhile
            raise taken from exc
    elif final and stored.tournament_id != tournament.pk:
        raise taken
    elif not final and stored is not None and stored.tournament_id == tournament.pk:
        stored.delete()


def tournament_create(
    *, season: Season, name: str, date: date | None, final: bool, namesake_ok: bool = True
) -> Tournament:
    with transaction.atomic():
        tournament = shared.tournament_create(
            season=season, name=name, date=date, namesake_ok=namesake_ok
        )
        _set_final(tournament, final)
    return tournament


def tournament_update(
    *, tournament: Tournament, name: str, date: date | None, final: bool
) -> Tournament:
    with transaction.atomic():
        shared.tournament_update(tournament=tournament, name=name, date=date)
        _set_final(tournament, final)
    return tournament


def round_of(*, tournament: Tournament, number: int) -> Round:
    """The round, unsaved when it has no table yet (table_save stores it with the first one)."""
    limit = parse_settings(tournament.season.settings).rounds_per_tournament
    if not 1 <= number <= limit:
        raise ValidationError(
            _("A tournament of this season has rounds 1 to %(n)s.") % {"n": limit}
        )
    found = Round.objects.filter(tournament=tournament, group=None, number=number).first()
    return found or Round(season=tournament.season, tournament=tournament, number=number)


def table_fingerprint(table: Table) -> str:
    """The stored state of a table (game, players and ranks), as the edit form loaded it: a
    save is refused when the table no longer has it (someone else changed it meanwhile)."""
    seats = sorted(table.seats.values_list("player_id", "rank"))
    state = json.dumps([table.game, seats])
    return hashlib.sha256(state.encode()).hexdigest()[:16]


def _refuse_if_changed(table: Table, loaded: str) -> None:
    current = Table.objects.select_for_update().filter(pk=table.pk).first()
    if current is None:
        raise ValidationError(
            _("This table was deleted meanwhile; nothing was saved. Reload the round.")
        )
    if table_fingerprint(current) != loaded:
        records = [
            *Table.history.filter(id=table.pk).select_related("history_user")[:1],
            *Seat.history.filter(table_id=table.pk)
            .select_related("history_user")
            .order_by("-history_date")[:1],
        ]
        raise ValidationError(changed_by_message(records))


def table_save(
    *,
    round_: Round,
    game: str,
    seats: Sequence[tuple[Player | str, int]],
    table: Table | None = None,
    loaded: str | None = None,
    series: Series | None = None,
) -> Table:
    """Create or replace a table's result. Ranks: 1 = best, equal ranks are a tie. A seat may
    name a new player (a str): the player is added to `series` in the same transaction. A
    correction passes the table's fingerprint as it was loaded (`loaded`, required); when
    someone else changed the table since, nothing is saved and the error says who and when."""
    if table is not None and not loaded:
        raise ValidationError(
            _(
                "This correction does not say which version of the table it corrects; nothing "
                "was saved. Reload the table and correct it again."
            )
        )
    game = game.strip()
    if not game:
        raise ValidationError({"game": _("Which game was played at this table?")})
    if len(seats) < 2:
        raise ValidationError(_("A table needs at least 2 players."))
    known = [p for p, _rank in seats if isinstance(p, Player)]
    new = [p for p, _rank in seats if not isinstance(p, Player)]
    if new and series is None:
        raise ValidationError(_("A new player needs the series to be added to."))
    if len({p.pk for p in known}) != len(known) or len({fold(n) for n in new}) != len(new):
        raise ValidationError(_("A player is listed twice at this table."))
    for player, rank in seats:
        if not 1 <= rank <= len(seats):
            raise ValidationError(
                _("%(player)s: rank %(rank)s at a table of %(n)s.")
                % {"player": getattr(player, "name", player), "rank": rank, "n": len(seats)}
            )
    players = known
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
        return retry_on_conflict(lambda: _table_write(round_, game, seats, table, loaded, series))
    except IntegrityError as exc:  # a concurrent entry seated the same player meanwhile
        raise ValidationError(
            _(
                "Somebody else changed this round meanwhile; nothing was "
                "saved. Please check and try again."
            )
        ) from exc


def _table_write(round_, game, seats, table, loaded, series) -> Table:
    with transaction.atomic(), bulk_write():
        if table is not None:
            _refuse_if_changed(table, loaded)
        # One game, one ranking: "catan " is the series' "Catan" (issue 46), as the title
        # suggestions are the series'.
        others = Table.objects.filter(round__season__series_id=round_.season.series_id)
        if table is not None:
            others = others.exclude(pk=table.pk)
        game = known_spelling(game, others.values_list("game", flat=True).distinct())
        seats = [
            (
                p
                if isinstance(p, Player)
                else player_create(series=series, name=str(p), club=None, namesake_ok=False),
                rank,
            )
            for p, rank in seats
        ]
        players = [p for p, _rank in seats]
        if round_.pk is None:
            # Stored with its first table; looked up again on a retry (the first try's row was
            # rolled back with it).
            round_, _created = Round.objects.get_or_create(
                season=round_.season, tournament=round_.tournament, group=None, number=round_.number
            )
        if table is None:
            number = (round_.tables.aggregate(m=Max("number"))["m"] or 0) + 1
            table = Table.objects.create(round=round_, number=number, game=game)
            changes = []
        else:
            changes = [] if table.game == game else [f"{table.game} → {game}"]
            table.game = game
        current = {s.player_id: s for s in table.seats.select_related("player")}
        wanted = {p.pk: rank for p, rank in seats}
        for player_id, seat in current.items():
            if player_id not in wanted:
                changes.append(_("%(player)s removed") % {"player": seat.player.name})
                seat.delete()
        for player, rank in seats:
            seat = current.get(player.pk)
            if seat is None:
                Seat.objects.create(table=table, player=player, rank=rank)
                if current:
                    changes.append(
                        _("%(player)s added (rank %(rank)s)")
                        % {"player": player.name, "rank": rank}
                    )
            elif seat.rank != rank:
                changes.append(f"{player.name}: {seat.rank} → {rank}")
                seat.rank = rank
                seat.save(update_fields=["rank", "round"])
        if changes:
            # The table's own history shows the correction, not only its seats' histories.
            table._change_reason = "; ".join(changes)[:100]
            table.save()
        season_entries_ensure(season=round_.season, players=players)
        # The table reaches its tournament only (new players and a new round are new lines
        # of it), whatever rows it wrote.
        results_changed.send(
            sender=Season,
            season_ids={round_.season_id},
            scope=tournament_scope(round_.tournament_id),
        )
    return table


def table_delete(*, table: Table) -> None:
    """Delete a table with its seats, under the table's lock: a correction saved at the same
    moment (which locks it too, `_refuse_if_changed`) comes first, or finds it gone."""
    with transaction.atomic():
        if Table.objects.select_for_update().filter(pk=table.pk).exists():
            table.delete()


def game_rename(*, season: Season, title: str, new: str) -> tuple[str, int]:
    """Give every table of the season's game `title` the title `new` (a typo fixed, or two
    titles of one game merged: `new` the same as another title of the season, whatever its
    case, accents and spaces, is that title). The game's final table size follows it. One
    transaction, one recompute of the season. Returns the title written and the tables
    changed."""
    if not new.strip():
        raise ValidationError({"new": _("Type the game's title.")})
    with transaction.atomic(), bulk_write():
        tables = list(Table.objects.select_for_update().filter(round__season=season, game=title))
        if not tables:
            raise ValidationError(
                {"title": _("No table of this season has the game %(game)s.") % {"game": title}}
            )
        others = (
            Table.objects.filter(round__season=season)
            .exclude(game=title)
            .values_list("game", flat=True)
            .distinct()
        )
        new = known_spelling(new, others)  # with single spaces
        if new == title:
            return new, 0
        for table in tables:
            table.game = new
        bulk_update_with_history(
            tables, Table, ["game"], default_change_reason=f"game {title} -> {new}"[:100]
        )
        sizes = season.settings.get("final_table_size")
        if isinstance(sizes, dict) and title in sizes:
            sizes = dict(sizes)
            size = sizes.pop(title)
            sizes.setdefault(new, size)
            season.settings = {**season.settings, "final_table_size": sizes}
            season.save(update_fields=["settings"])
        results_changed.send(sender=Season, season_ids={season.pk})
    return new, len(tables)
