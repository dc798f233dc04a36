"""Board-game circuit: one changed result updates only what it reaches (Standings.update), and
the stored standings are exactly those of a full recompute."""

import random

import pytest
from django.db import transaction
from django.utils.text import slugify
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competitions.models import Season
from competitions.systems.boardgame.models import Seat, Table
from rankings.imports import import_competition
from rankings.models import StandingsRow, StandingsTable
from rankings.services import season_recompute
from rankings.systems.boardgame import standings as boardgame_standings
from tests.helpers import clear_standings, patch_standings, stored
from tests.rankings.conftest import reached

pytestmark = pytest.mark.django_db

GAMES = ["Catan", "Azul", "Splendor"]
LABELS = ["2023", "2024", "2025"]


def season_file(label: str, seed: int) -> dict:
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(11)]
    tournaments = []
    for t in range(3):
        rounds = []
        for _r in range(2):
            order = players[:]
            rng.shuffle(order)
            tables, i = [], 0
            for size in (4, 4, 3):
                seats = order[i : i + size]
                i += size
                ranks = sorted(rng.choices(range(1, size + 1), k=size))
                ranks[0] = 1
                tables.append(
                    {
                        "game": rng.choice(GAMES),
                        "results": [
                            {"player": p, "rank": r} for p, r in zip(seats, ranks, strict=True)
                        ],
                    }
                )
            rounds.append({"tables": tables})
        tournaments.append(
            {
                "id": f"t{t + 1}",
                "name": f"T{t + 1}",
                "date": f"{label}-0{t + 1}-01",
                "final": t == 2,
                "draw_seed": seed * 10 + t,
                "rounds": rounds,
            }
        )
    return {
        "format": "competition/1",
        "system": "boardgame-circuit",
        "series": "incremental",
        "season": label,
        "name": f"Circuit {label}",
        "clubs": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        "players": [
            {"id": p, "name": p.upper(), "club": "ab"[i % 2]} for i, p in enumerate(players)
        ],
        "tournaments": tournaments,
    }


@pytest.fixture
def seasons(django_capture_on_commit_callbacks) -> list[Season]:
    found = []
    for k, label in enumerate(LABELS):
        with django_capture_on_commit_callbacks(execute=True):
            found.append(import_competition(season_file(label, k + 1)))
    return found


def swap_ranks(table: Table) -> None:
    """What the manager's table form does to two seats: ORM saves in one transaction."""
    with transaction.atomic():
        a, b = list(table.seats.order_by("rank", "player_id"))[:2]
        if a.rank == b.rank:
            b.rank = a.rank + 1
            b.save()
            return
        a.rank, b.rank = b.rank, a.rank
        a.save()
        b.save()


def rename_game(table: Table, game: str) -> None:
    with transaction.atomic():
        table.game = game
        table.save()


def full_recompute_matches(seasons: list[Season]) -> None:
    incremental = [stored(s) for s in seasons]
    for s in seasons:
        clear_standings(s)
        season_recompute(season_id=s.pk, force=True)
    assert [stored(s) for s in seasons] == incremental


def table_of(season: Season, tournament: str, round_: int, number: int) -> Table:
    return Table.objects.get(
        round__season=season, round__tournament__key=tournament, round__number=round_, number=number
    )


def row_ids(season: Season, kind: str, key: str) -> dict[str, int]:
    return {player: line[0] for player, line in lines(season, kind, key).items()}


def lines(season: Season, kind: str, key: str) -> dict[str, tuple]:
    """Each player's stored line of a table: (row id, position, rank, points, detail)."""
    return {
        player: (pk, position, rank, points, detail)
        for player, pk, position, rank, points, detail in StandingsRow.objects.filter(
            season=season, table__kind=kind, table__key=key
        ).values_list("player__key", "pk", "position", "rank", "points", "detail")
    }


