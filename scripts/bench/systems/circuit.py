"""The board-game circuit at federation scale: 10 seasons of 25 tournaments (24 regular and a
final) with 150 players, 3 rounds, tables of 3 to 6."""

import random

from common import bulk_common, shared_manage_pages, shared_pages
from django.db import transaction

from competitions.models import Round, Tournament
from competitions.systems.boardgame.models import (
    FinalTournament,
    PreviousParticipants,
    Seat,
    Table,
)
from rankings.urls_helpers import season_url

NAME = "circuit"
GAMES = ["Catan", "Carcassonne", "Azul", "Splendor", "7 Wonders", "Ticket to Ride / Europe"]


def _tables(rng: random.Random, players: list[str]) -> list[dict]:
    """Every player at a table of 3 to 6, ranks with an occasional tie."""
    order = players[:]
    rng.shuffle(order)
    tables = []
    i = 0
    while i < len(order):
        left = len(order) - i
        sizes = [s for s in (3, 4, 4, 5, 6) if left - s >= 3]
        size = left if left <= 6 else rng.choice(sizes)
        seats = order[i : i + size]
        ranks = sorted(rng.choices(range(1, size + 1), k=size))
        ranks[0] = 1
        tables.append(
            {
                "game": rng.choice(GAMES),
                "results": [{"player": p, "rank": r} for p, r in zip(seats, ranks, strict=True)],
            }
        )
        i += size
    return tables


def season_file(
    series: str, label: str, players: int, tournaments: int, *, seed: int, previous=None
) -> dict:
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(players)]
    events = []
    for t in range(tournaments):
        final = t == tournaments - 1 and tournaments > 1
        field = ids[: max(12, players // 6)] if final else ids
        events.append(
            {
                "id": f"t{t + 1}",
                "name": f"Tournament {t + 1}" if not final else "Final",
                "date": f"{label[:4]}-{1 + t * 11 // max(tournaments, 1):02d}-{1 + t % 27:02d}",
                "final": final,
                "draw_seed": seed * 1000 + t,
                "rounds": [{"tables": _tables(rng, field)} for _ in range(3)],
            }
        )
    data = {
        "format": "competition/1",
        "system": "boardgame-circuit",
        "series": series,
        "season": label,
        "name": f"Circuit {label}",
        "clubs": [{"id": f"c{i}", "name": f"Club {i}"} for i in range(12)],
        "players": [
            {"id": p, "name": f"Player {p}", "club": f"c{i % 12}"} for i, p in enumerate(ids)
        ],
        "tournaments": events,
    }
    if previous:
        data["previous_participants"] = previous
    return data


def federation(quick: bool) -> list[dict]:
    seasons, tournaments, players = (3, 5, 40) if quick else (10, 25, 150)
    first = 2026 - seasons
    return [
        season_file(
            "bench-circuit",
            str(first + k),
            players,
            tournaments,
            seed=k + 1,
            previous=[players] * 8 if k == 0 else None,
        )
        for k in range(seasons)
    ]


def describe(season) -> str:
    seats = Seat.objects.filter(round__season=season).count()
    return f"{season.tournaments.count()} tournaments, {seats:,} seats"


def bare_load(season) -> list:
    """The seats as the recompute reads them (its field list), in no order (no ORDER BY: the
    model's default ordering left out)."""
    from rankings.systems.boardgame.standings import SEAT_FIELDS

    return list(Seat.objects.filter(round__season=season).order_by().values_list(*SEAT_FIELDS))


def changes(seasons) -> list:
    found = [("one_change", seasons[-1])]
    if len(seasons) >= 3:
        found.append(("one_change_earlier_season", seasons[-3]))
    return found


def change(season):
    """Swap the ranks of two players at a table of a tournament in the middle of the season."""
    tournaments = list(season.tournaments.filter(circuit_final=None).order_by("date", "key"))
    middle = tournaments[len(tournaments) // 2]
    table = (
        Table.objects.filter(round__tournament=middle, round__number=2).order_by("number").first()
    )

    def swap():
        with transaction.atomic():
            a, b = list(table.seats.order_by("rank", "player_id"))[:2]
            if a.rank == b.rank:
                b.rank = a.rank + 1
                b.save()
                return
            a.rank, b.rank = b.rank, a.rank
            a.save()
            b.save()

    return swap


def bulk_insert(data: dict, slug: str) -> None:
    base = bulk_common(data, series_slug=slug)
    season = base.season
    tournaments = Tournament.objects.bulk_create(
        Tournament(
            season=season,
            key=t["id"],
            name=t["name"],
            date=t["date"],
            draw_seed=t["draw_seed"],
        )
        for t in data["tournaments"]
    )
    FinalTournament.objects.bulk_create(
        FinalTournament(season=season, tournament=tournament)
        for tournament, t in zip(tournaments, data["tournaments"], strict=True)
        if t["final"]
    )
    if data.get("previous_participants"):
        PreviousParticipants.objects.create(
            season=season, previous_participants=data["previous_participants"]
        )
    rounds = Round.objects.bulk_create(
        Round(season=season, tournament=tournament, number=n)
        for tournament, t in zip(tournaments, data["tournaments"], strict=True)
        for n in range(1, len(t["rounds"]) + 1)
    )
    by_round = iter(rounds)
    tables, seats = [], []
    for t in data["tournaments"]:
        for r in t["rounds"]:
            round_ = next(by_round)
            for number, tb in enumerate(r["tables"], 1):
                table = Table(round=round_, number=number, game=tb["game"])
                tables.append(table)
                seats.extend(
                    (table, round_, base.players[s["player"]], s["rank"]) for s in tb["results"]
                )
    Table.objects.bulk_create(tables, batch_size=2000)
    Seat.objects.bulk_create(
        (Seat(table=t, round=r, player=p, rank=rank) for t, r, p, rank in seats), batch_size=5000
    )


def largest(quick: bool) -> dict:
    """The largest size of the issue's first measurements, 2000 players × 30 tournaments (some
    180,000 seats): where one change is measured against its target."""
    players, tournaments = (200, 6) if quick else (2000, 30)
    return season_file("bench-circuit-largest", "2025", players, tournaments, seed=2000)


def field(players: int) -> dict:
    return season_file(f"bench-circuit-{players}", "2025", players, 5, seed=players)


def pages(season) -> list:
    tournament = season.tournaments.filter(circuit_final=None).order_by("key").first()
    game = season.standings_tables.filter(kind="game").order_by("position").first()
    found = [
        ("tournament", season_url(season, "tournament", tournament.key)),
        ("tournament_live", season_url(season, "tournament_live", tournament.key)),
        ("yearly", season_url(season, "yearly")),
        ("ludo", season_url(season, "ludo")),
        ("games", season_url(season, "games")),
    ]
    if game is not None:
        found.append(("game", season_url(season, "game", game.key)))
    return found + shared_pages(season, "p1")


def manage_pages(season) -> list:
    """Where a tournament's results are entered: a round (the table form and the tables
    entered), and a table opened for a correction."""
    from competitions.views import manage_url

    tournament = season.tournaments.filter(circuit_final=None).order_by("key").first()
    table = Table.objects.filter(round__tournament=tournament, round__number=1).order_by("number")
    return [
        ("round", manage_url(season, "round", tournament.key, 1)),
        ("table", manage_url(season, "table_edit", tournament.key, 1, table.first().pk)),
    ] + shared_manage_pages(season)


def rps_page(season) -> str:
    return season_url(season, "yearly")
