"""Keizer evenings are in date order (rules.md §4; issue 45: evenings with dates out of order were
accepted): refused on the attendance page and in the file, naming both evenings; equal dates are
allowed."""

import pytest
from django.test import Client

from competitions.interchange import FileError
from competitions.models import Player, Round
from competitions.views import manage_url
from rankings.imports import import_competition, import_file
from tests.keizer_data import small_file

pytestmark = pytest.mark.django_db


def manager_of(season, django_user_model) -> Client:
    user = django_user_model.objects.create_user("secretary", password="pw-secretary-1")
    season.series.managers.add(user)
    client = Client()
    client.force_login(user)
    return client


# --- Keizer: evenings in date order (rules.md §4; equal dates allowed) ----------------------------


@pytest.fixture
def keizer_season(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return import_competition(small_file())


def attendance_form(season, date: str) -> dict:
    form = {"date": date}
    for player in Player.objects.filter(series=season.series):
        form[f"p{player.pk}"] = "present"
    return form


def test_the_attendance_page_refuses_an_evening_dated_before_the_one_before(
    keizer_season, django_user_model
):
    client = manager_of(keizer_season, django_user_model)
    url = manage_url(keizer_season, "attendance", 3)
    response = client.post(url, attendance_form(keizer_season, "2025-09-10"))
    assert response.status_code == 400
    page = response.content.decode()
    assert "Evening 3" in page and "evening 2" in page
    assert str(Round.objects.get(season=keizer_season, number=3).date) == "2025-09-18"
    # The same date as evening 2 is fine (two rounds on one evening).
    response = client.post(url, attendance_form(keizer_season, "2025-09-11"))
    assert response.status_code == 302
    assert str(Round.objects.get(season=keizer_season, number=3).date) == "2025-09-11"


def test_the_attendance_page_refuses_an_evening_dated_after_the_one_after(
    keizer_season, django_user_model
):
    client = manager_of(keizer_season, django_user_model)
    response = client.post(
        manage_url(keizer_season, "attendance", 2), attendance_form(keizer_season, "2025-09-25")
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "Evening 2" in page and "evening 3" in page
    assert str(Round.objects.get(season=keizer_season, number=2).date) == "2025-09-11"


def test_the_file_refuses_evenings_out_of_date_order_and_stores_nothing():
    data = small_file()
    data["rounds"][2]["date"] = "2025-09-10"
    with pytest.raises(FileError) as refused:
        import_file(data)
    assert refused.value.path == "rounds[2].date"
    assert "evening 3" in refused.value.message and "evening 2" in refused.value.message
    assert not Round.objects.exists()
    data["rounds"][2]["date"] = "2025-09-11"  # equal: accepted
    data["rounds"][1]["date"] = None  # an evening without a date is not compared
    import_file(data)
    assert Round.objects.count() == 3
