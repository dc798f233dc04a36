"""The public pages name what keizer-variants.md §5.7 adds, as they name the absent and the
external players: an evening's long-term absent (§2.6), the results of its external games
(§2.5) and the season's withdrawn players (§2.8); a player's evenings the same, with a
withdrawn opponent marked. The attendance page offers the long-term absence wherever the
season has one."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from competitions.models import Player
from competitions.views import manage_url
from rankings.imports import import_competition
from rankings.models import StandingsTable
from rankings.urls_helpers import season_url
from tests.competitions.test_keizer_variant_data import worked_file

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    html = re.sub(r"<script.*?</script>", "", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def variant_file(settings: dict, **players) -> dict:
    """§3.1's season with D long-term absent in round 2 (not absent) and C's external game of
    round 3 won."""
    data = worked_file(settings, **players)
    data["rounds"][1]["long_absent"] = data["rounds"][1].pop("absent")
    data["rounds"][2]["external_results"] = {"C": "1"}
    return data


def evening_text(client: Client, season, number: int) -> str:
    html = client.get(season_url(season, "round", number)).content.decode()
    return text(html[html.index("In brackets") :])


def evenings_of(client: Client, season, key: str) -> str:
    """The player's table of evenings, as text."""
    html = client.get(reverse("player", args=[season.series.slug, key])).content.decode()
    return text(html[html.index(">Evenings<") :])


def test_an_evening_names_its_long_term_absent_external_results_and_the_withdrawn(client):
    season = import_competition(variant_file({"preset": "kfc"}, D={"withdrawn": True}))
    second = evening_text(client, season, 2)
    assert "Long-term absent: D" in second
    assert "Everybody present played" not in second  # D was not there
    assert "Played externally: C (won)" in evening_text(client, season, 3)
    for number in (1, 2, 3):  # on no list (the credit is on), named on every evening
        assert "Withdrawn from the season: D" in evening_text(client, season, number)
    # Without any of it, the evening says what it said.
    plain = import_competition(worked_file({}) | {"series": "plain"})
    for number, missing in ((1, "Bye: E"), (2, "Absent with notice: D")):
        shown = evening_text(client, plain, number)
        assert missing in shown
        assert "Withdrawn" not in shown and "Long-term" not in shown
    assert "Played externally: C" in evening_text(client, plain, 3)
    assert "Played externally: C (" not in evening_text(client, plain, 3)


def test_a_players_evenings_name_the_long_absence_the_external_result_and_a_withdrawn_opponent(
    client,
):
    season = import_competition(variant_file({"preset": "kfc"}, D={"withdrawn": True}))
    assert "3 white won against D (withdrawn) 1-0" in evenings_of(client, season, "B")
    c = evenings_of(client, season, "C")
    assert "1 white drew with D (withdrawn)" in c and "3 played externally and won" in c
    # Without the credit D stays on the list: D's evenings include the long absence, and D's
    # section says D has withdrawn.
    season = import_competition(variant_file({}, D={"withdrawn": True}), replace=True)
    d = evenings_of(client, season, "D")
    assert "2 long-term absent" in d
    html = client.get(reverse("player", args=[season.series.slug, "D"])).content.decode()
    assert 'id="withdrawn"' in html and "Withdrawn from the season" in html
    html = client.get(reverse("player", args=[season.series.slug, "B"])).content.decode()
    assert 'id="withdrawn"' not in html


def test_the_stored_lists_name_the_withdrawn_only_where_there_are_any():
    season = import_competition(worked_file({}))
    lists = StandingsTable.objects.filter(season=season, kind="list")
    assert lists.exists() and not any("withdrawn" in t.data for t in lists)
    season = import_competition(worked_file({}, D={"withdrawn": True}), replace=True)
    assert all(t.data["withdrawn"] == ["D"] for t in lists.all())


def test_the_attendance_page_offers_long_absent_where_an_evening_has_it(django_user_model):
    user = django_user_model.objects.create_user("leader", password="pw-leader-1")
    client = Client()
    client.force_login(user)
    # rules.md's settings (no share named for it) but a file with a long-term absence.
    season = import_competition(variant_file({}))
    season.series.managers.add(user)
    a = Player.objects.get(key="A")
    html = client.get(manage_url(season, "attendance", 4)).content.decode()
    found = re.findall(rf'name="p{a.pk}" id="id_p{a.pk}_\d" value="(\w+)"', html)
    assert found == ["present", "absent", "long_absent", "external", "unexcused"]
    season = import_competition(worked_file({}), replace=True)  # none: the four buttons
    html = client.get(manage_url(season, "attendance", 4)).content.decode()
    assert "long_absent" not in re.findall(
        rf'name="p{a.pk}" id="id_p{a.pk}_\d" value="(\w+)"', html
    )
