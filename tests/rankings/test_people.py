"""rankings.people.People: a page's names and clubs in one query (the season's club where the
player is entered, else the player's own), and competitions.lookups.AnyOf, the `IN` it uses."""

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from competitions.lookups import AnyOf
from competitions.models import Club, Player, Season, SeasonPlayer, Series
from rankings.people import People


def _series(slug: str) -> Series:
    return Series.objects.create(slug=slug, name=slug, system="circuit")


@pytest.mark.django_db
def test_names_and_clubs_of_a_page_in_one_query():
    series, other = _series("people"), _series("people-other")
    home = Club.objects.create(series=series, key="home", name="Home = club")
    away = Club.objects.create(series=series, key="away", name="Ἀθῆναι 雅典")
    season = Season.objects.create(series=series, label="2025/26", name="2025/26")
    earlier = Season.objects.create(series=series, label="2024", name="2024")
    moved = Player.objects.create(series=series, key="moved", name="Moved", club=home)
    clubless = Player.objects.create(series=series, key="clubless", name="No club now", club=home)
    Player.objects.create(series=series, key="absent", name="Not this season", club=home)
    elsewhere = Player.objects.create(
        series=series, key="elsewhere", name="Other season", club=away
    )
    Player.objects.create(series=other, key="stranger", name="Other series")
    SeasonPlayer.objects.create(season=season, player=moved, club=away)
    SeasonPlayer.objects.create(season=season, player=clubless, club=None)
    SeasonPlayer.objects.create(season=earlier, player=elsewhere, club=home)
    season = Season.objects.select_related("series").get(pk=season.pk)

    keys = ["moved", "clubless", "absent", "elsewhere", "stranger", "unknown"]
    with CaptureQueriesContext(connection) as queries:
        people = People(season, keys)
    assert len(queries) == 1
    assert [people.name(k) for k in keys] == [
        "Moved", "No club now", "Not this season", "Other season", "stranger", "unknown",
    ]  # fmt: skip
    # The season's club where the player is entered in this season (none: ""), else their own.
    athens = "Ἀθῆναι 雅典"
    assert [people.club(k) for k in keys] == [athens, "", "Home = club", athens, "", ""]
    row = people.decorate({"player": "moved", "rank": 1})
    assert row["name"] == "Moved" and row["club"] == "Ἀθῆναι 雅典" and row["rank"] == 1
    assert row["url"].endswith("/moved/")
    assert People(season, []).players == {}


class TestAnyOf(TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.series = _series("any-of")
        Player.objects.bulk_create(
            Player(series=cls.series, key=key, name=key) for key in ("a", "b", "c", "O'Neil", "δ")
        )

    @settings(max_examples=40, deadline=None)
    @given(st.lists(st.sampled_from(["a", "b", "c", "O'Neil", "δ", "z", "", None]), max_size=6))
    def test_any_of_finds_what_in_finds(self, values):
        players = Player.objects.filter(series=self.series)
        expected = set(players.filter(key__in=values).values_list("key", flat=True))
        found = set(players.filter(AnyOf(F("key"), values)).values_list("key", flat=True))
        assert found == expected
        assert found == {v for v in values if v in {"a", "b", "c", "O'Neil", "δ"}}
