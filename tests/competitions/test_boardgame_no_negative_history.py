"""The board-game circuit's imported yearly totals and previous participant counts are never
negative (issue 45: a negative yearly total was accepted): refused in the file, the admin and the
database."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from competitions.interchange import FileError
from competitions.models import Tournament
from competitions.systems.boardgame.models import HistoricTotal, PreviousParticipants
from rankings.imports import import_file

pytestmark = pytest.mark.django_db


def manager_of(season, django_user_model) -> Client:
    user = django_user_model.objects.create_user("secretary", password="pw-secretary-1")
    season.series.managers.add(user)
    client = Client()
    client.force_login(user)
    return client


# --- board-game circuit: no negative yearly total or participant count ---------------------------


def test_the_file_refuses_a_negative_yearly_total(circuit_file):
    circuit_file["history"][0]["yearly"]["p2"] = -0.5
    with pytest.raises(FileError) as refused:
        import_file(circuit_file)
    assert refused.value.path == "history[0].yearly.p2"
    assert "negative" in refused.value.message
    assert not HistoricTotal.objects.exists() and not Tournament.objects.exists()


def test_the_file_refuses_a_negative_previous_participant_count(circuit_file):
    circuit_file["previous_participants"][1] = -70
    with pytest.raises(FileError) as refused:
        import_file(circuit_file)
    assert refused.value.path == "previous_participants[1]"
    assert not PreviousParticipants.objects.exists()


def test_the_database_refuses_a_negative_yearly_total(season):
    total = HistoricTotal.objects.filter(season=season).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        HistoricTotal.objects.filter(pk=total.pk).update(points=-1)


def test_the_admin_refuses_a_negative_yearly_total_as_a_form_error(admin_client, season):
    total = HistoricTotal.objects.filter(season=season).first()
    url = reverse("admin:competitions_historictotal_change", args=[total.pk])
    response = admin_client.post(
        url,
        {
            "season": season.pk,
            "label": total.label,
            "player": total.player_id,
            "points": "-3",
        },
    )
    assert response.status_code == 200  # the form again, with its error
    assert "greater than or equal to 0" in response.content.decode()
    total.refresh_from_db()
    assert total.points >= 0


def test_the_admin_refuses_a_negative_previous_participant_count(admin_client, season):
    previous = PreviousParticipants(season=season, previous_participants=[64, -1])
    with pytest.raises(ValidationError):
        previous.full_clean()
