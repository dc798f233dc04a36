"""Keizer public pages: the ranking list (now and after any round), the evenings with their
pairings and results, and the Keizer section of the player page. Each view gets the season from
the shared dispatcher; each reads stored standings in a fixed number of queries."""

import datetime

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_tables2 import RequestConfig

from competitions.models import Season
from competitions.systems.keizer.settings import described
from competitions.text import name_order
from rankings.exports import SafeTableExport
from rankings.people import People
from rankings.urls_helpers import player_url, player_urls, season_url
from rankings.views import export_or_render, season_context

from . import explain, selectors, standings
from . import tables as t
from .standings import KIND_LIST

# The own result of an external game (keizer-variants.md §2.5), after the player's name.
EXTERNAL_RESULTS = {
    "1": gettext_lazy("won"),
    "1/2": gettext_lazy("drew"),
    "0": gettext_lazy("lost"),
}


def _date(value: str | None) -> datetime.date | None:
    return datetime.date.fromisoformat(value) if value else None


# A club's list (up to WHOLE lines) or evening shows whole, on one page (to read and print);
# a longer one (a list of 2000 players) is shown PER_PAGE lines at a time. A download has all.
WHOLE = 100
PER_PAGE = 25


def _page(request, table) -> list:
    """Paginate the table for the page (not for a download) and give the records it shows."""
    if SafeTableExport.is_valid_format(request.GET.get("_export")):
        return [row.record for row in table.rows]
    per_page = WHOLE if len(table.rows) <= WHOLE else PER_PAGE
    RequestConfig(request, paginate={"per_page": per_page}).configure(table)
    return [row.record for row in table.page.object_list]


def _ranking(request, season: Season, shown, before, numbers=None):
    """The ranking table of the list `shown`, every number shown explained (the lines of the
    page only, from the evenings numbered `numbers`, default all), and those evenings."""
    table = t.RankingTable(standings.ranking_of(shown.data))
    rows = _page(request, table)
    keys = [row["player"] for row in rows]
    evenings_ = selectors.evenings_of(season, keys, numbers)
    # The names of the players shown and of their opponents (an explanation names them; on a
    # page of a long list most opponents are on other pages).
    people = People(season, {*keys, *selectors.opponents(evenings_, set(keys))})
    selectors.explain_rows(rows, shown, before, evenings_, people)
    return table, evenings_


def _evening_state(data: dict) -> str:
    if data.get("counted"):
        return _("played")
    if data["present"] and not data["games"]:
        return _("attendance taken, not paired yet")
    return _("paired, results coming in")


def overview(request, season: Season):
    """The ranking list after the last played round, and the evening in progress."""
    newest = selectors.last_lists(season)
    context = season_context(request, season, tab="", rules=described(season.settings))
    if not newest:
        return render(request, "rankings/keizer/season.html", context)
    shown = newest[0]
    table, evenings_ = _ranking(request, season, shown, newest[1] if len(newest) > 1 else None)
    pending = evenings_[-1].data if evenings_ and not evenings_[-1].data.get("counted") else None
    context.update(
        table=table,
        shown=shown.data,
        lists=[
            {"after": k, "url": season_url(season, "list", k)} for k in range(shown.position + 1)
        ],
        pending=pending,
        pending_date=_date(pending["date"]) if pending else None,
        pending_state=_evening_state(pending) if pending else "",
    )
    return export_or_render(
        request,
        table,
        f"{season.series.slug}-{season.slug}-ranking",
        "rankings/keizer/season.html",
        context,
    )


def ranking_after(request, season: Season, after: int):
    """The ranking list after round `after` (0: the initial list)."""
    found = selectors.lists_at(season, (after - 1, after))
    if after not in found:
        raise Http404(_("No list after that round."))
    shown = found[after]
    # The list after round `after` reads rounds 1..after only (rules.md §4.2).
    table, _evenings = _ranking(request, season, shown, found.get(after - 1), range(1, after + 1))
    return export_or_render(
        request,
        table,
        f"{season.series.slug}-{season.slug}-ranking-{after}",
        "rankings/keizer/list.html",
        season_context(
            request,
            season,
            tab="",
            table=table,
            shown=shown.data,
            shown_date=_date(shown.data.get("date")),
            previous=season_url(season, "list", after - 1) if after > 0 else None,
            next=season_url(season, "list", after + 1) if shown.followed else None,
        ),
    )


