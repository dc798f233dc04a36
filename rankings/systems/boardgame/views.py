"""Board-game public pages: season overview, tournament (and its tournament-day screen), yearly,
LUDO, per-game rankings, and the board-game section of the player page. Each view gets the
season from the shared dispatcher; every number on them opens its computation (explain.py)."""

import datetime
from collections import defaultdict

from django.core.paginator import Paginator
from django.db.models import Count
from django.db.models.fields.json import KT
from django.http import Http404
from django.shortcuts import render
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from competitions.models import Club, Season
from competitions.systems.boardgame.settings import parse_settings
from competitions.text import isolated
from rankings.models import StandingsRow, StandingsTable
from rankings.people import People
from rankings.selectors import lines_of, table_data_subset
from rankings.tables import display_points, explained
from rankings.urls_helpers import season_url
from rankings.views import export_or_render, season_context

from . import explain
from . import tables as t
from .selectors import StoredTournament, stored_tournament
from .standings import KIND_GAME, KIND_LUDO, KIND_TOURNAMENT, KIND_YEARLY

# A ranking shows this many lines a page; a tournament's round this many tables a page, and its
# prize ceremony this many names until a visitor asks for all (a field of 2000 players is not
# read at once).
PER_PAGE = 50
# The day's ranking on the tournament page shows whole up to PER_PAGE lines (a club's day reads
# on one page); a larger day's, DAILY_PER_PAGE lines a page: the page also shows a round's
# tables, the ceremony and the interclub, and each line opens three explanations (the daily
# total's with the player's every table). At 50 lines a page, a day of 2000 players took 20-30
# times the help page (`make bench`, envelope 20). ?per_page= shows more (tables.page_size).
DAILY_PER_PAGE = 25
TABLES_PER_PAGE = 12
CEREMONY_SHOWN = 100
# The tournament-day screen (a projector) shows this many lines of the ranking and names of
# those without a table yet, and how many more there are.
LIVE_SHOWN = 100


def _paginated(request, table, per_page: int = PER_PAGE):
    RequestConfig(request, paginate={"per_page": per_page}).configure(table)
    return table


def _date(value: str | None) -> datetime.date | None:
    return datetime.date.fromisoformat(value) if value else None


def progress(data: dict, rounds_per_tournament: int) -> dict:
    """Whether a tournament is over: its date has passed, or every round has tables. Until
    then its ranking is the standing after the rounds played, not a result."""
    played = data.get("played")
    if played is None:
        played = max((tb["round"] for tb in data["tables"]), default=0)
    day = _date(data["date"])
    finished = played > 0 and (
        played >= rounds_per_tournament or (day is not None and day < timezone.localdate())
    )
    return {"played": played, "of": rounds_per_tournament, "finished": finished}


def _player_links(people: People, keys) -> str:
    return format_html_join(
        ", ",
        '<a href="{}">{}</a>',
        ((people.url(k), isolated(people.name(k))) for k in keys),
    )


SUMMARY_FIELDS = ("name", "date", "final", "participants", "cap", "cap_source", "played", "game")
TEXT_FIELDS = {"name", "date", "game"}


def _overview_data(season: Season) -> tuple[list[dict], list[dict], dict]:
    """(tournaments, games, each tournament's leaders) in two queries, without loading the
    tournaments' tables (one of 2000 players stores 1,000): a few keys of each stored table,
    then the leaders' lines."""
    tournaments, games = [], []
    stored = StandingsTable.objects.filter(
        season=season, kind__in=[KIND_TOURNAMENT, KIND_GAME]
    ).order_by("kind", "position")
    subset = table_data_subset(SUMMARY_FIELDS)
    if subset is not None:
        # One read of each (large) data value instead of one per summary key.
        rows = (
            (kind, key, *(summary.get(f) for f in SUMMARY_FIELDS))
            for kind, key, summary in stored.annotate(summary=subset).values_list(
                "kind", "key", "summary"
            )
        )
    else:
        # The texts as text (KT): SQLite's JSON extraction gives a name like "2025" or a game
        # like "1846" back as a number.
        rows = stored.values_list(
            "kind",
            "key",
            *(KT(f"data__{f}") if f in TEXT_FIELDS else f"data__{f}" for f in SUMMARY_FIELDS),
        )
    for kind, key, *values in rows:
        found = {"key": key, **dict(zip(SUMMARY_FIELDS, values, strict=True))}
        (tournaments if kind == KIND_TOURNAMENT else games).append(found)
    leaders: dict[str, list[str]] = {tb["key"]: [] for tb in tournaments}
    for key, player in (
        StandingsRow.objects.filter(season=season, table__kind=KIND_TOURNAMENT, rank=1)
        .order_by("table__position", "position")
        .values_list("table__key", KT("detail__player"))
    ):
        if key in leaders:
            leaders[key].append(player)
    for tb in tournaments:
        if tb["played"] is None:  # stored before "played" was: count the rounds of its tables
            data = StandingsTable.objects.get(season=season, kind=KIND_TOURNAMENT, key=tb["key"])
            tb["played"] = max((x["round"] for x in data.data["tables"]), default=0)
    return tournaments, games, leaders


