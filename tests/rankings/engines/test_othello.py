"""The Othello GP engine (rules.md §2): the worked example, the exact floor's edge cases, the
season standings and the federation's options, and hypothesis properties."""

import math
from decimal import ROUND_FLOOR, ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rankings.engines.othello import (
    DEBUTANT,
    FFO,
    NORDIC,
    PROVISIONAL,
    Coefficients,
    Participant,
    Rating,
    SeasonIn,
    Settings,
    TournamentIn,
    compute_season,
    compute_tournament,
    integer_root,
    max_points,
    nordic_equivalent,
    points_series,
    ranking_sum,
    season_standings,
    series_factor,
)

F = Fraction


def nordic(value) -> Rating:
    return Rating(nordic=F(value))


def ffo(value, uncertainty=None) -> Rating:
    if uncertainty is None:
        return Rating(ffo=F(value))
    return Rating(ffo=F(value), provisional=True, uncertainty=F(uncertainty))


def tournament(key: str, *entries, sm=False, egp=False) -> TournamentIn:
    """Participants as (player, country, rating) in place order."""
    return TournamentIn(
        id=key,
        sm=sm,
        egp=egp,
        participants=tuple(
            Participant(player=p, place=place, country=c, rating=r)
            for place, (p, c, r) in enumerate(entries, start=1)
        ),
    )


# --- §2 the worked example ------------------------------------------------------------------------

EXAMPLE = tournament(
    "t1",
    ("a", "SE", nordic(1850)),
    ("b", "SE", ffo(2100)),
    ("c", "FR", ffo(1900, 350)),
    ("d", "SE", Rating()),
    ("e", "SE", nordic(880)),
    ("f", "SE", nordic(1400)),
)


def test_worked_example_of_rules_md():
    out = compute_tournament(EXAMPLE)
    assert [e.nr for e in out.entries] == [
        F(1850),
        F("1303.9"),
        F("1034.4"),
        F(1000),
        F(880),
        F(1400),
    ]
    assert [e.rule for e in out.entries] == [NORDIC, FFO, PROVISIONAL, DEBUTANT, NORDIC, NORDIC]
    assert out.ranking_sum == F("2088.3")
    assert out.max_points == F("15.3532")
    assert out.series == (15, 8, 4, 2, 1, 0)
    assert [e.points for e in out.entries] == [15, 8, None, 2, 1, 0]
    assert out.participants == 6 and out.country_participants == 5


def test_the_example_s_contributions_to_the_ranking_sum():
    out = compute_tournament(EXAMPLE)
    assert [e.contribution for e in out.entries] == [
        F(950),
        F("403.9"),
        F("134.4"),
        F(100),
        F(0),
        F(500),
    ]


# --- §2 ratings -----------------------------------------------------------------------------------


def test_nordic_rating_wins_over_ffo():
    assert nordic_equivalent(Rating(nordic=F(1500), ffo=F(2400))) == (F(1500), NORDIC)


def test_provisional_ffo_is_lowered_by_its_uncertainty_not_below_1600():
    assert nordic_equivalent(ffo(2100, 100)) == (F("0.539") * 2000 + 172, PROVISIONAL)
    assert nordic_equivalent(ffo(1700, 350)) == (F("0.539") * 1600 + 172, PROVISIONAL)
    # the floor raises a provisional rating below 1600 too, as the rule is written
    assert nordic_equivalent(ffo(1500, 0))[0] == F("0.539") * 1600 + 172


def test_provisional_without_an_uncertainty_counts_it_as_zero():
    rating = Rating(ffo=F(2000), provisional=True)
    assert nordic_equivalent(rating)[0] == F("0.539") * 2000 + 172


def test_a_debutant_is_1000_and_a_low_rating_adds_nothing():
    assert nordic_equivalent(Rating()) == (F(1000), DEBUTANT)
    assert ranking_sum([F(880), F(900), F(1000)]) == 100


def test_max_points_uses_the_coefficients_exactly():
    assert max_points(F("2088.3")) == F("15.3532")
    c = Coefficients(max_factor=F("0.005"), max_base=F(5))
    assert max_points(F(1000), c) == 10


# --- §2 the exact floor ---------------------------------------------------------------------------


