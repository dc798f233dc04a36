"""Othello GP public pages: the season, a tournament with its computation, the season standings,
the federation's "what if" page, and the GP section of the player page. Each view gets the
season from the shared dispatcher."""

import datetime
import hashlib
import json
from collections import defaultdict
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from urllib.parse import urlencode

from django import forms
from django.core.cache import cache
from django.db.models import Q
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_tables2 import RequestConfig
from django_tables2.data import TableListData

from competitions.models import Season
from competitions.systems.othello.ratings import describe, stored_entry
from competitions.systems.othello.settings import parse_settings, tournament_flags
from rankings.engines import othello as engine
from rankings.exports import SafeTableExport
from rankings.models import StandingsRow, StandingsTable
from rankings.people import People
from rankings.selectors import lines_of, stored_tables
from rankings.tables import local_decimal
from rankings.urls_helpers import season_url
from rankings.views import export_or_render, season_context

from . import explain
from . import tables as t
from .standings import (
    KIND_STANDINGS,
    KIND_TOURNAMENT,
    coefficients_of,
    decimal_text,
    engine_settings,
    line_numbers,
    season_outs,
)


def _date(value: str | None) -> datetime.date | None:
    return datetime.date.fromisoformat(value) if value else None


def _tournament_row(season: Season, data: dict, winner: str = "") -> dict:
    return {
        **data,
        "date": _date(data["date"]),
        "home": data["country_participants"],
        "winner": winner,
        "url": season_url(season, "tournament", data["id"]),
    }


def overview(request, season: Season):
    tournaments = stored_tables(season, [KIND_TOURNAMENT], rows_limit=10)
    winners = {
        tb.key: next((r["player"] for r in tb.row_details if r["place"] == 1), None)
        for tb in tournaments
    }
    people = People(season, [w for w in winners.values() if w])
    names = {tb.key: tb.data["name"] for tb in tournaments}
    settings = parse_settings(season.settings)
    best_n = settings.best_n
    return render(
        request,
        "rankings/othello/season.html",
        season_context(
            request,
            season,
            tab="",
            tournament_table=t.TournamentListTable(
                [
                    _tournament_row(
                        season, tb.data, people.name(winners[tb.key]) if winners[tb.key] else ""
                    )
                    for tb in tournaments
                ],
                orderable=False,
            ),
            top_table=t.SeasonStandingsTable(
                lines_of(season=season, kind=KIND_STANDINGS)[:10],
                season=season,
                tournaments=list(names.items()),
                best_n=best_n,
                orderable=False,
                exclude=("results_list",),
            ),
            country=settings.country,
            a=local_decimal(decimal_text(settings.max_factor)),
            b=local_decimal(decimal_text(settings.max_base)),
        ),
    )


# Lines of a long table shown per page (a tournament of 1000 participants, a season of 2000
# players): a person reads a page at a time, and every line's numbers still explain themselves.
PER_PAGE = 50


def participant_line(detail: dict, k: int, coefficients: engine.Coefficients) -> dict:
    """A tournament's stored line for the pages: with its place's position in the series
    (`k`), the computation behind it (`line_numbers`) and the rating entry in words, in the
    reader's language."""
    return {
        **detail,
        **line_numbers(detail, coefficients),
        "k": k,
        "rating_text": describe(stored_entry(detail["rating"])),
    }


def participant_lines(details: list[dict], data: dict, start: int = 1) -> list[dict]:
    """Consecutive lines of a tournament, the first at position `start` of its series."""
    coefficients = coefficients_of(data["coefficients"])
    return [participant_line(d, k, coefficients) for k, d in enumerate(details, start=start)]


class Named(Sequence):
    """Lines computed on the fly (the "what if" standings), each with its player's name
    looked up (one query) only when the table reads it: a page of them on the page."""

    def __init__(self, season: Season, items: list[dict]) -> None:
        self.season, self.items = season, items

    def __len__(self) -> int:
        return len(self.items)

    def sort(self, key=None, reverse: bool = False) -> None:
        """What django-tables2 calls for any ?sort= of a table of a list (the table is not
        orderable: the key orders nothing)."""
        self.items.sort(key=key, reverse=reverse)

    def __getitem__(self, index):
        items = self.items[index] if isinstance(index, slice) else [self.items[index]]
        people = People(self.season, [item["player"] for item in items])
        named = [people.decorate(item) for item in items]
        return named if isinstance(index, slice) else named[0]


