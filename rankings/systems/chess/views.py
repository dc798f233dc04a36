"""Chess public pages: the season overview, a tournament (its groups and BGP points), a group's
crosstable (printable, downloadable, TRF16), the season's BGP standings per class, and the chess
section of the player page. Each view gets the season from the shared dispatcher and reads stored
standings only (the TRF16 file reads the group's results)."""

import datetime
from collections import defaultdict
from collections.abc import Sequence

from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.html import format_html, format_html_join
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_tables2 import RequestConfig
from django_tables2.data import TableListData

from competitions.models import Group, Season
from competitions.text import html_message, isolated, isolated_text
from rankings.engines import chess as engine
from rankings.exports import SafeTableExport
from rankings.models import StandingsRow, StandingsTable
from rankings.people import People
from rankings.selectors import lines_of, stored_tables
from rankings.urls_helpers import season_url
from rankings.views import export_or_render, season_context

from . import tables as t
from . import tiebreaks as tb
from .standings import KIND_BGP, KIND_CLASS, KIND_GROUP, quarters
from .tables import chess_number
from .trf import group_trf

SCALE_LABELS = {"1-half-0": "1-½-0", "3-2-1": "3-2-1"}

# Rows shown at once: a crosstable page, a class of a tournament's BGP points, a class's
# standings page, and the first rows of each class on the page of all classes.
GROUP_PER_PAGE = 20
BGP_PER_PAGE = 10
CLASS_PER_PAGE = 50
CLASS_PREVIEW = 10