def overview(request, season: Season):
    tournaments, game_tables, leaders = _overview_data(season)
    people = People(season, [k for ws in leaders.values() for k in ws])
    rounds = parse_settings(season.settings).rounds_per_tournament
    rows = []
    for tb in tournaments:
        state = progress(tb, rounds)
        winners = _player_links(people, leaders[tb["key"]])
        if leaders[tb["key"]] and not state["finished"]:
            winners = format_html(
                '{} <span class="badge text-bg-info">{}</span>',
                winners,
                _("leading after round %(n)s") % {"n": state["played"]},
            )
        rows.append(
            {
                "date": _date(tb["date"]),
                "name": tb["name"] + (" ★" if tb["final"] else ""),
                "participants": tb["participants"],
                "winners_html": winners or "–",
                "url": season_url(season, "tournament", tb["key"]),
            }
        )
    top = t.YearlyTable(
        lines_of(season=season, kind=KIND_YEARLY)[:10],
        season=season,
        orderable=False,
        exclude=("counted_names", "club"),
    )
    games = [{"game": g["game"], "url": season_url(season, "game", g["key"])} for g in game_tables]
    cap_source = tournaments[0]["cap_source"] if tournaments else None
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
            cap=tournaments[0]["cap"] if tournaments else None,
            cap_why=explain.cap(cap_source) if cap_source else "",
        ),
    )


def _page_number(request, name: str) -> int:
    try:
        return max(1, int(request.GET.get(name, 1)))
    except (TypeError, ValueError):
        return 1


def _tournament_page_data(
    request, season: Season, stored: StoredTournament, lines: list[dict]
) -> dict:
    """The tournament's tables and ceremony with names and explanations; a page of each
    round's tables, read with those of the daily ranking's `lines` shown (from the stored
    tournament without the rest of its day: selectors.py)."""
    data = stored.data
    counts = stored.round_counts()
    most = max(counts.values(), default=0)
    # A day whose rounds fit on a page shows them all; a larger one a round at a time (the
    # latest unless another is asked for), a page of tables at a time.
    one_round = None
    if most > TABLES_PER_PAGE:
        asked = _page_number(request, "round")
        one_round = asked if asked in counts and "round" in request.GET else max(counts)
        most = counts[one_round]
    pages = Paginator(range(most), TABLES_PER_PAGE)
    page = pages.get_page(_page_number(request, "tables"))
    if most:  # the tables shown and those of the lines shown, in one read
        stored.prefetch(page.start_index() - 1, page.end_index(), one_round, lines)
    shown_tables = (
        stored.tables_shown(page.start_index() - 1, page.end_index(), one_round) if most else {}
    )
    # Names and clubs only of the players this page shows: the tables shown, the ceremony's
    # names and the interclub's players (the daily ranking's lines have their own).
    every_name = request.GET.get("ceremony") == "all"
    people = People(
        season,
        {
            *(r["player"] for tbs in shown_tables.values() for tb in tbs for r in tb["results"]),
            *(
                c["player"]
                for c in (data["ceremony"] if every_name else data["ceremony"][:CEREMONY_SHOWN])
                if "player" in c
            ),
            *(k for c in data["interclub"] for k in c["players"]),
        },
    )
    rounds = []
    for number in sorted(counts) if one_round is None else [one_round]:
        entries = []
        for tb in shown_tables.get(number, []):
            size = len(tb["results"])
            entries.append(
                {
                    "number": tb["number"],
                    "game": tb["game"],
                    "table": t.seat_table(
                        [
                            {**people.decorate(r), "score_why": explain.seat_score(r, size)}
                            for r in tb["results"]
                        ]
                    ),
                }
            )
        rounds.append((number, entries))
    return {
        "people": people,
        "rounds": rounds,
        "tables_page": page if pages.num_pages > 1 else None,
        "round_numbers": sorted(counts) if one_round is not None else [],
        "one_round": one_round,
    }


