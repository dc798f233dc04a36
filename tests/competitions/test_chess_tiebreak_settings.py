"""chess-othello-options.md §1.1 on the manager pages: the season's tie-break settings, a
tournament's and a group's own list (a wrong one refused, naming it, storing nothing), and
§1.2 half-point byes entered on the round page and read from a TRF file (`H`)."""

import pytest
from django.test import Client

from competitions.models import Group, RoundEntry, Season, Tournament
from competitions.systems.chess.settings import SPEC
from competitions.views import manage_url
from rankings.imports import import_competition
from rankings.selectors import standings_table
from tests.chess_files import chess_file

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return import_competition(chess_file())


@pytest.fixture
def secretary(django_user_model, season):
    user = django_user_model.objects.create_user("secretary", password="pw-secretary-1")
    season.series.managers.add(user)
    client = Client()
    client.force_login(user)
    return client


def group_form(group: Group, **changes) -> dict:
    data = {
        "save_group": "1",
        "g-name": group.name,
        "g-scale": group.scale,
        "g-tiebreaks": "",
        "g-group_format": "",
    }
    data.update({f"g-{k}": v for k, v in changes.items()})
    return data


def test_the_season_settings_check_the_list_and_its_options():
    assert SPEC.validate({"tiebreaks": "FIDE-SWISS", "unplayed_rounds": "fide2026"}) == []
    problems = dict(SPEC.validate({"tiebreaks": "BH/C1 XYZ", "final_ties": "coin"}))
    assert "XYZ" in problems["tiebreaks"]
    assert "share, lot" in problems["final_ties"]
    assert "twice" in dict(SPEC.validate({"tiebreaks": "BH BH"}))["tiebreaks"]
    assert "aro_unrated" in dict(SPEC.validate({"aro_unrated": "5000"}))


def test_a_group_gets_its_own_list_and_a_wrong_one_is_refused(
    secretary, season, django_capture_on_commit_callbacks
):
    group = Group.objects.get(name="Gruppe A")
    url = manage_url(season, "group", "klyve", group.pk)
    response = secretary.post(url, group_form(group, tiebreaks="BH/C1 BHX"))
    assert response.status_code == 400
    assert "Unknown tie-break code BHX" in response.content.decode()
    group.refresh_from_db()
    assert group.options == {}
    with django_capture_on_commit_callbacks(execute=True):
        response = secretary.post(
            url, group_form(group, tiebreaks="FIDE-SWISS", group_format="monrad")
        )
    assert response.status_code == 302
    group.refresh_from_db()
    assert group.options == {"tiebreaks": "FIDE-SWISS", "format": "monrad"}
    table = standings_table(
        season=Season.objects.get(pk=season.pk), kind="group", key=str(group.pk)
    )
    assert table.data["codes"][:2] == ["BH/C1", "BH"]
    assert [t["code"] for t in table.row_details[0]["tiebreaks"]][:2] == ["BH/C1", "BH"]
    # emptied again: the season's list
    with django_capture_on_commit_callbacks(execute=True):
        secretary.post(url, group_form(group))
    group.refresh_from_db()
    assert group.options == {}


def test_a_tournament_gets_its_own_list(secretary, season):
    url = manage_url(season, "tournament", "klyve")
    data = {"save_tournament": "1", "t-name": "Klyve BGP", "t-date": "2025-10-04"}
    response = secretary.post(url, {**data, "t-tiebreaks": "FIDE-RR KS"})
    assert response.status_code == 400 and "KS is listed twice" in response.content.decode()
    assert Tournament.objects.get(key="klyve").options == {}
    response = secretary.post(url, {**data, "t-tiebreaks": "FIDE-RR", "t-county": "on"})
    assert response.status_code == 302
    assert Tournament.objects.get(key="klyve").options == {
        "county_championship": True,
        "tiebreaks": "FIDE-RR",
    }


def test_a_half_point_bye_is_given_on_the_round_page(
    secretary, season, django_capture_on_commit_callbacks
):
    group = Group.objects.get(name="Gruppe A")
    url = manage_url(season, "round", "klyve", group.pk, 4)  # d has no entry in round 4
    player = next(p for p in group.members.select_related("player") if p.player.key == "d").player
    with django_capture_on_commit_callbacks(execute=True):
        response = secretary.post(url, {"add_half_bye": "1", "wo-player": player.pk})
    assert response.status_code == 302, response.content.decode()[:2000]
    entry = RoundEntry.objects.get(round__group=group, round__number=4, player=player)
    assert entry.status == RoundEntry.Status.BYE
    assert "half-point bye" in secretary.get(url).content.decode()
    rows = standings_table(
        season=Season.objects.get(pk=season.pk), kind="group", key=str(group.pk)
    ).row_details
    d = next(r for r in rows if r["player"] == "d")
    assert d["points"] == 2.5 and d["cells"][3] == "=BYE"  # 2 before, and half a point
    # and the TRF file carries it as H, which an import reads back as a half-point bye
    from rankings.urls_helpers import season_url

    text = secretary.get(season_url(season, "group_trf", "klyve", group.pk)).content.decode()
    line = next(li for li in text.splitlines() if li.startswith("001") and "David Moen" in li)
    assert line.rstrip().endswith("0000 - H")


def test_a_trf_half_point_bye_is_imported(secretary, season, django_capture_on_commit_callbacks):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from competitions.systems.chess import trf

    players = [
        trf.TrfPlayer(
            1, "Ola Nordmann", games=[trf.TrfGame(2, "w", "1"), trf.TrfGame(0, "-", "H")]
        ),
        trf.TrfPlayer(2, "Kari Hansen", games=[trf.TrfGame(1, "b", "0"), trf.TrfGame(3, "w", "=")]),
        trf.TrfPlayer(3, "Per Berg", games=[trf.TrfGame(0, "-", "H"), trf.TrfGame(2, "b", "=")]),
    ]
    text = trf.write(trf.TrfGroup(name="Fra TRF", rounds=2, players=players)).encode()
    tournament = Tournament.objects.get(key="klyve")
    group = Group.objects.create(tournament=tournament, name="Fra TRF", position=9)
    with django_capture_on_commit_callbacks(execute=True):
        response = secretary.post(
            manage_url(season, "group", "klyve", group.pk),
            {"import_trf": "1", "trf-file": SimpleUploadedFile("g.trf", text)},
        )
    assert response.status_code == 302, response.content.decode()[:2000]
    byes = RoundEntry.objects.filter(round__group=group, status=RoundEntry.Status.BYE)
    assert sorted(byes.values_list("round__number", "player__name")) == [
        (1, "Per Berg"),
        (2, "Ola Nordmann"),
    ]
    rows = standings_table(
        season=Season.objects.get(pk=season.pk), kind="group", key=str(group.pk)
    ).row_details
    assert sorted(r["points"] for r in rows) == [0.5, 1, 1.5]  # Kari, Per, Ola
