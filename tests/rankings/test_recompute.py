"""The recompute pipeline through the real stack: ORM signal -> on_commit -> Celery task (eager)
-> `season_recompute` -> stored standings (architecture.md, "Signals only enqueue").

Transactional tests on purpose: the pipeline acts on a real COMMIT (and a real ROLLBACK), as it
does behind a page, the admin or a shell.
"""

import copy
import io
from collections import Counter
from fractions import Fraction

import pytest
from django.core.management import call_command
from django.db import transaction

from competitions.models import Season
from competitions.systems.boardgame.models import Seat, Table
from rankings.imports import import_competition
from rankings.models import StandingsRow, StandingsTable
from rankings.services import season_recompute
from rankings.tasks import recompute_season
from tests.helpers import (
    approx,
    fresh,
    patch_standings,
    row_of,
    season_rows,
    stored,
    tournament_rows,
)

pipeline = pytest.mark.django_db(transaction=True)


# --- helpers ----------------------------------------------------------------------------------


@pytest.fixture
def sent(monkeypatch) -> list[int]:
    """Season ids passed to `recompute_season.delay`, in order; the task still runs."""
    calls: list[int] = []
    real_delay = recompute_season.delay

    def spy(season_id, *args, **kwargs):
        calls.append(season_id)
        return real_delay(season_id, *args, **kwargs)

    monkeypatch.setattr(recompute_season, "delay", spy)
    return calls


@pytest.fixture
def computed(monkeypatch) -> list[int]:
    """Season ids whose standings a recompute stored (in full or updated), in order."""
    from rankings import services

    calls: list[int] = []
    for name in ("_store", "_store_update"):
        real = getattr(services, name)

        def spy(season, *args, _real=real, **kwargs):
            stored = _real(season, *args, **kwargs)
            if stored:
                calls.append(season.pk)
            return stored

        monkeypatch.setattr(services, name, spy)
    return calls


@pytest.fixture
def file_2024(circuit_file) -> dict:
    """The same series one year earlier: one regular tournament of 5 players, no history.

    rules.md §1.1-1.3 by hand: Catan x=3, ranks 1,2,3 -> 103 2/3, 50 1/3, 0; Carcassonne x=2,
    ranks 1,2 -> 103, 0. No cap for 2024 (nothing before it), X=5: bonus 5,4,3,2,2.
    Yearly 2024: p1 108 2/3, p4 107, p2 53 1/3, p3 2, p5 2. As Y-1 of 2025 it gives 2025 the cap
    round_half_up(5 / 10) * 10 = 10.
    """
    data = copy.deepcopy(circuit_file)
    data["season"] = "2024"
    data["name"] = "Belgian board game circuit 2024"
    del data["history"]
    del data["previous_participants"]
    data["tournaments"] = [
        {
            "id": "t2024",
            "name": "Leuven",
            "date": "2024-05-12",
            "final": False,
            "draw_seed": 42,
            "rounds": [
                {
                    "tables": [
                        {
                            "game": "Catan",
                            "results": [
                                {"player": "p1", "rank": 1},
                                {"player": "p2", "rank": 2},
                                {"player": "p3", "rank": 3},
                            ],
                        },
                        {
                            "game": "Carcassonne",
                            "results": [
                                {"player": "p4", "rank": 1},
                                {"player": "p5", "rank": 2},
                            ],
                        },
                    ]
                }
            ],
        }
    ]
    return data


def table_data(season: Season, kind: str, key: str = "") -> dict:
    return StandingsTable.objects.get(season=season, kind=kind, key=key).data


def daily_row(season: Season, tournament: str, player: str) -> dict:
    return row_of(tournament_rows(season, tournament), player)


def tournaments_of(season: Season) -> list[dict]:
    return [t.data for t in StandingsTable.objects.filter(season=season, kind="tournament")]


def seat_of(season: Season, tournament: str, round_number: int, player: str) -> Seat:
    return Seat.objects.get(
        round__season=season,
        round__tournament__key=tournament,
        round__number=round_number,
        player__key=player,
    )


# --- signals -> on_commit -> task -------------------------------------------------------------


