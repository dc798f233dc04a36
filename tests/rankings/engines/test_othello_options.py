"""The Othello GP season options of chess-othello-options.md §3: the series reading (§3.1,
its worked examples and edge cases exactly, both readings) and the season tie-break chain
(§3.3); the defaults give today's results (a frozen copy of the engine is the oracle)."""

from decimal import Decimal, localcontext
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankings.engines import othello as engine
from rankings.engines.othello import (
    CHAINED,
    DIRECT,
    Participant,
    Rating,
    SeasonIn,
    Settings,
    TournamentIn,
    compute_season,
    compute_tournament,
    direct_series,
    lot_order,
    season_standings,
    series,
)

from . import othello_before_series_rule as before
from .test_othello import ratings, tournaments

F = Fraction

# §3.1: (M, n, chained, direct)
SPEC_TABLES = [
    (F(38383, 2500), 6, [15, 8, 4, 2, 1, 0], [15, 8, 5, 2, 1, 1]),
    (F(9536, 625), 6, [15, 8, 4, 2, 1, 0], [15, 8, 5, 2, 1, 1]),
    (
        F(28939, 1000),
        12,
        [28, 20, 14, 10, 7, 5, 3, 2, 1, 0, 0, 0],
        [28, 21, 15, 11, 8, 6, 4, 3, 2, 1, 1, 1],
    ),
    (F(11), 2, [11, 1], [11, 1]),
    (F(8), 4, [8, 4, 2, 1], [8, 4, 2, 1]),
]


@pytest.mark.parametrize(("m", "n", "chained", "direct"), SPEC_TABLES)
def test_the_spec_series_tables_both_readings(m, n, chained, direct):
    assert series(m, n, CHAINED) == chained
    assert series(m, n, DIRECT) == direct
    assert series(m, n) == chained  # the default reading is today's


def test_the_n12_example_from_its_ratings():
    """§3.1 n = 12: S = 5484.75, M = 28.939, both series, from the twelve ratings."""
    nrs = ["2050", "1850", "1720", "1600", "1480", None, "1300", "1150", None, "950", "900", "850"]
    people = []
    for k, nr in enumerate(nrs, start=1):
        if k == 6:
            rating = Rating(ffo=F(2250))  # FR player, 0.539 · 2250 + 172 = 1384.75
        elif k == 9:
            rating = Rating()  # debutant: 1000
        else:
            rating = Rating(nordic=F(nr))
        people.append(Participant(f"p{k}", k, "FR" if k == 6 else "SE", rating))
    t = TournamentIn(id="t", participants=tuple(people))
    chained = compute_tournament(t)
    direct = compute_tournament(t, Settings(series_rule=DIRECT))
    assert chained.ranking_sum == F("5484.75") and chained.max_points == F(28939, 1000)
    assert list(chained.series) == [28, 20, 14, 10, 7, 5, 3, 2, 1, 0, 0, 0]
    assert list(direct.series) == [28, 21, 15, 11, 8, 6, 4, 3, 2, 1, 1, 1]
    # Place 6's points (5 or 6) go to no one.
    assert chained.entries[5].points is None and direct.entries[5].series_points == 6
    assert [e.points for e in direct.entries][:5] == [28, 21, 15, 11, 8]


def test_the_direct_g3_criterion_of_the_rules_md_example():
    # 5^5 · 2500^3 <= 38383^3 < 6^5 · 2500^3
    assert 5**5 * 2500**3 <= 38383**3 < 6**5 * 2500**3
    assert direct_series(F(38383, 2500), 6)[2] == 5


def test_a_float_direct_series_is_wrong_where_the_exact_one_is_not():
    # 8^(2/3) = 3.9999999999999996 in floats; exactly 4.
    assert direct_series(F(8), 4) == [8, 4, 2, 1]
    assert direct_series(F(1), 1) == [1] and direct_series(F(0), 3) == [0, 0, 0]
    assert direct_series(F(1, 2), 3) == [0, 0, 1]  # M^0 = 1 (M >= 2 in any season)