def test_one_changed_seat_updates_its_tournament_and_the_aggregates_only(
    seasons, recomputed, django_capture_on_commit_callbacks
):
    last = seasons[-1]
    before = {t: row_ids(last, "tournament", t) for t in ("t1", "t2", "t3")}
    t2 = lines(last, "tournament", "t2")
    yearly = row_ids(last, "yearly", "")
    table = table_of(last, "t2", 1, 1)
    with django_capture_on_commit_callbacks(execute=True):
        swap_ranks(table)
    last.refresh_from_db()
    assert not last.stale
    reach = reached(recomputed, last)
    assert ("tournament", "t2") in reach and ("yearly", "") in reach
    assert not reach & {("tournament", "t1"), ("tournament", "t3")}, "other tournaments kept"
    # Of the per-game rankings only the table's game's: the other games' sums and tables
    # are as they were.
    assert {key for kind, key in reach if kind == "game"} == {slugify(table.game)}
    # Only the lines that came out different are written again: the other tournaments' lines
    # and those of players the swap does not touch keep their rows.
    after = {t: row_ids(last, "tournament", t) for t in ("t1", "t2", "t3")}
    assert after["t1"] == before["t1"] and after["t3"] == before["t3"]
    rewritten = {p for p, pk in after["t2"].items() if before["t2"].get(p) != pk}
    changed = {p for p, line in lines(last, "tournament", "t2").items() if line[1:] != t2[p][1:]}
    assert rewritten == changed and len(changed) < len(t2)
    assert row_ids(last, "yearly", "") != yearly
    full_recompute_matches(seasons)


def test_a_change_of_an_earlier_season_updates_what_later_seasons_read(
    seasons, recomputed, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        swap_ranks(table_of(seasons[0], "t1", 2, 2))
    assert not any(Season.objects.get(pk=s.pk).stale for s in seasons)
    # Later seasons: the cap of 2024 is the same, so only their LUDO is made anew.
    assert all(reached(recomputed, s) == {("ludo", "")} for s in seasons[1:])
    full_recompute_matches(seasons)


def test_a_change_of_this_seasons_tournaments_reads_the_cap_as_stored(
    seasons, monkeypatch, django_capture_on_commit_callbacks
):
    """Only the season's own tournaments changed: what the cap reads (the previous season's
    participants, the settings) is as the stored tournaments show it, so the update does not
    count the previous season's participants again. A stored tournament showing another cap
    (stored by an older version, or edited by hand) makes it work the cap out again."""
    last = seasons[-1]
    asked = []
    real = boardgame_standings.cap_source

    def cap_source(season):
        asked.append(season.pk)
        return real(season)

    monkeypatch.setattr(boardgame_standings, "cap_source", cap_source)
    with django_capture_on_commit_callbacks(execute=True):
        swap_ranks(table_of(last, "t2", 1, 1))
    assert asked == []
    assert not Season.objects.get(pk=last.pk).stale
    monkeypatch.undo()
    full_recompute_matches(seasons)

    monkeypatch.setattr(boardgame_standings, "cap_source", cap_source)
    forged = StandingsTable.objects.get(season=last, kind="tournament", key="t1")
    forged.data["cap_source"] = {"cap": 990, "source": "manual"}
    forged.save(update_fields=["data"])
    with django_capture_on_commit_callbacks(execute=True):
        swap_ranks(table_of(last, "t2", 1, 1))
    assert asked == [last.pk]
    t2 = StandingsTable.objects.get(season=last, kind="tournament", key="t2")
    assert t2.data["cap_source"] == real(last) != forged.data["cap_source"]


def test_a_season_added_later_notes_what_it_reads_of_the_one_before(
    recomputed, django_capture_on_commit_callbacks
):
    """With no later season, a recompute does not work out what later seasons would read of
    it (the current season's usual case) and forgets the old digest; a season added afterwards
    notes it when it first reads the season before, so that season's next change recomputes
    it when what it reads changed."""
    with django_capture_on_commit_callbacks(execute=True):
        first = import_competition(season_file("2024", 1))
    with django_capture_on_commit_callbacks(execute=True):
        swap_ranks(table_of(first, "t1", 1, 1))
    first.refresh_from_db()
    assert first.standings_carry == ""
    with django_capture_on_commit_callbacks(execute=True):
        second = import_competition(season_file("2025", 2))
    first.refresh_from_db()
    noted = first.standings_carry
    assert noted != ""
    recomputed.clear()
    with django_capture_on_commit_callbacks(execute=True):
        swap_ranks(table_of(first, "t2", 2, 1))
    first.refresh_from_db()
    assert first.standings_carry != noted  # the yearly ranking 2025 reads changed
    assert ("ludo", "") in reached(recomputed, second)
    full_recompute_matches([first, second])


def test_a_seat_moved_out_of_a_tournament_changes_its_participants(
    seasons, django_capture_on_commit_callbacks
):
    middle = seasons[1]
    with django_capture_on_commit_callbacks(execute=True):
        Seat.objects.filter(round__season=middle, round__tournament__key="t1").order_by(
            "pk"
        ).last().delete()
    full_recompute_matches(seasons)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    changes=st.lists(
        st.tuples(
            st.integers(0, 2),  # season
            st.sampled_from(["t1", "t2", "t3"]),
            st.integers(1, 2),  # round
            st.integers(1, 3),  # table
            st.sampled_from([None, *GAMES, "Carcassonne"]),  # None: swap two ranks
        ),
        min_size=1,
        max_size=3,
    )
)
def test_incremental_updates_store_exactly_what_a_full_recompute_stores(
    seasons, django_capture_on_commit_callbacks, changes
):
    for season_index, tournament, round_, number, game in changes:
        table = table_of(seasons[season_index], tournament, round_, number)
        with django_capture_on_commit_callbacks(execute=True):
            if game is None:
                swap_ranks(table)
            else:
                rename_game(table, game)
    assert not any(Season.objects.get(pk=s.pk).stale for s in seasons)
    full_recompute_matches(seasons)


