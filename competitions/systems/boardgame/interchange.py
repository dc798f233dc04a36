"""The boardgame-circuit section of the competition file (interchange.md)."""

import math
from collections import defaultdict
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from competitions.interchange import (
    A_LIST,
    A_WHOLE_NUMBER,
    AN_OBJECT,
    TRUE_OR_FALSE,
    FileError,
    ReadContext,
    date_of,
    expect,
    field_of,
    file_id,
    join,
    not_reserved,
    season_players,
    text,
    whole,
)
from competitions.models import Player, Round, Season, Tournament
from competitions.sync import delete_with_history
from competitions.text import fold, known_spelling

from .models import FinalTournament, HistoricTotal, PreviousParticipants, Seat, Table
from .settings import parse_settings

MAX_TOTAL = 10**12

# A replacing import writes only what differs (competitions.sync), in bulk.
SYNC = True


def _number(value: Any, path: str) -> float:
    """A JSON number, finite and of a sensible size (a yearly total)."""
    expect(value, (int, float), path, _("a number"))
    if not math.isfinite(value) or abs(value) >= MAX_TOTAL:
        raise FileError(
            path,
            _("expected a number below %(max)s, got %(value)s")
            % {"max": MAX_TOTAL, "value": value},
        )
    return float(value)


def _total(value: Any, path: str) -> float:
    """A yearly total: tournament points are never negative (rules.md §1.1-1.2)."""
    number = _number(value, path)
    if number < 0:
        raise FileError(
            path, _("a yearly total cannot be negative, got %(value)s") % {"value": value}
        )
    return number


def _read_history(data: dict, ctx: ReadContext) -> None:
    history = field_of(data, "history", "", list, A_LIST, required=False, default=[])
    totals: list[HistoricTotal] = []
    seen_labels: set[str] = set()
    for i, entry in enumerate(history):
        path = f"history[{i}]"
        expect(entry, dict, path, AN_OBJECT)
        label = text(entry, "season", path, max_length=32)
        if label == ctx.season.label:
            raise FileError(join(path, "season"), _("the history cannot hold this season itself"))
        if label in seen_labels:
            raise FileError(
                join(path, "season"), _("season %(label)s appears twice") % {"label": label}
            )
        seen_labels.add(label)
        yearly = field_of(entry, "yearly", path, dict, _("an object of player ids and points"))
        for key, points in yearly.items():
            player = ctx.player(key, join(join(path, "yearly"), key))
            totals.append(
                HistoricTotal(
                    season=ctx.season,
                    label=label,
                    player=player,
                    points=_total(points, join(join(path, "yearly"), key)),
                )
            )
    ctx.sync.rows(
        HistoricTotal,
        totals,
        existing=HistoricTotal.objects.filter(season=ctx.season).select_related("player")
        if ctx.replacing
        else None,
        key=lambda h: (h.label, h.player.key),
        fields=["points"],
    )


def _read_previous_participants(data: dict, ctx: ReadContext) -> None:
    counts = field_of(
        data,
        "previous_participants",
        "",
        list,
        _("a list of whole numbers"),
        required=False,
        default=[],
    )
    for i, count in enumerate(counts):
        path = f"previous_participants[{i}]"
        expect(count, int, path, A_WHOLE_NUMBER)
        if count < 1:
            raise FileError(path, _("must be at least 1"))
    ctx.sync.rows(
        PreviousParticipants,
        [PreviousParticipants(season=ctx.season, previous_participants=counts)] if counts else [],
        existing=PreviousParticipants.objects.filter(season=ctx.season) if ctx.replacing else None,
        key=lambda row: "previous_participants",
        fields=["previous_participants"],
    )