def test_two_players_with_an_integral_max_get_max_and_one():
    assert points_series(F(11), 2) == [11, 1]
    assert points_series(F(7), 2) == [7, 1]


def test_max_27_over_four_players_gives_27_9_3_1():
    assert points_series(F(27), 4) == [27, 9, 3, 1]


def test_exact_powers_that_floats_get_wrong():
    # a float x = 1024 ** (-1/5) gives 1024, 255, 63, 15, 3, 0
    assert points_series(F(1024), 6) == [1024, 256, 64, 16, 4, 1]
    assert points_series(F(100000), 6) == [100000, 10000, 1000, 100, 10, 1]
    assert points_series(F(16), 5) == [16, 8, 4, 2, 1]


def test_a_series_of_one_or_none():
    assert points_series(F("15.3532"), 1) == [15]
    assert points_series(F(9), 0) == []
    assert series_factor(F(9), 1) is None


def test_a_max_below_one_gives_nothing():
    assert points_series(F("0.9"), 3) == [0, 0, 0]


def test_integer_root_is_the_floor_of_the_real_root():
    assert [integer_root(x, 3) for x in (0, 1, 7, 8, 26, 27, 28)] == [0, 1, 1, 2, 2, 3, 3]
    big = 12345678901234567890**7
    assert integer_root(big, 7) == 12345678901234567890
    assert integer_root(big - 1, 7) == 12345678901234567889
    assert integer_root(10**400, 200) == 100
    with pytest.raises(ValueError):
        integer_root(-1, 2)


# --- §2 only the series' country scores -----------------------------------------------------------


def test_a_foreign_place_keeps_its_points_which_nobody_receives():
    out = compute_tournament(
        tournament(
            "t",
            ("fr", "FR", nordic(2000)),
            ("se", "SE", nordic(2000)),
            ("se2", "SE", nordic(1000)),
        )
    )
    assert out.series == (16, 3, 0)  # M = 16.2: the Swede in second place does not move up
    assert [e.points for e in out.entries] == [None, 3, 0]


def test_the_country_is_a_setting():
    out = compute_tournament(EXAMPLE, Settings(country="FR"))
    assert [e.points for e in out.entries] == [None, None, 4, None, None, None]


# --- §2 season standings --------------------------------------------------------------------------


def season(*tournaments, **settings) -> list:
    out = compute_season(SeasonIn(tournaments=tournaments, settings=Settings(**settings)))
    return list(out.standings)


def two_player(key: str, winner: str, loser: str, *, sm=False, egp=False, country="SE"):
    """M = 0.004 * 2000 + 7 = 15: the winner gets 15, the loser 1."""
    return tournament(
        key,
        (winner, country, nordic(1900)),
        (loser, country, nordic(1900)),
        sm=sm,
        egp=egp,
    )


def test_best_five_results_count_and_the_earlier_of_equal_results():
    tournaments = [two_player(f"t{i}", "a", "b") for i in range(1, 8)]
    rows = season(*tournaments)
    assert [(r.player, r.rank, r.points) for r in rows] == [("a", 1, 75), ("b", 2, 5)]
    assert rows[0].counted == ("t1", "t2", "t3", "t4", "t5")
    assert season(*tournaments, best_n=3)[0].points == 45


def test_counted_are_the_best_results_in_season_order():
    rows = season(two_player("t1", "b", "a"), two_player("t2", "a", "b"), best_n=1)
    a = next(r for r in rows if r.player == "a")
    assert a.counted == ("t2",) and a.points == 15
    assert [(r.tournament, r.points) for r in a.results] == [("t1", 1), ("t2", 15)]


def test_equal_totals_share_the_rank():
    rows = season(
        two_player("t1", "a", "b"), two_player("t2", "b", "a"), two_player("t3", "c", "d")
    )
    assert [(r.player, r.rank, r.points) for r in rows] == [
        ("a", 1, 16),
        ("b", 1, 16),
        ("c", 3, 15),
        ("d", 4, 1),
    ]


def test_a_last_place_with_zero_points_is_in_the_standings_and_foreigners_are_not():
    rows = season(EXAMPLE)
    assert [(r.player, r.points) for r in rows] == [
        ("a", 15),
        ("b", 8),
        ("d", 2),
        ("e", 1),
        ("f", 0),
    ]


