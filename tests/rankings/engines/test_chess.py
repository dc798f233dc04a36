"""rules.md §3: chess group tables and BGP points, golden crosstables checked by hand, and
properties of any group."""

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankings.engines.chess import (
    ONE_HALF_ZERO,
    RESULTS,
    THREE_TWO_ONE,
    WALKOVER,
    BgpRow,
    Game,
    GroupIn,
    RoundIn,
    Settings,
    bgp_points,
    group_table,
    round_outcomes,
    season_bgp,
    tournament_bgp,
)

DRAW = "1/2-1/2"


def rows_of(group: GroupIn) -> dict:
    return {r.player: r for r in group_table(group).rows}


# --- a 4-round group of five, with a walkover, a forfeit and a round not played -----------------

FIVE = GroupIn(
    players=("a", "b", "c", "d", "e"),
    rounds=(
        RoundIn(games=(Game("a", "b", "1-0"), Game("c", "d", "1/2-1/2")), walkovers=("e",)),
        RoundIn(games=(Game("e", "a", "0-1"), Game("b", "c", "1-0")), walkovers=("d",)),
        RoundIn(games=(Game("a", "d", "1/2-1/2"), Game("c", "e", "1-0")), walkovers=("b",)),
        RoundIn(games=(Game("a", "c", "1-0"), Game("b", "e", "+-"))),  # d does not play
    ),
)


def test_five_player_crosstable_on_the_one_half_zero_scale():
    table = group_table(FIVE)
    assert [(r.place, r.player) for r in table.rows] == [
        (1, "a"),
        (2, "b"),
        (3, "d"),
        (4, "c"),
        (5, "e"),
    ]
    rows = {r.player: r for r in table.rows}
    assert {p: r.points for p, r in rows.items()} == {
        "a": F(7, 2),
        "b": 3,
        "c": F(3, 2),
        "d": 2,
        "e": 1,
    }
    # Fewer than 7 rounds: (sum minus the lowest, sum); a round without a real game is a 0.
    assert rows["a"].monrad == (F(13, 2), F(15, 2))  # b 3, e 1, d 2, c 1.5
    assert rows["b"].monrad == (5, 5)  # a 3.5, c 1.5, WO 0, forfeit 0
    assert rows["c"].monrad == (F(17, 2), F(19, 2))  # d 2, b 3, e 1, a 3.5
    assert rows["d"].monrad == (5, 5)  # c 1.5, WO 0, a 3.5, not played 0
    assert rows["e"].monrad == (5, 5)  # WO 0, a 3.5, c 1.5, forfeit 0
    assert {p: r.berger for p, r in rows.items()} == {
        "a": F(13, 2),  # b 3 + e 1 + d 2/2 + c 1.5
        "b": F(3, 2),  # c; the forfeit win is no real game
        "c": 2,  # d 2/2 + e 1
        "d": F(5, 2),  # c 1.5/2 + a 3.5/2
        "e": 0,
    }
    assert {p: r.cells for p, r in rows.items()} == {
        "a": ("+H2", "+S5", "=H3", "+H4"),
        "b": ("-S1", "+H4", "WO", "WO"),
        "c": ("=H3", "-S2", "+H5", "-S1"),
        "d": ("=S4", "WO", "=S1", ""),
        "e": ("WO", "-H1", "-S4", "-WO"),
    }


def test_the_same_group_on_the_three_two_one_scale_orders_differently():
    rows = rows_of(GroupIn(players=FIVE.players, rounds=FIVE.rounds, scale=THREE_TWO_ONE))
    assert {p: r.points for p, r in rows.items()} == {"a": 11, "b": 10, "c": 7, "d": 7, "e": 5}
    assert rows["a"].monrad == (24, 29)  # b 10, e 5, d 7, c 7
    assert rows["c"].monrad == (28, 33)  # d 7, b 10, e 5, a 11
    assert rows["d"].monrad == (18, 18)  # c 7, WO 0, a 11, not played 0
    assert rows["a"].berger == F(51, 2)  # 10 + 5 + 7/2 + 7
    assert rows["d"].berger == 9  # 7/2 + 11/2
    # c and d have 7 points each: Monrad decides, c before d.
    assert [(r.player, r.place) for r in rows.values()] == [
        ("a", 1),
        ("b", 2),
        ("c", 3),
        ("d", 4),
        ("e", 5),
    ]
    assert rows["a"].cells == ("+H2", "+S5", "=H4", "+H3")


