"""Board-game public pages: season overview, tournament, yearly, LUDO, per-game rankings, and
the board-game section of the player page. Each view gets the season from the shared dispatcher."""

import datetime
from collections import defaultdict

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _

from competitions.models import Club, Season
from competitions.systems.boardgame.settings import parse_settings
from rankings.people import People
from rankings.selectors import standings_table, stored_tables
from rankings.urls_helpers import season_url
from rankings.views import export_or_render, season_context

from . import tables as t
from .standings import KIND_GAME, KIND_LUDO, KIND_TOURNAMENT, KIND_YEARLY


def _date(value: str | None) -> datetime.date | None:
    return datetime.date.fromisoformat(value) if value else None


def overview(request, season: Season):
    stored = defaultdict(list)
    for table in stored_tables(season, [KIND_TOURNAMENT, KIND_YEARLY, KIND_GAME], rows_limit=10):
        stored[table.kind].append(table)
    tournaments = stored[KIND_TOURNAMENT]
    yearly = stored[KIND_YEARLY][0].row_details if stored[KIND_YEARLY] else []
    winners = {
        tb.key: [r["player"] for r in tb.row_details if r["rank"] == 1] for tb in tournaments
    }
    people = People(
        season, [r["player"] for r in yearly] + [k for ws in winners.values() for k in ws]
    )
    rows = [
        {
            "date": _date(tb.data["date"]),
            "name": tb.data["name"] + (" ★" if tb.data["final"] else ""),
            "participants": tb.data["participants"],
            "winners": ", ".join(people.name(k) for k in winners[tb.key]),
            "url": season_url(season, "tournament", tb.key),
        }
        for tb in tournaments
    ]
    top = t.YearlyTable(
        [{**people.decorate(r), "counted_names": len(r["counted"])} for r in yearly],
        orderable=False,
        exclude=("counted_names",),
    )
    games = [
        {"game": g.data["game"], "url": season_url(season, "game", g.key)}
        for g in stored[KIND_GAME]
    ]
    return render(
        request,
        "rankings/boardgame/season.html",
        season_context(
            request,
            season,
            tab="",
            tournament_table=t.TournamentListTable(rows, orderable=False),
            top_table=top,
            games=games,
            cap=tournaments[0].data["cap"] if tournaments else None,
            seasons=season.series.seasons.order_by("-label"),
        ),
    )


def tournament_detail(request, season: Season, tournament: str):
    stored = standings_table(season=season, kind=KIND_TOURNAMENT, key=tournament)
    if stored is None:
        raise Http404(_("No such tournament."))
    data = stored.data
    people = People(season, [r["player"] for r in stored.row_details])
    daily = t.DailyTable([people.decorate(r) for r in stored.row_details])
    rounds: dict[int, list] = defaultdict(list)
    for tb in data["tables"]:
        rounds[tb["round"]].append(
            {
                "number": tb["number"],
                "game": tb["game"],
                "table": t.SeatTable([people.decorate(r) for r in tb["results"]]),
            }
        )
    clubs = {c.key: c.name for c in Club.objects.filter(series_id=season.series_id)}
    interclub = t.InterclubTable(
        [
            {
                "rank": c["rank"],
                "club_name": clubs.get(c["club"], c["club"]),
                "score": c["score"],
                "counted": ", ".join(people.name(k) for k in c["players"]),
            }
            for c in data["interclub"]
        ]
    )
    ceremony = [
        {
            "step": c["step"],
            "label": clubs.get(c["club"], c["club"]) if "club" in c else people.name(c["player"]),
            "club": "" if "club" in c else people.club(c["player"]),
        }
        for c in data["ceremony"]
    ]
    context = season_context(
        request,
        season,
        tournament=data,
        tournament_date=_date(data["date"]),
        daily_table=daily,
        rounds=sorted(rounds.items()),
        interclub_table=interclub,
        ceremony=ceremony,
    )
    return export_or_render(
        request,
        daily,
        f"{season.series.slug}-{season.slug}-{stored.key}",
        "rankings/boardgame/tournament.html",
        context,
        title=data["name"],
    )


def _rows(season: Season, kind: str, key: str = ""):
    stored = standings_table(season=season, kind=kind, key=key)
    return stored, (stored.row_details if stored else [])


def yearly(request, season: Season):
    _stored, rows = _rows(season, KIND_YEARLY)
    names = dict(season.tournaments.values_list("key", "name"))
    people = People(season, [r["player"] for r in rows])
    table = t.YearlyTable(
        [
            {
                **people.decorate(r),
                "counted_names": ", ".join(names.get(k, k) for k in r["counted"]),
            }
            for r in rows
        ]
    )
    return export_or_render(
        request,
        table,
        f"{season.series.slug}-{season.slug}-yearly",
        "rankings/boardgame/yearly.html",
        season_context(
            request,
            season,
            tab="yearly",
            table=table,
            best_n=parse_settings(season.settings).best_n,
        ),
        title=_("Yearly ranking"),
    )


def ludo(request, season: Season):
    _stored, rows = _rows(season, KIND_LUDO)
    people = People(season, [r["player"] for r in rows])
    table = t.LudoTable([people.decorate(r) for r in rows])
    return export_or_render(
        request,
        table,
        f"{season.series.slug}-{season.slug}-ludo",
        "rankings/boardgame/ludo.html",
        season_context(request, season, tab="ludo", table=table),
        title=_("LUDO ranking"),
    )


def games(request, season: Season):
    stored = stored_tables(season, [KIND_GAME])
    people = People(season, [r["player"] for g in stored for r in g.row_details if r["finalist"]])
    summary = [
        {
            "game": g.data["game"],
            "url": season_url(season, "game", g.key),
            "size": g.data["size"],
            "tie": g.data["tie_on_last_seat"],
            "players": len(g.row_details),
            "finalists": [people.decorate(r) for r in g.row_details if r["finalist"]],
        }
        for g in stored
    ]
    return render(
        request,
        "rankings/boardgame/games.html",
        season_context(request, season, tab="games", games=summary),
    )


def game_detail(request, season: Season, game: str):
    stored, rows = _rows(season, KIND_GAME, game)
    if stored is None:
        raise Http404(_("No such game in this season."))
    people = People(season, [r["player"] for r in rows])
    table = t.GameTable([people.decorate(r) for r in rows])
    return export_or_render(
        request,
        table,
        f"{season.series.slug}-{season.slug}-{stored.key}",
        "rankings/boardgame/game.html",
        season_context(request, season, tab="games", game=stored.data, table=table),
        title=stored.data["game"],
    )


def player_section(player, season: Season, rows):
    """The player's tournaments of a season, with the yearly ranking."""
    tournaments = [r for r in rows if r.table.kind == KIND_TOURNAMENT]
    if not tournaments:
        return None
    yearly = next((r.detail for r in rows if r.table.kind == KIND_YEARLY), None)
    counted = set(yearly["counted"]) if yearly else set()
    table = t.PlayerSeasonTable(
        [
            {
                "date": _date(r.table.data["date"]),
                "tournament": r.table.data["name"],
                "rank": r.rank,
                "daily": r.detail["daily"],
                "points": r.detail["points"],
                "counted": r.table.key in counted,
                "url": season_url(season, "tournament", r.table.key),
            }
            for r in tournaments
        ],
        orderable=False,
    )
    return "rankings/boardgame/player_section.html", {"yearly": yearly, "table": table}