def evenings(request, season: Season):
    """Every evening of the season: date, attendance, games, state."""
    rows = []
    for evening in selectors.round_tables(season):
        data = evening.data
        rows.append(
            {
                "number": data["number"],
                "date": _date(data["date"]),
                "present": 2 * len(data["games"]) + len(data["bye"]) + len(data["present"]),
                "games": len(data["games"]),
                "state": _evening_state(data),
                "url": season_url(season, "round", data["number"]),
            }
        )
    table = t.EveningListTable(rows)
    return export_or_render(
        request,
        table,
        f"{season.series.slug}-{season.slug}-evenings",
        "rankings/keizer/evenings.html",
        season_context(request, season, tab="rounds", table=table),
    )


def evening(request, season: Season, number: int):
    """An evening's pairings and results, with each player's place in the list it was paired
    from, and who had the bye, was absent or played elsewhere."""
    found = next(iter(selectors.round_tables(season, (number,))), None)
    if found is None:
        raise Http404(_("No such evening."))
    data = found.data
    before = selectors.lists_at(season, (number - 1,)).get(number - 1)
    ranks = {line[0]: i + 1 for i, line in enumerate(before.data["ranking"])} if before else {}
    rows = [
        {
            "board": g["board"],
            "white": g["white"],
            "white_rank": ranks.get(g["white"]),
            "black": g["black"],
            "black_rank": ranks.get(g["black"]),
            "result": g["result"],
            "manual": g["manual"],
        }
        for g in data["games"]
    ]
    table = t.PairingTable(rows)
    shown_rows = _page(request, table)  # the games of the page
    keys = [row[side] for row in shown_rows for side in ("white", "black")]
    keys += data["bye"] + data["absent"] + data["external"] + data["unexcused"] + data["present"]
    # keizer-variants.md §5.7: the second kind of absence, where an evening has it, and the
    # season's withdrawn players (§2.8, stored with its lists).
    long_absent = data.get("long_absent", [])
    withdrawn = before.data.get("withdrawn", []) if before else []
    keys += long_absent + withdrawn
    people = People(season, keys)
    url_of = player_urls(season.series.slug)
    for row in shown_rows:
        for side in ("white", "black"):
            row[f"{side}_name"] = people.name(row[side])
            row[f"{side}_url"] = url_of(row[side])

    # §2.5: the result of an external game, where it is entered.
    external_results = {
        key: str(EXTERNAL_RESULTS[result])
        for key, result in data.get("external_results", {}).items()
        if result in EXTERNAL_RESULTS
    }

    def named(keys: list[str]) -> list[dict]:
        return [
            {"name": people.name(k), "url": url_of(k), "result": external_results.get(k, "")}
            for k in sorted(keys, key=lambda k: (ranks.get(k, 10**6), name_order(people.name(k))))
        ]

    return export_or_render(
        request,
        table,
        f"{season.series.slug}-{season.slug}-evening-{number}",
        "rankings/keizer/evening.html",
        season_context(
            request,
            season,
            tab="rounds",
            evening=data,
            evening_date=_date(data["date"]),
            state=_evening_state(data),
            table=table,
            bye=named(data["bye"]),
            absent=named(data["absent"]),
            external=named(data["external"]),
            unexcused=named(data["unexcused"]),
            long_absent=named(long_absent),
            withdrawn=named(withdrawn),
            waiting=named(data["present"]),
            previous=season_url(season, "round", number - 1) if number > 1 else None,
            next=season_url(season, "round", number + 1) if found.followed else None,
        ),
    )