def _stored_table(season: Season, kind: str, key: str = ""):
    return StandingsTable.objects.filter(season=season, kind=kind, key=key).first()


def paginated(request, table, *, per_page: int = PER_PAGE):
    """One page of the table on the page; a download (`?_export=`) keeps every line."""
    if not SafeTableExport.is_valid_format(request.GET.get("_export")):
        RequestConfig(request, paginate={"per_page": per_page}).configure(table)
    return table


def tournament_detail(request, season: Season, tournament: str):
    stored = _stored_table(season, KIND_TOURNAMENT, tournament)
    if stored is None:
        raise Http404(_("No such tournament."))
    data = stored.data
    coefficients = coefficients_of(data["coefficients"])
    table = paginated(
        request,
        t.ComputationTable(
            lines_of(season=season, kind=KIND_TOURNAMENT, key=stored.key),
            season=season,
            tournament=data,
            line=lambda detail, k: participant_line(detail, k, coefficients),
        ),
    )
    gp_settings = parse_settings(season.settings)
    tiebreaks, wof_date = engine_settings(gp_settings).tiebreaks, gp_settings.wof_list_date
    context = season_context(
        request,
        season,
        tournament=data,
        tournament_date=_date(data["date"]),
        table=table,
        x=explain.x_text(data["x"]),
        series=explain.series_text(data["series"]),
        foreign=data["participants"] - data["country_participants"],
        direct=data.get("series_rule") == engine.DIRECT,
        tiebreaks=tiebreaks,
        wof_list_date=wof_date if engine.WOF in tiebreaks else None,
    )
    return export_or_render(
        request,
        table,
        f"{season.series.slug}-{season.slug}-{stored.key}",
        "rankings/othello/tournament.html",
        context,
    )


def _tournament_names(season: Season) -> list[tuple[str, str, bool, bool]]:
    return [
        (key, name, *tournament_flags(options))
        for key, name, options in season.tournaments.values_list("key", "name", "options")
    ]


def standings(request, season: Season):
    """The season standings: each player's results in tournament order, the counted ones in
    bold. On the page the results are one list per player (it reads on a phone and stays fast
    for a season of 30 tournaments); the downloads have one column per tournament."""
    stored = _stored_table(season, KIND_STANDINGS)
    tiebreaks = stored.data.get("tiebreaks") if stored else None
    tournaments = _tournament_names(season)
    lines = lines_of(season=season, kind=KIND_STANDINGS)
    names = [(key, name) for key, name, _sm, _egp in tournaments]
    best_n = parse_settings(season.settings).best_n
    if SafeTableExport.is_valid_format(request.GET.get("_export")):
        dates = dict(season.tournaments.values_list("key", "date"))
        counted = _("%(name)s: counted")
        columns = []
        for n, (key, name, _sm, _egp) in enumerate(tournaments, start=1):
            heading = f"{name} ({dates[key].isoformat()})" if dates.get(key) else name
            columns += [
                (f"t{n}", t.ResultColumn(key, verbose_name=heading)),
                (f"c{n}", t.CountedColumn(key, verbose_name=counted % {"name": name})),
            ]
        table = t.SeasonStandingsTable(
            lines,
            season=season,
            tournaments=names,
            best_n=best_n,
            extra_columns=columns,
            exclude=("results_list",),
        )
    else:
        table = paginated(
            request,
            t.SeasonStandingsTable(lines, season=season, tournaments=names, best_n=best_n),
        )
    return export_or_render(
        request,
        table,
        f"{season.series.slug}-{season.slug}-standings",
        "rankings/othello/standings.html",
        season_context(
            request,
            season,
            tab="standings",
            table=table,
            best_n=best_n,
            sm_tiebreak=stored.data.get("sm_tiebreak") if stored else False,
            tiebreaks=tiebreaks,
            # chess-othello-options.md §3.3: the WOF list the WOF values are from
            wof_list_date=parse_settings(season.settings).wof_list_date
            if tiebreaks and engine.WOF in tiebreaks
            else None,
            legend=[
                {
                    "n": n,
                    "name": name,
                    "sm": sm,
                    "egp": egp,
                    "url": season_url(season, "tournament", key),
                }
                for n, (key, name, sm, egp) in enumerate(tournaments, start=1)
            ],
        ),
    )


