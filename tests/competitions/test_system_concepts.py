"""What one system keeps per season, entry or tournament lives in its own models (issue 44):
the database still guards it as the shared fields did, and the admin reaches it through the
system's inlines."""

import copy

import pytest
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

from competitions.interchange import export_competition
from competitions.models import SeasonPlayer, Tournament
from competitions.systems.boardgame.models import FinalTournament
from competitions.systems.keizer.models import StartPoints
from rankings.imports import import_competition, import_file
from tests.keizer_data import small_file

pytestmark = pytest.mark.django_db


def test_a_season_has_one_final_tournament_in_the_database(season):
    final = FinalTournament.objects.get(season=season)
    other = Tournament.objects.filter(season=season).exclude(pk=final.tournament_id).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        FinalTournament.objects.create(season=season, tournament=other)


def test_a_final_tournament_belongs_to_its_season_in_the_database(season, circuit_file):
    """The copied season agrees with the tournament's (competitions.consistency, the circuit's
    LINKS): a final row of another season is refused."""
    circuit_file["season"] = "2026"
    other_season = import_competition(circuit_file)
    FinalTournament.objects.filter(season=other_season).delete()
    tournament = Tournament.objects.get(season=season, key="t1")
    with pytest.raises(IntegrityError), transaction.atomic():
        FinalTournament.objects.create(season=other_season, tournament=tournament)
        connection.check_constraints()  # PostgreSQL checks the deferred link at commit


def test_the_final_moves_to_another_tournament_by_a_replacing_import(season):
    data = export_competition(season)
    for tournament in data["tournaments"]:
        tournament["final"] = tournament["id"] == "t1"
    result = import_file(copy.deepcopy(data), replace=True)
    assert FinalTournament.objects.get(season=season).tournament.key == "t1"
    final_changes = next(c for c in result.changes.changes if c.name == "final tournaments")
    assert final_changes.changed == ["t1"]
    assert export_competition(season) == data


def test_the_keizer_start_points_are_corrected_on_the_season_entry_s_admin_page(admin_client):
    season = import_competition(small_file())
    entry = SeasonPlayer.objects.get(season=season, player__key="p6")
    start = StartPoints.objects.get(entry=entry)
    url = reverse("admin:competitions_seasonplayer_change", args=[entry.pk])
    page = admin_client.get(url).content.decode()
    assert 'name="keizer_start-0-start_points"' in page
    response = admin_client.post(
        url,
        {
            "season": season.pk,
            "player": entry.player_id,
            "position": entry.position,
            "keizer_start-TOTAL_FORMS": "1",
            "keizer_start-INITIAL_FORMS": "1",
            "keizer_start-MIN_NUM_FORMS": "0",
            "keizer_start-MAX_NUM_FORMS": "1",
            "keizer_start-0-id": start.pk,
            "keizer_start-0-entry": entry.pk,
            "keizer_start-0-start_points": "7.25",
            # The withdrawal inline (keizer-variants.md §2.8), empty
            "keizer_withdrawal-TOTAL_FORMS": "0",
            "keizer_withdrawal-INITIAL_FORMS": "0",
            "keizer_withdrawal-MIN_NUM_FORMS": "0",
            "keizer_withdrawal-MAX_NUM_FORMS": "1",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    start.refresh_from_db()
    assert start.start_points == 7.25
    assert start.history.count() == 2  # the import's record and the correction
    assert export_competition(season)["players"][5]["start_points"] == 7.25


def test_a_board_game_season_s_admin_page_shows_its_final_and_previous_participants(
    admin_client, season
):
    url = reverse("admin:competitions_season_change", args=[season.pk])
    page = admin_client.get(url).content.decode()
    assert 'name="circuit_final-0-tournament"' in page
    assert 'name="circuit_previous-0-previous_participants"' in page