def player_section(player, season: Season, rows):
    """The player's season: his place after every round (chart and table), every evening with
    colour and result, his colour history, and the breakdown of his current score."""
    if not any(r.table.kind == KIND_LIST for r in rows):
        return None
    lists = selectors.last_lists(season, 2)  # newest first
    current = lists[0]
    evenings_ = selectors.evenings_of(season, [player.key])
    people = People(season, {player.key, *selectors.opponents(evenings_, {player.key})})
    explained = selectors.explained_rows(
        current, lists[1] if len(lists) > 1 else None, evenings_, people, only={player.key}
    )[0]
    history = selectors.player_places(season, player.key)
    withdrawn = set(current.data.get("withdrawn", ()))
    games, colours = _player_evenings(season, player.key, evenings_, people, withdrawn)
    chart = {
        "type": "line",
        "labels": [str(h["after"]) for h in history],
        "datasets": [{"label": _("Rank"), "data": [h["rank"] for h in history]}],
        "reverse": True,
        "integer": True,
        "y_label": _("Rank"),
    }
    return "rankings/keizer/player_section.html", {
        "scripts": ["vendor/chartjs/chart.umd.min.js", "js/charts.js"],
        "current": explained,
        "breakdown": explain.breakdown_table(explained) if explained["lines"] else "",
        "closed_list": current.data.get("final", False),
        "withdrawn": player.key in withdrawn,
        "history_table": t.RankHistoryTable(history),
        "games_table": t.PlayerGamesTable(games),
        "colours": colours,
        "chart": chart,
        "chart_id": f"keizer-rank-{season.pk}",
    }


def _player_evenings(
    season: Season, key: str, evenings_: list, people: People, withdrawn: set[str] = frozenset()
):
    """A player's evenings (what they did in each, an opponent who has withdrawn marked) and
    their colour history ("W B W ...")."""
    games = []
    colours = []
    for evening_table in evenings_:
        data = evening_table.data
        row = {
            "round": data["number"],
            "url": season_url(season, "round", data["number"]),
            "colour": "",
            "opponent": None,
            "opponent_name": "",
            "opponent_url": "",
            "result": "",
        }
        game = next((g for g in data["games"] if key in (g["white"], g["black"])), None)
        if game is not None:
            white = game["white"] == key
            opponent = game["black"] if white else game["white"]
            colours.append("W" if white else "B")
            row.update(
                colour=_("white") if white else _("black"),
                opponent=opponent,
                opponent_name=people.name(opponent),
                opponent_url=player_url(season.series.slug, opponent),
                result=game["result"],
                label=_game_label(game["result"], white),
                withdrawn=opponent in withdrawn,
            )
        else:
            label = None
            for status, text in (
                ("bye", _("bye")),
                ("absent", _("absent with notice")),
                ("long_absent", _("long-term absent")),  # keizer-variants.md §5.7
                ("external", _("played externally")),
                ("unexcused", _("absent without notice")),
                ("present", _("present, to be paired")),
            ):
                if key in data.get(status, ()):
                    label = text
            if label is None:
                continue
            result = data.get("external_results", {}).get(key)
            if key in data["external"] and result in selectors.EXTERNAL_RESULT_LABELS:
                label = str(selectors.EXTERNAL_RESULT_LABELS[result])  # §2.5
            row["label"] = label
        games.append(row)
    return games, colours


def _game_label(result: str, white: bool) -> str:
    mine = {"1-0": "win", "0-1": "loss", "1/2-1/2": "draw", "+-": "fwin", "-+": "floss"}.get(result)
    if mine and not white:
        mine = {"win": "loss", "loss": "win", "draw": "draw", "fwin": "floss", "floss": "fwin"}[
            mine
        ]
    return {
        "win": _("won against"),
        "loss": _("lost to"),
        "draw": _("drew with"),
        "fwin": _("won by forfeit against"),
        "floss": _("lost by forfeit to"),
    }.get(mine, _("plays against"))
