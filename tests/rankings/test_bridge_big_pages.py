"""Bridge ladder pages of a big ladder: a round shows its pools a page at a time, the Elo
ranking its players a page at a time, and the query counts stay those of a small ladder."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rankings.imports import import_competition
from rankings.systems.bridge.views import ELO_PER_PAGE, POOLS_PER_PAGE
from rankings.urls_helpers import season_url
from tests.bridge_files import big_ladder

pytestmark = pytest.mark.django_db

POOLS = POOLS_PER_PAGE + 6  # two pages of pools; more than one page of the Elo ranking


@pytest.fixture
def big():
    return import_competition(big_ladder(POOLS, 2, series="huge"))


def get(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_a_round_shows_a_page_of_pools_with_links_to_the_others(client, big):
    first = get(client, season_url(big, "round", 2))
    assert f'id="pool-{POOLS_PER_PAGE}"' in first
    assert f'id="pool-{POOLS_PER_PAGE + 1}"' not in first
    assert f"Pools {POOLS_PER_PAGE + 1}–{POOLS}" in first
    second = get(client, season_url(big, "round", 2) + "?page=2")
    assert f'id="pool-{POOLS_PER_PAGE + 1}"' in second and 'id="pool-1"' not in second
    # every player of the page's pools, with his name
    assert second.count('href="/huge/players/q') >= 5 * (POOLS - POOLS_PER_PAGE)


def test_the_whole_round_still_downloads(client, big):
    response = client.get(season_url(big, "round", 1) + "?_export=csv")
    assert response.status_code == 200
    assert len(response.content.decode().strip().splitlines()) == 1 + 5 * POOLS


def test_the_elo_ranking_shows_a_page_of_players_with_names(client, big):
    page = get(client, season_url(big, "elo"))
    assert page.count('href="/huge/players/q') == ELO_PER_PAGE
    rest = get(client, season_url(big, "elo") + "?page=2")
    assert rest.count('href="/huge/players/q') == min(ELO_PER_PAGE, 5 * POOLS - ELO_PER_PAGE)
    by_name = get(client, season_url(big, "elo") + "?sort=player")
    assert by_name.count('href="/huge/players/q') == ELO_PER_PAGE
    csv = client.get(season_url(big, "elo") + "?_export=csv").content.decode()
    assert len(csv.strip().splitlines()) == 1 + 5 * POOLS


def count(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_query_counts_of_a_paginated_ladder_are_those_of_a_small_one(client, big):
    small = import_competition(big_ladder(2, 2, series="tiny"))

    def urls(season):
        return [
            season_url(season),
            season_url(season, "round", 1),
            season_url(season, "round", 1) + "?page=2",
            season_url(season, "elo"),
            season_url(season, "elo") + "?page=2",
        ]

    assert [count(client, u) for u in urls(small)] == [count(client, u) for u in urls(big)]
