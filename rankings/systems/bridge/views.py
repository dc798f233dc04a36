"""Bridge ladder public pages: the ladder (all pools of a round, with their moves), a pool's
challenges with every Elo change explained, the club's Elo ranking, and the ladder's section of
the player page. Each view gets the season from the shared dispatcher and reads stored standings
only: a fixed handful of queries whatever the number of players."""

from django.core.paginator import Paginator
from django.http import Http404
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from competitions.models import Season
from competitions.systems.bridge.settings import parse_settings
from rankings.exports import SafeTableExport
from rankings.models import StandingsRow, StandingsTable
from rankings.people import People
from rankings.selectors import lines_of, standings_table
from rankings.urls_helpers import season_url
from rankings.views import export_or_render, season_context

from . import tables as t
from .standings import KIND_ELO, KIND_ROUND
from .tables import challenges_with_before


def _round_numbers(season: Season) -> list[int]:
    """The numbers of the stored rounds (one query)."""
    return list(
        StandingsTable.objects.filter(season=season, kind=KIND_ROUND)
        .order_by("position")
        .values_list("position", flat=True)
    )


# A round of a big ladder shows this many pools per page (a pool is a card of 5 players).
POOLS_PER_PAGE = 6
# The Elo ranking shows this many players per page.
ELO_PER_PAGE = 25


def _exporting(request) -> bool:
    return SafeTableExport.is_valid_format(request.GET.get("_export"))


def _page_rows(stored: StandingsTable, pools: list[dict]) -> list[dict]:
    """The stored rows of these pools (consecutive pools of the round): the rows are stored
    pool after pool, so they are one range of positions (one query)."""
    before = 0
    for pool in stored.data["pools"]:
        if pool["pool"] == pools[0]["pool"]:
            break
        before += len(pool["members"])
    count = sum(len(pool["members"]) for pool in pools)
    return list(
        StandingsRow.objects.filter(table=stored, position__gte=before, position__lt=before + count)
        .order_by("position")
        .values_list("detail", flat=True)
    )


def _pool_pages(page) -> list[dict]:
    """The links to the other pages of a round's pools (none when it has one page)."""
    if page is None or page.paginator.num_pages < 2:
        return []
    count = page.paginator.count
    last = page.paginator.num_pages
    links: list[dict] = []
    for n in page.paginator.page_range:
        if n in (1, last) or abs(n - page.number) <= 3:
            links.append(
                {
                    "number": n,
                    "first": (n - 1) * POOLS_PER_PAGE + 1,
                    "last": min(n * POOLS_PER_PAGE, count),
                    "current": n == page.number,
                }
            )
        elif links and links[-1].get("number") is not None:
            links.append({"number": None})  # a gap: "…"
    return links


def _ladder(request, season: Season, number: int | None):
    numbers = _round_numbers(season)
    is_overview = number is None
    if number is None:
        number = numbers[-1] if numbers else None
    elif number not in numbers:
        raise Http404(_("No such round."))
    stored = (
        StandingsTable.objects.filter(season=season, kind=KIND_ROUND, key=str(number)).first()
        if number
        else None
    )
    provisional = stored is not None and not stored.data["closed"]
    filename = f"{season.series.slug}-{season.slug}-round-{number}"
    if stored is not None and _exporting(request):
        rows = standings_table(season=season, kind=KIND_ROUND, key=str(number)).row_details
        people = People(season, [r["player"] for r in rows])
        download = t.RoundTable(
            [{**people.decorate(r), "provisional": provisional} for r in rows], exclude=()
        )
        return export_or_render(request, download, filename, "rankings/bridge/ladder.html", {})
    pools = []
    page = None
    if stored is not None:
        page = Paginator(stored.data["pools"], POOLS_PER_PAGE).get_page(request.GET.get("page"))
        shown_pools = list(page.object_list)
        rows = _page_rows(stored, shown_pools) if shown_pools else []
        people = People(season, [r["player"] for r in rows])
        by_pool: dict[int, list[dict]] = {}
        for row in rows:
            by_pool.setdefault(row["pool"], []).append(row)
        for pool in shown_pools:
            pools.append(
                {
                    "number": pool["pool"],
                    "name": pool["name"],
                    "played": sum(pool["played"]),
                    "url": season_url(season, "pool", number, pool["pool"]),
                    "table": t.PoolTable(
                        [
                            {**people.decorate(r), "provisional": provisional}
                            for r in by_pool.get(pool["pool"], [])
                        ]
                    ),
                }
            )
    context = season_context(
        request,
        season,
        tab="",
        overview=is_overview,
        number=number,
        numbers=numbers,
        round=stored.data if stored else None,
        provisional=provisional,
        pools=pools,
        pool_pages=_pool_pages(page),
        # the download links only: a download builds the whole round's table
        download=t.RoundTable([], exclude=()),
    )
    return export_or_render(
        request, context["download"], filename, "rankings/bridge/ladder.html", context
    )


