"""Public pages from the page cache (rankings.pagecache, issue 45 "Load"): an anonymous
visitor's second request is served without rendering, with ETag, Last-Modified and 304s; a
change and its recompute change exactly the pages of its season; the language is part of the
key; a logged-in manager always gets the page rendered for them; each visitor gets a CSRF token
of their own."""

import copy
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competitions.models import Season, Tournament
from competitions.registry import get_system
from competitions.systems.boardgame.models import Seat
from rankings.imports import import_competition
from rankings.urls_helpers import season_url
from tests.bridge_files import big_ladder
from tests.chess_files import chess_file
from tests.keizer_data import small_file
from tests.othello_files import gp_file

pytestmark = pytest.mark.django_db

TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')


def body(response) -> bytes:
    """The page without its CSRF token (masked anew for every response)."""
    return TOKEN.sub(b"", response.content)


def queries_of(client, url, **headers):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, **headers)
    return response, len(ctx.captured_queries)


def imported(data, django_capture_on_commit_callbacks) -> Season:
    with django_capture_on_commit_callbacks(execute=True):
        return import_competition(copy.deepcopy(data))


@pytest.fixture
def two_seasons(circuit_file, django_capture_on_commit_callbacks):
    """The circuit's 2025 season and an earlier one of the same series."""
    older = copy.deepcopy(circuit_file)
    older["season"], older["name"] = "2024", "Belgian board game circuit 2024"
    del older["history"]
    imported(older, django_capture_on_commit_callbacks)
    return (
        imported(circuit_file, django_capture_on_commit_callbacks),
        Season.objects.get(label="2024"),
    )


def public_urls(season: Season) -> list[str]:
    """The season's overview, every tab of its system and a player's page."""
    pages = get_system(season.system).pages
    urls = [season_url(season)] + [season_url(season, tab.name) for tab in pages.tabs]
    player = season.series.players.order_by("key").first()
    urls.append(reverse("player", args=[season.series.slug, player.key]))
    urls.append(reverse("players", args=[season.series.slug]))
    return list(dict.fromkeys(urls))


FILES = {
    "boardgame-circuit": lambda circuit: circuit,
    "othello-gp": lambda circuit: gp_file(),
    "chess-bgp": lambda circuit: chess_file(),
    "keizer": lambda circuit: small_file(),
    "bridge-ladder": lambda circuit: big_ladder(2, 2),
}


@pytest.mark.parametrize("system", FILES)
def test_the_second_request_is_served_from_the_cache_in_every_system(
    system, circuit_file, django_capture_on_commit_callbacks
):
    season = imported(FILES[system](circuit_file), django_capture_on_commit_callbacks)
    assert season.system == system
    client = Client()
    for url in public_urls(season):
        first, rendered = queries_of(client, url)
        assert first.status_code == 200, url
        again, cached = queries_of(client, url)
        assert again.status_code == 200, url
        assert cached <= 1 < rendered, (url, cached, rendered)
        assert body(again) == body(first), url
        assert again["ETag"] == first["ETag"], url
        assert again["Last-Modified"] == first["Last-Modified"], url
        assert "no-cache" in again["Cache-Control"], url


def test_a_matching_etag_gets_a_304_without_the_page(two_seasons):
    season, _older = two_seasons
    client = Client()
    url = season_url(season, "yearly")
    first = client.get(url)
    assert first.has_header("ETag")
    not_modified, queries = queries_of(client, url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert not_modified.status_code == 304
    assert not_modified.content == b""
    assert not_modified["ETag"] == first["ETag"]
    assert queries <= 1
    assert client.get(url, HTTP_IF_NONE_MATCH='"something else"').status_code == 200


def test_if_modified_since_gets_a_304_until_the_page_changes(
    two_seasons, django_capture_on_commit_callbacks
):
    season, _older = two_seasons
    client = Client()
    url = season_url(season)
    first = client.get(url)
    since = first["Last-Modified"]
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=since).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):
        Tournament.objects.filter(season=season, key="t1").get().save()  # the same name
    changed = client.get(url, HTTP_IF_MODIFIED_SINCE=since)
    assert changed.status_code == 200
    assert changed["Last-Modified"] != since


