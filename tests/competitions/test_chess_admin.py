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


def test_a_groups_options_are_shown_readable_and_not_edited_in_the_admin(admin_client):
    """Issue 48: the admin shows Group.options by option, read-only, with a link to the group's
    manager page (which checks them and previews what they change); a post of the admin form
    cannot write them, whatever it sends."""
    from competitions.views import manage_url

    season = import_competition(chess_file())
    group = Group.objects.get(name="Gruppe A")
    group.options = {"tiebreaks": "FIDE-SWISS", "format": "round_robin"}
    group.save(update_fields=["options"])
    url = reverse("admin:competitions_group_change", args=[group.pk])
    html = admin_client.get(url).content.decode()
    assert "<dt>Tie-breaks</dt><dd>FIDE-SWISS</dd>" in html
    assert "<dt>Group format</dt><dd>round robin</dd>" in html
    assert 'name="options"' not in html  # no raw JSON field
    assert f"href='{manage_url(season, 'group', 'klyve', group.pk)}'" in html
    assert "Not valid" not in html

    response = admin_client.post(
        url,
        {
            "tournament": group.tournament_id,
            "name": "Gruppe A",
            "position": group.position,
            "scale": group.scale,
            "options": '{"tiebreaks": "XYZ"}',
            "members-TOTAL_FORMS": "0",
            "members-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302  # saved: the name, position and scale
    group.refresh_from_db()
    assert group.options == {"tiebreaks": "FIDE-SWISS", "format": "round_robin"}

    # A value the pages refuse (typed into the database by hand) is named, not hidden.
    Group.objects.filter(pk=group.pk).update(options={"tiebreaks": "BH XYZ"})
    html = admin_client.get(url).content.decode()
    assert "<dt>Tie-breaks</dt><dd>BH XYZ</dd>" in html
    assert "<dt>Group format</dt><dd>the season&#x27;s</dd>" in html
    assert "Not valid, so the standings pass it over:" in html and "XYZ" in html
