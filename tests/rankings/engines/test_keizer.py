"""The Keizer scoring engine (rules.md §4.1–4.2): golden examples checked by hand, and properties
(every breakdown sums to its score; the lists do not depend on the order things were entered)."""

import random
from dataclasses import replace
from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from rankings.engines import keizer as k
from rankings.engines.keizer import GameIn, RoundIn, SeasonIn


def rows(listed: k.ListOut) -> list[tuple]:
    return [(r.player, r.score, r.key, r.value) for r in listed.rows]


# --- §4.1 values and start points ---------------------------------------------------------------


def test_top_value_is_three_halves_of_the_players_minus_one_rounded_half_up():
    assert k.top_value(30, k.Settings()) == 44  # 43.5 rounds up
    assert k.top_value(31, k.Settings()) == 45
    assert k.top_value(4, k.Settings()) == 5  # 4.5 rounds up
    assert k.top_value(2, k.Settings()) == 2
    assert k.top_value(1, k.Settings()) == 0


def test_values_fall_by_the_step_and_the_top_is_about_three_times_the_bottom():
    values = k.values(30, k.Settings())
    assert values[0] == 44 and values[-1] == 15 and values[1] - values[0] == -1
    assert k.values(4, k.Settings(step=2)) == [9, 7, 5, 3]  # 3 · 2 · 3 / 2 = 9
    assert k.values(3, k.Settings(top_value=50, step=10)) == [50, 40, 30]


def test_start_points_fade_over_ten_rounds_and_are_then_gone():
    assert [k.start_weight(r, 10) for r in (0, 1, 5, 9, 10, 11, 35)] == [
        1,
        F(9, 10),
        F(1, 2),
        F(1, 10),
        0,
        0,
        0,
    ]
    assert k.start_weight(2, 3) == F(1, 3)


def test_default_start_points_are_the_value_of_the_place_a_late_entrant_has_his_own():
    season = SeasonIn(players=("a", "b", "c", "late"), start_points={"late": F(7, 2)}, rounds=())
    assert k.default_start_points(season) == {"a": 5, "b": 4, "c": 3, "late": F(7, 2)}
    initial = k.compute_season(season).lists[0]
    # At round 0 the key is the start points: the late entrant's 3.5 puts him above c.
    assert [r.player for r in initial.rows] == ["a", "b", "late", "c"]


# --- §4.2 a small season, checked by hand -------------------------------------------------------

SMALL = SeasonIn(
    players=("a", "b", "c", "d"),  # n = 4: top value round_half_up(4.5) = 5; values 5, 4, 3, 2
    start_points={},
    rounds=(
        RoundIn(1, games=(GameIn("a", "b", "1-0"),), absent=("c",), external=("d",)),
        RoundIn(2, games=(GameIn("c", "d", "0-1"),), byes=("b",), unexcused=("a",)),
        RoundIn(3, games=(GameIn("a", "d", "+-"), GameIn("b", "c", "1/2-1/2"))),
    ),
)


def test_the_initial_list_is_ordered_by_start_points():
    out = k.compute_season(SMALL)
    assert rows(out.lists[0]) == [("a", 0, 5, 5), ("b", 0, 4, 4), ("c", 0, 3, 3), ("d", 0, 2, 2)]


def test_round_one_win_loss_absent_and_external_with_the_initial_values():
    first = k.compute_season(SMALL).lists[1]
    # a beat b (value 4): 4; b lost to a (5): 5/6; c absent with notice: 3/2 of own 3;
    # d external: 2/3 of own 2. Keys add 9/10 of the start points.
    assert first.weight == F(9, 10)
    assert rows(first) == [
        ("a", 4, 4 + F(9, 2), 5),
        ("b", F(5, 6), F(5, 6) + F(18, 5), 4),
        ("c", F(3, 2), F(3, 2) + F(27, 10), 3),
        ("d", F(4, 3), F(4, 3) + F(9, 5), 2),
    ]


def test_round_two_bye_and_absent_without_notice_every_round_revalued():
    second = k.compute_season(SMALL).lists[2]
    # List 1 values: a 5, b 4, c 3, d 2.  a: 4 + 0 (no notice); b: 5/6 + bye 2/3 · 4;
    # c: 3/2 + loss 1/6 · 2; d: 4/3 + win against c, 3.
    assert rows(second) == [
        ("a", 4, 8, 5),
        ("b", F(7, 2), F(7, 2) + F(16, 5), 4),
        ("d", F(13, 3), F(13, 3) + F(8, 5), 3),
        ("c", F(11, 6), F(11, 6) + F(12, 5), 2),
    ]


