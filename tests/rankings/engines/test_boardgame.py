"""Tests of the board-game circuit engine against rules.md §1 (pure Python, no Django)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankings.engines.boardgame import (
    CeremonyEntry,
    ClubScore,
    DailyRow,
    SeasonIn,
    Seat,
    Settings,
    TableIn,
    TournamentIn,
    TournamentOut,
    average_places,
    cap_from_participants,
    ceremony_places,
    compute_season,
    compute_tournament,
    draw_order,
    game_rankings,
    ludo_ranking,
    score_table,
    tournament_bonus,
    yearly_ranking,
)
from rankings.engines.common import competition_ranks, rank_by, round_half_up

DEFAULTS = Settings()


def table(game: str, *seats: tuple[str, int], round_: int = 1) -> TableIn:
    return TableIn(round=round_, game=game, seats=tuple(Seat(p, r) for p, r in seats))


def scores(t: TableIn) -> dict[str, F]:
    return {s.player: s.score for s in score_table(t).results}


# --- common -----------------------------------------------------------------------------------


def test_competition_ranks_share_the_better_rank_and_skip():
    assert competition_ranks([9, 7, 7, 5]) == [1, 2, 2, 4]
    assert competition_ranks([]) == []


def test_rank_by_orders_bigger_first_and_ties_by_presentation_order():
    ranked = rank_by(
        ["b", "a", "c", "d"],
        key=lambda s: {"a": 1, "b": 2, "c": 2, "d": 0}[s],
        tie_order=lambda s: s,
    )
    assert ranked == [(1, "b"), (1, "c"), (3, "a"), (4, "d")]


def test_round_half_up_is_exact_on_the_half():
    assert round_half_up(F(649, 100)) == 6
    assert round_half_up(F(13, 2)) == 7
    assert round_half_up(F(-1, 2)) == 0
    assert round_half_up(3) == 3


# --- §1.1 round score -------------------------------------------------------------------------


def test_tied_players_share_the_average_of_their_consecutive_positions():
    assert average_places([1, 2, 2, 4]) == [1, F(5, 2), F(5, 2), 4]
    assert average_places([4, 2, 1, 2]) == [4, F(5, 2), 1, F(5, 2)]


def test_table_of_four_ranks_1_2_2_4_scores_104_5_50_25_50_25_0():
    out = score_table(table("Catan", ("a", 1), ("b", 2), ("c", 2), ("d", 4)))
    assert [s.placement for s in out.results] == [100, 50, 50, 0]
    assert [s.bonus for s in out.results] == [4, 0, 0, 0]
    assert [s.fraction for s in out.results] == [F(1, 2), F(1, 4), F(1, 4), 0]
    assert [s.score for s in out.results] == [F("104.5"), F("50.25"), F("50.25"), 0]


def test_ranks_1_2_2_3_are_the_same_entry_as_1_2_2_4():
    a = score_table(table("Catan", ("a", 1), ("b", 2), ("c", 2), ("d", 4)))
    b = score_table(table("Catan", ("a", 1), ("b", 2), ("c", 2), ("d", 3)))
    assert [(s.player, s.place, s.score) for s in a.results] == [
        (s.player, s.place, s.score) for s in b.results
    ]


def test_table_of_five_ranks_1_1_1_4_5_scores_80_3_80_3_80_3_25_1_0():
    out = score_table(table("Catan", ("a", 1), ("b", 1), ("c", 1), ("d", 4), ("e", 5)))
    assert [s.score for s in out.results] == [F("80.3")] * 3 + [F("25.1"), 0]


def test_three_way_tie_for_first_all_get_average_place_2_and_the_win_bonus():
    out = score_table(table("Catan", ("a", 1), ("b", 1), ("c", 1), ("d", 4), ("e", 5)))
    winners = out.results[:3]
    assert all(s.place == 2 and s.bonus == 5 for s in winners)
    assert all(s.bonus == 0 for s in out.results[3:])


def test_table_results_are_listed_by_entered_rank_then_player_id():
    out = score_table(table("Catan", ("z", 2), ("b", 1), ("a", 2)))
    assert [s.player for s in out.results] == ["b", "a", "z"]


# --- §1.2 tournament --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("counts", "cap"),
    [
        ([65] * 9 + [64], 60),  # average exactly 64.9
        ([60, 70], 70),  # average exactly 65.0
        ([65], 70),
        ([], None),
    ],
)
def test_cap_is_last_seasons_average_participants_rounded_half_up_to_tens(counts, cap):
    assert cap_from_participants(counts) == cap


@pytest.mark.parametrize(("x", "p10"), [(95, 10), (104, 10), (14, 1), (15, 2), (0, 0)])
def test_ceremony_places_p10_is_min_10_and_x_over_10_rounded_half_up(x, p10):
    assert ceremony_places(x) == p10


def test_tournament_bonus_with_a_cap_is_limited_by_the_cap():
    assert tournament_bonus(80, 1, 60) == 60
    assert tournament_bonus(80, 60, 60) == 1
    assert tournament_bonus(80, 61, 60) == 0
    assert tournament_bonus(80, 80, 60) == 0


def test_tournament_bonus_with_a_cap_above_x_is_limited_by_x():
    assert tournament_bonus(40, 1, 60) == 40
    assert tournament_bonus(40, 40, 60) == 1


def test_tournament_bonus_without_a_cap_is_x_minus_p_plus_1():
    assert tournament_bonus(80, 1, None) == 80
    assert tournament_bonus(80, 80, None) == 1


def test_three_way_tie_for_first_of_the_day_all_get_the_full_tournament_bonus():
    t = TournamentIn(
        id="t1",
        final=False,
        draw_seed=1,
        tables=(
            table("Catan", ("a", 1), ("b", 2)),
            table("Catan", ("c", 1), ("d", 2)),
            table("Catan", ("e", 1), ("f", 2)),
        ),
    )
    out = compute_tournament(t, {}, None, DEFAULTS)
    assert out.participants == 6
    top = [r for r in out.standings if r.rank == 1]
    assert [r.player for r in top] == ["a", "c", "e"]
    assert all(r.bonus == 6 and r.points == r.daily + 6 for r in top)
    assert [(r.player, r.rank, r.bonus) for r in out.standings[3:]] == [
        ("b", 4, 3),
        ("d", 4, 3),
        ("f", 4, 3),
    ]


def test_daily_total_sums_the_round_scores_and_bonus_does_not_change_the_order():
    t = TournamentIn(
        id="t1",
        final=False,
        draw_seed=1,
        tables=(
            table("Catan", ("a", 1), ("b", 2), ("c", 2), ("d", 4), round_=1),
            table("Carcassonne", ("a", 2), ("b", 1), round_=2),
        ),
    )
    out = compute_tournament(t, {}, 3, DEFAULTS)
    rows = {r.player: r for r in out.standings}
    assert rows["a"].daily == F("104.5") + 0
    assert rows["b"].daily == F("50.25") + 103
    assert [r.player for r in out.standings] == ["b", "a", "c", "d"]
    assert [r.bonus for r in out.standings] == [3, 2, 1, 0]
    assert out.cap == 3


def test_tournament_without_tables_has_no_participants_and_empty_lists():
    out = compute_tournament(TournamentIn("t0", False, (), 7), {"a": "X"}, 60, DEFAULTS)
    assert out == TournamentOut("t0", False, 0, 60, (), (), (), ())


def test_interclub_counts_the_best_three_daily_totals_of_each_club():
    # A has four participants (only its best three count), B two, n1 has no club, x1 is unknown.
    t = TournamentIn(
        id="t1",
        final=False,
        draw_seed=1,
        tables=(
            table("Catan", ("a1", 1), ("b1", 2), ("a2", 3), ("n1", 4), ("a3", 5)),
            table("Catan", ("a4", 1), ("b2", 2), ("x1", 3)),
        ),
    )
    clubs = {"a1": "A", "a2": "A", "a3": "A", "a4": "A", "b1": "B", "b2": "B", "n1": None}
    out = compute_tournament(t, clubs, None, DEFAULTS)
    daily = {r.player: r.daily for r in out.standings}
    assert out.interclub == (
        ClubScore("A", 1, daily["a1"] + daily["a4"] + daily["a2"], ("a1", "a4", "a2")),
        ClubScore("B", 2, daily["b1"] + daily["b2"], ("b1", "b2")),
    )


def test_interclub_counted_setting_changes_how_many_totals_count():
    t = TournamentIn(
        id="t1",
        final=False,
        draw_seed=1,
        tables=(table("Catan", ("a1", 1), ("b1", 2), ("a2", 3), ("b2", 4)),),
    )
    clubs = {"a1": "A", "a2": "A", "b1": "B", "b2": "B"}
    out = compute_tournament(t, clubs, None, Settings(interclub_counted=1))
    assert [(c.club, c.players) for c in out.interclub] == [("A", ("a1",)), ("B", ("b1",))]


def test_clubs_with_equal_interclub_scores_share_the_rank_and_both_are_called():
    t = TournamentIn(
        id="t1",
        final=False,
        draw_seed=1,
        tables=(table("Catan", ("a1", 1), ("b1", 2)), table("Catan", ("b2", 1), ("a2", 2))),
    )
    clubs = {"a1": "A", "a2": "A", "b1": "B", "b2": "B"}
    out = compute_tournament(t, clubs, None, DEFAULTS)
    assert [(c.club, c.rank) for c in out.interclub] == [("A", 1), ("B", 1)]
    assert [e for e in out.ceremony if e.step == "club"] == [
        CeremonyEntry("club", club="A"),
        CeremonyEntry("club", club="B"),
    ]


def _ceremony_tournament(seed: int) -> TournamentIn:
    # X = 15, so P10 = 2. Winner of the table of 5 is alone at rank 1; the winners of the two
    # tables of 4 share rank 2; everyone else goes to the draw.
    return TournamentIn(
        id="t1",
        final=False,
        draw_seed=seed,
        tables=(
            table("Catan", ("p01", 1), ("p02", 2), ("p03", 3), ("p04", 4), ("p05", 5)),
            table("Catan", ("p09", 1), ("p07", 2), ("p08", 3), ("p06", 4)),
            table("Catan", ("p10", 1), ("p11", 2), ("p12", 3), ("p13", 4)),
            table("Catan", ("p14", 1), ("p15", 2)),
        ),
    )


def test_ceremony_calls_winner_then_best_club_then_ranks_2_to_p10_then_the_draw():
    clubs = {f"p{i:02d}": ("K1" if i % 2 else "K2") for i in range(1, 16)}
    out = compute_tournament(_ceremony_tournament(seed=42), clubs, None, DEFAULTS)
    steps = [e.step for e in out.ceremony]
    assert steps == ["winner", "club", "place", "place"] + ["draw"] * 12
    assert out.ceremony[0] == CeremonyEntry("winner", player="p01")
    assert out.ceremony[1] == CeremonyEntry("club", club=out.interclub[0].club)
    assert [e.player for e in out.ceremony[2:4]] == ["p09", "p10"]
    drawn = [e.player for e in out.ceremony[4:]]
    expected_rest = sorted({f"p{i:02d}" for i in range(1, 16)} - {"p01", "p09", "p10"})
    assert drawn == draw_order(expected_rest, 42)


def test_ceremony_with_fourteen_participants_has_no_place_step():
    t = TournamentIn(
        id="t",
        final=False,
        draw_seed=3,
        tables=tuple(table("Catan", (f"p{i:02d}", 1), (f"q{i:02d}", 2)) for i in range(7)),
    )
    out = compute_tournament(t, {}, None, DEFAULTS)
    assert out.participants == 14
    steps = [e.step for e in out.ceremony]
    assert steps == ["winner"] * 7 + ["draw"] * 7  # no club step: nobody has a club


def test_draw_is_reproducible_with_its_seed_and_differs_with_another_seed():
    players = [f"p{i:02d}" for i in range(12)]
    assert draw_order(players, 2024) == draw_order(players, 2024)
    assert draw_order(players, 2024) == draw_order(reversed(players), 2024)
    assert draw_order(players, 2024) != draw_order(players, 2025)
    assert sorted(draw_order(players, 2024)) == players


def test_ceremony_draw_is_reproducible_and_changes_when_redrawn_with_a_new_seed():
    a = compute_tournament(_ceremony_tournament(seed=1), {}, None, DEFAULTS)
    b = compute_tournament(_ceremony_tournament(seed=1), {}, None, DEFAULTS)
    c = compute_tournament(_ceremony_tournament(seed=2), {}, None, DEFAULTS)
    assert a.ceremony == b.ceremony
    assert a.ceremony != c.ceremony
    assert a.standings == c.standings


# --- §1.3 yearly ------------------------------------------------------------------------------


def _out(tid: str, points: dict[str, int], final: bool = False) -> TournamentOut:
    rows = tuple(DailyRow(p, 1, F(v), F(0), F(v)) for p, v in points.items())
    return TournamentOut(tid, final, len(rows), None, rows, (), (), ())


def test_yearly_sums_best_five_regular_tournaments_plus_the_final_and_shows_which_counted():
    season = [
        _out("t1", {"ann": 10, "bob": 5}),
        _out("t2", {"ann": 70}),
        _out("t3", {"ann": 30}),
        _out("t4", {"ann": 50}),
        _out("t5", {"ann": 20}),
        _out("t6", {"ann": 60}),
        _out("t7", {"ann": 40}),
        _out("final", {"ann": 1, "cid": 100}, final=True),
    ]
    rows = yearly_ranking(season, best_n=5)
    by = {r.player: r for r in rows}
    assert by["ann"].points == 70 + 30 + 50 + 60 + 40 + 1
    assert by["ann"].counted == ("t2", "t3", "t4", "t6", "t7", "final")
    assert by["bob"].counted == ("t1",) and by["bob"].points == 5
    assert by["cid"].counted == ("final",) and by["cid"].points == 100
    assert [(r.player, r.rank) for r in rows] == [("ann", 1), ("cid", 2), ("bob", 3)]


def test_yearly_among_equal_points_the_earlier_tournament_counts():
    season = [_out("t1", {"ann": 10}), _out("t2", {"ann": 20}), _out("t3", {"ann": 10})]
    (row,) = yearly_ranking(season, best_n=2)
    assert row.counted == ("t1", "t2") and row.points == 30


def test_yearly_ties_share_the_rank_and_are_listed_by_player_id():
    rows = yearly_ranking([_out("t1", {"zed": 10, "amy": 10, "max": 3})], best_n=5)
    assert [(r.player, r.rank) for r in rows] == [("amy", 1), ("zed", 1), ("max", 3)]


@st.composite
def _scaled_tournaments(draw):
    players = ["ann", "bob", "cid", "dan"]
    count = draw(st.integers(0, 7))
    finals = draw(st.sets(st.integers(0, max(count - 1, 0)), max_size=2)) if count else set()
    return [
        (
            f"t{index}",
            index in finals,
            draw(st.dictionaries(st.sampled_from(players), st.integers(-3, 6), max_size=4)),
            draw(st.sampled_from([1, 2, 3, 6, 60])),
        )
        for index in range(count)
    ]


@given(_scaled_tournaments(), st.integers(-1, 5))
def test_yearly_from_scaled_points_is_the_rule_in_fractions(tournaments, best_n):
    from rankings.engines.boardgame import yearly_ranking_scaled

    rows = yearly_ranking_scaled(tournaments, best_n)
    expected = {}
    for player in {p for _t, _f, points, _s in tournaments for p in points}:
        entries = [
            (index, tid, final, F(points[player], scale))
            for index, (tid, final, points, scale) in enumerate(tournaments)
            if player in points
        ]
        # best_n regular ones, the earlier among equal points; every final; in season order
        best = sorted((e for e in entries if not e[2]), key=lambda e: (-e[3], e[0]))
        chosen = sorted(best[: max(0, best_n)] + [e for e in entries if e[2]])
        expected[player] = (sum((e[3] for e in chosen), F(0)), tuple(e[1] for e in chosen))
    assert {r.player: (r.points, r.counted) for r in rows} == expected
    order = sorted(expected, key=lambda p: (-expected[p][0], p))
    assert [r.player for r in rows] == order
    for r in rows:
        first = next(i for i, p in enumerate(order) if expected[p][0] == r.points)
        assert r.rank == first + 1


# --- §1.4 LUDO --------------------------------------------------------------------------------


def test_ludo_is_a_third_of_y_minus_2_plus_two_thirds_of_y_minus_1_plus_this_year():
    rows = ludo_ranking(
        {"ann": F(10), "bob": F(1)},
        {"ann": F(60), "cid": F(1)},
        {"ann": F(30), "dan": F(2)},
    )
    by = {r.player: r.points for r in rows}
    assert by == {"ann": F(60), "bob": F(1), "cid": F(2, 3), "dan": F(2, 3)}
    assert [(r.player, r.rank) for r in rows] == [("ann", 1), ("bob", 2), ("cid", 3), ("dan", 3)]


_ludo_values = st.dictionaries(
    st.sampled_from(["ann", "bob", "cid", "dan", "eva", "fay"]),
    st.one_of(
        st.integers(-50, 50),
        st.fractions(min_value=-50, max_value=50, max_denominator=60),
    ),
    max_size=6,
)


@given(_ludo_values, _ludo_values, _ludo_values)
def test_ludo_in_integers_is_the_formula_in_fractions(now, prev, prev2):
    rows = ludo_ranking(now, prev, prev2)
    players = set(now) | set(prev) | set(prev2)
    expected = {
        p: F(prev2.get(p, 0)) / 3 + 2 * F(prev.get(p, 0)) / 3 + F(now.get(p, 0)) for p in players
    }
    assert {r.player: r.points for r in rows} == expected
    assert all(isinstance(r.points, F) for r in rows)
    # best first, ties share the rank and are listed by player id
    order = sorted(players, key=lambda p: (-expected[p], p))
    assert [r.player for r in rows] == order
    for r in rows:
        first = next(j for j, p in enumerate(order) if expected[p] == expected[r.player])
        assert r.rank == first + 1


# --- §1.5 per game ----------------------------------------------------------------------------


def test_per_game_points_divide_the_round_scores_by_max_n_3_plus_1():
    regular = TournamentIn(
        "t1",
        False,
        tuple(
            table("Catan", ("ann", 1), ("bob", 2), ("cid", 2), ("dan", 4), round_=r)
            for r in range(1, 6)
        )
        + (table("Go", ("ann", 1), ("bob", 2), round_=6),),
        0,
    )
    outs = [compute_tournament(regular, {}, None, DEFAULTS)]
    games = {g.game: g for g in game_rankings([regular], outs, DEFAULTS)}
    catan = {r.player: r for r in games["Catan"].rows}
    assert catan["ann"].played == 5
    assert catan["ann"].points == 5 * F("104.5") / 6  # N = 5: divide by 6
    go = {r.player: r for r in games["Go"].rows}
    assert go["ann"].played == 1
    assert go["ann"].points == F(103) / 4  # N = 1 < 3: divide by 4
    assert go["bob"].points == 0


def test_per_game_ranking_ignores_the_final_and_lists_a_final_only_game_empty():
    regular = TournamentIn("t1", False, (table("Catan", ("ann", 1), ("bob", 2)),), 0)
    final = TournamentIn(
        "f",
        True,
        (table("Catan", ("bob", 1), ("ann", 2)), table("Azul", ("ann", 1), ("cid", 2))),
        0,
    )
    ins = [regular, final]
    outs = [compute_tournament(t, {}, None, DEFAULTS) for t in ins]
    games = game_rankings(ins, outs, DEFAULTS)
    assert [g.game for g in games] == ["Azul", "Catan"]
    assert games[0].rows == () and not games[0].tie_on_last_seat
    catan = {r.player: r.points for r in games[1].rows}
    assert catan == {"ann": F(103) / 4, "bob": F(0)}


def test_a_tie_on_the_last_finalist_seat_lets_every_tied_player_in_and_is_flagged():
    # Wins at two-player tables: ann 4, bob 3, cid 2, dan 1, eve 1; dan and eve tie for seat 4.
    wins = {"ann": 4, "bob": 3, "cid": 2, "dan": 1, "eve": 1}
    tables = tuple(
        table("Catan", (p, 1), (f"{p}-opp{k}", 2), round_=k + 1)
        for p, n in wins.items()
        for k in range(n)
    )
    t = TournamentIn("t1", False, tables, 0)
    (catan,) = game_rankings([t], [compute_tournament(t, {}, None, DEFAULTS)], DEFAULTS)
    top = [(r.player, r.rank, r.points) for r in catan.rows if r.finalist]
    assert top == [
        ("ann", 1, F(4 * 103, 5)),
        ("bob", 2, F(3 * 103, 4)),
        ("cid", 3, F(2 * 103, 4)),
        ("dan", 4, F(103, 4)),
        ("eve", 4, F(103, 4)),
    ]
    assert catan.size == 4
    assert catan.tie_on_last_seat


def test_no_tie_on_the_last_seat_gives_exactly_size_finalists_and_sizes_are_per_game():
    t = TournamentIn(
        "t1",
        False,
        (
            table("Catan", ("a", 1), ("b", 2), ("c", 3), ("d", 4), ("e", 5)),
            table("Azul", ("a", 1), ("b", 2), ("c", 3), ("d", 4), ("e", 5)),
        ),
        0,
    )
    s = Settings(final_table_sizes={"Azul": 2})
    games = {g.game: g for g in game_rankings([t], [compute_tournament(t, {}, None, s)], s)}
    assert games["Catan"].size == 4
    assert [r.player for r in games["Catan"].rows if r.finalist] == ["a", "b", "c", "d"]
    assert not games["Catan"].tie_on_last_seat
    assert games["Azul"].size == 2
    assert [r.player for r in games["Azul"].rows if r.finalist] == ["a", "b"]


# --- season -----------------------------------------------------------------------------------


def test_compute_season_feeds_yearly_into_ludo_and_uses_the_cap():
    t1 = TournamentIn("t1", False, (table("Catan", ("ann", 1), ("bob", 2)),), 0)
    season = SeasonIn(
        tournaments=(t1,),
        clubs={"ann": "A", "bob": None},
        cap=1,
        yearly_prev={"ann": F(3)},
    )
    out = compute_season(season)
    (t,) = out.tournaments
    assert [(r.player, r.bonus) for r in t.standings] == [("ann", 1), ("bob", 0)]
    yearly = {r.player: r.points for r in out.yearly}
    assert yearly == {"ann": F(103) + 1, "bob": F(0)}
    ludo = {r.player: r.points for r in out.ludo}
    assert ludo == {"ann": F(104) + 2, "bob": F(0)}
    assert [g.game for g in out.games] == ["Catan"]


# --- properties -------------------------------------------------------------------------------

PLAYERS = [f"p{i:02d}" for i in range(10)]
GAMES = ["Azul", "Carcassonne", "Catan"]


@st.composite
def tables_in(draw: st.DrawFn, round_: int = 1, players: list[str] | None = None) -> TableIn:
    pool = players if players is not None else PLAYERS
    x = draw(st.integers(2, min(6, len(pool))))
    who = draw(st.permutations(pool))[:x]
    ranks = draw(st.lists(st.integers(1, x), min_size=x, max_size=x))
    game = draw(st.sampled_from(GAMES))
    return TableIn(round_, game, tuple(Seat(p, r) for p, r in zip(who, ranks, strict=True)))


@st.composite
def tournaments_in(draw: st.DrawFn, tid: str = "t", final: bool = False) -> TournamentIn:
    tables = []
    for r in range(1, draw(st.integers(0, 3)) + 1):
        present = draw(st.permutations(PLAYERS))[: draw(st.integers(0, len(PLAYERS)))]
        i = 0
        while len(present) - i >= 2:
            size = draw(st.integers(2, min(5, len(present) - i)))
            tables.append(draw(tables_in(round_=r, players=present[i : i + size])))
            i += size
    return TournamentIn(tid, final, tuple(tables), draw(st.integers(0, 2**32)))


clubs_st = st.fixed_dictionaries({p: st.sampled_from(["A", "B", "C", None]) for p in PLAYERS})


@st.composite
def seasons_in(draw: st.DrawFn) -> SeasonIn:
    n = draw(st.integers(0, 4))
    ts = [draw(tournaments_in(tid=f"t{i}")) for i in range(n)]
    if draw(st.booleans()):
        ts.append(draw(tournaments_in(tid="final", final=True)))
    return SeasonIn(
        tournaments=tuple(ts),
        clubs=draw(clubs_st),
        cap=draw(st.none() | st.integers(0, 20)),
        settings=Settings(
            best_n=draw(st.integers(0, 5)), interclub_counted=draw(st.integers(1, 3))
        ),
        yearly_prev={p: F(draw(st.integers(0, 500)), 3) for p in PLAYERS[:3]},
    )


@given(tables_in())
def test_placement_points_at_a_table_sum_to_50_x(t):
    assert sum(s.placement for s in score_table(t).results) == 50 * len(t.seats)


@given(tables_in())
def test_tie_break_fractions_lie_in_0_1_and_sum_to_1(t):
    fractions = [s.fraction for s in score_table(t).results]
    assert all(0 <= f <= 1 for f in fractions)
    assert sum(fractions) == 1


@given(st.integers(0, 200), st.integers(1, 200), st.none() | st.integers(0, 200))
def test_tournament_bonus_is_never_negative_nor_above_the_cap_or_x(x, p, cap):
    bonus = tournament_bonus(x, p, cap)
    assert 0 <= bonus <= x
    if cap is not None:
        assert bonus <= cap


@given(tournaments_in(), clubs_st)
def test_every_participant_appears_exactly_once_in_the_ceremony(t, clubs):
    out = compute_tournament(t, clubs, None, DEFAULTS)
    called = [e.player for e in out.ceremony if e.player is not None]
    assert sorted(called) == sorted(r.player for r in out.standings)
    assert len(called) == out.participants


@given(tournaments_in(), st.none() | st.integers(0, 20))
def test_daily_ranks_are_non_decreasing_and_shared_exactly_when_totals_are_equal(t, cap):
    rows = compute_tournament(t, {}, cap, DEFAULTS).standings
    for i, row in enumerate(rows):
        if i == 0:
            assert row.rank == 1
            continue
        prev = rows[i - 1]
        assert prev.daily >= row.daily
        assert prev.rank <= row.rank
        if prev.daily == row.daily:
            assert row.rank == prev.rank
        else:
            assert row.rank == i + 1


@settings(max_examples=50)
@given(seasons_in())
def test_compute_season_is_deterministic(season):
    assert compute_season(season) == compute_season(season)


@settings(max_examples=50)
@given(seasons_in())
def test_yearly_points_are_at_least_any_single_regular_tournament_of_the_player(season):
    out = compute_season(season)
    yearly = {r.player: r.points for r in out.yearly}
    for t in out.tournaments:
        if t.final:
            continue
        for row in t.standings:
            if season.settings.best_n >= 1:
                assert yearly[row.player] >= row.points
            assert row.player in yearly
