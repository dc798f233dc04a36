"""Merging a duplicate player into the kept one, in every system, and undoing it (issue 46,
item 7): everything moves, the standings are those of results entered under the kept player in
the first place, a conflict stores nothing, and the admin's undo puts exactly it back."""

import copy
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db.models import ForeignKey
from django.urls import reverse

from competitions.merging import player_merge, player_merge_preview, player_merge_undo
from competitions.models import Player, PlayerMerge, RoundEntry, Season, SeasonPlayer
from competitions.systems.boardgame.models import Seat
from competitions.systems.keizer.models import StartPoints
from rankings.imports import import_competition
from rankings.models import StandingsRow
from rankings.services import season_recompute
from tests.bridge_files import big_ladder
from tests.chess_files import played_chess_file
from tests.helpers import document
from tests.keizer_data import small_file
from tests.othello_files import gp_file

pytestmark = pytest.mark.django_db


FILES = {
    "boardgame": (lambda circuit_file: circuit_file, "p3"),
    "othello": (lambda _c: gp_file(), "p2"),
    "chess": (lambda _c: played_chess_file(), "b"),
    "keizer": (lambda _c: small_file(), "p1"),
    "bridge": (lambda _c: big_ladder(2, 3), "q3"),
}


def result_references() -> list[ForeignKey]:
    """The competitions app's rows that name a player (what a typo's results are)."""
    return [
        rel.field
        for rel in Player._meta.related_objects
        if rel.related_model._meta.app_label == "competitions"
        and not rel.related_model.__name__.startswith("Historical")
    ]


def with_typo(data: dict, key: str, capture) -> tuple[Season, Player, Player]:
    """The file imported as series "typo", where every result of `key` was entered under a
    typo player instead (a player of their own, on the season's list after the others)."""
    data = copy.deepcopy(data)
    data["series"] = "typo"
    with capture(execute=True):
        season = import_competition(data)
    kept = Player.objects.get(series=season.series, key=key)
    typo = Player.objects.create(
        series=season.series, key=f"{key}-typo", name=f"{kept.name}x", born=kept.born
    )
    for fk in result_references():
        if fk.model is not SeasonPlayer:
            fk.model.objects.filter(**{fk.name: kept}).update(**{fk.name: typo})
    SeasonPlayer.objects.create(season=season, player=typo, position=999)
    season_recompute(season_id=season.pk, force=True)
    assert StandingsRow.objects.filter(player=typo).exists()
    return season, kept, typo


def same_document(season: Season) -> dict:
    doc = document(season)
    doc.pop("series", None)
    return doc


@pytest.mark.parametrize("system", sorted(FILES))
def test_a_merge_gives_the_standings_of_results_entered_under_the_kept_player(
    system, circuit_file, django_capture_on_commit_callbacks
):
    make, key = FILES[system]
    with django_capture_on_commit_callbacks(execute=True):
        reference = import_competition(copy.deepcopy(make(circuit_file)))
    season, kept, typo = with_typo(make(circuit_file), key, django_capture_on_commit_callbacks)
    assert same_document(season) != same_document(reference)
    preview = player_merge_preview(duplicate=typo, kept=kept)
    assert not preview.refused and preview.moves
    assert preview.removed_entries == [season.label]

    with django_capture_on_commit_callbacks(execute=True):
        merge = player_merge(duplicate=typo, kept=kept)

    assert not Player.objects.filter(pk=typo.pk).exists()
    for fk in result_references():
        assert not fk.model.objects.filter(**{fk.name: typo.pk}).exists()
    assert merge.moved_count == sum(n for _season, _kind, n in preview.moves)
    assert merge.season_ids == [season.pk]
    season.refresh_from_db()
    assert not season.stale
    assert same_document(season) == same_document(reference)


@pytest.mark.parametrize("system", sorted(FILES))
def test_undo_restores_the_duplicate_with_exactly_its_results(
    system, circuit_file, django_capture_on_commit_callbacks
):
    make, key = FILES[system]
    season, kept, typo = with_typo(make(circuit_file), key, django_capture_on_commit_callbacks)
    before = {
        fk.model._meta.label_lower: sorted(
            fk.model.objects.filter(**{fk.name: typo}).values_list("pk", flat=True)
        )
        for fk in result_references()
    }
    standings_before = same_document(season)
    with django_capture_on_commit_callbacks(execute=True):
        merge = player_merge(duplicate=typo, kept=kept)

    with django_capture_on_commit_callbacks(execute=True):
        restored = player_merge_undo(merge=merge)

    assert (restored.pk, restored.key, restored.name) == (typo.pk, typo.key, typo.name)
    after = {
        fk.model._meta.label_lower: sorted(
            fk.model.objects.filter(**{fk.name: typo}).values_list("pk", flat=True)
        )
        for fk in result_references()
    }
    assert after == before
    assert same_document(season) == standings_before
    merge.refresh_from_db()
    assert merge.undone_at is not None
    with pytest.raises(ValidationError, match="undone already"):
        player_merge_undo(merge=merge)


