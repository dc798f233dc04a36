"""The bridge ladder engine (rules.md §5): golden examples of the club and hypothesis properties."""

from decimal import Decimal, localcontext

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.systems.bridge import engine as e

D = Decimal
CLUB_POOL = ("djchili74", "Tolie", "HanLaporte", "Rudolf101", "Coolerb")


def ratings(**values: int) -> dict[str, Decimal]:
    return {key: D(value) for key, value in values.items()}


def one_round(pools, *challenges, start_elo=None, settings_=None) -> e.LadderOut:
    return e.run_ladder(
        e.LadderIn(
            rounds=(e.RoundIn(1, tuple(tuple(p) for p in pools), tuple(challenges)),),
            start_elo=start_elo or {},
            settings=settings_ or e.Settings(),
        )
    )


def changes(out: e.LadderOut, round_: int, pool: int, challenge: int) -> dict[str, Decimal]:
    lines = out.rounds[round_ - 1].pools[pool - 1].challenges[challenge - 1]
    return {line.player: line.change for line in lines}


# --- the club's worked example ------------------------------------------------------------------


def test_club_example_everyone_at_1250_challenge_order_gives_50_25_0_minus_25_minus_50():
    first = {p: D(10 - 3 * i) for i, p in enumerate(CLUB_POOL)}
    out = one_round([CLUB_POOL], first)
    assert changes(out, 1, 1, 1) == {
        "djchili74": 50,
        "Tolie": 25,
        "HanLaporte": 0,
        "Rudolf101": -25,
        "Coolerb": -50,
    }
    after = out.rounds[0].elo_after[0]
    assert after == ratings(
        djchili74=1300, Tolie=1275, HanLaporte=1250, Rudolf101=1225, Coolerb=1200
    )


def test_club_example_hanlaporte_expects_exactly_2_wins_all_four_duels_and_reaches_1300():
    first = {p: D(10 - 3 * i) for i, p in enumerate(CLUB_POOL)}
    second = {"HanLaporte": D("12.4"), "djchili74": D(2), "Tolie": D("-1.5"), "Rudolf101": D(-4),
              "Coolerb": D(-8)}  # fmt: skip
    out = one_round([CLUB_POOL], first, second)
    line = next(
        line for line in out.rounds[0].pools[0].challenges[1] if line.player == "HanLaporte"
    )
    assert line.elo_before == 1250
    assert sorted(d.opponent_elo for d in line.duels) == [1200, 1225, 1275, 1300]
    assert line.expected == 2  # exactly: 1275 and 1225, 1200 and 1300 balance out
    assert line.score == 4
    assert line.change == 50
    assert line.elo_after == 1300
    assert out.rounds[0].elo_after[1]["HanLaporte"] == 1300
    assert e.shown(line.elo_after) == 1300


# --- duels and Elo ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "own,other,score",
    [
        (D(5), D(3), 1),
        (D(-3), D("-2.5"), 0),
        (D("1.5"), D("1.50"), D("0.5")),  # equal scores draw (a Decision)
        (D(-40), None, 1),  # whoever played ranks above who did not
        (None, D(-40), 0),
        (None, None, D("0.5")),  # two who did not play draw
    ],
)
def test_duel_scores(own, other, score):
    assert e.duel_score(own, other) == score


def test_expected_score_is_the_elo_formula_and_the_two_sides_sum_to_exactly_one():
    assert e.expected_score(D(1250), D(1250)) == D("0.5")
    below = e.expected_score(D(1250), D(1650))
    assert float(below) == pytest.approx(1 / (1 + 10 ** (400 / 400)), abs=1e-15)
    assert e.expected_score(D(1650), D(1250)) + below == 1
    odd = (D("1234.567890123"), D("1301.5"))
    assert e.expected_score(*odd) + e.expected_score(*reversed(odd)) == 1


def test_a_player_who_did_not_play_loses_to_everyone_who_did_and_draws_the_others():
    out = one_round([("a", "b", "c", "d")], {"a": D(1), "b": D(-5)})
    lines = {line.player: line for line in out.rounds[0].pools[0].challenges[0]}
    assert [d.score for d in lines["c"].duels] == [0, 0, D("0.5")]
    assert lines["c"].change == lines["d"].change == 25 * (D("0.5") - D("1.5"))
    assert lines["a"].change == 25 * (3 - D("1.5"))


def test_a_challenge_nobody_of_the_pool_played_changes_nothing():
    out = one_round(
        [("a", "b"), ("c", "d")],
        {"a": D(3), "b": D(1)},  # only pool 1 played
        start_elo={"c": D(1400)},
    )
    pool_two = out.rounds[0].pools[1].challenges[0]
    assert all(line.duels == () and line.change == 0 for line in pool_two)
    assert out.rounds[0].elo_after[0]["c"] == 1400