def test_round_three_forfeits_and_a_full_recomputation_with_the_newest_values():
    third = k.compute_season(SMALL).lists[3]
    # List 2 values: a 5, b 4, d 3, c 2; every round is valued with them.
    # a: win vs b 4 + 0 + forfeit win vs d 3 = 7.  b: loss vs a 5/6 + bye 8/3 + draw vs c 1.
    # c: absent 1/2 · 2 + loss vs d 1/6 · 3 + draw vs b 2.  d: external 2/3 · 3 + win vs c 2
    # + forfeit loss 0.
    assert third.weight == F(7, 10)
    assert rows(third) == [
        ("a", 7, 7 + F(7, 2), 5),
        ("b", F(9, 2), F(9, 2) + F(14, 5), 4),
        ("c", F(7, 2), F(7, 2) + F(21, 10), 3),
        ("d", 4, 4 + F(7, 5), 2),
    ]


def test_a_closed_seasons_final_list_has_no_start_points():
    final = k.compute_season(replace(SMALL, closed=True)).lists[-1]
    assert final.weight == 0
    assert [(r.player, r.key) for r in final.rows] == [
        ("a", 7),
        ("b", F(9, 2)),
        ("d", 4),
        ("c", F(7, 2)),
    ]
    # The earlier lists, which the rounds were paired from, keep their start points.
    assert (
        k.compute_season(replace(SMALL, closed=True)).lists[2] == k.compute_season(SMALL).lists[2]
    )


def test_games_played_do_not_count_forfeits():
    third = {r.player: r.games for r in k.compute_season(SMALL).lists[3].rows}
    assert third == {"a": 1, "b": 2, "c": 2, "d": 1}


def test_equal_keys_keep_the_order_of_the_initial_list():
    season = SeasonIn(
        players=("a", "b", "c"),
        start_points={"a": F(2), "b": F(2), "c": F(2)},
        rounds=(RoundIn(1, absent=("a", "b", "c")),),
    )
    for listed in k.compute_season(season).lists:
        assert [r.player for r in listed.rows] == ["a", "b", "c"]
        assert [r.rank for r in listed.rows] == [1, 2, 3]


def test_a_player_without_an_entry_scores_nothing_in_that_round():
    season = SeasonIn(
        players=("a", "b", "late"),
        start_points={"late": F(0)},
        rounds=(RoundIn(1, games=(GameIn("a", "b", "1/2-1/2"),)),),
    )
    late = next(r for r in k.compute_season(season).lists[1].rows if r.player == "late")
    assert late.score == 0


def test_rounds_count_up_to_the_first_incomplete_one():
    waiting = RoundIn(4, present=("a", "b", "c", "d"))
    unplayed = RoundIn(4, games=(GameIn("a", "b", ""), GameIn("c", "d", "1-0")))
    nothing = RoundIn(4)
    for fourth in (waiting, unplayed, nothing):
        out = k.compute_season(replace(SMALL, rounds=(*SMALL.rounds, fourth)))
        assert len(out.lists) == 4  # lists after rounds 0..3
    later = RoundIn(5, absent=("a",))
    out = k.compute_season(replace(SMALL, rounds=(*SMALL.rounds, waiting, later)))
    assert len(out.lists) == 4


def test_result_shares_are_settings():
    shares = k.Factors(loss=F(0), external=F(1, 2))
    out = k.compute_season(replace(SMALL, settings=k.Settings(factors=shares)))
    first = {r.player: r.score for r in out.lists[1].rows}
    assert first["b"] == 0 and first["d"] == 1


def test_start_fade_rounds_is_a_setting():
    out = k.compute_season(replace(SMALL, settings=k.Settings(start_fade_rounds=2)))
    assert [listed.weight for listed in out.lists] == [1, F(1, 2), 0, 0]


# --- every number explains itself --------------------------------------------------------------


def test_the_breakdown_of_a_score_names_opponent_value_factor_and_points():
    out = k.compute_season(SMALL)
    values_before = out.lists[2].values()
    played = [(n, out.outcomes[n - 1]["c"]) for n in (1, 2, 3)]
    lines = k.score_breakdown("c", played, values_before, k.Factors())
    assert [
        (x.round, x.outcome.kind, x.outcome.opponent, x.value, x.factor, x.points) for x in lines
    ] == [
        (1, "absent", None, 2, F(1, 2), 1),
        (2, "loss", "d", 3, F(1, 6), F(1, 2)),
        (3, "draw", "b", 4, F(1, 2), 2),
    ]
    assert sum(x.points for x in lines) == next(
        r.score for r in out.lists[3].rows if r.player == "c"
    )


