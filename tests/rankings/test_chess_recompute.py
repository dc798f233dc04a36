"""Chess standings through the real stack on a real COMMIT: a result changed through the ORM
(as the admin or a page does) recomputes the season; a recompute is a pure function of the data;
and a full recompute of a federation-sized tournament stays within a small multiple of a bare
load of its rows."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from competitions.models import Game, Player, RoundEntry, Season
from rankings.engines import chess as engine
from rankings.imports import import_competition
from rankings.services import season_recompute
from rankings.systems.chess.standings import _quarters_of, compute, load_groups, quarters
from tests.chess_files import chess_file
from tests.helpers import fresh, python_calls, season_rows, stored

pipeline = pytest.mark.django_db(transaction=True)


def group_rows(season, name: str = "Gruppe A") -> dict:
    from competitions.models import Group

    group = Group.objects.get(name=name, tournament__season=season)
    return {r["player"]: r for r in season_rows(season, "group", str(group.pk))}


@pipeline
def test_a_result_changed_through_the_orm_recomputes_the_crosstable_and_bgp():
    season = import_competition(chess_file())
    assert group_rows(season)["a"]["points"] == 3.5
    game = Game.objects.get(round__group__name="Gruppe A", round__number=1, board=1)  # a beat b
    with transaction.atomic():
        game.result = "0-1"
        game.save()
    season = fresh(season)
    assert not season.stale
    rows = group_rows(season)
    assert (rows["a"]["points"], rows["b"]["points"]) == (2.5, 4)
    assert rows["b"]["place"] == 1 and rows["a"]["cells"][0] == "-H1"
    kadett = season_rows(season, "class", "kadett")
    assert kadett[0]["player"] == "b"


@pipeline
def test_a_walkover_removed_and_a_player_renamed_recompute_too():
    season = import_competition(chess_file())
    with transaction.atomic():
        RoundEntry.objects.get(
            round__group__name="Gruppe A", round__number=1, status="walkover"
        ).delete()
    rows = group_rows(fresh(season))
    assert rows["e"]["points"] == 0 and rows["e"]["cells"][0] == ""
    with transaction.atomic():
        player = Player.objects.get(key="a")
        player.born = 2010
        player.save()
    assert group_rows(fresh(season))["a"]["born"] == 2010


@pipeline
def test_recomputing_twice_stores_the_same_byte_for_byte():
    season = import_competition(chess_file())
    before = stored(season)
    assert season_recompute(season_id=season.pk, force=True)
    assert stored(season) == before


def federation_file(players: int = 70, rounds: int = 7) -> dict:
    """A BGP tournament of `players` in three groups, every round played."""
    data = chess_file()
    keys = [f"x{i}" for i in range(players)]
    data["players"] += [{"id": k, "name": f"Spiller {k}"} for k in keys]
    groups = []
    size = players // 3 + 1
    for g in range(3):
        members = keys[g * size : (g + 1) * size]
        n = len(members) - len(members) % 2
        group_rounds = []
        for r in range(rounds):
            order = members[r:] + members[:r]
            round_ = [
                {
                    "white": order[i],
                    "black": order[n - 1 - i],
                    "result": ("1-0", "0-1", "1/2-1/2")[(i + r) % 3],
                }
                for i in range(n // 2)
            ]
            if len(members) % 2:
                round_.append({"walkover": order[-1]})
            group_rounds.append(round_)
        groups.append(
            {
                "name": f"Gruppe {g + 1}",
                "players": [
                    {"player": k, "class": ("Kadett", "Lilleputt")[i % 2]}
                    for i, k in enumerate(members)
                ],
                "rounds": group_rounds,
            }
        )
    data["tournaments"].append({"id": "big", "name": "Big", "date": "2026-03-01", "groups": groups})
    return data


@pytest.mark.django_db
def test_a_full_recompute_loads_the_season_in_a_few_queries_and_stays_quick():
    season = import_competition(federation_file())
    season = Season.objects.select_related("series").get(pk=season.pk)
    with CaptureQueriesContext(connection) as ctx:
        tables = list(compute(season))  # a generator of tables
    # settings in memory; tournaments, groups, members, rounds, entries
    assert len(ctx.captured_queries) == 5
    big = next(t for t in tables if t.kind == "bgp" and t.key == "big")
    assert big.data["participants"] == 70 and big.data["large_scale"]
    assert sorted({r.points for r in big.rows})[-1] == 20

    # Work, not wall time (timings are `make bench`'s): the whole computation makes at most a
    # small multiple of the calls of a bare load of the same rows.
    bare, _ = python_calls(lambda: load_groups(season))
    full, _ = python_calls(lambda: list(compute(season)))
    assert full < 10 * bare, (full, bare)


def group_of(size: int, rounds: int) -> engine.GroupIn:
    """A Monrad-like field: every player plays every round; wins and draws mixed, so that
    many players tie on points and the tie-breaks have work to do."""
    players = tuple(f"p{i}" for i in range(size))
    return engine.GroupIn(
        players=players,
        rounds=tuple(
            engine.RoundIn(
                games=tuple(
                    engine.Game(
                        players[(i + r) % size],
                        players[(size - 1 - i + r) % size],
                        engine.DRAW if (i + r) % 3 == 0 else engine.WHITE_WINS,
                    )
                    for i in range(size // 2)
                )
            )
            for r in range(rounds)
        ),
    )


def test_the_engine_ranks_a_large_group_in_work_linear_in_its_games():
    """Machine-independent (counted calls, not seconds): the table of 70 players over 9 rounds
    costs a bounded number of calls per player-round, and twice the field costs about twice."""
    calls = {}
    for size in (70, 140):
        group = group_of(size, 9)
        calls[size], out = python_calls(lambda g=group: engine.group_table(g))
        assert len(out.rows) == size
        places = [r.place for r in out.rows]
        # a place is one more than the number of players ranked strictly ahead (ties share it)
        assert places == [1 + sum(q < p for q in places) for p in places]
    assert calls[70] < 50 * 70 * 9, calls
    assert calls[140] < 2.2 * calls[70], calls


def test_quarter_values_become_the_same_json_numbers_from_the_table_or_beyond_it():
    assert _quarters_of([0, 4, 6, 9, 4092]) == [0, 1, 1.5, 2.25, 1023]
    assert [type(v) for v in _quarters_of([8, 10])] == [int, float]
    beyond = [4096, 4098, 10**6 + 1, -2]  # past the table: converted one by one, alike
    assert _quarters_of(beyond) == [quarters(v) for v in beyond] == [1024, 1024.5, 250000.25, -0.5]