def overview(request, season: Season):
    """The ladder now: every pool of the latest round, with up/stay/down marks."""
    return _ladder(request, season, None)


def round_detail(request, season: Season, number: int):
    return _ladder(request, season, number)


def pool_detail(request, season: Season, number: int, pool: int):
    """A pool's round: standings, and each challenge with IMPs and Elo changes explained."""
    stored = StandingsTable.objects.filter(season=season, kind=KIND_ROUND, key=str(number)).first()
    if stored is None:
        raise Http404(_("No such round."))
    pool_data = next((p for p in stored.data["pools"] if p["pool"] == pool), None)
    if pool_data is None:
        raise Http404(_("No such pool."))
    rows = _page_rows(stored, [pool_data])  # only this pool's rows
    people = People(season, pool_data["members"])
    names = {key: people.name(key) for key in pool_data["members"]}
    provisional = not stored.data["closed"]
    listed = {r["player"]: (r, challenges_with_before(r)) for r in rows}
    standings = t.PoolStandingsTable(
        [
            {**people.decorate(r), "provisional": provisional, "challenges": listed[key][1]}
            for r in rows
            if (key := r["player"])
        ],
        names=names,
    )
    challenges = []
    for c in range(stored.data["challenges"]):
        lines = [
            {**people.decorate(listed[key][0]), **listed[key][1][c], "name": names[key]}
            for key in pool_data["members"]
            if key in listed
        ]
        challenges.append(
            {
                "number": c + 1,
                "played": pool_data["played"][c],
                "table": t.ChallengeTable(lines, names=names),
            }
        )
    context = season_context(
        request,
        season,
        tab="",
        round=stored.data,
        pool=pool_data,
        provisional=provisional,
        standings_table=standings,
        challenges=challenges,
        reasons=[(names[r["player"]], r["reason"]) for r in rows if r["reason"]],
    )
    filename = f"{season.series.slug}-{season.slug}-round-{number}-pool-{pool}"
    return export_or_render(request, standings, filename, "rankings/bridge/pool.html", context)


def elo(request, season: Season):
    """The club's Elo ranking, a page of ELO_PER_PAGE players at a time."""
    table = t.EloTable(lines_of(season=season, kind=KIND_ELO), season=season)
    RequestConfig(request, paginate={"per_page": ELO_PER_PAGE}).configure(table)
    return export_or_render(
        request,
        table,
        f"{season.series.slug}-{season.slug}-elo",
        "rankings/bridge/elo.html",
        season_context(
            request, season, tab="elo", table=table, settings=parse_settings(season.settings)
        ),
    )


def player_section(player, season: Season, rows):
    """The player's Elo over the season (chart and table) and his pools, round by round."""
    rounds = sorted((r for r in rows if r.table.kind == KIND_ROUND), key=lambda r: r.table.position)
    if not rounds:
        return None
    ranking = next((r.detail for r in rows if r.table.kind == KIND_ELO), None)
    labels = [_("Start")]
    values = [rounds[0].detail["start_shown"]]
    challenge_rows = []
    opponents: set[str] = set()
    for row in rounds:
        number = row.table.position
        for c, challenge in enumerate(challenges_with_before(row.detail), 1):
            if not challenge["duels"]:
                continue  # not played by the pool (yet): no rating event
            labels.append(_("R%(round)s C%(challenge)s") % {"round": number, "challenge": c})
            values.append(challenge["after_shown"])
            opponents.update(d[0] for d in challenge["duels"])
            challenge_rows.append(
                {
                    "round": number,
                    "challenge": c,
                    "pool": row.detail["pool"],
                    **challenge,
                }
            )
    people = People(season, opponents)
    names = {key: people.name(key) for key in opponents}
    pool_rows = [
        {
            **row.detail,
            "round": row.table.position,
            "url": season_url(season, "pool", row.table.position, row.detail["pool"]),
            "provisional": not row.table.data["closed"],
        }
        for row in rounds
    ]
    chart = {
        "type": "line",
        "labels": labels,
        "datasets": [{"label": _("Elo"), "data": values}],
        "y_label": _("Elo"),
        "integer": True,
    }
    return "rankings/bridge/player_section.html", {
        "scripts": ["vendor/chartjs/chart.umd.min.js", "js/charts.js"],
        "ranking": ranking,
        "chart": chart,
        "chart_id": f"bridge-elo-{season.pk}",
        "elo_table": t.PlayerEloTable(challenge_rows, names=names),
        "pool_table": t.PlayerPoolTable(pool_rows),
    }