# --- properties -------------------------------------------------------------------------------


@st.composite
def seasons(draw, max_players: int = 9, max_rounds: int = 6):
    n = draw(st.integers(min_value=1, max_value=max_players))
    players = tuple(f"p{i}" for i in range(n))
    rounds = []
    for number in range(1, draw(st.integers(0, max_rounds)) + 1):
        order = list(draw(st.permutations(players)))
        kinds = draw(st.lists(st.sampled_from("gbaxun"), min_size=n, max_size=n))
        games, lists = [], {"b": [], "a": [], "x": [], "u": []}
        waiting = None
        for player, kind in zip(order, kinds, strict=True):
            if kind == "g":
                if waiting is None:
                    waiting = player
                else:
                    result = draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "+-", "-+"]))
                    games.append(GameIn(waiting, player, result))
                    waiting = None
            elif kind in lists:
                lists[kind].append(player)
        if waiting is not None:
            lists["b"].append(waiting)
        rounds.append(
            RoundIn(
                number,
                games=tuple(games),
                byes=tuple(lists["b"]),
                absent=tuple(lists["a"]),
                external=tuple(lists["x"]),
                unexcused=tuple(lists["u"]),
            )
        )
    start = draw(
        st.dictionaries(
            st.sampled_from(players), st.fractions(min_value=0, max_value=60, max_denominator=4)
        )
    )
    return SeasonIn(
        players=players, start_points=start, rounds=tuple(rounds), closed=draw(st.booleans())
    )


@given(seasons())
@settings(max_examples=150, deadline=None)
def test_every_score_is_the_sum_of_its_breakdown(season):
    out = k.compute_season(season)
    for after in range(1, len(out.lists)):
        values_before = out.lists[after - 1].values()
        for row in out.lists[after].rows:
            played = [
                (n, out.outcomes[n - 1].get(row.player, k.Outcome(k.NO_ENTRY)))
                for n in range(1, after + 1)
            ]
            lines = k.score_breakdown(row.player, played, values_before, season.settings.factors)
            assert sum(line.points for line in lines) == row.score
            assert row.key == row.score + out.lists[after].weight * out.start_points[row.player]


@given(seasons(), st.randoms(use_true_random=False))
@settings(max_examples=150, deadline=None)
def test_the_lists_do_not_depend_on_the_order_things_were_entered(season, rng):
    """Games, attendance lists and start points in any order give the same lists."""

    def shuffled(items):
        items = list(items)
        rng.shuffle(items)
        return tuple(items)

    scrambled = replace(
        season,
        start_points=dict(shuffled(season.start_points.items())),
        rounds=tuple(
            replace(
                r,
                games=shuffled(r.games),
                byes=shuffled(r.byes),
                absent=shuffled(r.absent),
                external=shuffled(r.external),
                unexcused=shuffled(r.unexcused),
            )
            for r in season.rounds
        ),
    )
    assert k.compute_season(scrambled).lists == k.compute_season(season).lists


@given(seasons())
@settings(max_examples=100, deadline=None)
def test_every_list_is_a_strict_order_with_the_values_of_its_places(season):
    out = k.compute_season(season)
    values = k.values(len(season.players), season.settings)
    for listed in out.lists:
        assert [r.rank for r in listed.rows] == list(range(1, len(season.players) + 1))
        assert [r.value for r in listed.rows] == values
        keys = [(-r.key, season.players.index(r.player)) for r in listed.rows]
        assert keys == sorted(keys)


def test_recomputing_gives_the_same_lists():
    rng = random.Random(3)
    players = tuple(f"p{i}" for i in range(12))
    rounds = []
    for number in range(1, 9):
        order = list(players)
        rng.shuffle(order)
        games = tuple(
            GameIn(order[i], order[i + 1], rng.choice(["1-0", "0-1", "1/2-1/2"]))
            for i in range(0, 10, 2)
        )
        rounds.append(RoundIn(number, games=games, absent=(order[10],), external=(order[11],)))
    season = SeasonIn(players=players, start_points={}, rounds=tuple(rounds))
    assert k.compute_season(season) == k.compute_season(season)
