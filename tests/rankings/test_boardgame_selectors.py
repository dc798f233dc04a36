"""The tournament page reads a stored tournament without its whole day of tables (PostgreSQL:
JSON functions in the query). What it reads must be what the whole data holds."""

import re

import pytest
from django.db import connection

from rankings.imports import import_competition
from rankings.models import StandingsTable
from rankings.selectors import with_rows
from rankings.systems.boardgame.selectors import StoredTournament, stored_tournament
from tests.rankings.test_boardgame_incremental import field_file

pytestmark = pytest.mark.django_db


def _without_positions(season) -> None:
    """As stored before the rounds' positions and each line's tables were kept."""
    from rankings.models import StandingsRow

    table = StandingsTable.objects.get(season=season, kind="tournament", key="t1")
    table.data.pop("rounds")
    table.save(update_fields=["data"])
    for row in StandingsRow.objects.filter(table=table):
        row.detail.pop("at")
        row.save(update_fields=["detail"])


@pytest.fixture(params=["positions", "stored before positions"])
def both(request):
    season = import_competition(field_file(90))  # 23 tables a round, 2 rounds
    if request.param != "positions":
        _without_positions(season)
    whole = StandingsTable.objects.get(season=season, kind="tournament", key="t1")
    return stored_tournament(season, "t1"), StoredTournament(with_rows([whole])[0], light=False)


def test_the_light_read_finds_what_the_whole_data_holds(both):
    light, whole = both
    assert light.light == (connection.vendor == "postgresql")
    assert light.round_counts() == whole.round_counts() == {1: 23, 2: 23}
    for start, stop in ((0, 12), (12, 24), (24, 36), (20, 30)):
        assert light.tables_shown(start, stop) == whole.tables_shown(start, stop)
        for number in (1, 2, 3):
            assert light.tables_shown(start, stop, number) == whole.tables_shown(
                start, stop, number
            )
    assert [tb["number"] for tb in light.tables_shown(12, 24)[2]] == list(range(13, 24))
    by_player = {r["player"]: r for r in whole.row_details}
    lines = [by_player[k] for k in ("p1", "p44", "p89")] + [
        {"player": "nobody", "at": []},
        {"player": "p1' OR 1=1 --"},
    ]
    seats = light.seats_of(lines)
    assert {k: sorted(v, key=repr) for k, v in seats.items()} == {
        k: sorted(v, key=repr) for k, v in whole.seats_of(lines).items()
    }
    assert sorted(seats) == ["p1", "p44", "p89"] and all(len(v) == 2 for v in seats.values())
    for player, found in seats.items():
        assert all(result["player"] == player for _r, _n, _g, result in found)
        assert sorted(r for r, *_rest in found) == [1, 2]
    assert light.seated_in(2) == whole.seated_in(2) and len(light.seated_in(2)) == 90
    assert light.seated_in(3) == set()
    assert light.row_details == whole.row_details
    without = {k: v for k, v in whole.data.items() if k not in ("tables", "exact")}
    assert {k: v for k, v in light.data.items() if k not in ("tables", "exact")} == without


def test_tables_read_by_position_in_one_query(django_assert_num_queries):
    season = import_competition(field_file(90))
    stored = stored_tournament(season, "t1")
    whole = StoredTournament(
        with_rows([StandingsTable.objects.get(season=season, kind="tournament", key="t1")])[0],
        light=False,
    )
    assert stored.data["rounds"] == {"1": [0, 23], "2": [23, 23]}
    with django_assert_num_queries(1 if stored.light else 0):
        stored.prefetch(12, 24, None, stored.row_details[:10])
        shown = stored.tables_shown(12, 24)
        seats = stored.seats_of(stored.row_details[:10])
    assert shown == whole.tables_shown(12, 24)
    assert seats == whole.seats_of(stored.row_details[:10])
    # positions past the end of the day are not there
    assert stored.tables_at([45, 46, 47, 1000]) == whole.tables_at([45, 46, 47, 1000])
    assert sorted(stored.tables_at([45, 46, 47, 1000])) == [45]


def test_no_tournament_is_none(both):
    light, _whole = both
    assert stored_tournament(light.table.season, "t9") is None


@pytest.mark.parametrize(
    "query,first,count",
    [
        ("", 0, 25),  # a day of more than 50 lines: 25 a page
        ("?page=2", 25, 25),
        ("?page=8", 175, 15),  # 190 lines: the last page
        ("?page=-1", 175, 15),  # as django-tables2: an impossible page is the last
        ("?page=99", 175, 15),
        ("?page=abc", 0, 25),
        ("?per_page=7&page=3", 14, 7),
        ("?per_page=-3", 0, 1),
        ("?per_page=9999", 0, 190),
    ],
)
def test_the_daily_ranking_reads_only_its_page_and_shows_the_right_lines(
    client, query, first, count
):
    from rankings.models import StandingsRow
    from rankings.urls_helpers import season_url

    season = import_competition(field_file(190))
    order = list(
        StandingsRow.objects.filter(table__season=season, table__kind="tournament", table__key="t1")
        .order_by("position")
        .values_list("detail__player", flat=True)
    )
    page = client.get(season_url(season, "tournament", "t1") + query).content.decode()
    daily = page.split("table-hover", 1)[1].split("card-footer", 1)[0]
    names = re.findall(r'href="/field-190/players/([^/]+)/"><bdi>Player ', daily)
    assert names == order[first : first + count]
    assert daily.count('class="explain"') == 3 * count  # each line shown explained


def test_a_sorted_daily_ranking_reads_every_line(client):
    from rankings.urls_helpers import season_url

    season = import_competition(field_file(90))
    page = client.get(season_url(season, "tournament", "t1") + "?sort=player&page=4").content
    daily = page.decode().split("table-hover", 1)[1].split("card-footer", 1)[0]
    names = re.findall(r'"><bdi>(Player p\d+)</bdi></a>', daily)
    everyone = sorted(f"Player p{i}" for i in range(90))
    assert names == everyone[75:90]


@pytest.mark.parametrize("players,shown", [(50, 50), (51, 25)])
def test_a_club_day_reads_whole_and_a_larger_day_a_page_at_a_time(client, players, shown):
    """Up to 50 lines the day's ranking is one page (a club's day, to read and print whole);
    a larger field's is 25 lines a page, the page's tables, ceremony and interclub beside it."""
    from rankings.urls_helpers import season_url

    season = import_competition(field_file(players))
    page = client.get(season_url(season, "tournament", "t1")).content.decode()
    daily = page.split("table-hover", 1)[1].split("card-footer", 1)[0]
    assert len(re.findall(r'"><bdi>Player p\d+</bdi></a>', daily)) == shown
    assert ("page=2" in daily) == (shown < players)