# --- pages of a large field: paginated, and as many queries as for a small one -------------------


def field_file(players: int) -> dict:
    rng = random.Random(players)
    keys = [f"p{i}" for i in range(players)]
    rounds = []
    for _r in range(2):
        order = keys[:]
        rng.shuffle(order)
        rounds.append(
            {
                "tables": [
                    {
                        "game": rng.choice(GAMES),
                        "results": [
                            {"player": p, "rank": r + 1} for r, p in enumerate(order[i : i + 4])
                        ],
                    }
                    for i in range(0, players, 4)
                ]
            }
        )
    data = season_file("2025", 1)
    data.update(
        series=f"field-{players}",
        players=[{"id": p, "name": f"Player {p}", "club": "ab"[i % 2]} for i, p in enumerate(keys)],
        tournaments=[
            {"id": "t1", "name": "T1", "date": "2025-01-01", "draw_seed": 7, "rounds": rounds},
            {"id": "t2", "name": "T2", "date": "2025-02-01", "draw_seed": 8, "rounds": rounds},
        ],
    )
    return data


def public_pages(season: Season) -> list[str]:
    from rankings.urls_helpers import season_url

    game = StandingsTable.objects.filter(season=season, kind="game").order_by("position").first()
    return [
        season_url(season, "tournament", "t1"),
        season_url(season, "tournament_live", "t1"),
        season_url(season, "yearly"),
        season_url(season, "ludo"),
        season_url(season, "games"),
        season_url(season, "game", game.key),
        f"/{season.series.slug}/players/p1/",
    ]


def test_a_replaced_compute_is_never_bypassed_by_the_update(
    seasons, monkeypatch, django_capture_on_commit_callbacks
):
    from competitions.registry import get_system

    computed = []
    compute = get_system("boardgame-circuit").standings.compute
    patch_standings(
        monkeypatch, "boardgame-circuit", compute=lambda s: computed.append(s.pk) or compute(s)
    )
    with django_capture_on_commit_callbacks(execute=True):
        swap_ranks(table_of(seasons[-1], "t2", 1, 1))
    assert computed == [seasons[-1].pk]