def test_a_player_scores_only_where_listed_with_the_series_country():
    t1 = two_player("t1", "a", "b")
    t2 = tournament("t2", ("a", "FR", nordic(1900)), ("b", "SE", nordic(1900)))
    rows = {r.player: r for r in season(t1, t2)}
    assert rows["a"].points == 15 and rows["a"].counted == ("t1",)
    assert rows["b"].points == 1 + 1


def test_sm_tiebreak_orders_equal_totals_by_sm_points_then_rating():
    t1 = two_player("t1", "a", "b")
    t2 = two_player("t2", "b", "a", sm=True)
    off = season(t1, t2)
    assert [(r.player, r.rank) for r in off] == [("a", 1), ("b", 1)]
    on = season(t1, t2, sm_tiebreak=True)
    assert [(r.player, r.rank, r.sm_points) for r in on] == [("b", 1, 15), ("a", 2, 1)]


def test_sm_tiebreak_then_rating_then_shared():
    t1 = tournament("t1", ("a", "SE", nordic(1900)), ("b", "SE", nordic(1800)))
    t2 = tournament("t2", ("b", "SE", nordic(1800)), ("a", "SE", nordic(1900)))
    rows = season(t1, t2, sm_tiebreak=True)  # no SM played: equal SM points
    assert [(r.player, r.rank, r.rating) for r in rows] == [("a", 1, 1900), ("b", 2, 1800)]
    t3 = tournament("t1", ("a", "SE", nordic(1900)), ("b", "SE", nordic(1900)))
    t4 = tournament("t2", ("b", "SE", nordic(1900)), ("a", "SE", nordic(1900)))
    assert [r.rank for r in season(t3, t4, sm_tiebreak=True)] == [1, 1]


def test_egp_rule_counts_an_egp_only_with_a_swedish_gp_played():
    egp = tournament(
        "egp",
        ("a", "SE", nordic(1900)),
        ("x", "SE", nordic(1900)),
        ("nl", "NL", ffo(2000)),
        egp=True,
    )
    gp = two_player("gp", "a", "b")
    off = {r.player: r for r in season(egp, gp)}
    assert set(off) == {"a", "x", "b"}
    on = {r.player: r for r in season(egp, gp, egp_rule=True)}
    assert set(on) == {"a", "b"}  # x played only the EGP
    assert on["a"].counted == ("egp", "gp")
    assert [r.counts for r in on["a"].results] == [True, True]


def test_egp_results_that_do_not_count_are_kept_marked():
    egp = two_player("egp", "a", "b", egp=True)
    gp = two_player("gp", "c", "b")
    rows = {r.player: r for r in season(egp, gp, egp_rule=True)}
    assert "a" not in rows
    assert rows["b"].points == 2
    assert [(r.tournament, r.counts) for r in rows["b"].results] == [("egp", True), ("gp", True)]


# --- properties -----------------------------------------------------------------------------------

maxima = st.one_of(
    # decimal max points as the federation's formula gives them
    st.decimals(min_value=Decimal("1.0001"), max_value=Decimal(3000), places=6).map(F),
    st.integers(2, 500).map(F),
)


@settings(max_examples=300, deadline=None)
@given(m=maxima, n=st.integers(1, 120))
def test_series_strictly_decreases_until_it_reaches_zero(m, n):
    series = points_series(m, n)
    assert len(series) == n
    assert series[0] == math.floor(m)
    for above, below in zip(series, series[1:], strict=False):
        assert below < above or below == above == 0
        assert below >= 0


@settings(max_examples=300, deadline=None)
@given(m=maxima, n=st.integers(2, 120))
def test_each_place_is_the_exact_floor_of_x_times_the_place_above(m, n):
    series = points_series(m, n)
    k = n - 1
    for g, h in zip(series, series[1:], strict=False):
        assert h**k * m <= g**k < (h + 1) ** k * m