@settings(max_examples=200, deadline=None)
@given(
    m=st.fractions(min_value=Fraction(1), max_value=Fraction(500)).filter(
        lambda m: m.denominator <= 10**4
    ),
    n=st.integers(2, 40),
)
def test_direct_series_is_the_floor_of_the_real_powers(m, n):
    got = direct_series(m, n)
    assert got[0] == int(m) and got[-1] == 1
    assert got == sorted(got, reverse=True)
    with localcontext() as ctx:
        ctx.prec = 100
        d = Decimal(m.numerator) / Decimal(m.denominator)
        for k, g in enumerate(got, start=1):
            value = (d.ln() * (n - k) / (n - 1)).exp()
            assert Decimal(g) <= value + Decimal("1e-80") < Decimal(g + 1)


# --- §3.3 the season tie-break chain --------------------------------------------------------------


def _season(*tournaments):
    return [compute_tournament(t) for t in tournaments]


def _t(tid, sm=False, *people):
    return TournamentIn(
        id=tid,
        sm=sm,
        participants=tuple(
            Participant(p, k, "SE", Rating(nordic=F(r))) for k, (p, r) in enumerate(people, 1)
        ),
    )


def test_the_spec_example_wof_breaks_an_sm_tie():
    """P and Q equal on points and SM points; WOF 1850 against 1902: Q above P. Without a
    chain they share the rank."""
    # Two tournaments of two, equal ratings: each gets the same series; P wins one, Q the other.
    outs = _season(
        _t("sm", True, ("P", 1500), ("Q", 1500)),
        _t("b", False, ("Q", 1500), ("P", 1500)),
    )
    plain = season_standings(outs, Settings())
    assert [(r.player, r.rank) for r in plain] == [("P", 1), ("Q", 1)]
    # SM alone: P won the SM.
    sm_only = season_standings(outs, Settings(season_tiebreaks=("SM",)))
    assert [(r.player, r.rank) for r in sm_only] == [("P", 1), ("Q", 2)]
    outs_equal_sm = _season(
        _t("sm", True, ("P", 1500), ("Q", 1500), ("R", 1500)),
        _t("b", False, ("Q", 1500), ("P", 1500), ("R", 1500)),
    )
    chain = Settings(
        season_tiebreaks=("WOF", "WORLD", "LOT"),
        tiebreak_data={"P": (F(1850), None), "Q": (F(1902), 312)},
    )
    rows = season_standings(outs_equal_sm, chain)
    assert [(r.player, r.rank) for r in rows][:2] == [("Q", 1), ("P", 2)]
    assert rows[0].wof == 1902 and rows[0].world == 312 and rows[1].world is None


def test_without_a_value_a_player_ranks_below_everyone_with_one_and_world_lower_is_better():
    outs = _season(_t("a", False, ("A", 1000), ("B", 1000), ("C", 1000), ("D", 1000)))
    # Give everybody the same points: a season of one tournament where no one scores > 0
    # is not possible, so compare equal-points players through a crafted standings input.
    same = [
        engine.TournamentOut(
            "x", 4, 4, F(0), F(0), (), tuple(engine.Played(p, 3, F(1000)) for p in "ABCD")
        )
    ]
    assert outs  # (the real tournament gives distinct points)
    rows = season_standings(
        same,
        Settings(season_tiebreaks=("WORLD",), tiebreak_data={"A": (None, 50), "C": (None, 7)}),
    )
    assert [(r.player, r.rank) for r in rows] == [("C", 1), ("A", 2), ("B", 3), ("D", 3)]
    rows = season_standings(
        same, Settings(season_tiebreaks=("WOF", "LOT"), tiebreak_data={"D": (F(1), None)})
    )
    assert rows[0].player == "D" and [r.rank for r in rows] == [1, 2, 3, 4]
    lots = lot_order("ABC", 0)
    assert [r.player for r in rows[1:]] == sorted("ABC", key=lots.get)
    assert rows[1].lot == 1 or rows[1].lot < rows[2].lot