def test_monrad_terms_name_each_opponent_and_the_cut_one():
    a = rows_of(FIVE)["a"]
    assert [(t.round, t.opponent, t.value, t.cut) for t in a.terms] == [
        (1, "b", 3, 0),
        (2, "e", 1, 1),
        (3, "d", 2, 0),
        (4, "c", F(3, 2), 0),
    ]
    b = rows_of(FIVE)["b"]
    # Two zeros: the earlier is named as the cut one (the sums are the same either way).
    assert [(t.opponent, t.value, t.cut) for t in b.terms] == [
        ("a", F(7, 2), 0),
        ("c", F(3, 2), 0),
        (None, 0, 1),
        (None, 0, 0),
    ]


# --- a 7-round group of four (a double round robin and one more), both scales -------------------

SEVEN = (
    RoundIn(games=(Game("p", "q", "1-0"), Game("r", "s", "1-0"))),
    RoundIn(games=(Game("p", "r", "1/2-1/2"), Game("q", "s", "1-0"))),
    RoundIn(games=(Game("p", "s", "1-0"), Game("q", "r", "0-1"))),
    RoundIn(games=(Game("p", "q", "1/2-1/2"), Game("r", "s", "1/2-1/2"))),
    RoundIn(games=(Game("p", "r", "0-1"), Game("q", "s", "1/2-1/2"))),
    RoundIn(games=(Game("p", "s", "1-0"), Game("q", "r", "1-0"))),
    RoundIn(games=(Game("p", "q", "0-1"), Game("r", "s", "1-0"))),
)


def test_seven_rounds_cut_the_two_lowest_on_the_one_half_zero_scale():
    table = group_table(GroupIn(players=("p", "q", "r", "s"), rounds=SEVEN))
    rows = {r.player: r for r in table.rows}
    assert {p: r.points for p, r in rows.items()} == {"p": 4, "q": 4, "r": 5, "s": 1}
    # p met q 4, r 5, s 1, q 4, r 5, s 1, q 4: the two 1s are cut, then one of them.
    assert rows["p"].monrad == (22, 23, 24)
    assert rows["q"].monrad == (22, 23, 24)
    assert rows["r"].monrad == (17, 18, 19)
    assert rows["s"].monrad == (23, 27, 31)  # 5 4 4 5 4 4 5: two 4s cut
    assert rows["p"].berger == F(21, 2)  # q 4 + r 5/2 + s 1 + q 4/2 + s 1
    assert rows["q"].berger == F(25, 2)  # s 1 + p 4/2 + s 1/2 + r 5 + p 4
    assert [(r.place, r.player) for r in table.rows] == [
        (1, "r"),
        (2, "q"),
        (3, "p"),
        (4, "s"),
    ]
    assert [t.cut for t in rows["p"].terms] == [0, 0, 2, 0, 0, 1, 0]
    assert rows["p"].cells == ("+H2", "=H1", "+H4", "=H2", "-H1", "+H4", "-H2")


def test_seven_rounds_on_the_three_two_one_scale():
    rows = rows_of(GroupIn(players=("p", "q", "r", "s"), rounds=SEVEN, scale=THREE_TWO_ONE))
    assert {p: r.points for p, r in rows.items()} == {"p": 15, "q": 15, "r": 17, "s": 9}
    assert rows["p"].monrad == (79, 88, 97)
    assert rows["r"].monrad == (69, 78, 87)
    assert rows["s"].monrad == (81, 96, 111)  # 17 15 15 17 15 15 17: two 15s cut
    assert rows["p"].berger == 49  # 15 + 17/2 + 9 + 15/2 + 9
    assert rows["q"].berger == 53  # 9 + 15/2 + 9/2 + 17 + 15
    assert [(r.player, r.place) for r in rows.values()] == [
        ("r", 1),
        ("q", 2),
        ("p", 3),
        ("s", 4),
    ]


def test_players_equal_on_everything_share_the_place_and_the_cells_say_so():
    rows = rows_of(GroupIn(players=("a", "b"), rounds=(RoundIn(games=(Game("a", "b", DRAW),)),)))
    assert (rows["a"].place, rows["b"].place) == (1, 1)
    assert rows["a"].monrad == (0, F(1, 2)) and rows["a"].berger == F(1, 4)
    assert (rows["a"].cells, rows["b"].cells) == (("=H1",), ("=S1",))