def test_pages_of_a_large_field_are_paginated_with_the_same_queries(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    small, large = import_competition(field_file(12)), import_competition(field_file(200))
    for small_path, large_path in zip(public_pages(small), public_pages(large), strict=True):
        counts = []
        for path in (small_path, large_path):
            with CaptureQueriesContext(connection) as queries:
                response = client.get(path)
            assert response.status_code == 200, path
            counts.append(len(queries))
        assert counts[0] == counts[1], large_path

    page = client.get(public_pages(large)[0]).content.decode()
    # 50 tables a round: a round at a time (the latest), 12 tables a page.
    assert page.count("seat-card") == 12, "12 tables of one round on a page"
    assert '<h2 class="h5 mt-4 print-break">Round 2</h2>' in page and ">Round 1</h2>" not in page
    assert 'href="?round=1"' in page and "?round=2&amp;tables=2" in page
    assert '<a href="?ceremony=all">' in page
    assert page.count('class="explain"') < 200 * 3, "only the shown lines are explained"
    second = client.get(public_pages(large)[0] + "?round=1&tables=5").content.decode()
    assert second.count("seat-card") == 2  # 4 pages of 12, then 2
    assert ">Round 1</h2>" in second and ">Round 2</h2>" not in second
    small_page = client.get(public_pages(small)[0]).content.decode()
    assert small_page.count("seat-card") == 2 * 3, "a small day shows every round"
    assert "?round=" not in small_page and "?tables=" not in small_page
    everyone = client.get(public_pages(large)[0] + "?ceremony=all").content.decode()
    assert '<a href="?ceremony=all">' not in everyone
    yearly = client.get(public_pages(large)[2]).content.decode()
    assert "page=2" in yearly, "50 lines a page"
    for query in ("?page=2", "?page=9", "?sort=player&page=2", "?per_page=150&page=2"):
        shown = client.get(public_pages(large)[2] + query).content.decode()
        assert shown.count("Player p") >= 50, query  # every line shown has its name


def test_a_replacing_import_may_move_the_final_and_reorder_a_table(
    seasons, django_capture_on_commit_callbacks
):
    from competitions.interchange import export_competition
    from competitions.models import Tournament
    from rankings.imports import import_file

    data = export_competition(seasons[-1])
    for t in data["tournaments"]:
        t["final"] = t["id"] == "t1"
    results = data["tournaments"][1]["rounds"][0]["tables"][0]["results"]
    results.reverse()
    with django_capture_on_commit_callbacks(execute=True):
        result = import_file(data, replace=True)
    assert Tournament.objects.get(season=seasons[-1], circuit_final__isnull=False).key == "t1"
    assert export_competition(seasons[-1]) == data
    assert not result.changes.none
    full_recompute_matches(seasons)


def test_the_stored_parts_an_update_reads_are_the_stored_exact_parts(
    seasons, django_capture_on_commit_callbacks
):
    """`_stored_parts` (on PostgreSQL a query of its own) gives each tournament's stored exact
    parts and cap, with only the per-game sums asked for, whatever the game's title."""
    from rankings.systems.boardgame.standings import _stored_parts

    season = seasons[-1]
    odd = ["O'Hare / Ζήτα", "1846", 'Say "hi"; --']
    for number, title in enumerate(odd, 1):
        with django_capture_on_commit_callbacks(execute=True):
            rename_game(table_of(season, "t1", 1, number), title)
    stored = {
        key: (data["exact"], data["cap_source"])
        for key, data in StandingsTable.objects.filter(
            season=season, kind="tournament"
        ).values_list("key", "data")
    }
    assert set(stored) == {"t1", "t2", "t3"}
    assert any(t in stored["t1"][0]["games"] for t in odd)

    assert _stored_parts(season) == stored
    assert _stored_parts(season, keys=["t2"]) == {"t2": stored["t2"]}
    wanted = {*odd, "Catan", "a game nobody played"}
    some = _stored_parts(season, skip=["t2"], games=wanted)
    assert set(some) == {"t1", "t3"}
    for key, (exact, cap) in some.items():
        full, full_cap = stored[key]
        assert cap == full_cap
        assert exact == {
            **full,
            "games": {g: sums for g, sums in full["games"].items() if g in wanted},
        }
    none = _stored_parts(season, keys=["t1"], games=set())
    assert none["t1"][0]["games"] == {}
    assert none["t1"][0]["points"] == stored["t1"][0]["points"]