def _read_table(raw: Any, path: str, ctx: ReadContext, seated: dict[str, str]) -> tuple[str, list]:
    expect(raw, dict, path, AN_OBJECT)
    game = text(raw, "game", path, max_length=100)
    results = field_of(raw, "results", path, list, A_LIST)
    if len(results) < 2:
        raise FileError(join(path, "results"), _("a table needs at least 2 players"))
    seats = []
    for k, result in enumerate(results):
        rpath = join(join(path, "results"), k)
        expect(result, dict, rpath, AN_OBJECT)
        player = ctx.player(result.get("player"), join(rpath, "player"))
        if player.key in seated:
            raise FileError(
                join(rpath, "player"),
                _("%(player)s already plays at %(where)s in this round")
                % {"player": player.key, "where": seated[player.key]},
            )
        seated[player.key] = path
        rank = whole(result, "rank", rpath)
        if not 1 <= rank <= len(results):
            raise FileError(
                join(rpath, "rank"),
                _("rank %(rank)s at a table of %(n)s") % {"rank": rank, "n": len(results)},
            )
        seats.append((player, rank))
    return game, seats


def read(data: dict, ctx: ReadContext) -> None:
    """Validate the whole section first, then write it level by level in bulk (ctx.sync): a
    fresh import creates every row, a replacing one writes only what differs."""
    season = ctx.season
    settings = parse_settings(season.settings)
    _read_history(data, ctx)
    _read_previous_participants(data, ctx)
    tournaments = field_of(data, "tournaments", "", list, A_LIST, required=False, default=[])
    keys: set[str] = set()
    final_path = None
    spellings: dict[str, str] = {}
    # (tournament, [(round, [(table, [(player, rank)])])])
    read_tournaments: list[tuple[Tournament, list]] = []
    for i, raw in enumerate(tournaments):
        path = f"tournaments[{i}]"
        expect(raw, dict, path, AN_OBJECT)
        key = not_reserved(file_id(raw, "id", path), join(path, "id"))
        if key in keys:
            raise FileError(join(path, "id"), _("duplicate tournament id %(id)r") % {"id": key})
        keys.add(key)
        final = field_of(raw, "final", path, bool, TRUE_OR_FALSE, required=False, default=False)
        if final and final_path:
            raise FileError(
                join(path, "final"),
                _("a season has one final tournament; %(other)s is the final already")
                % {"other": final_path},
            )
        if final:
            final_path = path
        fields: dict[str, Any] = {
            "season": season,
            "key": key,
            "name": text(raw, "name", path),
            "date": date_of(raw, "date", path),
        }
        seed = whole(raw, "draw_seed", path, required=False, minimum=0, maximum=2**63 - 1)
        if seed is not None:
            fields["draw_seed"] = seed
        tournament = Tournament(**fields)
        tournament.seed_given = seed is not None
        tournament.final = final
        rounds = field_of(raw, "rounds", path, list, A_LIST, required=False, default=[])
        if len(rounds) > settings.rounds_per_tournament:
            raise FileError(
                join(path, "rounds"),
                _("%(n)s rounds, but a tournament has at most %(max)s (rounds_per_tournament)")
                % {"n": len(rounds), "max": settings.rounds_per_tournament},
            )
        read_rounds = []
        for r, raw_round in enumerate(rounds):
            rpath = join(join(path, "rounds"), r)
            expect(raw_round, dict, rpath, AN_OBJECT)
            round_ = Round(season=season, tournament=tournament, number=r + 1)
            seated: dict[str, str] = {}
            tables = field_of(raw_round, "tables", rpath, list, A_LIST)
            read_tables = []
            for n, raw_table in enumerate(tables):
                game, table_seats = _read_table(
                    raw_table, join(join(rpath, "tables"), n), ctx, seated
                )
                # One game, one ranking: "catan " is the file's "Catan" (its first spelling).
                game = spellings.setdefault(fold(game), known_spelling(game, ()))
                read_tables.append((Table(round=round_, number=n + 1, game=game), table_seats))
            read_rounds.append((round_, read_tables))
        read_tournaments.append((tournament, read_rounds))
    _write(ctx, read_tournaments)


