"""chess-othello-options.md §2 through the whole site: the BGP rule options as season settings,
a tournament's dense scale and a group player's beginner flag in the file and on the manager
pages, and the stored BGP tables that follow from them."""

import pytest
from django.test import Client

from competitions.interchange import FileError, export_competition
from competitions.models import Group, Season, Tournament
from competitions.systems.chess.models import GroupPlayer
from competitions.systems.chess.settings import SPEC, parse_settings
from competitions.views import manage_url
from rankings.imports import import_competition
from rankings.selectors import standings_table
from tests.chess_files import played_chess_file

pytestmark = pytest.mark.django_db


def imported(django_capture_on_commit_callbacks, data) -> Season:
    with django_capture_on_commit_callbacks(execute=True):
        return import_competition(data)


def bgp(season: Season, tournament: str) -> dict:
    table = standings_table(season=Season.objects.get(pk=season.pk), kind="bgp", key=tournament)
    return {r["player"]: r for r in table.row_details}


def with_klyve(data: dict, **changes) -> dict:
    data["tournaments"][0].update(changes)
    return data


def test_the_settings_check_each_option_and_default_to_todays_rules():
    s = parse_settings({})
    assert (s.county_scale, s.beginners_after_class, s.bgp_best_n) == ("winner_others", False, 0)
    assert (s.bgp_alt_scale, s.bgp_alt_class_under, s.bgp_alt_single_club) == ((), 6, True)
    assert not SPEC.validate(
        {"county_scale": "dense", "bgp_alt_scale": "17 14 12", "bgp_best_n": 5}
    )
    problems = dict(SPEC.validate({"bgp_alt_scale": "17 x", "county_scale": "all"}))
    assert "bgp_alt_scale" in problems["bgp_alt_scale"]
    assert "winner_others, dense" in problems["county_scale"]
    assert "bgp_best_n" in dict(SPEC.validate({"bgp_best_n": -1}))


def test_the_file_carries_the_beginner_flag_and_the_dense_scale(django_capture_on_commit_callbacks):
    data = with_klyve(played_chess_file(), dense_scale=True)
    data["tournaments"][0]["groups"][0]["players"][1]["beginner"] = True
    season = imported(django_capture_on_commit_callbacks, data)
    assert GroupPlayer.objects.get(tournament__key="klyve", player__key="b").beginner
    assert Tournament.objects.get(key="klyve").options == {"dense_scale": True}
    exported = export_competition(season)
    assert exported["tournaments"][0]["dense_scale"] is True
    assert exported["tournaments"][0]["groups"][0]["players"][1]["beginner"] is True
    assert "beginner" not in exported["tournaments"][0]["groups"][0]["players"][0]
    assert "dense_scale" not in exported["tournaments"][1]


def test_a_wrong_beginner_flag_is_refused_naming_where(django_capture_on_commit_callbacks):
    data = played_chess_file()
    data["tournaments"][0]["groups"][0]["players"][1]["beginner"] = "yes"
    with pytest.raises(FileError) as caught:
        import_competition(data)
    assert "tournaments[0].groups[0].players[1].beginner" in str(caught.value)
    assert not Season.objects.exists()


def test_default_settings_store_todays_bgp_points(django_capture_on_commit_callbacks):
    data = played_chess_file()
    data["tournaments"][0]["groups"][0]["players"][1]["beginner"] = True  # no effect by default
    season = imported(django_capture_on_commit_callbacks, data)
    klyve = bgp(season, "klyve")
    assert {p: (r["place"], r["points"]) for p, r in klyve.items()} == {
        "a": (1, 20), "b": (2, 17), "d": (3, 15), "c": (1, 20), "e": (2, 17),
        "g": (1, 20), "f": (2, 17),
    }  # fmt: skip
    assert all("after" not in r for r in klyve.values())
    table = standings_table(season=Season.objects.get(pk=season.pk), kind="bgp", key="klyve")
    assert all("rule" not in c for c in table.data["classes"])


def test_a_beginner_is_placed_after_his_age_class(django_capture_on_commit_callbacks):
    data = played_chess_file(settings={"beginners_after_class": True})
    data["tournaments"][0]["groups"][0]["players"][1]["beginner"] = True  # b, 2nd of Kadett
    season = imported(django_capture_on_commit_callbacks, data)
    klyve = bgp(season, "klyve")
    assert (klyve["a"]["points"], klyve["d"]["place"], klyve["d"]["points"]) == (20, 2, 17)
    assert (klyve["b"]["place"], klyve["b"]["points"], klyve["b"]["after"]) == (3, 15, 2)


def test_best_n_counts_the_best_results_and_keeps_the_others_shown(
    django_capture_on_commit_callbacks,
):
    season = imported(
        django_capture_on_commit_callbacks, played_chess_file(settings={"bgp_best_n": 1})
    )
    table = standings_table(season=Season.objects.get(pk=season.pk), kind="class", key="kadett")
    a = next(r for r in table.row_details if r["player"] == "a")
    assert a["points"] == 20  # klyve 20 counted, the county championship's 10 not
    assert a["counted"] == [{"tournament": "klyve", "points": 20}]
    assert a["dropped"] == [{"tournament": "km", "points": 10}]


