"""The admin of Othello GP data: a tournament's flags are checked by the system's spec, and a
placement corrected in the tournament's inline is recorded and recomputed."""

import json

import pytest

from competitions.models import Tournament
from competitions.systems.othello.models import Placement
from rankings.imports import import_competition
from tests.competitions.test_admin import admin_url, form_payload, newest_history
from tests.helpers import document, tournament_of
from tests.othello_files import gp_file

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def gp():
    return import_competition(gp_file())


@pytest.mark.parametrize(
    "options,message",
    [
        ({"sm": "yes"}, "sm must be true or false"),
        ({"sm": True, "egp": True}, "cannot be both"),
        ({"final_four": True}, "unknown setting final_four"),
    ],
)
def test_tournament_flags_are_checked_in_the_admin(admin_client, gp, options, message):
    tournament = Tournament.objects.get(key="t2")
    url = admin_url(Tournament, "change", tournament.pk)
    payload = form_payload(admin_client.get(url))
    payload.update({"options": json.dumps(options), "_save": "Save"})
    response = admin_client.post(url, payload)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert Tournament.objects.get(key="t2").options == {}


def test_a_flag_set_in_the_admin_is_stored(admin_client, gp):
    tournament = Tournament.objects.get(key="t2")
    url = admin_url(Tournament, "change", tournament.pk)
    payload = form_payload(admin_client.get(url))
    payload.update({"options": json.dumps({"egp": True}), "_save": "Save"})
    response = admin_client.post(url, payload)
    assert response.status_code == 302, response.context and response.context["errors"]
    assert Tournament.objects.get(key="t2").options == {"egp": True}


def test_a_placement_corrected_in_the_inline_is_recorded_and_recomputed(
    admin_client, admin_user, gp
):
    tournament = Tournament.objects.get(key="t1")
    placement = Placement.objects.get(tournament=tournament, player__key="p3")
    url = admin_url(Tournament, "change", tournament.pk)
    payload = form_payload(admin_client.get(url))
    index = next(
        i
        for i in range(int(payload["placements-TOTAL_FORMS"]))
        if payload[f"placements-{i}-id"] == str(placement.pk)
    )
    assert payload[f"placements-{index}-country"] == "FR"
    payload[f"placements-{index}-country"] = "SE"
    payload["_save"] = "Save"
    response = admin_client.post(url, payload)
    assert response.status_code == 302, response.context and response.context["errors"]
    record = newest_history(placement)
    assert record.history_user == admin_user
    t1 = tournament_of(document(gp), "t1")
    assert t1["points"][2] == {"player": "p3", "place": 3, "points": 4}