def test_a_change_and_its_recompute_change_only_the_pages_of_its_season(
    two_seasons, django_capture_on_commit_callbacks
):
    season, older = two_seasons
    client = Client()
    urls = [
        season_url(season),
        season_url(season, "yearly"),
        season_url(season, "tournament", "t1"),
    ]
    before = {url: client.get(url) for url in urls}
    other = season_url(older, "yearly")
    other_before = client.get(other)
    # An Peeters (p1) won the first table of Mechelen; now she comes last there.
    seat = Seat.objects.get(
        table__round__tournament__season=season,
        table__round__tournament__key="t1",
        player__key="p1",
        rank=1,
    )
    with django_capture_on_commit_callbacks(execute=True):
        seat.rank = 4
        seat.save()
    season.refresh_from_db()
    assert not season.stale  # recomputed
    for url in urls:
        after = client.get(url)
        assert after["ETag"] != before[url]["ETag"], url
        assert body(after) != body(before[url]), url
    other_after, queries = queries_of(client, other)
    assert other_after["ETag"] == other_before["ETag"]
    assert queries <= 1  # still from the cache
    # A name is shown without a recompute of what it names: it changes the pages too.
    with django_capture_on_commit_callbacks(execute=True):
        tournament = Tournament.objects.get(season=season, key="t1")
        tournament.name = "Mechelen Spelt"
        tournament.save()
    assert "Mechelen Spelt" in client.get(season_url(season, "tournament", "t1")).content.decode()


def test_the_language_is_part_of_the_key(two_seasons):
    season, _older = two_seasons
    url = season_url(season, "yearly")
    english, dutch = Client(), Client()
    dutch.cookies["django_language"] = "nl"
    first_en = english.get(url)
    first_nl = dutch.get(url)
    assert 'lang="nl"' in first_nl.content.decode()
    assert 'lang="en"' in first_en.content.decode()
    again_nl, queries = queries_of(dutch, url)
    assert queries <= 1
    assert 'lang="nl"' in again_nl.content.decode()
    assert body(again_nl) == body(first_nl)
    # The same visitor switching language: a new key, so neither the page nor a 304 of the old.
    dutch.cookies["django_language"] = "en"
    switched = dutch.get(url, HTTP_IF_NONE_MATCH=again_nl["ETag"])
    assert switched.status_code == 200
    assert 'lang="en"' in switched.content.decode()


def test_a_manager_gets_the_page_rendered_for_them(two_seasons, django_user_model):
    season, _older = two_seasons
    url = season_url(season)
    anonymous = Client()
    cached = anonymous.get(url)
    assert cached.has_header("ETag")
    assert anonymous.get(url).has_header("ETag")  # from the cache now
    user = django_user_model.objects.create_user("secretary", password="pw-secretary-1")
    season.series.managers.add(user)
    manager = Client()
    manager.force_login(user)
    manager.cookies["csrftoken"] = anonymous.cookies["csrftoken"].value
    page = manager.get(url, HTTP_IF_NONE_MATCH=cached["ETag"])
    assert page.status_code == 200  # never a 304 of the anonymous page
    assert not page.has_header("ETag")
    assert reverse("manage:dashboard") in page.content.decode()
    assert reverse("manage:dashboard") not in cached.content.decode()
    # The manager's page was not stored for the visitors.
    assert reverse("manage:dashboard") not in anonymous.get(url).content.decode()


def test_each_visitor_gets_a_csrf_token_of_their_own(two_seasons):
    season, _older = two_seasons
    url = season_url(season, "yearly")
    assert Client().get(url).status_code == 200  # stored by another visitor
    visitor = Client(enforce_csrf_checks=True)
    page, queries = queries_of(visitor, url)
    assert queries <= 1
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())
    answer = visitor.post(
        reverse("set_language"),
        {"language": "nl", "next": url, "csrfmiddlewaretoken": token.group(1)},
    )
    assert answer.status_code == 302


def test_only_pages_that_answer_200_are_stored(two_seasons):
    season, _older = two_seasons
    client = Client()
    missing = season_url(season, "tournament", "nowhere")
    for _ in range(2):
        response = client.get(missing)
        assert response.status_code == 404
        assert not response.has_header("ETag")
    assert client.get("/belgian-circuit/no-such-season/").status_code == 404


def test_an_unreachable_cache_costs_a_render_not_an_error(two_seasons, settings, caplog):
    season, _older = two_seasons
    unreachable = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
    settings.CACHES = {**settings.CACHES, "pages": unreachable}
    client = Client()
    for _ in range(2):
        response = client.get(season_url(season, "yearly"))
        assert response.status_code == 200
        assert "An Peeters" in response.content.decode()
    assert "page cache read failed" in caplog.text