def test_a_pool_of_one_has_no_duels_and_no_change():
    out = one_round([("a", "b"), ("c",)], {"a": D(1), "c": D(5)})
    (line,) = out.rounds[0].pools[1].challenges[0]
    assert line.duels == () and line.change == 0 and isinstance(line.change, Decimal)
    assert e.shown(line.change) == 0


def test_start_elo_of_the_player_or_of_the_setting():
    out = one_round(
        [("a", "b")], start_elo={"a": D("1310.5")}, settings_=e.Settings(start_elo=D(1000))
    )
    assert {row.player: row.elo for row in out.elo} == {"a": D("1310.5"), "b": 1000}


def test_dynamic_k_by_rating_band_uses_the_own_rating_before_the_challenge():
    bands = e.Settings(dynamic_k=True)
    assert [e.k_factor(D(r), bands) for r in (1199, 1200, 1400, D("1400.01"))] == [40, 25, 25, 15]
    assert e.k_factor(D(1100), e.Settings()) == 25  # off by default
    out = one_round(
        [("low", "high")],
        {"low": D(1), "high": D(0)},
        start_elo={"low": D(1100), "high": D(1500)},
        settings_=bands,
    )
    lines = {line.player: line for line in out.rounds[0].pools[0].challenges[0]}
    assert (lines["low"].k, lines["high"].k) == (40, 15)
    e_low = e.expected_score(D(1100), D(1500))
    with localcontext(e.CONTEXT):  # exact, as the engine computes
        assert lines["low"].change == 40 * (1 - e_low)
        assert lines["high"].change == 15 * (0 - (1 - e_low))


def test_whole_numbers_are_rounded_half_up_from_the_exact_value():
    assert [e.shown(D(v)) for v in ("1300.5", "1300.4999999999", "12.5", "-12.5", "-0.4")] == [
        1301,
        1300,
        13,
        -13,
        0,
    ]


# --- pool standings and moves -------------------------------------------------------------------


def test_pool_standings_total_imps_a_missed_challenge_counts_zero_ties_by_elo_after():
    elo = ratings(a=1250, b=1260, c=1240, d=1200)
    challenges = [{"a": D(5), "b": D(2), "c": D(7)}, {"a": D(-1), "b": D(2), "d": D(4)}]
    ranked = e.pool_standings(["a", "b", "c", "d"], challenges, elo)
    # totals: a 4, b 4, c 7, d 4; a and b and d tie on IMPs: Elo after decides
    assert ranked == [(1, "c", 7), (2, "b", 4), (3, "a", 4), (4, "d", 4)]


def test_players_equal_on_imps_and_elo_share_the_rank_and_keep_their_listing_order():
    elo = ratings(a=1250, b=1250, c=1250)
    ranked = e.pool_standings(["b", "a", "c"], [{"c": D(1)}], elo)
    assert ranked == [(1, "c", 1), (2, "b", 0), (2, "a", 0)]


def test_top_two_up_bottom_two_down_walls_at_the_top_and_bottom_pool():
    marks = e.pool_moves([5, 5, 5], 2)
    assert marks[0] == ["stay", "stay", "stay", "down", "down"]
    assert marks[1] == ["up", "up", "stay", "down", "down"]
    assert marks[2] == ["up", "up", "stay", "stay", "stay"]
    assert e.pool_moves([5], 2) == [["stay"] * 5]


def test_small_pools_exchange_at_most_what_they_can_send():
    assert e.exchange_counts([5, 5, 3], 2) == [2, 2]
    assert e.exchange_counts([5, 5, 1], 2) == [2, 1]
    assert e.exchange_counts([3, 3, 3], 2) == [1, 1]  # a middle pool of 3 sends 1 each way
    assert e.exchange_counts([2, 5], 2) == [2]


def test_next_pools_in_ladder_order_down_from_above_stayers_up_from_below():
    ranked = [list("ABCDE"), list("FGHIJ"), list("KLM")]
    assert e.next_pools(ranked, 2) == (
        ("A", "B", "C", "F", "G"),
        ("D", "E", "H", "K", "L"),
        ("I", "J", "M"),
    )


def test_leavers_places_are_filled_from_the_pool_below_and_joiners_start_at_the_bottom():
    pools = [list("ABCDE"), list("FGHIJ"), list("KLM")]
    assert e.reshape_pools(pools, leaving={"B"}, joining=["N", "O", "P"], pool_size=5) == (
        ("A", "C", "D", "E", "F"),
        ("G", "H", "I", "J", "K"),
        ("L", "M", "N", "O", "P"),
    )
    assert e.reshape_pools(pools, leaving={"K", "L", "M"}, pool_size=5) == (
        tuple("ABCDE"),
        tuple("FGHIJ"),
    )
    assert e.reshape_pools(pools, joining=list("NOPQ"), pool_size=5) == (
        tuple("ABCDE"),
        tuple("FGHIJ"),
        tuple("KLMNO"),
        tuple("PQ"),
    )