def test_the_merge_is_in_the_history_of_both_players_and_of_the_moved_rows(
    circuit_file, django_capture_on_commit_callbacks, admin_user
):
    season, kept, typo = with_typo(circuit_file, "p3", django_capture_on_commit_callbacks)
    merge = player_merge(duplicate=typo, kept=kept, user=admin_user)
    gone = Player.history.filter(id=typo.pk).latest("history_date")
    assert gone.history_type == "-"
    assert gone.history_change_reason.startswith(f"Merge #{merge.pk}: {typo.name}")
    assert gone.history_user == admin_user
    assert kept.history.latest("history_date").history_change_reason == gone.history_change_reason
    seat = Seat.objects.filter(player=kept).first()
    assert seat.history.latest("history_date").history_change_reason.startswith("Merge #")


def test_both_at_one_table_refuses_the_whole_merge_and_names_where(
    season, django_capture_on_commit_callbacks
):
    p1, p2 = (Player.objects.get(series=season.series, key=k) for k in ("p1", "p2"))
    seats = Seat.objects.count()
    with pytest.raises(ValidationError) as refused:
        player_merge(duplicate=p2, kept=p1)
    text = " ".join(refused.value.messages).replace("\u2068", "").replace("\u2069", "")
    assert "Merge refused; nothing was changed." in text
    assert "table 1 of round 1 of Mechelen (2025-02-09)" in text
    assert "Bert Claes" in text and "An Peeters" in text
    assert Player.objects.filter(pk=p2.pk).exists()
    assert Seat.objects.count() == seats and Seat.objects.filter(player=p2).exists()
    assert not PlayerMerge.objects.exists()
    assert player_merge_preview(duplicate=p2, kept=p1).refused


def test_undo_is_refused_when_a_moved_result_changed_since(
    circuit_file, django_capture_on_commit_callbacks
):
    season, kept, typo = with_typo(circuit_file, "p3", django_capture_on_commit_callbacks)
    merge = player_merge(duplicate=typo, kept=kept)
    Seat.objects.filter(pk=merge.moved["competitions.seat"][0]).delete()
    with pytest.raises(ValidationError, match="changed since the merge"):
        player_merge_undo(merge=merge)
    assert not Player.objects.filter(pk=typo.pk).exists()
    assert PlayerMerge.objects.get().undone_at is None


def test_players_of_two_series_are_not_merged(season, circuit_file):
    other = import_competition({**copy.deepcopy(circuit_file), "series": "other"})
    p1 = Player.objects.get(series=season.series, key="p1")
    elsewhere = Player.objects.get(series=other.series, key="p5")
    with pytest.raises(ValidationError, match="same series"):
        player_merge(duplicate=elsewhere, kept=p1)
    assert Player.objects.filter(pk=elsewhere.pk).exists()


# --- the manager's pages and the admin ------------------------------------------------------------


def merge_url(series: str, key: str) -> str:
    return reverse("manage:player_merge", args=[series, key])


def typo_at_a_table(season: Season) -> Player:
    """Dirk Maes typed "Dirk Maas" at the second table of Gent's first round."""
    typo = Player.objects.create(series=season.series, key="dirk-maas", name="Dirk Maas")
    seat = Seat.objects.get(player__key="p4", table__round__tournament__key="t2", table__number=2)
    Seat.objects.filter(pk=seat.pk).update(player=typo)
    SeasonPlayer.objects.create(season=season, player=typo, position=99)
    return typo


