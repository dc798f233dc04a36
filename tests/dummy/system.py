"""A dummy competition system, registered by tests only: an "entry list" whose standings rank
the players by their place in the file (the season entries' positions), and whose setting `top`
marks the first N as qualified. It uses shared models only, so it adds no tables.

It is written the way a real system is: a file section, an engine, standings, pages, a tab, a
player section, with no line in any shared file."""

from django.http import HttpResponse
from django.urls import path
from django.utils.html import escape

from competitions.models import SeasonPlayer
from competitions.registry import INT, Setting, SettingsSpec, SystemSpec
from rankings.selectors import standings_table, stored_tables
from rankings.systems import ComputedRow, ComputedTable, Pages, Standings, Tab
from rankings.urls_helpers import season_url

KEY = "entry-list"

SPEC = SystemSpec(
    key=KEY,
    name="Entry list",
    settings=SettingsSpec(fields=(Setting("top", "Qualified", INT, 2, 1, 10),)),
    file_section="tests.dummy.system",
)


# --- the file section: only the common part (players), in file order -----------------------


# A replacing import writes only what differs (competitions.sync): the common part is all
# this system has.
SYNC = True


def read(data, ctx) -> None:
    pass  # the common part stored the players and their season entries already


def write(season) -> dict:
    entries = season.entries.select_related("player", "club").order_by("position")
    return {"players": [e.player for e in entries]}


# --- engine and standings -----------------------------------------------------------------------


def rank_by_position(positions: list[tuple[str, int]], top: int) -> list[dict]:
    """The pure engine: players in position order, the first `top` qualified."""
    ordered = sorted(positions, key=lambda item: item[1])
    return [
        {"player": key, "rank": rank, "points": top - rank + 1 if rank <= top else 0}
        for rank, (key, _position) in enumerate(ordered, 1)
    ]


def compute(season) -> list[ComputedTable]:
    top = SPEC.settings.resolved(season.settings)["top"]
    positions = list(
        SeasonPlayer.objects.filter(season=season).values_list("player__key", "position")
    )
    rows = rank_by_position(positions, top)
    return [
        ComputedTable(
            kind="list",
            data={"top": top},
            rows=[ComputedRow(r["player"], r["rank"], r["points"], r) for r in rows],
        )
    ]


def document(season, tables) -> dict:
    return {"list": [dict(d) for t in tables for d in t.row_details]}


def flat_tables(doc: dict) -> dict:
    return {"list": (("player", "rank", "points"), doc["list"])}


STANDINGS = Standings(compute=compute, document=document, flat_tables=flat_tables)


# --- pages --------------------------------------------------------------------------------------


def overview(request, season):
    table = standings_table(season=season, kind="list")
    names = dict(season.entries.values_list("player__key", "player__name"))
    lines = [f"{r['rank']}. {escape(names[r['player']])}" for r in table.row_details]
    link = season_url(season, "qualified")
    return HttpResponse(f"<h1>{escape(season.name)}</h1>{'<br>'.join(lines)}<a href='{link}'>q</a>")


def qualified(request, season):
    (table,) = stored_tables(season, ["list"])
    keys = [r["player"] for r in table.row_details if r["points"] > 0]
    return HttpResponse("qualified: " + ", ".join(keys))


urlpatterns = [path("qualified/", qualified, name="qualified")]


def player_section(player, season, rows):
    return "dummy_player_section.html", {"rank": rows[0].rank}


PAGES = Pages(
    overview=overview,
    urls="tests.dummy.system",
    tabs=(Tab("", "List"), Tab("qualified", "Qualified")),
    player_section=player_section,
)