def test_rounds_follow_the_moves_unless_a_round_gives_its_pools():
    pools = (tuple("ABCDE"), tuple("FGHIJ"))
    imps = {p: D(10 - i) for i, p in enumerate("ABCDEFGHIJ")}
    given = (tuple("ABCDF"), tuple("EGHIJ"))
    out = e.run_ladder(
        e.LadderIn(
            rounds=(
                e.RoundIn(1, pools, (imps,)),
                e.RoundIn(2, None, (imps,)),
                e.RoundIn(3, given, ()),
            )
        )
    )
    assert out.rounds[1].pool_lists == (tuple("ABCFG"), tuple("DEHIJ"))
    assert out.rounds[1].follows == out.rounds[1].pool_lists
    assert out.rounds[2].pool_lists == given
    assert out.rounds[2].follows != given
    # Round 3 has no results yet: its standings are by Elo, and so are the moves.
    ranked = [[row.player for row in pool.rows] for pool in out.rounds[2].pools]
    assert ranked == [sorted(p, key=lambda k: -out.rounds[1].elo_after[0][k]) for p in given]
    assert out.next_pools == e.next_pools(ranked, 2)


# --- properties ---------------------------------------------------------------------------------

KEYS = [f"p{i}" for i in range(60)]
imps_values = st.one_of(
    st.none(),
    st.integers(-9000, 9000).map(lambda n: D(n) / 100),
    st.sampled_from([D(0), D(1), D(-1)]),  # ties
)


@st.composite
def ladders(draw, rounds: int = 3):
    n = draw(st.integers(1, 26))
    size = draw(st.integers(2, 6))
    moves = draw(st.integers(1, size // 2))
    players = KEYS[:n]
    pools = tuple(tuple(players[i : i + size]) for i in range(0, n, size))
    start = {p: D(draw(st.integers(900, 1700))) for p in players if draw(st.booleans())}
    round_list = []
    for number in range(1, rounds + 1):
        challenges = tuple(
            {p: v for p in players if (v := draw(imps_values)) is not None}
            for _ in range(draw(st.integers(0, 3)))
        )
        round_list.append(e.RoundIn(number, pools if number == 1 else None, challenges))
    return e.LadderIn(
        rounds=tuple(round_list),
        start_elo=start,
        settings=e.Settings(pool_size=size, moves=moves),
    )


@settings(max_examples=60, deadline=None)
@given(ladder=ladders())
def test_with_one_k_the_elo_changes_of_a_pool_sum_to_exactly_zero(ladder):
    out = e.run_ladder(ladder)
    for r in out.rounds:
        for pool in r.pools:
            for challenge in pool.challenges:
                assert e.exact_sum(line.change for line in challenge) == 0


@settings(max_examples=60, deadline=None)
@given(ladder=ladders())
def test_a_pools_order_is_a_permutation_of_its_players_with_competition_ranks(ladder):
    out = e.run_ladder(ladder)
    for r in out.rounds:
        for pool in r.pools:
            assert sorted(row.player for row in pool.rows) == sorted(pool.members)
            ranks = [row.rank for row in pool.rows]
            assert ranks[0] == 1
            assert all(rk == i + 1 or rk == ranks[i - 1] for i, rk in enumerate(ranks) if i)
            keys = [(row.imps, row.elo) for row in pool.rows]
            assert keys == sorted(keys, reverse=True)


@settings(max_examples=60, deadline=None)
@given(ladder=ladders())
def test_after_the_moves_every_player_is_in_exactly_one_pool_and_pool_sizes_are_kept(ladder):
    out = e.run_ladder(ladder)
    for r, nxt in zip(out.rounds, [*out.rounds[1:], None], strict=True):
        moved = nxt.pool_lists if nxt is not None else out.next_pools
        assert [len(p) for p in moved] == [len(p) for p in r.pool_lists]
        flat = [key for pool in moved for key in pool]
        assert sorted(flat) == sorted(key for pool in r.pool_lists for key in pool)
        for k, pool in enumerate(r.pools):
            for row in pool.rows:
                target = next(i for i, p in enumerate(moved) if row.player in p)
                assert target - k == {"up": -1, "stay": 0, "down": 1}[row.move]


@settings(max_examples=60, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 6), min_size=1, max_size=6),
    leaving=st.sets(st.integers(0, 40)),
    joining=st.integers(0, 12),
)
def test_leavers_and_joiners_keep_everyone_else_once_and_pools_full_but_the_last(
    sizes, leaving, joining
):
    players = [f"p{i}" for i in range(sum(sizes))]
    pools, start = [], 0
    for size in sizes:
        pools.append(players[start : start + size])
        start += size
    gone = {players[i] for i in leaving if i < len(players)}
    new = [f"n{i}" for i in range(joining)]
    result = e.reshape_pools(pools, leaving=gone, joining=new, pool_size=6)
    flat = [key for pool in result for key in pool]
    assert flat == [p for p in players if p not in gone] + new  # ladder order kept
    assert all(result)
    for k, pool in enumerate(result[:-1]):
        assert len(pool) == (sizes[k] if k < len(sizes) - 1 else 6)