def decimal_series(m: Fraction, n: int) -> list[int]:
    """The chain computed with 200 significant digits. Where g * x lies within 1e-150 of a whole
    number, 200 digits cannot decide the floor: there the place must sit exactly on it."""
    with localcontext() as ctx:
        ctx.prec = 200
        md = Decimal(m.numerator) / Decimal(m.denominator)
        x = (-md.ln() / (n - 1)).exp()
        series = [int(md.to_integral_value(rounding=ROUND_FLOOR))]
        for _ in range(n - 1):
            y = series[-1] * x
            nearest = y.to_integral_value(rounding=ROUND_HALF_EVEN)
            if abs(y - nearest) < Decimal(10) ** -150:
                assert int(nearest) ** (n - 1) * m == series[-1] ** (n - 1)
                series.append(int(nearest))
            else:
                series.append(int(y.to_integral_value(rounding=ROUND_FLOOR)))
        return series


@settings(max_examples=200, deadline=None)
@given(m=maxima, n=st.integers(2, 60))
def test_exact_floor_equals_a_200_digit_decimal_computation(m, n):
    assert points_series(m, n) == decimal_series(m, n)


@settings(max_examples=100, deadline=None)
@given(base=st.integers(2, 40), n=st.integers(2, 9))
def test_exact_floor_on_perfect_powers_equals_the_decimal_computation(base, n):
    m = F(base ** (n - 1))
    series = points_series(m, n)
    assert series[:n] == decimal_series(m, n)
    assert series[1] == base ** (n - 2)  # x = 1 / base exactly


ratings = st.one_of(
    st.builds(Rating),
    st.builds(nordic, st.integers(500, 2600)),
    st.builds(ffo, st.integers(1000, 2700)),
    st.builds(ffo, st.integers(1000, 2700), st.integers(0, 600)),
)


@st.composite
def tournaments(draw):
    n = draw(st.integers(1, 40))
    players = [f"p{i}" for i in range(n)]
    countries = draw(st.lists(st.sampled_from(["SE", "SE", "FI", "FR"]), min_size=n, max_size=n))
    return TournamentIn(
        id="t",
        participants=tuple(
            Participant(player=p, place=i + 1, country=c, rating=draw(ratings))
            for i, (p, c) in enumerate(zip(players, countries, strict=True))
        ),
    )


@settings(max_examples=200, deadline=None)
@given(t=tournaments())
def test_winner_gets_floor_of_max_and_only_the_country_scores(t):
    out = compute_tournament(t)
    assert out.series[0] == math.floor(out.max_points)
    assert out.ranking_sum == sum(e.contribution for e in out.entries)
    for e, g in zip(out.entries, out.series, strict=True):
        assert e.series_points == g
        assert e.points == (g if e.country == "SE" else None)
    scored = [e.points for e in out.entries if e.points]
    assert len(scored) == len(set(scored))  # no two places share a non-zero value


@settings(max_examples=100, deadline=None)
@given(ts=st.lists(tournaments(), min_size=1, max_size=6), best_n=st.integers(1, 6))
def test_standings_sum_the_best_results_and_rank_by_competition_ranking(ts, best_n):
    ts = [TournamentIn(id=f"t{i}", participants=t.participants) for i, t in enumerate(ts)]
    outs = [compute_tournament(t) for t in ts]
    rows = season_standings(outs, Settings(best_n=best_n))
    for row in rows:
        mine = sorted(
            (
                e.points
                for t in outs
                for e in t.entries
                if e.player == row.player and e.points is not None
            ),
            reverse=True,
        )
        assert row.points == sum(mine[:best_n])
        assert len(row.counted) == min(best_n, len(mine))
        # Which count: the best n, the earlier tournament first among equal points, listed
        # in the season's order.
        results = [
            (-e.points, i, t.id)
            for i, t in enumerate(outs)
            for e in t.entries
            if e.player == row.player and e.points is not None
        ]
        best = sorted(results)[:best_n]
        assert row.counted == tuple(t_id for _p, _i, t_id in sorted(best, key=lambda r: r[1]))
    points = [r.points for r in rows]
    assert points == sorted(points, reverse=True)
    for i, row in enumerate(rows):
        assert row.rank == (rows[i - 1].rank if i and points[i - 1] == row.points else i + 1)
    assume(rows)


# --- the fast series: the same as the integer-root chain -----------------------------------------


