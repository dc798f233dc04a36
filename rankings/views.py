"""Public pages: season overview, tournament, yearly, LUDO, per-game rankings, player page.

Every page reads stored standings: a fixed handful of queries whatever the number of players.
"""

import datetime
import json
from collections import defaultdict

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig
from django_tables2.export import TableExport

from competitions.boardgame import parse_settings
from competitions.models import Club, Player, Season, SeasonPlayer, Series

from . import tables as t
from .exports import csv_archive, csv_tables
from .models import StandingsTable
from .selectors import fresh_standings_document, standings_table
from .standings.boardgame import KIND_GAME, KIND_LUDO, KIND_TOURNAMENT, KIND_YEARLY


def _date(value: str | None) -> datetime.date | None:
    return datetime.date.fromisoformat(value) if value else None


def _season(series: str, season: str) -> Season:
    return get_object_or_404(
        Season.objects.select_related("series"), series__slug=series, label=season
    )


class People:
    """Names and clubs of a season's players, looked up once per page (two queries)."""

    def __init__(self, season: Season, keys) -> None:
        keys = set(keys)
        self.series = season.series
        self.players = {
            p.key: p
            for p in Player.objects.filter(series_id=season.series_id, key__in=keys).select_related(
                "club"
            )
        }
        self.season_clubs = {
            e.player.key: e.club
            for e in SeasonPlayer.objects.filter(
                season=season, player__key__in=keys
            ).select_related("player", "club")
        }

    def name(self, key: str) -> str:
        player = self.players.get(key)
        return player.name if player else key

    def club(self, key: str) -> str:
        if key in self.season_clubs:
            club = self.season_clubs[key]
        else:
            player = self.players.get(key)
            club = player.club if player else None
        return club.name if club else ""

    def decorate(self, row: dict) -> dict:
        key = row["player"]
        return {
            **row,
            "name": self.name(key),
            "club": self.club(key),
            "url": reverse("player", args=[self.series.slug, key]),
        }


def _export_or_render(request, table, filename: str, template: str, context: dict):
    RequestConfig(request, paginate=False).configure(table)
    export_format = request.GET.get("_export")
    if TableExport.is_valid_format(export_format):
        return TableExport(export_format, table).response(f"{filename}.{export_format}")
    return render(request, template, context)


def home(request):
    series = Series.objects.prefetch_related("seasons").order_by("name")
    return render(request, "rankings/home.html", {"series_list": series})


def series_detail(request, series):
    found = get_object_or_404(Series, slug=series)
    latest = found.seasons.order_by("-label").first()
    if latest is None:
        raise Http404(_("This series has no season yet."))
    return redirect("season", series=found.slug, season=latest.label)


def _tables_of(season: Season, *kinds: str) -> dict[str, list[StandingsTable]]:
    result: dict[str, list[StandingsTable]] = defaultdict(list)
    for table in StandingsTable.objects.filter(season=season, kind__in=kinds).order_by(
        "kind", "position"
    ):
        result[table.kind].append(table)
    return result


def season_detail(request, series, season):
    season = _season(series, season)
    stored = _tables_of(season, KIND_TOURNAMENT, KIND_YEARLY, KIND_GAME)
    tournaments = [tb.data for tb in stored[KIND_TOURNAMENT]]
    yearly = stored[KIND_YEARLY][0].data["rows"] if stored[KIND_YEARLY] else []
    winners = {
        t["id"]: [r["player"] for r in t["standings"] if r["rank"] == 1] for t in tournaments
    }
    people = People(
        season, [r["player"] for r in yearly[:10]] + [k for ws in winners.values() for k in ws]
    )
    rows = [
        {
            "date": _date(t["date"]),
            "name": t["name"] + (" ★" if t["final"] else ""),
            "participants": t["participants"],
            "winners": ", ".join(people.name(k) for k in winners[t["id"]]),
            "url": reverse("tournament", args=[season.series.slug, season.label, t["id"]]),
        }
        for t in tournaments
    ]
    tournament_table = t.TournamentListTable(rows, orderable=False)
    top = t.YearlyTable(
        [{**people.decorate(r), "counted_names": len(r["counted"])} for r in yearly[:10]],
        orderable=False,
        exclude=("counted_names",),
    )
    games = [
        {
            "game": g.key,
            "size": g.data["size"],
            "leader": (g.data["rows"][0]["player"] if g.data["rows"] else None),
        }
        for g in stored[KIND_GAME]
    ]
    return render(
        request,
        "rankings/season.html",
        {
            "season": season,
            "tournament_table": tournament_table,
            "top_table": top,
            "games": games,
            "cap": tournaments[0]["cap"] if tournaments else None,
            "seasons": season.series.seasons.order_by("-label"),
        },
    )