# --- the federation's "what if" page ---------------------------------------------------------


class WhatIfForm(forms.Form):
    """The coefficients of max = a · ranking sum + b, bounded as the season settings are."""

    a = forms.DecimalField(
        label=gettext_lazy("a (factor of the ranking sum)"),
        min_value=Decimal(0),
        max_value=Decimal(1),
        max_digits=9,
        decimal_places=6,
    )
    b = forms.DecimalField(
        label=gettext_lazy("b (base)"),
        min_value=Decimal(2),
        max_value=Decimal(1000),
        max_digits=9,
        decimal_places=4,
    )


# A season computed with typed coefficients is kept this long (per process), keyed by the
# season's data version, last recompute, settings and coefficients: a federation discussing a
# change reloads the same few pairs, and a result entered since changes the key.
WHATIF_CACHE_SECONDS = 600


def _whatif_season(
    season: Season, settings, a: Fraction, b: Fraction, stored: list
) -> tuple[list, list]:
    """[(tournament name, engine output)] and the season standings of max = a · S + b."""
    digest = hashlib.sha256(json.dumps(season.settings, sort_keys=True).encode()).hexdigest()
    computed_at = season.standings_computed_at.isoformat() if season.standings_computed_at else ""
    key = f"othello-whatif:{season.pk}:{season.data_version}:{computed_at}:{digest[:16]}:{a}:{b}"
    found = cache.get(key)
    if found is None:
        gp = engine_settings(settings, max_factor=a, max_base=b)
        outs = season_outs(season, gp, stored)
        standings = engine.season_ranking([t_out for _name, t_out in outs], gp)
        # Kept as plain values: the engine's output holds a Fraction per placement, and
        # unpickling thousands of them costs about what computing them does.
        found = (
            [
                {
                    "name": name,
                    "id": t_out.id,
                    "sm": t_out.sm,
                    "egp": t_out.egp,
                    "participants": t_out.participants,
                    "max_points": float(t_out.max_points),
                    "x": engine.series_factor(t_out.max_points, t_out.participants),
                    "series": explain.series_text(list(t_out.series)),
                }
                for name, t_out in outs
            ],
            standings,
        )
        cache.set(key, found, WHATIF_CACHE_SECONDS)
    return found