def tournament_detail(request, season: Season, tournament: str):
    # The daily ranking's lines are the table's own (a page of them): none read here.
    stored = stored_tournament(season, tournament, lines=lambda count: slice(0, 0))
    if stored is None:
        raise Http404(_("No such tournament."))
    data = stored.data
    daily = t.DailyTable(
        lines_of(season=season, kind=KIND_TOURNAMENT, key=stored.key),
        season=season,
        tournament=data,
        seats=stored.seats_of,
    )
    _paginated(request, daily, PER_PAGE if stored.line_count <= PER_PAGE else DAILY_PER_PAGE)
    page = _tournament_page_data(request, season, stored, [r.detail for r in daily.shown()])
    people = page["people"]
    clubs = {c.key: c.name for c in Club.objects.filter(series_id=season.series_id)}
    interclub = t.InterclubTable(
        [
            {
                "rank": c["rank"],
                "club_name": clubs.get(c["club"], c["club"]),
                "score": c["score"],
                "counted": _player_links(people, c["players"]),
            }
            for c in data["interclub"]
        ]
    )
    every_name = request.GET.get("ceremony") == "all"
    ceremony = [
        {
            "step": c["step"],
            "label": clubs.get(c["club"], c["club"]) if "club" in c else people.name(c["player"]),
            "url": "" if "club" in c else people.url(c["player"]),
            "club": "" if "club" in c else people.club(c["player"]),
        }
        for c in (data["ceremony"] if every_name else data["ceremony"][:CEREMONY_SHOWN])
    ]
    state = progress(data, parse_settings(season.settings).rounds_per_tournament)
    context = season_context(
        request,
        season,
        tournament=data,
        tournament_date=_date(data["date"]),
        state=state,
        daily_table=daily,
        rounds=page["rounds"],
        tables_page=page["tables_page"],
        round_numbers=page["round_numbers"],
        one_round=page["one_round"],
        interclub_table=interclub,
        ceremony=ceremony,
        ceremony_html=t.ceremony_list(ceremony, state["finished"]),
        ceremony_count=len(data["ceremony"]),
        ceremony_more=len(data["ceremony"]) - len(ceremony),
        cap_why=explain.cap(data["cap_source"]) if data.get("cap_source") else "",
        live_url=season_url(season, "tournament_live", stored.key),
    )
    return export_or_render(
        request,
        daily,
        f"{season.series.slug}-{season.slug}-{stored.key}",
        "rankings/boardgame/tournament.html",
        context,
        title=data["name"],
    )


def tournament_live(request, season: Season, tournament: str):
    """The tournament-day screen: the live ranking and who has no table yet in the current
    round, for a projector or a phone; static/js/live.js refreshes its content in place."""
    stored = stored_tournament(season, tournament)
    if stored is None:
        raise Http404(_("No such tournament."))
    data = stored.data
    state = progress(data, parse_settings(season.settings).rounds_per_tournament)
    current = state["played"]
    seated = stored.seated_in(current)
    rows = stored.row_details
    waiting_keys = [r["player"] for r in rows if r["player"] not in seated]
    people = People(season, [r["player"] for r in rows[:LIVE_SHOWN]] + waiting_keys)
    waiting = sorted((people.name(k) for k in waiting_keys), key=str.casefold)
    context = season_context(
        request,
        season,
        tournament=data,
        state=state,
        ranking=[people.decorate(r) for r in rows[:LIVE_SHOWN]],
        ranking_more=max(0, len(rows) - LIVE_SHOWN),
        tournament_url=season_url(season, "tournament", stored.key),
        waiting=waiting[:LIVE_SHOWN],
        waiting_count=len(waiting),
        waiting_more=max(0, len(waiting) - LIVE_SHOWN),
        tables_now=stored.round_counts().get(current, 0),
        refresh_seconds=_every(request.GET.get("every")),
    )
    template = (
        "rankings/boardgame/_live_body.html"
        if request.GET.get("fragment")
        else "rankings/boardgame/live.html"
    )
    return render(request, template, context)


def _every(value: str | None) -> int:
    """Seconds between refreshes of the tournament-day screen: ?every=N, 2 to 300, else 15."""
    try:
        return min(max(int(value), 2), 300)
    except (TypeError, ValueError):
        return 15