def _write(ctx: ReadContext, read_tournaments: list) -> None:
    """Store the validated tournaments, rounds, tables and seats, parents first."""
    season = ctx.season
    replacing = ctx.replacing
    stored = {t.key: t for t in Tournament.objects.filter(season=season)} if replacing else None
    tournaments = []
    for tournament, _rounds in read_tournaments:
        old = stored.get(tournament.key) if stored else None
        if old is not None and not tournament.seed_given:
            tournament.draw_seed = old.draw_seed  # a file without a seed keeps the stored one
        tournaments.append(tournament)
    ctx.sync.rows(
        Tournament,
        tournaments,
        existing=list(stored.values()) if stored is not None else None,
        key=lambda t: t.key,
        fields=["name", "date", "draw_seed"],
    )
    # A season's one final (its row, updated in place when the final moves to another
    # tournament).
    ctx.sync.rows(
        FinalTournament,
        [FinalTournament(season=season, tournament=t) for t in tournaments if t.final],
        existing=FinalTournament.objects.filter(season=season).select_related("tournament")
        if replacing
        else None,
        key=lambda final: "final",
        fields=["tournament_id"],
        label=lambda final: final.tournament.key,
    )
    rounds = []
    for tournament, read_rounds in read_tournaments:
        for round_, _tables in read_rounds:
            round_.tournament = tournament  # its pk is known now
            rounds.append(round_)
    # A replace reads the stored rounds and tables once: for their own sync and as the stored
    # seats' rounds and tables (`_stored_seats`).
    stored_rounds = (
        {
            r.pk: r
            for r in Round.objects.filter(season=season, tournament__isnull=False).select_related(
                "tournament"
            )
        }
        if replacing
        else {}
    )
    ctx.sync.rows(
        Round,
        rounds,
        existing=list(stored_rounds.values()) if replacing else None,
        key=lambda r: (r.tournament.key, r.number),
        fields=[],
        label=lambda r: f"{r.tournament.key} round {r.number}",
    )
    tables = []
    for _tournament, read_rounds in read_tournaments:
        for round_, read_tables in read_rounds:
            for table, _seats in read_tables:
                table.round = round_
                tables.append(table)
    stored_tables = (
        {t.pk: t for t in Table.objects.filter(round__season=season)} if replacing else {}
    )
    for stored_table in stored_tables.values():  # one instance of each round, not one per table
        Table.round.field.set_cached_value(stored_table, stored_rounds[stored_table.round_id])
    ctx.sync.rows(
        Table,
        tables,
        existing=list(stored_tables.values()) if replacing else None,
        key=lambda t: (t.round.tournament.key, t.round.number, t.number),
        fields=["game"],
        label=lambda t: f"{t.round.tournament.key} round {t.round.number} table {t.number}",
    )
    seats = [
        Seat(table=table, round=round_, player=player, rank=rank)
        for _tournament, read_rounds in read_tournaments
        for round_, read_tables in read_rounds
        for table, table_seats in read_tables
        for player, rank in table_seats
    ]
    existing = None
    rebuilt: list[Seat] = []
    if replacing:
        existing, rebuilt = _seats_to_keep(season, seats, stored_rounds, stored_tables)
    # A seat is the player's in its round (the database allows one): moving to another table
    # of the round changes it.
    ctx.sync.rows(
        Seat,
        seats,
        existing=existing,
        key=_seat_key,
        fields=["table_id", "rank"],
        label=lambda s: f"{s.round.tournament.key} round {s.round.number} {s.player.key}",
    )
    if rebuilt:
        # Reported as what they are: a seat of the same player in the same round changed.
        report = ctx.sync.changes[-1]
        old = {_seat_key(s): (s.table.number, s.rank) for s in rebuilt}
        new = {_seat_key(s): (s.table.number, s.rank) for s in seats}
        label = {k: f"{k[0]} round {k[1]} {k[2]}" for k in old}
        recreated = {label[k] for k in old if k in new}
        report.added = [a for a in report.added if a not in recreated]
        report.changed += sorted(label[k] for k in old if k in new and new[k] != old[k])
        report.removed += sorted(label[k] for k in old if k not in new)


def _seat_key(seat: Seat) -> tuple:
    return (seat.round.tournament.key, seat.round.number, seat.player.key)


