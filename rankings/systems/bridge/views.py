"""Bridge ladder public pages: the ladder (all pools of a round, with their moves), a pool's
challenges with every Elo change explained, the club's Elo ranking, and the ladder's section of
the player page. Each view gets the season from the shared dispatcher and reads stored standings
only: a fixed handful of queries whatever the number of players."""

from django.http import Http404
from django.utils.translation import gettext as _

from competitions.models import Season
from competitions.systems.bridge.settings import parse_settings
from rankings.models import StandingsTable
from rankings.people import People
from rankings.selectors import standings_table
from rankings.urls_helpers import season_url
from rankings.views import export_or_render, season_context

from . import tables as t
from .standings import KIND_ELO, KIND_ROUND, round_pools
from .tables import challenges_with_before


def _round_numbers(season: Season) -> list[int]:
    """The numbers of the stored rounds (one query)."""
    return list(
        StandingsTable.objects.filter(season=season, kind=KIND_ROUND)
        .order_by("position")
        .values_list("position", flat=True)
    )


def _ladder(request, season: Season, number: int | None):
    numbers = _round_numbers(season)
    is_overview = number is None
    if number is None:
        number = numbers[-1] if numbers else None
    elif number not in numbers:
        raise Http404(_("No such round."))
    stored = standings_table(season=season, kind=KIND_ROUND, key=str(number)) if number else None
    rows = stored.row_details if stored else []
    people = People(season, [r["player"] for r in rows])
    provisional = stored is not None and not stored.data["closed"]
    pools = []
    if stored is not None:
        for pool, pool_rows in round_pools(stored):
            pools.append(
                {
                    "number": pool["pool"],
                    "name": pool["name"],
                    "played": sum(pool["played"]),
                    "url": season_url(season, "pool", number, pool["pool"]),
                    "table": t.PoolTable(
                        [{**people.decorate(r), "provisional": provisional} for r in pool_rows]
                    ),
                }
            )
    download = t.RoundTable(
        [{**people.decorate(r), "provisional": provisional} for r in rows],
        exclude=(),
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
        download=download,
    )
    filename = f"{season.series.slug}-{season.slug}-round-{number}"
    return export_or_render(request, download, filename, "rankings/bridge/ladder.html", context)


def overview(request, season: Season):
    """The ladder now: every pool of the latest round, with up/stay/down marks."""
    return _ladder(request, season, None)


def round_detail(request, season: Season, number: int):
    return _ladder(request, season, number)


def pool_detail(request, season: Season, number: int, pool: int):
    """A pool's round: standings, and each challenge with IMPs and Elo changes explained."""
    stored = standings_table(season=season, kind=KIND_ROUND, key=str(number))
    if stored is None:
        raise Http404(_("No such round."))
    found = next(((p, rows) for p, rows in round_pools(stored) if p["pool"] == pool), None)
    if found is None:
        raise Http404(_("No such pool."))
    pool_data, rows = found
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
    stored = standings_table(season=season, kind=KIND_ELO)
    rows = stored.row_details if stored else []
    people = People(season, [r["player"] for r in rows])
    table = t.EloTable([people.decorate(r) for r in rows])
    return export_or_render(
        request,
        table,
        f"{season.series.slug}-{season.slug}-elo",
        "rankings/bridge/elo.html",
        season_context(
            request,
            season,
            tab="elo",
            table=table,
            settings=parse_settings(season.settings),
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