def yearly(request, season: Season):
    table = _paginated(
        request,
        t.YearlyTable(
            lines_of(season=season, kind=KIND_YEARLY),
            season=season,
            names=dict(season.tournaments.values_list("key", "name")),
            best_n=parse_settings(season.settings).best_n,
        ),
    )
    return export_or_render(
        request,
        table,
        f"{season.series.slug}-{season.slug}-yearly",
        "rankings/boardgame/yearly.html",
        season_context(request, season, tab="yearly", table=table, best_n=table.best_n),
        title=_("Yearly ranking"),
    )


def ludo(request, season: Season):
    stored = StandingsTable.objects.filter(season=season, kind=KIND_LUDO).first()
    table = _paginated(
        request,
        t.LudoTable(
            lines_of(season=season, kind=KIND_LUDO),
            season=season,
            labels=stored.data.get("seasons", []) if stored else [],
        ),
    )
    return export_or_render(
        request,
        table,
        f"{season.series.slug}-{season.slug}-ludo",
        "rankings/boardgame/ludo.html",
        season_context(request, season, tab="ludo", table=table),
        title=_("LUDO ranking"),
    )


def games(request, season: Season):
    """Each game's size, player count and finalists: the database counts the lines and picks
    the finalists (a game of 2000 players is not read whole to show its four)."""
    stored = list(
        StandingsTable.objects.filter(season=season, kind=KIND_GAME)
        .order_by("position")
        .annotate(players=Count("rows"))
    )
    finalists: dict[int, list[dict]] = defaultdict(list)
    for table_id, detail in (
        StandingsRow.objects.filter(table__in=[g.pk for g in stored], detail__finalist=True)
        .order_by("table_id", "position")
        .values_list("table_id", "detail")
    ):
        finalists[table_id].append(detail)
    people = People(season, [r["player"] for rows in finalists.values() for r in rows])
    summary = [
        {
            "game": g.data["game"],
            "url": season_url(season, "game", g.key),
            "size": g.data["size"],
            "tie": g.data["tie_on_last_seat"],
            "players": g.players,
            "finalists": [people.decorate(r) for r in finalists[g.pk]],
        }
        for g in stored
    ]
    return render(
        request,
        "rankings/boardgame/games.html",
        season_context(request, season, tab="games", games=summary),
    )


def game_detail(request, season: Season, game: str):
    stored = StandingsTable.objects.filter(season=season, kind=KIND_GAME, key=game).first()
    if stored is None:
        raise Http404(_("No such game in this season."))
    table = _paginated(
        request,
        t.GameTable(
            lines_of(season=season, kind=KIND_GAME, key=stored.key),
            season=season,
            names=dict(season.tournaments.values_list("key", "name")),
        ),
    )
    return export_or_render(
        request,
        table,
        f"{season.series.slug}-{season.slug}-{stored.key}",
        "rankings/boardgame/game.html",
        season_context(request, season, tab="games", game=stored.data, table=table),
        title=stored.data["game"],
    )


def player_section(player, season: Season, rows):
    """The player's season: tournaments, yearly ranking, LUDO and per-game rankings."""
    by_kind = defaultdict(list)
    for r in rows:
        by_kind[r.table.kind].append(r)
    if not by_kind[KIND_TOURNAMENT] and not by_kind[KIND_LUDO]:
        return None
    yearly_row = by_kind[KIND_YEARLY][0] if by_kind[KIND_YEARLY] else None
    counted = set(yearly_row.detail["counted"]) if yearly_row else set()
    names = {r.table.key: r.table.data["name"] for r in by_kind[KIND_TOURNAMENT]}
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
            for r in by_kind[KIND_TOURNAMENT]
        ],
        orderable=False,
    )
    ludo_row = by_kind[KIND_LUDO][0] if by_kind[KIND_LUDO] else None
    best_n = parse_settings(season.settings).best_n
    return "rankings/boardgame/player_section.html", {
        "yearly": yearly_row.detail if yearly_row else None,
        "yearly_points": explained(
            display_points(yearly_row.detail["points"]),
            explain.yearly(yearly_row.detail, names, best_n),
        )
        if yearly_row
        else "",
        "ludo": ludo_row.detail if ludo_row else None,
        "ludo_points": explained(
            display_points(ludo_row.detail["points"]),
            explain.ludo(ludo_row.detail, ludo_row.table.data.get("seasons", [])),
        )
        if ludo_row
        else "",
        "games": [
            {
                "game": r.table.data["game"],
                "url": season_url(season, "game", r.table.key),
                "rank": r.rank,
                "finalist": r.detail["finalist"],
                "points": explained(
                    display_points(r.detail["points"]), explain.per_game(r.detail, names)
                ),
            }
            for r in by_kind[KIND_GAME]
        ],
        "table": table,
    }