def test_recomputing_gives_the_same_result():
    first = {p: D(10 - 3 * i) for i, p in enumerate(CLUB_POOL)}
    ladder = e.LadderIn(rounds=(e.RoundIn(1, (CLUB_POOL,), (first, first)),))
    assert e.run_ladder(ladder) == e.run_ladder(ladder)


@given(
    st.one_of(
        st.integers(min_value=1, max_value=3000),
        st.decimals(min_value=Decimal("1e-30"), max_value=Decimal(5000), places=30),
        st.decimals(min_value=Decimal("1e-4"), max_value=Decimal(100_000), places=4),
    )
)
@settings(max_examples=300, deadline=None)
def test_the_fixed_point_expectation_is_the_decimal_reference_to_the_last_place(difference):
    """The fast integer computation gives the same 30-place number as the 50-digit decimal
    one (competitions/systems/bridge/engine.py, _weaker_units)."""
    difference = Decimal(difference)
    with localcontext(e.CONTEXT):
        assert e._weaker(difference) == e._weaker_decimal(difference)


# --- the integer core against the decimal computation -------------------------------------------

rating_values = st.one_of(
    st.integers(800, 1800).map(D),
    st.decimals(min_value=D(800), max_value=D(1800), places=30),
    st.decimals(min_value=D(800), max_value=D(1800), places=2),
)


def written(value: Decimal) -> tuple:
    """A decimal as written: sign, digits and exponent (1.0 and 1.00 differ)."""
    return value.as_tuple()


def line_parts(line: e.ChallengeLine) -> tuple:
    return (
        line.player,
        line.imps,
        written(line.elo_before),
        line.k,
        tuple((d.opponent, written(d.opponent_elo), written(d.score), written(d.expected))
              for d in line.duels),
        written(line.change),
        written(line.elo_after),
    )  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    pool=st.lists(rating_values, min_size=1, max_size=7),
    imps=st.lists(imps_values, min_size=7, max_size=7),
    equal=st.booleans(),
    dynamic=st.booleans(),
)
def test_the_integer_core_gives_the_decimal_computations_lines_written_alike(
    pool, imps, equal, dynamic
):
    """Every number of a challenge (ratings, duels, expectations, changes) is the same, written
    with the same digits and exponent, from integers as from decimals: ratings equal or not,
    whole or with 30 decimals, played or not, a pool of one."""
    members = KEYS[: len(pool)]
    ratings_ = {p: (pool[0] if equal else r) for p, r in zip(members, pool, strict=False)}
    played = {p: v for p, v in zip(members, imps, strict=False) if v is not None}
    settings_ = e.Settings(dynamic_k=dynamic)
    befores = [ratings_[p] for p in members]
    units = [e.units_of(r) for r in befores]
    assert None not in units
    fast = e._changes_units(members, befores, units, played, settings_)
    reference = e._changes_decimal(members, ratings_, played, settings_)
    assert [line_parts(line) for line in fast] == [line_parts(line) for line in reference]
    for line in fast:
        before, change, after = line.units
        assert e.units_of(line.elo_before) == before and e.units_of(line.change) == change
        assert e.units_of(line.elo_after) == after
        assert [(d.opponent, e.units_of(d.opponent_elo), d.score, e.units_of(d.expected))
                for d in line.duels] == line.duel_rows()  # fmt: skip
    assert fast == reference  # lines compare by their numbers


def test_a_rating_with_more_decimals_than_the_core_keeps_is_played_in_decimals():
    fine = D("1250." + "0" * 30 + "1")  # 31 decimals
    assert e.units_of(fine) is None and e.units_of(D("1250.5")) == 12505 * 10**29
    assert e.units_of(D("Infinity")) is None and e.units_of(D("NaN")) is None
    out = one_round([CLUB_POOL], {p: D(i) for i, p in enumerate(CLUB_POOL)},
                    start_elo={"Tolie": fine})  # fmt: skip
    lines = {line.player: line for line in out.rounds[0].pools[0].challenges[0]}
    assert all(line.units is None for line in lines.values())
    assert lines["Tolie"].elo_before == fine
    assert e.exact_sum(line.change for line in lines.values()) == 0
    assert lines["Tolie"].duel_rows()[0][1] is None  # no units of the ratings to give
