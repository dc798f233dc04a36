"""A chess player plays in one group of a tournament (rules.md §3; issue 45: a player in two groups
of one tournament was accepted on the web and in the file, and his BGP points counted twice):
refused by the group page, the service, the file and the database."""

import copy

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.test import Client

from competitions.interchange import FileError, export_competition
from competitions.models import Group, Player, Tournament
from competitions.systems.chess import services as chess_services
from competitions.systems.chess.models import GroupPlayer
from competitions.views import manage_url
from rankings.imports import import_competition, import_file
from tests.chess_files import chess_file

pytestmark = pytest.mark.django_db


def manager_of(season, django_user_model) -> Client:
    user = django_user_model.objects.create_user("secretary", password="pw-secretary-1")
    season.series.managers.add(user)
    client = Client()
    client.force_login(user)
    return client


# --- youth chess: one group per tournament (rules.md §3) -----------------------------------------


@pytest.fixture
def chess_season(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return import_competition(chess_file())


def test_the_group_page_refuses_a_player_of_another_group_of_the_tournament(
    chess_season, django_user_model
):
    client = manager_of(chess_season, django_user_model)
    group_b = Group.objects.get(tournament__key="klyve", name="Gruppe B")
    before = GroupPlayer.objects.count()
    response = client.post(
        manage_url(chess_season, "group", "klyve", group_b.pk),
        {"add_player": "1", "m-player": "Anna Berg (a)", "m-player_class": "Kadett"},
    )
    assert response.status_code == 400
    page = response.content.decode()
    for part in ("Anna Berg", "Klyve BGP", "Gruppe A", "Gruppe B"):
        assert part in page, part
    assert GroupPlayer.objects.count() == before
    # In a group of another tournament she is welcome (she plays Kretsmesterskap already,
    # and Gruppe B of Klyve had no place for her; a new tournament has).
    skien = Tournament.objects.create(season=chess_season, key="skien", name="Skien BGP")
    other = chess_services.group_create(tournament=skien, name="Gruppe A", scale="1-half-0")
    member = chess_services.member_add(
        group=other, player=Player.objects.get(key="a"), player_class="", born=None, rating=None
    )
    assert member.tournament_id == skien.pk


def test_the_service_refuses_a_second_group_naming_player_tournament_and_both_groups(
    chess_season,
):
    group_b = Group.objects.get(tournament__key="klyve", name="Gruppe B")
    with pytest.raises(ValidationError) as refused:
        chess_services.member_add(
            group=group_b,
            player=Player.objects.get(key="b"),
            player_class="",
            born=None,
            rating=None,
        )
    message = " ".join(refused.value.messages)
    assert "Bjørn Dahl" in message and "Klyve BGP" in message
    assert "Gruppe A" in message and "Gruppe B" in message


def test_the_file_refuses_a_player_in_two_groups_of_a_tournament_and_stores_nothing():
    data = chess_file()
    data["tournaments"][0]["groups"][1]["players"].append({"player": "a", "class": "Kadett"})
    with pytest.raises(FileError) as refused:
        import_file(data)
    assert refused.value.path == "tournaments[0].groups[1].players[2].player"
    for part in ("a ", "klyve", "Gruppe A", "Gruppe B"):
        assert part in refused.value.message, part
    assert not GroupPlayer.objects.exists() and not Tournament.objects.exists()


def test_the_database_refuses_a_second_group_of_a_tournament(chess_season):
    group_b = Group.objects.get(tournament__key="klyve", name="Gruppe B")
    with pytest.raises(IntegrityError), transaction.atomic():
        GroupPlayer.objects.create(group=group_b, player=Player.objects.get(key="a"), position=9)


def test_the_copied_tournament_agrees_with_the_group_in_the_database(chess_season):
    member = GroupPlayer.objects.filter(group__tournament__key="klyve").first()
    km = Tournament.objects.get(key="km")
    with pytest.raises(IntegrityError), transaction.atomic():
        GroupPlayer.objects.filter(pk=member.pk).update(tournament=km)
        connection.check_constraints()  # PostgreSQL checks the deferred link at commit


def test_the_admin_refuses_a_second_group_as_a_form_error(chess_season):
    group_b = Group.objects.get(tournament__key="klyve", name="Gruppe B")
    member = GroupPlayer(group=group_b, player=Player.objects.get(key="c"), position=3)
    with pytest.raises(ValidationError) as refused:
        member.full_clean()
    assert "Gruppe A" in str(refused.value) and "Gruppe B" in str(refused.value)


def test_a_replacing_import_moves_a_player_to_another_group_of_the_tournament(chess_season):
    data = export_competition(chess_season)
    groups = data["tournaments"][0]["groups"]
    moved = groups[0]["players"].pop()  # Eva Strand leaves Gruppe A, with her games
    groups[0]["rounds"] = [
        [g for g in r if "e" not in (g.get("white"), g.get("black"), g.get("walkover"))]
        for r in groups[0]["rounds"]
    ]
    groups[1]["players"].append(moved)
    import_file(copy.deepcopy(data), replace=True)
    member = GroupPlayer.objects.get(tournament__key="klyve", player__key="e")
    assert member.group.name == "Gruppe B"
    assert export_competition(chess_season) == data