def test_the_lot_is_reproducible_and_a_new_seed_redraws():
    players = [f"p{i}" for i in range(30)]
    assert lot_order(players, 7) == lot_order(reversed(players), 7)
    assert sorted(lot_order(players, 7).values()) == list(range(1, 31))
    assert lot_order(players, 7) != lot_order(players, 8)
    # a player joining does not reorder the others
    more = lot_order([*players, "late"], 7)
    assert sorted(players, key=more.get) == sorted(players, key=lot_order(players, 7).get)


def test_sm_tiebreak_is_the_chain_sm_nr():
    outs = _season(
        _t("sm", True, ("P", 1500), ("Q", 1600)),
        _t("b", False, ("Q", 1500), ("P", 1700)),
    )
    assert season_standings(outs, Settings(sm_tiebreak=True)) == season_standings(
        outs, Settings(season_tiebreaks=("SM", "NR"))
    )


# --- the defaults are today's ---------------------------------------------------------------------


def _old_settings(s: Settings) -> before.Settings:
    return before.Settings(best_n=s.best_n, sm_tiebreak=s.sm_tiebreak, egp_rule=s.egp_rule)


def _old_tournament(t: TournamentIn) -> before.TournamentIn:
    return before.TournamentIn(
        id=t.id,
        sm=t.sm,
        egp=t.egp,
        participants=tuple(
            before.Participant(
                p.player,
                p.place,
                p.country,
                before.Rating(
                    p.rating.nordic, p.rating.ffo, p.rating.provisional, p.rating.uncertainty
                ),
            )
            for p in t.participants
        ),
    )


@settings(max_examples=150, deadline=None)
@given(
    ts=st.lists(tournaments(), min_size=1, max_size=6),
    flags=st.lists(st.sampled_from(["", "sm", "egp"]), min_size=6, max_size=6),
    best_n=st.integers(1, 6),
    sm_tiebreak=st.booleans(),
    egp_rule=st.booleans(),
)
def test_default_settings_give_todays_standings_byte_for_byte(
    ts, flags, best_n, sm_tiebreak, egp_rule
):
    ts = [
        TournamentIn(id=f"t{i}", participants=t.participants, sm=f == "sm", egp=f == "egp")
        for i, (t, f) in enumerate(zip(ts, flags, strict=False))
    ]
    now = Settings(best_n=best_n, sm_tiebreak=sm_tiebreak, egp_rule=egp_rule)
    explicit = Settings(
        best_n=best_n,
        sm_tiebreak=sm_tiebreak,
        egp_rule=egp_rule,
        series_rule=CHAINED,
        season_tiebreaks=(),
        tiebreak_seed=5,
    )
    old = before.compute_season(
        before.SeasonIn(tuple(_old_tournament(t) for t in ts), _old_settings(now))
    )
    for s in (now, explicit):
        new = compute_season(SeasonIn(tuple(ts), s))
        assert [
            (t.id, t.participants, t.ranking_sum, t.max_points, t.series, t.sm, t.egp)
            for t in new.tournaments
        ] == [
            (t.id, t.participants, t.ranking_sum, t.max_points, t.series, t.sm, t.egp)
            for t in old.tournaments
        ]
        assert [repr(tuple(r)[:7]) for r in new.standings] == [
            repr(tuple(r)) for r in old.standings
        ]
        assert all(r.wof is None and r.world is None and r.lot is None for r in new.standings)
        assert [repr(tuple(e)) for t in new.tournaments for e in t.entries] == [
            repr(tuple(e)) for t in old.tournaments for e in t.entries
        ]


_ = ratings  # (imported for the strategies module's side of `tournaments`)