def _stored_seats(season: Season, rounds: dict[int, Round], tables: dict[int, Table]) -> list[Seat]:
    """The season's stored seats in id order, each with its round (and tournament), table and
    player: one instance of each shared by its seats (`rounds` and `tables`, read for their own
    sync, by pk), where `select_related` made a round, tournament, table and player per seat
    (44,000 instances for 10,875 seats, half of replacing a season)."""
    stored = list(Seat.objects.filter(round__season=season).order_by("id"))
    players = Player.objects.in_bulk({s.player_id for s in stored})
    set_round, set_table = Seat.round.field.set_cached_value, Seat.table.field.set_cached_value
    set_player = Seat.player.field.set_cached_value
    for seat in stored:
        set_round(seat, rounds[seat.round_id])
        set_table(seat, tables[seat.table_id])
        set_player(seat, players[seat.player_id])
    return stored


def _seats_to_keep(
    season: Season, seats: list[Seat], rounds: dict[int, Round], tables: dict[int, Table]
) -> tuple[list[Seat], list[Seat]]:
    """The stored seats a replacing import may update in place, and those it deletes first.

    A table's results keep the file's order (the export writes them in the order they were
    stored): where a round's seats are not stored in the file's order, or sit differently, the
    round's stored seats are deleted now (with history) and the file's are created anew."""
    stored = _stored_seats(season, rounds, tables)

    def layout(rows: list[Seat]) -> dict:
        """{(tournament, round): {table number: players in order}}"""
        found: dict[tuple, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
        for s in rows:
            found[(s.round.tournament.key, s.round.number)][s.table.number].append(s.player.key)
        return found

    before, after = layout(stored), layout(seats)
    rounds = {key for key in before if key in after and before[key] != after[key]}
    rebuilt = [s for s in stored if (s.round.tournament.key, s.round.number) in rounds]
    delete_with_history(Seat, rebuilt)
    keep = [s for s in stored if (s.round.tournament.key, s.round.number) not in rounds]
    return keep, rebuilt


def _json_number(value: float) -> int | float:
    return int(value) if value.is_integer() else value


def write(season: Season) -> dict:
    history: dict[str, dict[str, Any]] = {}
    for total in season.historic_totals.select_related("player").order_by("label", "player__key"):
        history.setdefault(total.label, {})[total.player.key] = _json_number(total.points)
    seats = (
        Seat.objects.filter(round__season=season)
        .select_related("player", "table", "round")
        .order_by("round__tournament_id", "round__number", "table__number", "id")
    )
    by_round: dict[int, dict[int, dict]] = {}
    for seat in seats:
        tables = by_round.setdefault(seat.round_id, {})
        table = tables.setdefault(seat.table_id, {"game": seat.table.game, "results": []})
        table["results"].append({"player": seat.player.key, "rank": seat.rank})
    tournaments = []
    final = FinalTournament.objects.filter(season=season).values_list("tournament_id").first()
    for t in season.tournaments.prefetch_related("rounds"):
        rounds = [
            {"tables": list(by_round.get(r.pk, {}).values())}
            for r in sorted(t.rounds.all(), key=lambda r: r.number)
        ]
        tournaments.append(
            {
                "id": t.key,
                "name": t.name,
                "date": t.date.isoformat() if t.date else None,
                "final": final is not None and t.pk == final[0],
                "draw_seed": t.draw_seed,
                "rounds": rounds,
            }
        )
    body: dict[str, Any] = {"players": season_players(season, Q(seats__round__season=season))}
    if history:
        body["history"] = [
            {"season": label, "yearly": yearly} for label, yearly in sorted(history.items())
        ]
    previous = PreviousParticipants.objects.filter(season=season).first()
    if previous is not None:
        body["previous_participants"] = previous.previous_participants
    body["tournaments"] = tournaments
    return body


def result_keys(document: dict) -> tuple[str, dict]:
    """The results of a circuit file by table (tournament, round, table): what an import that
    replaces a season reports as added, changed or removed."""
    keys = {}
    for t in document.get("tournaments", []):
        for r, round_ in enumerate(t.get("rounds", []), 1):
            for n, table in enumerate(round_.get("tables", []), 1):
                results = tuple((x["player"], x["rank"]) for x in table["results"])
                keys[f"{t['id']} round {r} table {n}"] = (table["game"], results)
    return _("tables"), keys