def test_a_game_without_its_result_scores_nothing_yet_and_shows_colour_and_opponent():
    rows = rows_of(GroupIn(players=("a", "b"), rounds=(RoundIn(games=(Game("a", "b", ""),)),)))
    assert rows["a"].points == 0 and rows["a"].cells == ("H1",)
    assert rows["b"].cells == ("S1",)


def test_a_group_without_rounds_lists_everyone_on_the_first_place():
    table = group_table(GroupIn(players=("a", "b", "c")))
    assert [(r.place, r.monrad, r.cells) for r in table.rows] == [(1, (0, 0), ())] * 3


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="twice"):
        group_table(
            GroupIn(players=("a", "b"), rounds=(RoundIn((Game("a", "b", "1-0"),), ("a",)),))
        )
    with pytest.raises(ValueError, match="not a player"):
        group_table(GroupIn(players=("a",), rounds=(RoundIn(walkovers=("z",)),)))
    with pytest.raises(ValueError, match="unknown result"):
        group_table(GroupIn(players=("a", "b"), rounds=(RoundIn((Game("a", "b", "2-0"),)),)))


# --- BGP points -----------------------------------------------------------------------------


def test_bgp_short_and_long_scales_and_every_further_place_gets_five():
    s = Settings()
    assert [bgp_points(p, 50, False, s) for p in range(1, 13)] == [
        20, 17, 15, 13, 11, 10, 9, 8, 7, 6, 5, 5,
    ]  # fmt: skip
    # "over 50": exactly 50 participants is the short scale, 51 the long one.
    assert [bgp_points(p, 51, False, s) for p in range(1, 18)] == [
        *range(20, 5, -1), 5, 5,
    ]  # fmt: skip


def test_county_championship_gives_twenty_to_each_class_winner_and_ten_to_the_others():
    s = Settings()
    assert [bgp_points(p, 80, True, s) for p in (1, 2, 3, 17)] == [20, 10, 10, 10]


def test_class_places_within_a_group_share_points_and_a_split_class_ranks_per_group():
    group_a = group_table(
        GroupIn(
            players=("a1", "a2", "a3", "a4"),
            rounds=(RoundIn(games=(Game("a1", "a2", "1/2-1/2"), Game("a3", "a4", "1-0"))),),
        )
    )
    group_b = group_table(
        GroupIn(players=("b1", "b2"), rounds=(RoundIn(games=(Game("b1", "b2", "0-1"),)),))
    )
    # Group A: a3 1st; a1, a2 share 2nd; a4 4th. Kadett: a1, a2, a4; Junior: a3.
    classes_a = {"a1": "Kadett", "a2": "Kadett", "a3": "Junior", "a4": "Kadett"}
    classes_b = {"b1": "Kadett", "b2": "Kadett"}
    rows = tournament_bgp(
        [(group_a, classes_a), (group_b, classes_b)], participants=6, county=False
    )
    # Classes in order of first appearance (a3 leads group A), then group, then place.
    assert [(r.player, r.player_class, r.group, r.place, r.points) for r in rows] == [
        ("a3", "Junior", 0, 1, 20),
        ("a1", "Kadett", 0, 1, 20),
        ("a2", "Kadett", 0, 1, 20),
        ("a4", "Kadett", 0, 3, 15),
        ("b2", "Kadett", 1, 1, 20),
        ("b1", "Kadett", 1, 2, 17),
    ]
    county = tournament_bgp([(group_a, classes_a)], participants=4, county=True)
    assert {r.player: r.points for r in county} == {"a1": 20, "a2": 20, "a3": 20, "a4": 10}


def test_players_without_a_class_get_no_bgp_points():
    table = group_table(GroupIn(players=("a", "b")))
    rows = tournament_bgp([(table, {"a": "Kadett", "b": ""})], participants=2, county=False)
    assert [r.player for r in rows] == ["a"]


def test_season_standings_sum_per_class_and_share_ranks():
    standings = season_bgp(
        [
            ("t1", [BgpRow("p1", "Kadett", 0, 1, 20), BgpRow("p2", "Kadett", 0, 2, 17)]),
            ("t2", [BgpRow("p2", "Kadett", 0, 2, 17), BgpRow("p3", "Kadett", 0, 1, 20)]),
            ("t3", [BgpRow("p1", "Junior", 0, 1, 14), BgpRow("p3", "Kadett", 0, 1, 14)]),
        ]
    )
    assert [(r.player, r.rank, r.points, r.counted) for r in standings["Kadett"]] == [
        ("p2", 1, 34, (("t1", 17), ("t2", 17))),
        ("p3", 1, 34, (("t2", 20), ("t3", 14))),
        ("p1", 3, 20, (("t1", 20),)),
    ]
    assert [(r.player, r.rank, r.points) for r in standings["Junior"]] == [("p1", 1, 14)]


