"""Public pages shared by every system: the competitions, a series, a season's frame, the player
page, the season downloads and the help page.

A season's own pages (its overview, rankings, tournaments, ...) are the system's views
(`SystemSpec.pages`), reached through `season_detail` and `season_page`. Every page reads
stored standings: a fixed handful of queries whatever the number of players, and never a write.
"""

import json
import re
from collections import defaultdict

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from competitions.dispatch import resolve_system_page
from competitions.models import Player, Season, Series
from competitions.registry import all_systems, get_system
from competitions.selectors import players_found

from .exports import SafeTableExport, csv_archive, csv_tables, names_of
from .pagecache import season_from_request
from .selectors import player_rows, standings_document, standings_state
from .tables import PlayerIndexTable
from .urls_helpers import player_urls, season_url


def season_of(series: str, season: str, request=None) -> Season:
    """The season, as the page cache read it for this request if it did (no second query)."""
    found = request is not None and season_from_request(request, series, season)
    if found:
        return found
    return get_object_or_404(
        Season.objects.select_related("series"), series__slug=series, slug=season
    )


def season_context(request, season: Season, *, tab: str | None = None, **extra) -> dict:
    """What every season page shows around its content: the header, the state of the
    standings, the system's tabs and the other seasons of the series."""
    spec = get_system(season.system)
    tabs = []
    if spec.pages is not None:
        tabs = [
            {"label": t.label, "url": season_url(season, t.name), "active": t.name == tab}
            for t in spec.pages.tabs
        ]
    return {
        "season": season,
        "spec": spec,
        "standings": standings_state(season, spec),
        "tabs": tabs,
        "can_manage": season.series.is_manager(request.user),
        "other_seasons": other_seasons(request, season),
        **extra,
    }


def other_seasons(request, season: Season) -> list[Season]:
    """The seasons of the series, newest first (as the page cache read them, if it did)."""
    read = getattr(request, "public_seasons", None)
    if read and any(s.pk == season.pk for s in read):
        return read
    return list(season.series.seasons.order_by("-label").only("pk", "label", "slug", "series_id"))


def export_or_render(
    request, table, filename: str, template: str, context: dict, *, title: str = ""
):
    """A page with a table that also downloads as CSV or XLSX (`?_export=csv`), every cell
    neutralised (rankings.exports), the spreadsheet's sheet named `title`."""
    RequestConfig(request, paginate=False).configure(table)
    export_format = request.GET.get("_export")
    if SafeTableExport.is_valid_format(export_format):
        # A sheet name holds at most 31 characters and none of []:*?/\ (Excel's rule).
        sheet = re.sub(r"[\[\]:*?/\\]", " ", title or filename)[:31].strip() or "Standings"
        export = SafeTableExport(export_format, table, dataset_kwargs={"title": sheet})
        return export.response(f"{filename}.{export_format}")
    return render(request, template, context)


def home(request):
    series = Series.objects.prefetch_related("seasons").order_by("name")
    return render(request, "rankings/home.html", {"series_list": series})


def series_detail(request, series):
    found = get_object_or_404(Series, slug=series)
    latest = found.seasons.order_by("-label").first()
    if latest is None:
        raise Http404(_("This series has no season yet."))
    return redirect("season", series=found.slug, season=latest.slug)


def season_detail(request, series, season):
    season = season_of(series, season, request)
    spec = get_system(season.system)
    if spec.pages is None:
        return render(request, "rankings/unavailable.html", season_context(request, season, tab=""))
    return spec.pages.overview(request, season)


def season_page(request, series, season, rest):
    """A public page of the season's system (its `pages.urls`)."""
    season = season_of(series, season, request)
    pages = get_system(season.system).pages
    match = resolve_system_page((pages.urls,) if pages and pages.urls else (), rest)
    return match.func(request, season, *match.args, **match.kwargs)


def players(request, series):
    """Every player of the series, searchable by name or club, accents and case ignored."""
    found = get_object_or_404(Series, slug=series)
    query = request.GET.get("q", "")[:100]
    rows = [
        {"name": p.name, "club": p.club, "key": p.key, "order": p.order}
        for p in players_found(found, query)
    ]
    table = PlayerIndexTable(rows, url_of_key=player_urls(found.slug))
    RequestConfig(request, paginate={"per_page": 100}).configure(table)
    return render(
        request,
        "rankings/players.html",
        {"series": found, "table": table, "query": query, "count": len(rows)},
    )


def player_detail(request, series, player):
    player = get_object_or_404(
        Player.objects.select_related("series", "club"), series__slug=series, key=player
    )
    by_season: dict[int, list] = defaultdict(list)
    seasons: dict[int, Season] = {}
    for row in player_rows(player=player):
        by_season[row.season_id].append(row)
        seasons[row.season_id] = row.season
    sections = []
    for season_id, rows in by_season.items():
        season = seasons[season_id]
        pages = get_system(season.system).pages
        if pages is None or pages.player_section is None:
            continue
        section = pages.player_section(player, season, rows)
        if section is not None:
            template, context = section
            sections.append({"season": season, "template": template, **context})
    # Scripts a section needs (e.g. a chart), each loaded once after the page.
    scripts = list(dict.fromkeys(s for section in sections for s in section.get("scripts", ())))
    return render(
        request,
        "rankings/player.html",
        {"player": player, "sections": sections, "scripts": scripts},
    )


def standings_download(request, series, season, fmt):
    if fmt not in ("json", "zip"):
        raise Http404(_("Unknown download format."))
    season = season_of(series, season, request)
    if not get_system(season.system).available:
        raise Http404(_("Standings for this system are not available yet."))
    document = standings_document(season=season)
    names = names_of(season)
    stem = f"{season.series.slug}-{season.slug}-standings"
    if fmt == "json":
        # The document of interchange.md, with the names behind its ids for a reader.
        readable = {**document, "names": {k: names[k] for k in ("players", "clubs")}}
        readable["names"]["tournaments"] = {
            key: t["name"] for key, t in names["tournaments"].items()
        }
        response = HttpResponse(
            json.dumps(readable, ensure_ascii=False, indent=2), content_type="application/json"
        )
        response["Content-Disposition"] = f'attachment; filename="{stem}.json"'
        return response
    response = HttpResponse(
        csv_archive(csv_tables(season.system, document, names)), content_type="application/zip"
    )
    response["Content-Disposition"] = f'attachment; filename="{stem}-csv.zip"'
    return response


def help_page(request):
    sections = [
        {"key": spec.key, "name": spec.name, "template": spec.pages.help_template}
        for spec in all_systems()
        if spec.pages is not None and spec.pages.help_template
    ]
    return render(request, "rankings/help.html", {"sections": sections})