def tournament_detail(request, series, season, tournament):
    season = _season(series, season)
    stored = standings_table(season=season, kind=KIND_TOURNAMENT, key=tournament)
    if stored is None:
        raise Http404(_("No such tournament."))
    data = stored.data
    people = People(season, [r["player"] for r in data["standings"]])
    daily = t.DailyTable([people.decorate(r) for r in data["standings"]])
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
    context = {
        "season": season,
        "tournament": data,
        "tournament_date": _date(data["date"]),
        "daily_table": daily,
        "rounds": sorted(rounds.items()),
        "interclub_table": interclub,
        "ceremony": ceremony,
        "can_manage": season.series.is_manager(request.user),
    }
    return _export_or_render(
        request,
        daily,
        f"{season.series.slug}-{season.label}-{tournament}",
        "rankings/tournament.html",
        context,
    )


def _season_rows(season: Season, kind: str, key: str = "") -> tuple[StandingsTable | None, list]:
    stored = standings_table(season=season, kind=kind, key=key)
    return stored, (stored.data["rows"] if stored else [])


def yearly(request, series, season):
    season = _season(series, season)
    _stored, rows = _season_rows(season, KIND_YEARLY)
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
    return _export_or_render(
        request,
        table,
        f"{season.series.slug}-{season.label}-yearly",
        "rankings/yearly.html",
        {"season": season, "table": table, "best_n": parse_settings(season.settings).best_n},
    )


def ludo(request, series, season):
    season = _season(series, season)
    _stored, rows = _season_rows(season, KIND_LUDO)
    people = People(season, [r["player"] for r in rows])
    table = t.LudoTable([people.decorate(r) for r in rows])
    return _export_or_render(
        request,
        table,
        f"{season.series.slug}-{season.label}-ludo",
        "rankings/ludo.html",
        {"season": season, "table": table},
    )


def games(request, series, season):
    season = _season(series, season)
    stored = _tables_of(season, KIND_GAME)[KIND_GAME]
    people = People(season, [r["player"] for g in stored for r in g.data["rows"] if r["finalist"]])
    summary = [
        {
            "game": g.key,
            "size": g.data["size"],
            "tie": g.data["tie_on_last_seat"],
            "players": len(g.data["rows"]),
            "finalists": [people.decorate(r) for r in g.data["rows"] if r["finalist"]],
        }
        for g in stored
    ]
    return render(request, "rankings/games.html", {"season": season, "games": summary})


def game_detail(request, series, season, game):
    season = _season(series, season)
    stored, rows = _season_rows(season, KIND_GAME, game)
    if stored is None:
        raise Http404(_("No such game in this season."))
    people = People(season, [r["player"] for r in rows])
    table = t.GameTable([people.decorate(r) for r in rows])
    return _export_or_render(
        request,
        table,
        f"{season.series.slug}-{season.label}-{game}",
        "rankings/game.html",
        {"season": season, "game": stored.data, "table": table},
    )


def player_detail(request, series, player):
    player = get_object_or_404(
        Player.objects.select_related("series", "club"), series__slug=series, key=player
    )
    seasons = list(player.series.seasons.order_by("-label"))
    stored = StandingsTable.objects.filter(
        season__in=seasons, kind__in=[KIND_TOURNAMENT, KIND_YEARLY]
    ).order_by("position")
    by_season: dict[int, dict] = defaultdict(lambda: {"tournaments": [], "yearly": None})
    for table in stored:
        if table.kind == KIND_YEARLY:
            by_season[table.season_id]["yearly"] = next(
                (r for r in table.data["rows"] if r["player"] == player.key), None
            )
        else:
            row = next((r for r in table.data["standings"] if r["player"] == player.key), None)
            if row:
                by_season[table.season_id]["tournaments"].append((table.data, row))
    sections = []
    for season in seasons:
        entry = by_season.get(season.pk)
        if not entry or not entry["tournaments"]:
            continue
        counted = set(entry["yearly"]["counted"]) if entry["yearly"] else set()
        rows = [
            {
                "date": _date(data["date"]),
                "tournament": data["name"],
                "rank": row["rank"],
                "daily": row["daily"],
                "points": row["points"],
                "counted": data["id"] in counted,
                "url": reverse("tournament", args=[series, season.label, data["id"]]),
            }
            for data, row in entry["tournaments"]
        ]
        sections.append(
            {
                "season": season,
                "yearly": entry["yearly"],
                "table": t.PlayerSeasonTable(rows, orderable=False),
            }
        )
    return render(request, "rankings/player.html", {"player": player, "sections": sections})


def standings_download(request, series, season, fmt):
    if fmt not in ("json", "zip"):
        raise Http404(_("Unknown download format."))
    season = _season(series, season)
    document = fresh_standings_document(season=season)
    stem = f"{season.series.slug}-{season.label}-standings"
    if fmt == "json":
        response = HttpResponse(
            json.dumps(document, ensure_ascii=False, indent=2), content_type="application/json"
        )
        response["Content-Disposition"] = f'attachment; filename="{stem}.json"'
        return response
    response = HttpResponse(
        csv_archive(csv_tables(season.system, document)), content_type="application/zip"
    )
    response["Content-Disposition"] = f'attachment; filename="{stem}-csv.zip"'
    return response


def help_page(request):
    return render(request, "rankings/help.html")
