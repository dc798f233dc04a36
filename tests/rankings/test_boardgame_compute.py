"""The circuit's full compute reads and computes a season a tournament at a time and makes the
season's aggregates from each tournament's exact numbers: what it stores must be what the
engine's whole-season computation (rules.md §1) gives, over random seasons."""

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rankings.engines import boardgame as engine
from rankings.imports import import_competition
from rankings.models import StandingsRow
from rankings.systems.boardgame.standings import _num, _seat_numbers, game_slugs, load_season
from tests.rankings.test_boardgame_incremental import LABELS, season_file

pytestmark = pytest.mark.django_db
EXAMPLES = itertools.count()


def stored_lines(season, kind: str, key: str, fields: tuple[str, ...]) -> list[tuple]:
    details = StandingsRow.objects.filter(season=season, table__kind=kind, table__key=key).order_by(
        "position"
    )
    return [tuple(d[f] for f in fields) for d in details.values_list("detail", flat=True)]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), undated=st.booleans())
def test_the_streamed_compute_stores_what_the_engine_computes_for_the_season(seed, undated):
    series = f"compute-{next(EXAMPLES)}"
    for k, label in enumerate(LABELS):
        data = season_file(label, seed + k)
        data["series"] = series
        if undated:  # an undated tournament comes last in the season
            data["tournaments"][0].pop("date")
        season = import_competition(data)
    season_in, extras = load_season(season)
    out = engine.compute_season(season_in)
    assert [t.key for t in extras["tournaments"]] == [t.id for t in out.tournaments]
    for t in out.tournaments:
        assert stored_lines(
            season, "tournament", t.id, ("player", "rank", "daily", "bonus", "points")
        ) == [(r.player, r.rank, _num(r.daily), _num(r.bonus), _num(r.points)) for r in t.standings]
    assert stored_lines(season, "yearly", "", ("player", "rank", "points", "counted")) == [
        (r.player, r.rank, _num(r.points), list(r.counted)) for r in out.yearly
    ]
    assert stored_lines(season, "ludo", "", ("player", "rank", "points")) == [
        (r.player, r.rank, _num(r.points)) for r in out.ludo
    ]
    slugs = game_slugs([g.game for g in out.games])
    # Each player's tables of a game, in season order (the final's do not count).
    tables: dict[tuple[str, str], list] = {}
    for t in out.tournaments:
        numbers = extras["table_numbers"][t.id]
        for table, number in zip(t.tables, numbers, strict=True):
            for seat in table.results:
                if not t.final:
                    entry = [t.id, table.round, number, _num(seat.score)]
                    tables.setdefault((table.game, seat.player), []).append(entry)
    for game in out.games:
        assert stored_lines(
            season,
            "game",
            slugs[game.game],
            ("player", "rank", "points", "played", "finalist", "tables"),
        ) == [
            (r.player, r.rank, _num(r.points), r.played, r.finalist, tables[(game.game, r.player)])
            for r in game.rows
        ]


@given(
    tables=st.lists(
        st.lists(st.integers(1, 6), min_size=3, max_size=6).map(sorted), min_size=1, max_size=20
    )
)
def test_a_tables_json_numbers_kept_per_ranks_are_the_ones_made_afresh(tables):
    """The numbers of a table's results are kept per tuple of entered ranks
    (standings._seat_numbers): whichever table of those ranks came first, they are the numbers
    of this one."""
    for i, ranks in enumerate(tables):
        seats = tuple(
            engine.Seat(f"p{i}-{k}", rank) for k, rank in enumerate(reversed(ranks))
        )  # entered in any order
        out = engine.score_table(engine.TableIn(round=1, game="g", seats=seats))
        afresh = [
            (_num(s.place), _num(s.placement), _num(s.bonus), _num(s.fraction), _num(s.score))
            for s in out.results
        ]
        assert _seat_numbers(out) == afresh
        assert [type(n) for row in _seat_numbers(out) for n in row] == [
            type(n) for row in afresh for n in row
        ]


def test_the_seats_read_in_one_pass_are_the_season_s_tables():
    """standings.tournament_inputs reads the season's seats in one pass, tournament by
    tournament, for the streamed compute and for load_season alike: each tournament's tables in
    round and table order with their seats by rank, half-entered tables left out, a tournament
    without seats empty; load_season in the season's order (the undated one last), the streamed
    compute in the order of the tournaments' ids."""
    from competitions.models import Tournament
    from competitions.systems.boardgame.models import Seat, Table
    from rankings.systems.boardgame import standings

    data = season_file("2031", 5)
    data["series"] = f"compute-{next(EXAMPLES)}"
    data["tournaments"][1].pop("date")
    season = import_competition(data)
    half = Table.objects.filter(round__season=season).order_by("pk")[3]
    Seat.objects.filter(
        pk__in=list(half.seats.order_by("pk").values_list("pk", flat=True))[1:]
    ).delete()
    Tournament.objects.create(season=season, key="empty", name="Empty", date="2031-06-01")
    every = standings.season_tournaments(season)
    expected = []  # read table by table from the models
    for t in every:
        tables, numbers = [], []
        for table in Table.objects.filter(round__tournament=t).order_by("round__number", "number"):
            seats = tuple(
                engine.Seat(key, rank)
                for key, rank in table.seats.order_by("rank", "player__key").values_list(
                    "player__key", "rank"
                )
            )
            if len(seats) >= 2:
                tables.append(
                    engine.TableIn(round=table.round.number, game=table.game, seats=seats)
                )
                numbers.append(table.number)
        t_in = engine.TournamentIn(
            id=t.key, final=t.final, draw_seed=t.draw_seed, tables=tuple(tables)
        )
        expected.append((t, t_in, numbers))
    assert [t.key for t, _t_in, _numbers in expected][-2:] == ["empty", "t2"]  # undated last
    streamed = list(standings.streamed_tournaments(season, every))
    # A recompute reads them in the order of their ids, the undated t2 among them.
    assert streamed == sorted(expected, key=lambda e: e[0].pk)
    assert [t.key for t, _t_in, _numbers in streamed][-1] == "empty"
    assert streamed[-1][1].tables == () and streamed[-1][2] == []
    assert (
        sum(len(t_in.tables) for _t, t_in, _n in streamed)
        == Table.objects.filter(round__season=season).count() - 1
    )  # the half-entered table
    season_in, extras = load_season(season)
    assert list(season_in.tournaments) == [t_in for _t, t_in, _n in expected]
    assert extras["table_numbers"] == {t.key: numbers for t, _t_in, numbers in expected}
    some = {every[1].pk, every[-1].pk}  # an update's tournaments only
    season_in, extras = load_season(season, only=some)
    assert list(season_in.tournaments) == [t_in for t, t_in, _n in expected if t.pk in some]