@pipeline
def test_saving_a_seat_marks_the_season_stale_and_the_commit_recomputes(circuit_file, sent):
    season = import_competition(circuit_file)
    assert not fresh(season).stale
    # rules.md §1.1: t1 round 1, Catan ranks 1,2,2,4 -> p1 104.5; round 2, p1 second of 2 -> 0.
    assert daily_row(season, "t1", "p1")["daily"] == approx(104.5)
    before = stored(season)
    sent.clear()

    with transaction.atomic():
        seat = seat_of(season, "t1", 2, "p1")
        seat.rank = 1  # ties p5 for first at the Carcassonne table of 2
        seat.save()
        season = fresh(season)
        assert season.data_version > season.standings_version
        assert season.stale
        assert sent == [], "nothing is sent before the commit"
        assert stored(season) == before

    assert sent == [season.pk]
    season = fresh(season)
    assert season.standings_version == season.data_version
    assert not season.stale
    # Both at average place 1.5 of 2: placement 50 + win bonus 2 + fraction 1/2 = 52.5 each.
    assert daily_row(season, "t1", "p1")["daily"] == approx(Fraction(209, 2) + Fraction(105, 2))
    assert daily_row(season, "t1", "p5")["daily"] == approx(52.5)
    assert stored(season) != before


@pipeline
def test_a_duplicate_or_late_task_message_does_nothing(circuit_file):
    """The task carries the data version it was sent for: standings of that version or newer
    stored already, it recomputes nothing; a newer version than stored, it recomputes."""
    season = import_competition(circuit_file)
    version, computed_at = Season.objects.filter(pk=season.pk).values_list(
        "data_version", "standings_computed_at"
    )[0]
    assert recompute_season(season.pk, version) is False  # a duplicate
    assert recompute_season(season.pk, version - 1) is False  # a late one
    assert Season.objects.get(pk=season.pk).standings_computed_at == computed_at
    Season.objects.filter(pk=season.pk).update(data_version=version + 1)
    assert recompute_season(season.pk, version + 1) is True
    assert Season.objects.filter(pk=season.pk).values_list("standings_version", "data_version")[
        0
    ] == (version + 1, version + 1)
    assert recompute_season(season.pk + 1000, 1) is False  # a season deleted since


@pipeline
def test_many_changes_in_one_transaction_compute_each_season_once(
    circuit_file, file_2024, sent, computed
):
    season = import_competition(circuit_file)
    earlier = import_competition(file_2024)
    sent.clear()
    computed.clear()

    with transaction.atomic():
        for player, rank in (("p1", 2), ("p2", 1), ("p3", 3), ("p4", 3)):
            seat = seat_of(season, "t1", 1, player)
            seat.rank = rank
            seat.save()
        table = Table.objects.get(round__season=season, round__tournament__key="t2", number=2)
        table.game = "Ticket to Ride"
        table.save()
        seat = seat_of(earlier, "t2024", 1, "p2")
        seat.rank = 3  # 2024 changes: 2025 (reads it for cap and LUDO) is due as well
        seat.save()
        seat = seat_of(season, "t2", 1, "p5")
        seat.rank = 2
        seat.save()

    # 2025 reads 2024: 2024's recompute, whose yearly changed, sends 2025's once more, and
    # whichever runs first finds the other's work done.
    assert Counter(computed) == {season.pk: 1, earlier.pk: 1}
    assert set(sent) == {season.pk, earlier.pk}
    for s in (season, earlier):
        s = fresh(s)
        assert s.standings_version == s.data_version
    games = {t.data["game"] for t in StandingsTable.objects.filter(season=season, kind="game")}
    assert games == {"Catan", "Carcassonne", "Ticket to Ride"}


@pipeline
def test_a_rolled_back_transaction_sends_nothing_and_stores_nothing(circuit_file, sent):
    season = import_competition(circuit_file)
    season = fresh(season)
    versions = (season.data_version, season.standings_version, season.standings_computed_at)
    before = stored(season)
    sent.clear()

    with pytest.raises(RuntimeError, match="user cancelled"):
        with transaction.atomic():
            seat = seat_of(season, "t1", 2, "p1")
            seat.rank = 1
            seat.save()
            assert fresh(season).stale
            raise RuntimeError("user cancelled")

    assert sent == []
    season = fresh(season)
    assert (season.data_version, season.standings_version, season.standings_computed_at) == (
        versions
    )
    assert stored(season) == before
    assert seat_of(season, "t1", 2, "p1").rank == 2


