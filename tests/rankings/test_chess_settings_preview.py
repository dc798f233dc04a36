"""Issue 48 part 7: the chess season settings page previews what proposed settings would do to
the group places and the BGP points (worked example 1A: FIDE-SWISS puts X second, V third, so X
gets the 17 BGP points of second place and V the 15 of third, in the tournament and in the class's
season total) before anything is saved, and explains every tie-break option with its source."""

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from competitions.models import Season
from competitions.systems.chess.settings import DENSE, SPEC
from rankings.imports import import_competition
from rankings.models import StandingsRow, StandingsTable
from rankings.selectors import standings_document
from rankings.systems.chess.preview import settings_changes
from tests.rankings.test_chess_tiebreak_pages import example_1a

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return import_competition(example_1a())


@pytest.fixture
def organiser(season):
    user = User.objects.create_user("organiser", password="pw-organiser-1")
    season.series.managers.add(user)
    client = Client()
    client.force_login(user)
    return client


def settings_url(season) -> str:
    return reverse("manage:season_settings", args=[season.series.slug, season.slug])


def form(**changes) -> dict:
    data = {
        s.name: " ".join(map(str, s.default)) if isinstance(s.default, tuple) else str(s.default)
        for s in SPEC.fields
        if not isinstance(s.default, bool)
    }
    data.update({s.name: "on" for s in SPEC.fields if s.default is True})
    data.update(changes)
    return data


def stored(season) -> list:
    tables = StandingsTable.objects.filter(season=season).order_by("kind", "key")
    rows = StandingsRow.objects.filter(table__season=season).order_by("table_id", "position")
    return [
        list(tables.values_list("id", "kind", "key", "data")),
        list(rows.values_list("id", "rank", "points", "detail")),
    ]


def previewed(page: str) -> dict[str, list[tuple[str, str, str]]]:
    """The preview's tables by their key: each (player, now, with the proposal)."""
    return {
        key: re.findall(
            r"<tr><td>(?:<bdi>)?([^<]+)(?:</bdi>)?</td><td class=\"text-end\">([^<]+)</td>"
            r"<td class=\"text-end\">→ ([^<]+)</td></tr>",
            body,
        )
        for key, body in re.findall(r'<table [^>]*data-preview="([^"]+)">(.*?)</table>', page, re.S)
    }


def bgp_rows(season, tournament: str) -> list[dict]:
    """The stored BGP rows of a tournament (what the recompute wrote)."""
    doc = standings_document(season=Season.objects.get(pk=season.pk))
    return next(t for t in doc["tournaments"] if t["id"] == tournament)["bgp"]


def moves(page: str) -> list[tuple[str, str, str]]:
    """The places that would change in worked example 1A's group."""
    return previewed(page)["places/ex1a/Swiss"]


# FIDE-SWISS swaps X and V: places 3 and 2, so the BGP points of those places (17 and 15 on
# the short scale, one class) in the tournament and in the season's class total.
SWAPPED = {
    "places/ex1a/Swiss": [("Player X", "3", "2"), ("Player V", "2", "3")],
    "points/ex1a": [("Player X", "15", "17"), ("Player V", "17", "15")],
    "totals/Junior": [("Player X", "15", "17"), ("Player V", "17", "15")],
}


