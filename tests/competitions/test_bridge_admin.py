"""The bridge ladder in the admin: IMPs only for a player of the challenge's round."""

import pytest
from django.urls import reverse

from competitions.models import Player
from competitions.systems.bridge.models import Challenge, ChallengeScore
from rankings.imports import import_competition
from tests.bridge_files import CLUB, ladder_file

pytestmark = pytest.mark.django_db


def test_the_admin_refuses_imps_for_a_player_outside_the_round(admin_client):
    season = import_competition(
        ladder_file(
            pools=[CLUB],
            rounds=[{"number": 1, "challenges": [{"imps": {}}]}],
            extra_players=[{"id": "x", "name": "Outsider"}],
        )
    )
    challenge = Challenge.objects.get(round__season=season)
    url = reverse("admin:competitions_challengescore_add")
    outsider = Player.objects.get(key="x")
    response = admin_client.post(
        url, {"challenge": challenge.pk, "player": outsider.pk, "imps": "3.5"}
    )
    assert response.status_code == 200
    assert "Outsider is not in a pool of this round." in response.content.decode()
    member = Player.objects.get(key="Tolie")
    response = admin_client.post(
        url, {"challenge": challenge.pk, "player": member.pk, "imps": "3.5"}
    )
    assert response.status_code == 302
    assert ChallengeScore.objects.get().player == member