def test_the_dense_flag_county_dense_and_the_alternative_scale(django_capture_on_commit_callbacks):
    data = with_klyve(played_chess_file(settings={"county_scale": "dense"}), dense_scale=True)
    season = imported(django_capture_on_commit_callbacks, data)
    klyve, km = bgp(season, "klyve"), bgp(season, "km")
    assert (klyve["d"]["points"], klyve["e"]["points"]) == (18, 19)  # 20 19 18 ...
    assert km["a"]["points"] == 19  # 2nd of Kadett at the county championship
    table = standings_table(season=Season.objects.get(pk=season.pk), kind="bgp", key="klyve")
    assert {c["name"]: c["rule"] for c in table.data["classes"]} == dict.fromkeys(
        ("Kadett", "Lilleputt", "Miniputt"), "dense"
    )
    season = imported(
        django_capture_on_commit_callbacks,
        played_chess_file(series="other", settings={"bgp_alt_scale": "17 14 12"}),
    )
    klyve = bgp(season, "klyve")
    assert (klyve["a"]["points"], klyve["b"]["points"], klyve["d"]["points"]) == (17, 14, 12)


@pytest.fixture
def secretary(django_user_model):
    def make(season):
        user = django_user_model.objects.create_user("secretary", password="pw-secretary-1")
        season.series.managers.add(user)
        client = Client()
        client.force_login(user)
        return client

    return make


def test_the_manager_marks_a_beginner_and_a_dense_tournament(
    secretary, django_capture_on_commit_callbacks
):
    season = imported(
        django_capture_on_commit_callbacks,
        played_chess_file(settings={"beginners_after_class": True}),
    )
    client = secretary(season)
    group = Group.objects.get(name="Gruppe A")
    member = GroupPlayer.objects.get(group=group, player__key="b")
    url = manage_url(season, "member", "klyve", group.pk, member.pk)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            url, {"player_class": "Kadett", "born": "2012", "rating": "", "beginner": "on"}
        )
    assert response.status_code == 302
    member.refresh_from_db()
    assert member.beginner
    assert bgp(season, "klyve")["b"]["points"] == 15
    page = client.get(manage_url(season, "group", "klyve", group.pk)).content.decode()
    assert 'badge text-bg-secondary">beginner' in page
    url = manage_url(season, "tournament", "klyve")
    data = {"save_tournament": "1", "t-name": "Klyve BGP", "t-date": "2025-10-04"}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {**data, "t-dense_scale": "on"})
    assert response.status_code == 302
    assert Tournament.objects.get(key="klyve").options == {"dense_scale": True}
    klyve = bgp(season, "klyve")  # d 2nd of Kadett, the beginner b 3rd: 19 and 18
    assert (klyve["d"]["points"], klyve["b"]["points"]) == (19, 18)


def test_the_public_pages_say_which_rule_applied(client, django_capture_on_commit_callbacks):
    from rankings.urls_helpers import season_url

    data = with_klyve(
        played_chess_file(
            settings={"beginners_after_class": True, "bgp_best_n": 1, "county_scale": "dense"}
        ),
        dense_scale=True,
        name="Klyve <BGP>",
    )
    data["tournaments"][0]["groups"][0]["players"][1]["beginner"] = True
    season = imported(django_capture_on_commit_callbacks, data)
    page = client.get(season_url(season, "tournament", "klyve")).content.decode()
    assert "Beginner: place 3 in class Kadett, after its 2 other players" in page
    assert "Dense scale granted to this tournament (BGP rules 1996/1998): 20, 19, 18" in page
    page = client.get(season_url(season, "tournament", "km")).content.decode()
    assert "County championship (Kretsmesterskap) on the dense scale (USF rules from 2024)" in page
    page = client.get(season_url(season, "class", "kadett")).content.decode()
    # a: Klyve 20 counted, the county championship's 19 not
    assert "The best result counted; not counted: Kretsmesterskap 19." in page
    season = imported(
        django_capture_on_commit_callbacks,
        played_chess_file(series="other", settings={"bgp_alt_scale": "17 14 12"}),
    )
    page = client.get(season_url(season, "tournament", "klyve")).content.decode()
    assert "A small class (fewer than 6 players in the tournament)" in page
    assert "the small-class scale (BGP rules 1996/1998): 17, 14, 12, then 5" in page


def test_the_settings_page_shows_each_option_with_its_source_and_year(
    secretary, django_capture_on_commit_callbacks
):
    from django.urls import reverse

    season = imported(django_capture_on_commit_callbacks, played_chess_file())
    client = secretary(season)
    url = reverse("manage:season_settings", args=[season.series.slug, season.slug])
    page = client.get(url).content.decode()
    for name in (
        "county_scale",
        "beginners_after_class",
        "bgp_best_n",
        "bgp_alt_scale",
        "bgp_alt_class_under",
        "bgp_alt_single_club",
    ):
        assert f'name="{name}"' in page
    for source in (
        "26 April 2024",  # county_scale
        "USF rules for BGP/UGP, point 3 (2024)",  # beginners_after_class
        "UGP i sjakk 1998",  # best N
        "the BGP rules of 1996 (3b) and 1998 (b)",  # the small-class scale
        "mindre enn 6 deltakere",
        "bare deltakere fra ett lokallag",
    ):
        assert source in page, source
