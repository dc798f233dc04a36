"""Issue 48 part 7: the chess season settings page previews what proposed settings would do to
the group places (worked example 1A: FIDE-SWISS puts X second, V third) before anything is saved,
and explains every tie-break option with its source."""

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from competitions.models import Season
from competitions.systems.chess.settings import SPEC
from rankings.imports import import_competition
from rankings.models import StandingsRow, StandingsTable
from rankings.systems.chess.preview import place_changes
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


def moves(page: str) -> list[tuple[str, str, str]]:
    return re.findall(
        r"<tr><td>(?:<bdi>)?([^<]+)(?:</bdi>)?</td><td class=\"text-end\">(\d+)</td>"
        r"<td class=\"text-end\">→ (\d+)</td></tr>",
        page,
    )


def test_the_preview_lists_the_places_that_would_change_and_stores_nothing(
    organiser, season, django_capture_on_commit_callbacks
):
    before = stored(season)
    with django_capture_on_commit_callbacks() as callbacks:
        response = organiser.post(settings_url(season), form(tiebreaks="FIDE-SWISS", preview="1"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Preview: nothing is saved yet" in page
    assert "Example 1A" in page and "Swiss" in page
    assert moves(page) == [("Player X", "3", "2"), ("Player V", "2", "3")]
    # nothing written, nothing enqueued
    assert callbacks == []
    assert Season.objects.get(pk=season.pk).settings == season.settings == {}
    assert stored(season) == before
    # the form keeps the proposal, to be saved next
    assert 'value="FIDE-SWISS"' in page


def test_a_preview_that_changes_no_place_says_so(organiser, season):
    response = organiser.post(settings_url(season), form(bgp_further="4", preview="1"))
    assert response.status_code == 200
    assert "Nobody would move up or down in any group." in response.content.decode()


def test_a_wrong_list_is_refused_by_the_preview_too(organiser, season):
    response = organiser.post(settings_url(season), form(tiebreaks="BH XYZ", preview="1"))
    assert response.status_code == 400
    page = response.content.decode()
    assert "Unknown tie-break code XYZ" in page and "Preview: nothing is saved" not in page


def test_the_preview_uses_the_recompute_and_a_fixed_number_of_queries(
    season, django_assert_num_queries
):
    season = Season.objects.select_related("series").get(pk=season.pk)
    with django_assert_num_queries(5):  # groups, members, rounds, entries; the names
        changes = place_changes(season, {"tiebreaks": "FIDE-SWISS"})
    assert changes == [
        {
            "tournament": "Example 1A",
            "group": "Swiss",
            "changes": [
                {"name": "Player X", "old": 3, "new": 2},
                {"name": "Player V", "old": 2, "new": 3},
            ],
        }
    ]
    # the proposed list of 2009 rules: the same two move (worked example 1A's table)
    assert place_changes(season, {"tiebreaks": "FIDE-SWISS", "unplayed_rounds": "fide2009"})
    assert place_changes(season, {"tiebreaks": "FIDE-SWISS", "unplayed_rounds": "fide2026"}) == []


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
    assert moves(response.content.decode()) == [("Player X", "3", "2"), ("Player V", "2", "3")]
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
    assert moves(response.content.decode()) == [("Player X", "3", "2"), ("Player V", "2", "3")]
    assert callbacks == [] and stored(season) == before
    assert "tiebreaks" not in Tournament.objects.get(key="ex1a").options