# --- properties -------------------------------------------------------------------------------


@st.composite
def groups(draw):
    n = draw(st.integers(min_value=1, max_value=9))
    players = tuple(f"p{i}" for i in range(n))
    rounds = []
    for _ in range(draw(st.integers(min_value=0, max_value=9))):
        order = draw(st.permutations(players))
        playing = draw(st.integers(min_value=0, max_value=n))
        games = tuple(
            Game(order[i], order[i + 1], draw(st.sampled_from(RESULTS)))
            for i in range(0, playing - 1, 2)
        )
        rest = order[2 * len(games) :]
        walkovers = tuple(rest[:1]) if rest and draw(st.booleans()) else ()
        rounds.append(RoundIn(games=games, walkovers=walkovers))
    scale = draw(st.sampled_from([ONE_HALF_ZERO, THREE_TWO_ONE]))
    return GroupIn(players=players, scale=scale, rounds=tuple(rounds))


AWARDED = {
    ONE_HALF_ZERO: {"1-0": 1, "0-1": 1, DRAW: 1, "+-": 1, "-+": 1, WALKOVER: 1},
    THREE_TWO_ONE: {"1-0": 4, "0-1": 4, DRAW: 4, "+-": 3, "-+": 3, WALKOVER: 3},
}


@given(groups())
@settings(max_examples=300, deadline=None)
def test_a_groups_points_sum_to_the_points_awarded_in_its_games(group):
    awarded = AWARDED[group.scale]
    expected = sum(
        sum(awarded[g.result] for g in r.games) + awarded[WALKOVER] * len(r.walkovers)
        for r in group.rounds
    )
    assert sum(r.points for r in group_table(group).rows) == expected


@given(groups())
@settings(max_examples=300, deadline=None)
def test_places_agree_with_the_order(group):
    rows = group_table(group).rows
    keys = [(r.points, *r.monrad, r.berger) for r in rows]
    assert keys == sorted(keys, reverse=True)
    for i, row in enumerate(rows):
        assert row.place == 1 + sum(1 for k in keys if k > keys[i])
        assert len(row.cells) == len(group.rounds) and len(row.terms) == len(group.rounds)
        # Every term is an opponent's final points, or 0 without a real game.
        assert row.monrad[-1] == sum(t.value for t in row.terms)


@given(groups())
@settings(max_examples=300, deadline=None)
def test_monrad_columns_and_berger_follow_from_their_terms(group):
    """rules.md §3, from the terms each row shows: column c sums the terms not cut and those cut
    at level c or below; the terms cut are the lowest (two from the long tournaments on, one
    before; level 2 the lowest of them); Berger sums the beaten opponents' points and half the
    drawn ones'."""
    long = len(group.rounds) >= Settings().monrad_long_from
    for row in group_table(group).rows:
        assert len(row.monrad) == (3 if long else 2)
        for column, value in enumerate(row.monrad):
            assert value == sum(t.value for t in row.terms if t.cut <= column)
        cut = sorted((t for t in row.terms if t.cut), key=lambda t: -t.cut)
        assert len(cut) == min(2 if long else 1, len(group.rounds))
        kept = [t.value for t in row.terms if not t.cut]
        assert all(t.value <= v for t in cut for v in kept)
        assert [t.value for t in cut] == sorted(t.value for t in cut)  # level 2 the lowest
        wins = sum(t.opponent_points for t in row.berger_terms if t.kind == "win")
        draws = sum(t.opponent_points for t in row.berger_terms if t.kind == "draw")
        assert row.berger == wins + draws / 2 == sum(t.value for t in row.berger_terms)


@given(groups())
@settings(max_examples=200, deadline=None)
def test_cells_name_the_opponents_place_and_agree_from_both_sides(group):
    rows = {r.player: r for r in group_table(group).rows}
    outcomes = round_outcomes(group)
    for number, r in enumerate(group.rounds):
        for g in r.games:
            white, black = rows[g.white].cells[number], rows[g.black].cells[number]
            if g.result in ("+-", "-+"):
                assert {white, black} == {"WO", "-WO"}
            else:
                assert white.endswith(f"H{rows[g.black].place}")
                assert black.endswith(f"S{rows[g.white].place}")
        assert all(outcomes[number][p].kind == WALKOVER for p in r.walkovers)