def whatif(request, season: Season):
    """max = a · S + b with typed coefficients: every stored tournament's series and the season
    standings they would give, beside the stored ones. Computed on the fly; nothing is written."""
    settings = parse_settings(season.settings)
    defaults = {"a": decimal_text(settings.max_factor), "b": decimal_text(settings.max_base)}
    # Bound only to typed coefficients: the standings' page and sort links add their own.
    typed = "a" in request.GET or "b" in request.GET
    form = WhatIfForm(request.GET if typed else None, initial=defaults)
    # The stored tables' data, and the standings' ranks and points: no line's details.
    stored = list(
        StandingsTable.objects.filter(season=season, kind__in=[KIND_TOURNAMENT, KIND_STANDINGS])
    )
    stored_tournaments = {tb.key: tb for tb in stored if tb.kind == KIND_TOURNAMENT}
    stored_standings = [
        {"player": player, "rank": rank, "points": None if points is None else int(points)}
        for player, rank, points in StandingsRow.objects.filter(
            season=season, table__kind=KIND_STANDINGS
        )
        .order_by("position")
        .values_list("player__key", "rank", "points")
    ]
    context = season_context(request, season, tab="whatif", form=form, defaults=defaults)
    if form.is_bound and not form.is_valid():
        return render(request, "rankings/othello/whatif.html", context, status=400)
    a = Fraction(form.cleaned_data["a"]) if form.is_bound else settings.max_factor
    b = Fraction(form.cleaned_data["b"]) if form.is_bound else settings.max_base
    computed, standings = _whatif_season(season, settings, a, b, stored)
    tournament_rows = []
    for computed_row in computed:
        before = stored_tournaments.get(computed_row["id"])
        tournament_rows.append(
            {
                **computed_row,
                "url": season_url(season, "tournament", computed_row["id"]),
                "stored_max": before.data["max_points"] if before else None,
                "stored_series": explain.series_text(before.data["series"]) if before else "–",
            }
        )
    now = {r["player"]: r for r in stored_standings}
    then = {player: (rank, points) for player, rank, points in standings}
    keys = [player for player, _rank, _points in standings] + [k for k in now if k not in then]
    standings_rows = []
    for key in keys:
        old, new = now.get(key), then.get(key)
        standings_rows.append(
            {
                "player": key,
                "stored_rank": old["rank"] if old else None,
                "stored_points": old["points"] if old else None,
                "rank": new[0] if new else None,
                "points": new[1] if new else None,
                "change": old["rank"] - new[0] if old and new else None,
            }
        )
    context.update(
        a=local_decimal(decimal_text(a)),
        b=local_decimal(decimal_text(b)),
        tournament_table=t.WhatIfTournamentTable(tournament_rows),
        standings_table=paginated(
            request,
            t.WhatIfStandingsTable(TableListData(Named(season, standings_rows))),
        ),
        moved=sum(1 for r in standings_rows if r["change"]),
    )
    return render(request, "rankings/othello/whatif.html", context)


# --- the player page --------------------------------------------------------------------------


# Lines above and below the player's shown in the computation of a result on the player page.
NEAR = 2


def player_section(player, season: Season, rows):
    """The player's GP results of a season with their computation, and a chart of them."""
    results = sorted(
        (r for r in rows if r.table.kind == KIND_TOURNAMENT), key=lambda r: r.table.position
    )
    if not results:
        return None
    standing = next((r.detail for r in rows if r.table.kind == KIND_STANDINGS), None)
    counted = set(standing["counted"]) if standing else set()
    # The lines around the player's in each of the player's tournaments, for their
    # computations (one query): the whole field is on the tournament's page.
    near = Q(pk__in=[])
    for r in results:
        near |= Q(
            table_id=r.table_id,
            position__gte=r.position - NEAR,
            position__lte=r.position + NEAR,
        )
    lines: dict[int, list[dict]] = defaultdict(list)
    for table_id, detail, name in (
        StandingsRow.objects.filter(near)
        .order_by("table_id", "position")
        .values_list("table_id", "detail", "player__name")
    ):
        lines[table_id].append({**detail, "name": name or detail["player"]})
    table_rows = [
        {
            "date": _date(r.table.data["date"]),
            "tournament": r.table.data["name"],
            "place": r.detail["place"],
            "country": r.detail["country"],
            "points": r.detail["points"],
            "series_points": r.detail["series_points"],
            "counted": r.table.key in counted,
            "url": season_url(season, "tournament", r.table.key),
            "data": r.table.data,
            "entries": participant_lines(
                lines[r.table_id], r.table.data, start=max(0, r.position - NEAR) + 1
            ),
            "whole": r.table.data["participants"] > len(lines[r.table_id]),
            "player": player.key,
        }
        for r in results
    ]
    chart = {
        "type": "bar",
        "labels": [row["tournament"] for row in table_rows],
        "datasets": [
            {"label": _("GP points"), "data": [row["points"] for row in table_rows]},
        ],
        "y_label": _("GP points"),
        "integer": True,
    }
    return "rankings/othello/player_section.html", {
        "standing": standing,
        "table": t.PlayerResultsTable(table_rows),
        "chart": chart,
        "chart_id": f"gp-chart-{season.pk}",
        "next_url": season_url(season, "next") + "?" + urlencode({"player": player.key}),
        "scripts": ["vendor/chartjs/chart.umd.min.js", "js/charts.js"],
    }