@pipeline
def test_deleting_a_seat_recomputes(circuit_file, sent):
    season = import_competition(circuit_file)
    assert table_data(season, "tournament", "t1")["participants"] == 5
    sent.clear()

    with transaction.atomic():
        seat_of(season, "t1", 1, "p4").delete()
        assert fresh(season).stale

    assert sent == [season.pk]
    season = fresh(season)
    assert season.standings_version == season.data_version
    t1 = table_data(season, "tournament", "t1")
    assert t1["participants"] == 4
    assert "p4" not in {row["player"] for row in tournament_rows(season, "t1")}
    # Catan is now a table of 3 with ranks 1,2,2: p1 100 + 3 + 100/150; p2, p3 25 + 25/150.
    assert daily_row(season, "t1", "p1")["daily"] == approx(Fraction(311, 3))
    assert daily_row(season, "t1", "p2")["daily"] == approx(Fraction(151, 6))
    assert "p4" in {row["player"] for row in tournament_rows(season, "t2")}


# --- seasons that read earlier seasons --------------------------------------------------------


@pipeline
def test_a_change_in_2024_recomputes_2025_of_the_same_series(
    circuit_file, file_2024, sent, computed
):
    season = import_competition(circuit_file)
    # Without a stored 2024: the cap comes from previous_participants [64, 70, 81] -> 70, and
    # LUDO from the imported 2024 total (p1 812.4).
    assert {t["cap"] for t in tournaments_of(season)} == {70}
    p1_2025 = Fraction(row_of(season_rows(season, "yearly"), "p1")["points"])
    assert row_of(season_rows(season, "ludo"), "p1")["points"] == approx(
        Fraction(2, 3) * Fraction("812.4") + p1_2025
    )
    sent.clear()

    earlier = import_competition(file_2024)

    # Importing 2024 sent 2025's task too: its cap and LUDO now read the stored 2024.
    assert Counter(sent) == {earlier.pk: 1, season.pk: 1}
    season = fresh(season)
    assert season.standings_version == season.data_version
    assert {t["cap"] for t in tournaments_of(season)} == {10}
    yearly_2024 = season_rows(earlier, "yearly")
    assert row_of(yearly_2024, "p1")["points"] == approx(Fraction(326, 3))
    assert row_of(season_rows(season, "ludo"), "p1")["points"] == approx(
        Fraction(2, 3) * Fraction(326, 3) + p1_2025
    )
    sent.clear()
    computed.clear()
    computed_at = season.standings_computed_at

    with transaction.atomic():
        first, third = seat_of(earlier, "t2024", 1, "p1"), seat_of(earlier, "t2024", 1, "p3")
        first.rank, third.rank = 3, 1
        first.save()
        third.save()
        # Only when 2024's recompute changes what 2025 reads (its yearly, its participants)
        # is 2025 recomputed, not before.
        assert not fresh(season).stale

    assert Counter(computed) == {earlier.pk: 1, season.pk: 1}
    season = fresh(season)
    assert season.standings_version == season.data_version
    assert season.standings_computed_at > computed_at
    # 2024 now: p3 103 2/3 (rank 1), p4 103, p2 50 1/3, p1 and p5 0 (shared rank 4, bonus 2).
    assert row_of(season_rows(earlier, "yearly"), "p1")["points"] == approx(2)
    ludo = season_rows(season, "ludo")
    assert row_of(ludo, "p1")["points"] == approx(Fraction(2, 3) * 2 + p1_2025)
    p3_2025 = Fraction(row_of(season_rows(season, "yearly"), "p3")["points"])
    assert row_of(ludo, "p3")["points"] == approx(Fraction(2, 3) * Fraction(326, 3) + p3_2025)


