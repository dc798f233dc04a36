"""The admin of chess data: the shared pages with the chess inlines, and the group players."""

import pytest
from django.urls import reverse

from competitions.models import Group, Round, Tournament
from competitions.systems.chess.models import GroupPlayer
from rankings.imports import import_competition
from tests.chess_files import chess_file

pytestmark = pytest.mark.django_db


def test_admin_pages_of_chess_data_render(admin_client):
    season = import_competition(chess_file())
    group = Group.objects.get(name="Gruppe A")
    member = GroupPlayer.objects.filter(group=group).first()
    urls = [
        reverse("admin:competitions_season_change", args=[season.pk]),
        reverse(
            "admin:competitions_tournament_change", args=[Tournament.objects.get(key="klyve").pk]
        ),
        reverse("admin:competitions_group_change", args=[group.pk]),
        reverse(
            "admin:competitions_round_change", args=[Round.objects.filter(group=group).first().pk]
        ),
        reverse("admin:competitions_groupplayer_changelist"),
        reverse("admin:competitions_groupplayer_change", args=[member.pk]),
        reverse("admin:competitions_groupplayer_history", args=[member.pk]),
    ]
    for url in urls:
        response = admin_client.get(url)
        assert response.status_code == 200, url
    html = admin_client.get(
        reverse("admin:competitions_group_change", args=[group.pk])
    ).content.decode()
    assert "group player" in html.lower() and "rating" in html.lower()