def page_bounds(request, count: int, per_page: int, prefix: str = "") -> tuple[int, int]:
    """The rows [start, stop) of the page django-tables2 will show (`?<prefix>page=`; a page
    out of range shows the last one, as RequestConfig does)."""
    pages = max(1, -(-count // per_page))
    try:
        number = int(request.GET.get(f"{prefix}page", 1))
    except (TypeError, ValueError):
        number = 1
    number = min(max(number, 1), pages)
    start = (number - 1) * per_page
    return start, min(start + per_page, count)


class PageRows(Sequence):
    """The rows of a paginated table of `count` rows of which only those of the page shown
    ([start, start + len(rows))) are built: the paginator slices exactly that page."""

    def __init__(self, count: int, start: int, rows: list[dict]) -> None:
        self.count, self.start, self.rows = count, start, rows

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, key):
        if isinstance(key, slice):
            first, stop, _step = key.indices(self.count)
            return self.rows[max(first - self.start, 0) : max(stop - self.start, 0)]
        if not self.start <= key < self.start + len(self.rows):
            raise IndexError(key)
        return self.rows[key - self.start]


def page_data(count: int, start: int, rows: list[dict]) -> TableListData:
    """Table data of `count` rows, of which `rows` (from `start`) are the page shown (given as
    TableData: django-tables2 would copy any other sequence into a list)."""
    return TableListData(PageRows(count, start, rows))


def paginate(request, table, per_page: int, prefix: str = ""):
    """The page `page_bounds` chose (`?per_page=` does not change it: only its rows are
    built)."""
    count = len(table.data)
    start, _stop = page_bounds(request, count, per_page, prefix)
    table.request = request
    table.paginate(per_page=per_page, page=start // per_page + 1)
    return table


def _date(value: str | None) -> datetime.date | None:
    return datetime.date.fromisoformat(value) if value else None


def overview(request, season: Season):
    stored = defaultdict(list)
    for table in stored_tables(season, [KIND_BGP, KIND_CLASS], rows_limit=3):
        stored[table.kind].append(table)
    people = People(season, [r["player"] for c in stored[KIND_CLASS] for r in c.row_details])
    tournaments = t.TournamentListTable(
        [
            {
                "date": _date(tb.data["date"]),
                "name": tb.data["name"],
                "county": tb.data["county"],
                "groups": len(tb.data["groups"]),
                "participants": tb.data["participants"],
                "url": season_url(season, "tournament", tb.key),
            }
            for tb in stored[KIND_BGP]
        ]
    )
    classes = [
        {
            "name": c.data["name"],
            "url": season_url(season, "class", c.key),
            "leaders": [people.decorate(r) for r in c.row_details],
        }
        for c in stored[KIND_CLASS]
    ]
    return render(
        request,
        "rankings/chess/season.html",
        season_context(
            request,
            season,
            tab="",
            tournament_table=tournaments,
            classes=classes,
            provisional=provisional_note(season, bgp_tables=stored[KIND_BGP]),
        ),
    )


def _scale_rule(section: dict, data: dict) -> str:
    """chess-othello-options.md §2: why a class had its own scale, and the scale."""
    values = {
        "scale": ", ".join(str(n) for n in section["scale"]),
        "further": data["further"],
    }
    if section["rule"] == engine.RULE_COUNTY_DENSE:
        text = _(
            "County championship (Kretsmesterskap) on the dense scale (USF rules from 2024): "
            "%(scale)s, then %(further)s for every further place."
        )
    elif section["rule"] == engine.RULE_DENSE:
        text = _(
            "Dense scale granted to this tournament (BGP rules 1996/1998): %(scale)s, then "
            "%(further)s for every further place."
        )
    else:
        text = _(
            "A small class (fewer than %(under)s players in the tournament) or every "
            "participant of one club: the small-class scale (BGP rules 1996/1998): %(scale)s, "
            "then %(further)s for every further place."
        )
        values["under"] = data.get("alt_class_under", "")
    return text % values


def _bgp_explain(row: dict, data: dict) -> str:
    section = next(
        (c for c in data.get("classes") or () if c["name"] == row["class"] and "rule" in c), None
    )
    if section is not None:
        rule = _scale_rule(section, data)
    elif data["county"]:
        rule = _(
            "County championship (Kretsmesterskap): %(winner)s to each class winner, %(others)s "
            "to everyone else."
        ) % {"winner": data["county_winner"], "others": data["county_others"]}
    else:
        rule = _(
            "%(n)s participants, the %(which)s scale: %(scale)s, then %(further)s for every "
            "further place."
        ) % {
            "n": data["participants"],
            "which": _("long") if data["large_scale"] else _("short"),
            "scale": ", ".join(str(n) for n in data["scale"]),
            "further": data["further"],
        }
    values = {
        "place": row["place"],
        "class": row["class"],
        "group": isolated(row["group"]),
        "gp": row["group_place"],
        "after": row.get("after"),
    }
    if row.get("after"):
        # chess-othello-options.md §2.2
        place = html_message(
            _(
                "Beginner: place %(place)s in class %(class)s, after its %(after)s other "
                "players in the tournament (USF rules, point 3); group place %(gp)s in "
                "%(group)s."
            ),
            values,
        )
    else:
        place = html_message(
            _("Place %(place)s in class %(class)s in %(group)s (group place %(gp)s)."), values
        )
    return format_html("{}<br>{}", place, rule)


def tournament_detail(request, season: Season, tournament: str):
    stored = StandingsTable.objects.filter(season=season, kind=KIND_BGP, key=tournament).first()
    if stored is None:
        raise Http404(_("No such tournament."))
    data = stored.data
    rows = StandingsRow.objects.filter(table=stored).order_by("position")
    # Each class is a table of its own pages (`?<slug>-page=`): only the rows shown are read.
    sections = data.get("classes")
    if sections is None:  # stored before the class index: read them all
        by_class: dict[str, int] = {}
        details = list(rows.values_list("detail", flat=True))
        for r in details:
            by_class[r["class"]] = by_class.get(r["class"], 0) + 1
        sections, start = [], 0
        for name, count in by_class.items():
            sections.append({"name": name, "start": start, "rows": count})
            start += count
    else:
        details = None
    shown, wanted = [], Q()
    for i, section in enumerate(sections):
        slug = slugify(section["name"]) or f"c{i}"
        start, stop = page_bounds(request, section["rows"], BGP_PER_PAGE, f"{slug}-")
        first = section["start"] + start
        shown.append((section, slug, start, first, first + stop - start))
        wanted |= Q(position__gte=first, position__lt=first + stop - start)
    if details is None:
        page_rows = list(rows.filter(wanted).values_list("position", "detail")) if shown else []
    else:
        page_rows = list(enumerate(details))
    by_position = dict(page_rows)
    people = People(
        season,
        [by_position[p]["player"] for *_x, a, b in shown for p in range(a, b) if p in by_position],
    )
    classes = []
    for section, slug, start, first, last in shown:
        decorated = [
            {
                **people.decorate(r),
                "points_explain": _bgp_explain(r, data),
                "group_url": season_url(season, "group", tournament, r["group_id"]),
            }
            for r in (by_position[p] for p in range(first, last) if p in by_position)
        ]
        table = t.BgpTable(page_data(section["rows"], start, decorated), prefix=f"{slug}-")
        paginate(request, table, BGP_PER_PAGE, f"{slug}-")
        classes.append({"name": section["name"], "table": table, "slug": slug})
    groups = [
        {
            **g,
            "scale": SCALE_LABELS.get(g["scale"], g["scale"]),
            "url": season_url(season, "group", tournament, g["id"]),
        }
        for g in data["groups"]
    ]
    return render(
        request,
        "rankings/chess/tournament.html",
        season_context(
            request,
            season,
            tournament=data,
            tournament_date=_date(data["date"]),
            groups=groups,
            groups_waiting=", ".join(isolated_text(name) for name in data.get("waiting", [])),
            classes=classes,
        ),
    )


def _term_rows(terms: list[dict], column: int, people: People):
    """The terms of Monrad column `column` (1-based), those left out struck through: a term with
    cut k is left out of the first k columns."""
    return format_html_join(
        "",
        '<tr class="{}"><td>{}</td><td>{}</td><td class="text-end">{}</td></tr>',
        (
            (
                "text-decoration-line-through text-body-secondary" if term["cut"] >= column else "",
                term["round"],
                isolated(people.name(term["opponent"])) if term["opponent"] else _("no real game"),
                chess_number(term["value"]),
            )
            for term in terms
        ),
    )


def _monrad_explain(row: dict, column: int, columns: int, people: People) -> str:
    left_out = columns - column  # how many of the lowest terms the column leaves out
    lowest = {2: _("the two lowest"), 1: _("the lowest"), 0: _("none")}[left_out]
    return format_html(
        '<div class="small mb-1">{}</div><table class="table table-sm mb-1"><thead><tr><th>{}</th>'
        '<th>{}</th><th class="text-end">{}</th></tr></thead><tbody>{}</tbody></table>'
        '<div class="small">{}</div>',
        _("Each opponent's final points; a round without a real game counts 0. Left out: %(cut)s.")
        % {"cut": lowest},
        _("Round"),
        _("Opponent"),
        _("Points"),
        _term_rows(row["terms"], column, people),
        _("Sum: %(sum)s") % {"sum": chess_number(row["monrad"][column - 1])},
    )


def _berger_explain(row: dict, people: People) -> str:
    if not row["berger_terms"]:
        return format_html("{}", _("No opponent beaten or drawn with in a real game: 0."))
    items = format_html_join(
        "",
        "<li>{}</li>",
        (
            (
                html_message(
                    _("beat %(name)s (%(points)s): %(value)s")
                    if term["kind"] == "win"
                    else _("drew with %(name)s (%(points)s), half: %(value)s"),
                    {
                        "name": isolated(people.name(term["opponent"])),
                        "points": chess_number(term["opponent_points"]),
                        "value": chess_number(term["value"]),
                    },
                ),
            )
            for term in row["berger_terms"]
        ),
    )
    return format_html(
        '<ul class="small ps-3 mb-1">{}</ul><div class="small">{}</div>',
        items,
        _("Sum: %(sum)s") % {"sum": chess_number(row["berger"])},
    )


# A result's kind as a player's explanation names it: translated when shown, one kind at a
# time (a dict of all eight translated for every result of every row made 8 lookups each).
KIND_LABELS = {
    "win": gettext_lazy("win"),
    "draw": gettext_lazy("draw"),
    "loss": gettext_lazy("loss"),
    "forfeit-win": gettext_lazy("forfeit win (WO)"),
    "forfeit-loss": gettext_lazy("forfeit loss"),
    "walkover": gettext_lazy("walkover (WO)"),
    "none": gettext_lazy("not played"),
    "pending": gettext_lazy("result to come"),
    "half-bye": gettext_lazy("half-point bye"),
}


def _kind_label(kind: str) -> str:
    label = KIND_LABELS.get(kind)
    return kind if label is None else str(label)


def _points_explain(row: dict, people: People) -> str:
    items = format_html_join(
        "",
        '<tr><td>{}</td><td>{}</td><td>{}</td><td class="text-end">{}</td></tr>',
        (
            (
                number,
                _kind_label(r["kind"]),
                isolated(people.name(r["opponent"])) if r["opponent"] else "",
                chess_number(r["points"]),
            )
            for number, r in enumerate(row["results"], start=1)
        ),
    )
    return format_html(
        '<table class="table table-sm mb-1"><tbody>{}</tbody></table><div class="small">{}</div>',
        items,
        _("Sum: %(sum)s") % {"sum": chess_number(row["points"])},
    )


REAL = ("win", "draw", "loss")


def explained_row(r: dict, scale: str) -> dict:
    """A stored crosstable row with the round results, Monrad terms and Berger terms its
    explanations list, derived from its per-round lists (the stored table is compact)."""
    if "kinds" not in r:  # stored before the compact rows: it lists them already
        return r
    points_of = engine.SCALED.get(scale, engine.SCALED[engine.ONE_HALF_ZERO])
    results, terms, berger = [], [], []
    for number, (kind, opponent, value, cut) in enumerate(
        zip(r["kinds"], r["opponents"], r["terms"], r["cuts"], strict=True), start=1
    ):
        results.append(
            {"kind": kind, "opponent": opponent, "points": quarters(points_of.get(kind, 0))}
        )
        terms.append(
            {
                "round": number,
                "opponent": opponent if kind in REAL else None,
                "value": value,
                "cut": cut,
            }
        )
        if kind in ("win", "draw"):
            half = value / 2 if kind == "draw" else value
            berger.append(
                {
                    "opponent": opponent,
                    "kind": kind,
                    "opponent_points": value,
                    "value": int(half) if half == int(half) else half,
                }
            )
    return {**r, "results": results, "terms": terms, "berger_terms": berger}


def group_rows(
    rows: list[dict], columns: int, people: People, scale: str, data: dict | None = None
) -> list[dict]:
    result = []
    for stored in rows:
        r = explained_row(stored, scale)
        row = {
            **people.decorate(r),
            "born": r.get("born") or "",
            "points_explain": _points_explain(r, people),
            "berger": r["berger"],
            "berger_explain": _berger_explain(r, people),
        }
        for n, value in enumerate(r["cells"], start=1):
            row[f"r{n}"] = value
        for k in range(1, columns + 1):
            row[f"m{k}"] = r["monrad"][k - 1]
            row[f"m{k}_explain"] = _monrad_explain(r, k, columns, people)
        if data is not None and tb.is_custom(data):
            tb.columns([row], [r], data, people, _berger_explain)
        result.append(row)
    return result


def _file_stem(season: Season, tournament: str, name: str, pk: int) -> str:
    """A download's name: ASCII slugs only (a group name may hold anything)."""
    return f"{season.series.slug}-{season.slug}-{slugify(tournament)}-{slugify(name) or pk}"


def group_detail(request, season: Season, tournament: str, group: int):
    """The crosstable, a page of rows at a time (only those rows are read); a download holds
    every row."""
    stored = StandingsTable.objects.filter(season=season, kind=KIND_GROUP, key=str(group)).first()
    if stored is None or stored.data["tournament"] != tournament:
        raise Http404(_("No such group."))
    data = stored.data
    stem = _file_stem(season, data["tournament"], data["name"], data["id"])
    rows = StandingsRow.objects.filter(table=stored).order_by("position")
    if SafeTableExport.is_valid_format(request.GET.get("_export")):
        details = list(rows.values_list("detail", flat=True))
        people = People(season, [r["player"] for r in details])
        table = t.crosstable(
            [_export_row(r, people) for r in details],
            data["rounds"],
            data["columns"],
            tb.headers(data),
        )
        return export_or_render(request, table, stem, "rankings/chess/group.html", {})
    count = data["players"]
    start, stop = page_bounds(request, count, GROUP_PER_PAGE)
    details = list(
        rows.filter(position__gte=start, position__lt=stop).values_list("detail", flat=True)
    )
    keys = {r["player"] for r in details}
    keys.update(o for r in details for o in _opponents(r) if o)
    people = People(season, keys)
    table = t.crosstable(
        page_data(count, start, group_rows(details, data["columns"], people, data["scale"], data)),
        data["rounds"],
        data["columns"],
        tb.headers(data),
    )
    paginate(request, table, GROUP_PER_PAGE)
    return render(
        request,
        "rankings/chess/group.html",
        season_context(
            request,
            season,
            group=data,
            scale=SCALE_LABELS.get(data["scale"], data["scale"]),
            tiebreak_legend=tb.legend(data) if tb.is_custom(data) else None,
            # start_numbers.py (None: stored before the page said it)
            start_by_rating={"rating": True, "organiser": False}.get(data.get("start_numbers")),
            table=table,
            tournament_url=season_url(season, "tournament", tournament),
        ),
    )


def _opponents(r: dict) -> list:
    if "opponents" in r:
        return r["opponents"]
    return [o.get("opponent") for o in r.get("results", [])]  # stored before the compact rows


def _export_row(r: dict, people: People) -> dict:
    row = {**people.decorate(r), "born": r.get("born") or ""}
    for n, value in enumerate(r["cells"], start=1):
        row[f"r{n}"] = value
    for k, value in enumerate(r["monrad"], start=1):
        row[f"m{k}"] = value
    for k, item in enumerate(r.get("tiebreaks", []), start=1):
        row[f"tb{k}"] = item["value"]
    return row


def group_trf_download(request, season: Season, tournament: str, group: int):
    found = (
        Group.objects.select_related("tournament")
        .filter(pk=group, tournament__season=season, tournament__key=tournament)
        .first()
    )
    if found is None:
        raise Http404(_("No such group."))
    response = HttpResponse(group_trf(season, found), content_type="text/plain; charset=utf-8")
    name = _file_stem(season, tournament, found.name, found.pk)
    response["Content-Disposition"] = f'attachment; filename="{name}.trf"'
    return response


def provisional_note(season: Season, class_name: str | None = None, bgp_tables=None):
    """rules.md §3 Decision (issue 46): the season's groups whose BGP points are still to come
    (rounds to play or results to come), each with its tournament, linked to the tournament's
    page that says the same; with `class_name`, only the groups with a player of that class.
    HTML for the BGP standings, or None when every group has been played. One query (none
    given the season's stored BGP tables), and one more for a class while groups are to come."""
    if bgp_tables is None:
        bgp = (
            StandingsTable.objects.filter(season=season, kind=KIND_BGP)
            .order_by("position")
            .values_list("key", "data__name", "data__waiting", "data__groups")
        )
    else:
        bgp = [
            (t.key, t.data["name"], t.data.get("waiting"), t.data.get("groups")) for t in bgp_tables
        ]
    waiting = []  # (tournament key, tournament name, group name, group id)
    for key, name, names, groups in bgp:
        ids = {g["name"]: g["id"] for g in groups or ()}
        waiting.extend((key, name, group, ids.get(group)) for group in names or ())
    if not waiting:
        return None
    if class_name is not None:
        with_class = set(
            StandingsRow.objects.filter(
                table__season=season,
                table__kind=KIND_GROUP,
                table__key__in=[str(pk) for *_x, pk in waiting],
                detail__class=class_name,
            ).values_list("table__key", flat=True)
        )
        waiting = [w for w in waiting if str(w[3]) in with_class]
        if not waiting:
            return None
    groups = format_html_join(
        ", ",
        '{} (<a class="alert-link" href="{}">{}</a>)',
        (
            (isolated(group), season_url(season, "tournament", key), isolated(name))
            for key, name, group, _pk in waiting
        ),
    )
    return html_message(
        _(
            "Provisional: these standings do not yet count the BGP points of groups with rounds "
            "to play or results to come: %(groups)s. Their players get those points when all "
            "the group's rounds have results."
        ),
        {"groups": groups},
    )


def classes(request, season: Season):
    """Each class's leaders; its page lists everyone."""
    stored = StandingsTable.objects.filter(season=season, kind=KIND_CLASS).order_by("position")
    leaders: dict[int, list] = defaultdict(list)
    for line in lines_of(season=season, kind=KIND_CLASS, key=None).filter(
        position__lt=CLASS_PREVIEW
    ):
        leaders[line.table_id].append(line)
    names = dict(season.tournaments.values_list("key", "name"))
    sections = [
        {
            "name": c.data["name"],
            "url": season_url(season, "class", c.key),
            "table": t.ClassTable(leaders[c.pk], season=season, names=names, orderable=False),
            "players": c.data.get("players", len(leaders[c.pk])),
            "more": max(0, c.data.get("players", 0) - len(leaders[c.pk])),
        }
        for c in stored
    ]
    return render(
        request,
        "rankings/chess/classes.html",
        season_context(
            request, season, tab="classes", sections=sections, provisional=provisional_note(season)
        ),
    )


def class_detail(request, season: Season, cls: str):
    """A class's standings, a page at a time; a download holds every line."""
    stored = StandingsTable.objects.filter(season=season, kind=KIND_CLASS, key=cls).first()
    if stored is None:
        raise Http404(_("No such class in this season."))
    table = t.ClassTable(
        lines_of(season=season, kind=KIND_CLASS, key=stored.key),
        season=season,
        names=dict(season.tournaments.values_list("key", "name")),
    )
    if not SafeTableExport.is_valid_format(request.GET.get("_export")):
        RequestConfig(request, paginate={"per_page": CLASS_PER_PAGE}).configure(table)
    return export_or_render(
        request,
        table,
        f"{season.series.slug}-{season.slug}-bgp-{stored.key}",
        "rankings/chess/class.html",
        season_context(
            request,
            season,
            tab="classes",
            name=stored.data["name"],
            table=table,
            provisional=provisional_note(season, stored.data["name"]),
        ),
    )


def player_section(player, season: Season, rows):
    """The player's groups of a season: place, points and BGP points; his class standings."""
    groups = [r for r in rows if r.table.kind == KIND_GROUP]
    if not groups:
        return None
    bgp = {r.table.key: r.detail for r in rows if r.table.kind == KIND_BGP}
    table = t.PlayerSeasonTable(
        [
            {
                "date": _date(r.table.data["date"]),
                "tournament": r.table.data["tournament_name"],
                "group": r.table.data["name"],
                "place": r.rank,
                "points": r.detail["points"],
                "bgp": (bgp.get(r.table.data["tournament"]) or {}).get("points"),
                "url": season_url(season, "group", r.table.data["tournament"], r.table.data["id"]),
            }
            for r in groups
        ],
        orderable=False,
    )
    standings = [
        {
            "name": r.table.data["name"],
            "rank": r.rank,
            "points": r.detail["points"],
            "url": season_url(season, "class", r.table.key),
        }
        for r in rows
        if r.table.kind == KIND_CLASS
    ]
    return "rankings/chess/player_section.html", {"table": table, "standings": standings}