@pipeline
def test_a_change_in_2024_that_2025_does_not_read_leaves_2025_alone(
    circuit_file, file_2024, computed
):
    earlier = import_competition(file_2024)
    season = import_competition(circuit_file)
    computed.clear()
    computed_at = fresh(season).standings_computed_at

    # Another game title: 2024's per-game rankings change, its yearly and participants do not.
    table = Table.objects.get(round__season=earlier, round__tournament__key="t2024", number=1)
    table.game = "Azul"
    table.save()

    assert computed == [earlier.pk]
    assert {t.data["game"] for t in StandingsTable.objects.filter(season=earlier, kind="game")} >= {
        "Azul"
    }
    assert fresh(season).standings_computed_at == computed_at
    assert not fresh(season).stale


# --- determinism and failure ------------------------------------------------------------------


@pipeline
def test_recomputing_twice_stores_byte_identical_standings(circuit_file, file_2024):
    import_competition(file_2024)
    season = import_competition(circuit_file)
    after_import = stored(season)

    assert season_recompute(season_id=season.pk, force=True)
    first = stored(season)
    assert season_recompute(season_id=season.pk, force=True)
    second = stored(season)

    assert first == second == after_import
    assert not season_recompute(season_id=season.pk), "nothing to do when up to date"


def _ids(season) -> tuple[list[int], list[int]]:
    return (
        sorted(StandingsTable.objects.filter(season=season).values_list("pk", flat=True)),
        sorted(StandingsRow.objects.filter(season=season).values_list("pk", flat=True)),
    )


@pipeline
def test_a_full_recompute_of_unchanged_results_keeps_every_stored_row(circuit_file):
    """A full recompute over stored standings writes only what differs (as an update does): of
    results that did not change, nothing; every table and line keeps its row."""
    season = import_competition(circuit_file)
    before, ids = stored(season), _ids(season)

    assert season_recompute(season_id=season.pk, force=True)

    assert stored(season) == before
    assert _ids(season) == ids


@pipeline
def test_a_full_recompute_writes_again_whatever_differs_from_the_results(circuit_file):
    season = import_competition(circuit_file)
    reference = stored(season)
    tables = list(StandingsTable.objects.filter(season=season).order_by("kind", "key"))
    gone, moved = tables[0], tables[1]
    StandingsRow.objects.filter(table=gone).delete()
    StandingsTable.objects.filter(pk=gone.pk).delete()
    StandingsTable.objects.filter(pk=moved.pk).update(position=999)
    # A line saved by hand: its hash and its table's lines hash are cleared.
    edited = StandingsRow.objects.filter(season=season).order_by("-pk").first()
    edited.detail = {"edited": "by hand"}
    edited.save(update_fields=["detail"])
    StandingsTable.objects.create(season=season, kind="no-such-kind", key="x", data={})
    # The lines of the tables whose lines were all right.
    kept = set(
        StandingsRow.objects.filter(season=season)
        .exclude(table_id=edited.table_id)
        .values_list("pk", flat=True)
    )
    assert kept and stored(season) != reference

    assert season_recompute(season_id=season.pk, force=True)

    assert stored(season) == reference
    rows = set(StandingsRow.objects.filter(season=season).values_list("pk", flat=True))
    assert kept <= rows, "the tables whose lines were right keep their rows"
    assert edited.pk not in rows, "a table whose lines differ is written again"


@pipeline
def test_recompute_rewrite_repairs_lines_changed_behind_the_stores_back(circuit_file):
    """A line changed in the database directly keeps the hashes the store wrote, so a recompute
    that compares hashes leaves it; `manage.py recompute --rewrite` writes everything again."""
    season = import_competition(circuit_file)
    reference = stored(season)
    line = StandingsRow.objects.filter(season=season).order_by("pk").first()
    StandingsRow.objects.filter(pk=line.pk).update(points=(line.points or 0) + 1)
    assert stored(season) != reference

    call_command("recompute", season.series.slug, season.label, "--rewrite", stdout=io.StringIO())

    assert stored(season) == reference
    assert not StandingsRow.objects.filter(pk=line.pk).exists(), "written again"


def _crash_mid_way(season):
    """The season's compute wipes the stored rows, then fails: a crash half-way through."""
    StandingsTable.objects.filter(season=season).delete()
    raise RuntimeError("engine crashed")