def test_the_manager_sees_what_moves_then_merges_into_the_kept_player(
    manager_client, season, django_capture_on_commit_callbacks
):
    typo = typo_at_a_table(season)
    edit = reverse("manage:player_edit", args=[season.series.slug, typo.key])
    assert merge_url(season.series.slug, typo.key) in manager_client.get(edit).content.decode()
    found = manager_client.get(merge_url(season.series.slug, typo.key), {"q": "dirk"})
    assert "?into=p4" in found.content.decode()

    page = manager_client.get(merge_url(season.series.slug, typo.key), {"into": "p4"})
    html = page.content.decode()
    assert page.status_code == 200
    assert '<td>seats</td><td class="text-end">1</td>' in html.replace("\u2068", "").replace(
        "\u2069", ""
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = manager_client.post(merge_url(season.series.slug, typo.key), {"into": "p4"})
    assert response.status_code == 302
    assert response["Location"] == reverse("manage:player_edit", args=[season.series.slug, "p4"])
    assert not Player.objects.filter(pk=typo.pk).exists()
    assert PlayerMerge.objects.get().merged_by.username == "secretary"


def test_a_refused_merge_shows_where_and_stores_nothing(manager_client, season):
    url = merge_url(season.series.slug, "p2")
    page = manager_client.get(url, {"into": "p1"}).content.decode()
    assert "cannot be merged" in page and "Yes, merge" not in page
    response = manager_client.post(url, {"into": "p1"})
    assert response.status_code == 400
    assert "table 1 of round 1 of" in response.content.decode()
    assert Player.objects.filter(series=season.series, key="p2").exists()
    assert not PlayerMerge.objects.exists()


def test_only_the_series_managers_merge_its_players(
    client, django_user_model, season, circuit_file
):
    other = import_competition({**copy.deepcopy(circuit_file), "series": "other"})
    user = django_user_model.objects.create_user("other", password="pw-other-123")
    other.series.managers.add(user)
    client.force_login(user)
    url = merge_url(season.series.slug, "p5")
    assert client.get(url, {"into": "p4"}).status_code == 403
    assert client.post(url, {"into": "p4"}).status_code == 403
    # Their own series' player cannot be merged into a player of another series either.
    assert client.post(merge_url("other", "p5"), {"into": "nobody"}).status_code == 404
    assert Player.objects.filter(key="p5").count() == 2
    assert not PlayerMerge.objects.exists()


def test_staff_merge_in_the_admin_and_undo_it_from_the_merges_list(
    admin_client, season, django_capture_on_commit_callbacks
):
    typo = typo_at_a_table(season)
    kept = Player.objects.get(series=season.series, key="p4")
    changelist = reverse("admin:competitions_player_changelist")
    response = admin_client.post(
        changelist, {"action": "merge_into", "_selected_action": [typo.pk]}
    )
    assert response["Location"] == reverse("admin:competitions_player_merge", args=[typo.pk])
    page = admin_client.get(response["Location"], {"into": kept.pk})
    assert page.status_code == 200 and "Yes, merge" in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        admin_client.post(response["Location"], {"into": kept.pk})
    assert not Player.objects.filter(pk=typo.pk).exists()
    seat = Seat.objects.get(table__round__tournament__key="t2", table__number=2, player=kept)

    merge = PlayerMerge.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        admin_client.post(
            reverse("admin:competitions_playermerge_changelist"),
            {"action": "undo_merge", "_selected_action": [merge.pk]},
        )
    seat.refresh_from_db()
    assert seat.player_id == typo.pk
    assert Player.objects.get(pk=typo.pk).name == "Dirk Maas"


def test_the_cached_public_standings_follow_the_merge(
    client, season, django_capture_on_commit_callbacks
):
    typo = typo_at_a_table(season)
    with django_capture_on_commit_callbacks(execute=True):
        season_recompute(season_id=season.pk, force=True)
    yearly = f"/{season.series.slug}/{season.slug}/yearly/"
    assert "Dirk Maas" in client.get(yearly).content.decode()
    assert "Dirk Maas" in client.get(yearly).content.decode()  # now from the page cache

    kept = Player.objects.get(series=season.series, key="p4")
    with django_capture_on_commit_callbacks(execute=True):
        player_merge(duplicate=typo, kept=kept)

    html = client.get(yearly).content.decode()
    assert "Dirk Maas" not in html and "Dirk Maes" in html


def test_start_points_of_the_duplicate_where_both_are_on_the_list_refuse_the_merge(
    django_capture_on_commit_callbacks,
):
    season, kept, typo = with_typo(small_file(), "p1", django_capture_on_commit_callbacks)
    entry = SeasonPlayer.objects.get(season=season, player=typo)
    StartPoints.objects.create(entry=entry, start_points=Decimal("7"))
    with pytest.raises(ValidationError) as refused:
        player_merge(duplicate=typo, kept=kept)
    assert "start points of their own in season" in " ".join(refused.value.messages)
    assert SeasonPlayer.objects.filter(pk=entry.pk).exists()
    assert RoundEntry.objects.filter(player=typo).exists()


@pytest.mark.django_db(transaction=True)
def test_a_row_written_between_the_check_and_the_move_refuses_the_merge_cleanly(
    season, monkeypatch
):
    """The merge locks the players, not their results: a seat written beside the kept player
    after the check (two managers at once) meets the table's constraint. It is a refusal that
    changes nothing, not a database error (a 500 on the page)."""
    import competitions.merging as merging

    p1, p2 = (Player.objects.get(series=season.series, key=k) for k in ("p1", "p2"))
    seats = Seat.objects.count()
    # As if the other manager's seat arrived after the check: the check finds nothing.
    monkeypatch.setattr(merging, "_conflicts", lambda duplicate, kept: [])
    with pytest.raises(ValidationError) as refused:
        player_merge(duplicate=p2, kept=p1)
    assert "nothing was changed" in " ".join(refused.value.messages)
    assert Player.objects.filter(pk=p2.pk).exists() and not PlayerMerge.objects.exists()
    assert Seat.objects.count() == seats and Seat.objects.filter(player=p2).exists()