def _series_by_roots(m: Fraction, n: int) -> list[int]:
    from rankings.engines.othello import next_points

    series = [math.floor(m)]
    while len(series) < n:
        g = series[-1]
        series.append(0 if g == 0 else next_points(g, m, n))
    return series


@settings(max_examples=300, deadline=None)
@given(
    m=st.fractions(min_value=Fraction(1, 1000), max_value=Fraction(10**5)).filter(
        lambda m: m.denominator <= 10**6
    ),
    n=st.integers(1, 120),
)
def test_the_series_checked_from_a_float_estimate_is_the_integer_root_chain(m, n):
    assert points_series(m, n) == _series_by_roots(m, n)


def test_a_long_series_is_exact_and_fast():
    # A field of 1000 (the largest a tournament may have): M = 2807.
    assert points_series(Fraction(2807), 1000) == _series_by_roots(Fraction(2807), 1000)


@pytest.mark.parametrize("n", [2, 3, 5, 8, 13])
def test_a_factor_that_lands_on_whole_numbers_is_decided_on_integers(n):
    # M = b ** (n - 1): x = 1 / b exactly, so g * x is a whole number wherever b divides g,
    # where the float estimate may fall just below it.
    for b in range(2, 12):
        for extra in (0, 1):
            m = Fraction(b ** (n - 1) * (b + extra), b)
            assert points_series(m, n) == _series_by_roots(m, n)


# --- a player's what-if for the next tournament (issue 46, item 17) ----------------------------


def test_the_next_tournament_puts_the_player_at_the_place_among_a_field_that_scores_nothing():
    from rankings.engines.othello import NEXT, next_tournament, what_if_next

    t = next_tournament("a", 2, "SE", nordic(1850), 6, F(1400))
    assert [(p.place, p.country) for p in sorted(t.participants, key=lambda p: p.place)] == [
        (1, ""),
        (2, "SE"),
        (3, ""),
        (4, ""),
        (5, ""),
        (6, ""),
    ]
    got = what_if_next([compute_tournament(EXAMPLE)], t)
    # S = (1850 - 900) + 5 × (1400 - 900) = 3450; M = 0.004 × 3450 + 7 = 20.8
    assert got.tournament.ranking_sum == 3450 and got.tournament.max_points == F("20.8")
    assert got.tournament.series[:3] == (20, 10, 5)
    assert got.before[:2] == [("a", 1, 15), ("b", 2, 8)]
    a = next(r for r in got.after if r.player == "a")
    assert (a.rank, a.points, a.counted) == (1, 25, ("t1", NEXT))
    assert {r.player for r in got.after} == {r[0] for r in got.before}  # the field scores nothing


@settings(max_examples=60, deadline=None)
@given(
    ts=st.lists(tournaments(), min_size=0, max_size=5),
    best_n=st.integers(1, 6),
    sm_tiebreak=st.booleans(),
    egp_rule=st.booleans(),
    data=st.data(),
)
def test_the_what_if_equals_the_engine_run_with_the_next_tournament_added(
    ts, best_n, sm_tiebreak, egp_rule, data
):
    from rankings.engines.othello import compute_tournaments, next_tournament, what_if_next

    ts = tuple(
        TournamentIn(id=f"t{i}", participants=t.participants, egp=i % 3 == 1)
        for i, t in enumerate(ts)
    )
    gp = Settings(best_n=best_n, sm_tiebreak=sm_tiebreak, egp_rule=egp_rule)
    n = data.draw(st.integers(1, 30))
    nxt = next_tournament(
        data.draw(st.sampled_from(["p0", "p1", "p5", "new"])),
        data.draw(st.integers(1, n)),
        data.draw(st.sampled_from(["SE", "FI"])),
        data.draw(ratings),
        n,
        F(data.draw(st.integers(0, 2600))),
    )
    season_outs = compute_tournaments(SeasonIn(tournaments=ts, settings=gp))
    got = what_if_next(season_outs, nxt, gp)
    with_next = compute_season(SeasonIn(tournaments=(*ts, nxt), settings=gp))
    assert got.after == list(with_next.standings)
    assert got.tournament == with_next.tournaments[-1]
    without = compute_season(SeasonIn(tournaments=ts, settings=gp)).standings
    assert got.before == [(r.player, r.rank, r.points) for r in without]