@pipeline
def test_a_crash_mid_way_leaves_the_previous_standings_intact(circuit_file, monkeypatch):
    season = fresh(import_competition(circuit_file))
    before, version = stored(season), season.standings_version
    patch_standings(monkeypatch, "boardgame-circuit", compute=_crash_mid_way)

    with pytest.raises(RuntimeError, match="engine crashed"):
        season_recompute(season_id=season.pk, force=True)

    season = fresh(season)
    assert season.standings_version == version
    assert stored(season) == before


@pipeline
def test_a_crash_in_the_task_after_commit_keeps_the_change_and_the_old_standings(
    circuit_file, monkeypatch
):
    season = fresh(import_competition(circuit_file))
    before, version = stored(season), season.standings_version
    # Whichever way the recompute goes (in full, or an update of what the change reaches).
    patch_standings(
        monkeypatch,
        "boardgame-circuit",
        compute=_crash_mid_way,
        update=lambda season, scopes: _crash_mid_way(season),
    )

    with transaction.atomic():
        seat = seat_of(season, "t1", 2, "p1")
        seat.rank = 1
        seat.save()

    # The result is saved, the failed recompute is logged, the page keeps saying "recomputing".
    assert seat_of(season, "t1", 2, "p1").rank == 1
    season = fresh(season)
    assert season.standings_version == version
    assert season.stale
    assert stored(season) == before
    monkeypatch.undo()
    assert season_recompute(season_id=season.pk), "the next recompute heals it"
    assert not fresh(season).stale


@pipeline
def test_a_change_after_a_recompute_in_the_same_transaction_is_not_lost(circuit_file):
    with transaction.atomic():
        season = import_competition(circuit_file)  # recomputes inside this transaction
        seat = seat_of(season, "t1", 2, "p1")
        seat.rank = 1
        seat.save()
        assert fresh(season).stale

    assert daily_row(season, "t1", "p1")["daily"] == approx(157)


@pipeline
def test_a_table_left_with_one_player_does_not_count_and_breaks_nothing(circuit_file):
    season = import_competition(circuit_file)
    # t2's Carcassonne table: p2 beat p4; deleting p4's seat leaves a table of one
    Seat.objects.get(
        table__round__tournament__key="t2", table__game="Carcassonne", player__key="p4"
    ).delete()
    season.refresh_from_db()
    assert not season.stale
    t2 = StandingsTable.objects.get(season=season, kind="tournament", key="t2").data
    assert [tb["game"] for tb in t2["tables"]] == ["Catan"]
    assert t2["participants"] == 3


@pipeline
def test_a_full_recompute_encodes_no_line_of_a_table_whose_lines_are_as_stored(
    circuit_file, monkeypatch
):
    """The lines' hash is taken from the computed lines: a table whose lines hash is as stored
    has none of its lines encoded one by one (only each table's data is), and a table as
    stored is held without its data and lines until the batch is written."""
    from rankings import services

    season = import_competition(circuit_file)
    tables = StandingsTable.objects.filter(season=season).count()
    encoded = []
    real = services._dumps
    monkeypatch.setattr(services, "_dumps", lambda value: encoded.append(value) or real(value))

    held = []
    real_held = services._held
    monkeypatch.setattr(services, "_held", lambda *a: held.append(real_held(*a)) or held[-1])
    assert season_recompute(season_id=season.pk, force=True)
    assert len(encoded) == tables, "one text per table (its data), none per line"
    assert len(held) == tables
    assert all(h.data is None and h.rows is None for h in held), "nothing of them is held"

    # One line made to differ: only its table's lines are encoded again.
    line = StandingsRow.objects.filter(season=season).order_by("pk").first()
    StandingsRow.objects.filter(pk=line.pk).update(detail={"edited": "by hand"})
    StandingsTable.objects.filter(pk=line.table_id).update(lines_digest=0)
    encoded.clear()
    assert season_recompute(season_id=season.pk, force=True)
    lines = StandingsRow.objects.filter(table_id=line.table_id).count()
    assert len(encoded) == tables + lines
    assert StandingsRow.objects.get(table_id=line.table_id, position=line.position).detail != {
        "edited": "by hand"
    }