def test_the_preview_lists_the_places_that_would_change_and_stores_nothing(
    organiser, season, django_capture_on_commit_callbacks
):
    before = stored(season)
    with django_capture_on_commit_callbacks() as callbacks:
        response = organiser.post(settings_url(season), form(tiebreaks="FIDE-SWISS", preview="1"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Preview: nothing is saved yet" in page
    assert "Places: <bdi>Example 1A</bdi>, <bdi>Swiss</bdi>" in page
    assert "BGP points: <bdi>Example 1A</bdi>" in page
    assert "BGP season total: <bdi>Junior</bdi>" in page
    assert previewed(page) == SWAPPED
    # nothing written, nothing enqueued
    assert callbacks == []
    assert Season.objects.get(pk=season.pk).settings == season.settings == {}
    assert stored(season) == before
    # the form keeps the proposal, to be saved next
    assert 'value="FIDE-SWISS"' in page


def test_a_preview_that_changes_nothing_says_so(organiser, season):
    # No class of the season has more places than the short scale: the further points count
    # for nobody.
    response = organiser.post(settings_url(season), form(bgp_further="4", preview="1"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Nothing in the standings would change." in page and "data-preview" not in page


def test_a_preview_of_a_bgp_scale_shows_the_points_and_totals_without_places(organiser, season):
    """A first place worth 25 instead of 20: nobody moves, every class winner's BGP points and
    season total change by 5."""
    stored = {r["player"]: r["points"] for r in bgp_rows(season, "ex1a")}
    response = organiser.post(
        settings_url(season), form(bgp_small="25 17 15 13 11 10 9 8 7 6", preview="1")
    )
    assert response.status_code == 200
    tables = previewed(response.content.decode())
    assert not any(key.startswith("places/") for key in tables)
    winner = next(p for p, points in stored.items() if points == 20)
    name = f"Player {winner.upper()}"
    assert tables["points/ex1a"] == [(name, "20", "25")]
    assert tables["totals/Junior"] == [(name, "20", "25")]
    # every tournament of the season, its winners of each class
    assert {key for key in tables if key.startswith("points/")} == {"points/ex1a", "points/klyve"}


def test_a_wrong_list_is_refused_by_the_preview_too(organiser, season):
    response = organiser.post(settings_url(season), form(tiebreaks="BH XYZ", preview="1"))
    assert response.status_code == 400
    page = response.content.decode()
    assert "Unknown tie-break code XYZ" in page and "Preview: nothing is saved" not in page


def test_the_preview_uses_the_recompute_and_a_fixed_number_of_queries(
    season, django_assert_num_queries
):
    season = Season.objects.select_related("series").get(pk=season.pk)
    # tournaments, groups, members, rounds, entries; the names
    with django_assert_num_queries(6):
        changes = settings_changes(season, {"tiebreaks": "FIDE-SWISS"})
    assert changes[0] == {
        "key": "places/ex1a/Swiss",
        "what": "Places",
        "caption": ["Example 1A", "Swiss"],
        "changes": [
            {"name": "Player X", "old": 3, "new": 2},
            {"name": "Player V", "old": 2, "new": 3},
        ],
    }
    assert [(t["key"], [(c["old"], c["new"]) for c in t["changes"]]) for t in changes[1:]] == [
        ("points/ex1a", [(15, 17), (17, 15)]),
        ("totals/Junior", [(15, 17), (17, 15)]),
    ]
    # "now" is what the recompute stored
    now = {r["player"]: r["points"] for r in bgp_rows(season, "ex1a")}
    assert [now[c["name"][-1].lower()] for c in changes[1]["changes"]] == [15, 17]
    # the proposed list of 2009 rules: the same two move (worked example 1A's table)
    assert settings_changes(season, {"tiebreaks": "FIDE-SWISS", "unplayed_rounds": "fide2009"})
    fide2026 = {"tiebreaks": "FIDE-SWISS", "unplayed_rounds": "fide2026"}
    assert settings_changes(season, fide2026) == []


def test_the_preview_of_best_n_shows_the_totals_that_would_drop(season):
    """chess-othello-options.md §2.3: counting one result only changes the season totals of the
    players with two, and no place or tournament's points."""
    season = Season.objects.select_related("series").get(pk=season.pk)
    tables = settings_changes(season, {"bgp_best_n": 1})
    assert tables and all(t["key"].startswith("totals/") for t in tables)
    for table in tables:
        for change in table["changes"]:
            assert change["new"] < change["old"]


def test_the_settings_page_explains_every_option_in_one_sentence_with_its_source(organiser, season):
    page = organiser.get(settings_url(season)).content.decode()
    help_ = page[page.index('id="tiebreak-help"') :]
    for code in ("NSF", "FIDE-SWISS-RATED", "BH/C1", "SB/C1", "DE/P", "WIN", "WON", "BPG", "BWG"):
        assert f">{code}" in help_ or f" {code}" in help_, code
    for code in ("PS/C1", "REP", "ARO/C1", "KS/L+k", "MK/C2", "BK"):
        assert code in help_, code
    row = re.search(r'<th scope="row">FIDE-SWISS</th><td>(.*?)</td><td>(.*?)</td>', help_)
    assert row.group(1).startswith("For Swiss and Monrad events: Buchholz Cut 1")
    assert row.group(2) == "FIDE C.02 (2017) §13.16.4, superseded: C.07 gives no default list"
    assert "FIDE C.07 (2023) 8.1, 14, 16" in help_  # Buchholz's source
    assert "Unplayed rounds in FIDE tie-breaks" in help_ and "FIDE C.07 (2023) 4.2" in help_
    assert 'name="preview"' in page


def test_the_group_page_previews_its_own_list_and_stores_nothing(
    organiser, season, django_capture_on_commit_callbacks
):
    from competitions.models import Group
    from competitions.views import manage_url

    group = Group.objects.get(name="Swiss")
    before = stored(season)
    data = {"g-name": "Swiss", "g-scale": group.scale, "g-tiebreaks": "FIDE-SWISS"}
    with django_capture_on_commit_callbacks() as callbacks:
        response = organiser.post(
            manage_url(season, "group", "ex1a", group.pk),
            {**data, "g-group_format": "", "preview_group": "1"},
        )
    assert response.status_code == 200
    assert previewed(response.content.decode()) == SWAPPED
    assert callbacks == [] and stored(season) == before
    group.refresh_from_db()
    assert "tiebreaks" not in group.options
    # a wrong list is refused, naming the field, and previews nothing
    response = organiser.post(
        manage_url(season, "group", "ex1a", group.pk),
        {**data, "g-tiebreaks": "BH XYZ", "g-group_format": "", "preview_group": "1"},
    )
    assert response.status_code == 400
    assert "Unknown tie-break code XYZ" in response.content.decode()
    assert "Preview: nothing is saved" not in response.content.decode()


def test_the_tournament_page_previews_its_own_list_and_stores_nothing(
    organiser, season, django_capture_on_commit_callbacks
):
    from competitions.models import Tournament
    from competitions.views import manage_url

    url = manage_url(season, "tournament", "ex1a")
    before = stored(season)
    # the form's hidden save_tournament comes along: Preview wins, nothing is saved
    data = {"save_tournament": "1", "t-name": "Example 1A", "t-date": "2026-02-01"}
    with django_capture_on_commit_callbacks() as callbacks:
        response = organiser.post(
            url, {**data, "t-tiebreaks": "FIDE-SWISS", "preview_tournament": "1"}
        )
    assert response.status_code == 200
    assert previewed(response.content.decode()) == SWAPPED
    assert callbacks == [] and stored(season) == before
    assert "tiebreaks" not in Tournament.objects.get(key="ex1a").options

    # chess-othello-options.md §2.5: the dense scale granted moves no place, only the points
    # below first place (20, 19, 18, ... instead of 20, 17, 15, ...).
    now = {r["player"]: (r["place"], r["points"]) for r in bgp_rows(season, "ex1a")}
    response = organiser.post(url, {**data, "t-dense_scale": "on", "preview_tournament": "1"})
    assert response.status_code == 200
    tables = previewed(response.content.decode())
    assert set(tables) == {"points/ex1a", "totals/Junior"}
    dense = dict(enumerate(range(20, 5, -1), start=1))
    assert sorted(tables["points/ex1a"]) == sorted(
        (f"Player {p.upper()}", str(points), str(dense[place]))
        for p, (place, points) in now.items()
        if dense[place] != points
    )
    assert DENSE not in Tournament.objects.get(key="ex1a").options
