"""The Keizer variants of keizer-variants.md (§1–§2) as settings of the one engine: every worked
example of §3 number for number (with the fixed-point passes), the real data of §3.5–3.6, each
option on its own, and properties: `current` with one pass is `previous`, and a season without
settings is computed exactly as before the variants (tests/rankings/engines/keizer_before.py
is the engine as it was)."""

from dataclasses import replace
from fractions import Fraction as F

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from rankings.engines import keizer as k
from rankings.engines.keizer import GameIn, RoundIn, SeasonIn

from . import keizer_before as before
from .test_keizer import seasons

A, B, C, D, E = "ABCDE"

# §3.1: five players, three rounds.
ROUNDS = (
    RoundIn(1, games=(GameIn(A, B, "0-1"), GameIn(C, D, "1/2-1/2")), byes=(E,)),
    RoundIn(2, games=(GameIn(B, E, "0-1"), GameIn(A, C, "1-0")), absent=(D,)),
    RoundIn(3, games=(GameIn(E, A, "1/2-1/2"), GameIn(B, D, "1-0")), external=(C,)),
)

CLASSIC = k.Settings(
    own_value_once=True,
    valuation=k.CURRENT,
    start_points=k.NO_START,
    factors=k.Factors(loss=F(0), bye=F(2, 3), absent=F(1, 3), external=F(2, 3), unexcused=F(0)),
)
KFC = k.Settings(
    own_value_once=True,
    start_points=k.NO_START,
    top_value_rounding=k.HALF_EVEN,
    factors=k.Factors(
        loss=F(0), bye=F(1, 2), absent=F(7, 20), external=F(7, 10), unexcused=F(1, 20)
    ),
    withdrawn_credit=F(3, 4),
)


DEFAULT = k.Settings()


def season(settings: k.Settings = DEFAULT, rounds=ROUNDS, **more) -> SeasonIn:
    return SeasonIn(players=(A, B, C, D, E), start_points={}, rounds=rounds, settings=settings,
                    **more)  # fmt: skip


def scores(listed: k.ListOut) -> list[tuple]:
    return [(r.player, r.score) for r in listed.rows]


def table(listed: k.ListOut) -> list[tuple]:
    return [(r.player, r.score, r.key, r.value) for r in listed.rows]


# --- §3.2 (a) the default ------------------------------------------------------------------------


def test_default_worked_example_every_list_score_and_key():
    out = k.compute_season(season())
    assert [x.weight for x in out.lists] == [1, F(9, 10), F(4, 5), F(7, 10)]
    assert [(r.player, r.score, r.key) for r in out.lists[0].rows] == [
        (A, 0, 6), (B, 0, 5), (C, 0, 4), (D, 0, 3), (E, 0, 2),
    ]  # fmt: skip
    assert table(out.lists[1]) == [
        (B, 6, F(21, 2), 6), (A, F(5, 6), F(187, 30), 5), (C, F(3, 2), F(51, 10), 4),
        (D, 2, F(47, 10), 3), (E, F(4, 3), F(47, 15), 2),
    ]  # fmt: skip
    assert [(r.player, r.score, r.key) for r in out.lists[2].rows] == [
        (A, 5, F(49, 5)), (B, F(16, 3), F(28, 3)), (E, F(22, 3), F(134, 15)),
        (D, F(7, 2), F(59, 10)), (C, F(7, 3), F(83, 15)),
    ]  # fmt: skip
    assert [(r.player, r.score, r.key) for r in out.lists[3].rows] == [
        (B, F(29, 3), F(79, 6)), (E, F(32, 3), F(181, 15)), (A, F(29, 6), F(271, 30)),
        (C, F(23, 6), F(199, 30)), (D, F(10, 3), F(163, 30)),
    ]  # fmt: skip
    closed = k.compute_season(season(closed=True)).lists[3]
    assert closed.weight == 0
    assert scores(closed) == [(E, F(32, 3)), (B, F(29, 3)), (A, F(29, 6)), (C, F(23, 6)),
                              (D, F(10, 3))]  # fmt: skip
    assert all(x.passes == 1 and x.end == "" for x in out.lists)


# --- §3.3 (b) classic: the fixed point, pass by pass ---------------------------------------------

# Round 1's passes (1.1–1.5): the output list of each pass and the scores it computed.
ROUND_ONE_PASSES = [
    ([B, A, C, D, E], {A: 6, B: 11, C: F(11, 2), D: 5, E: F(10, 3)}),
    ([B, C, A, D, E], {A: 5, B: 11, C: F(11, 2), D: 5, E: F(10, 3)}),
    ([B, C, D, A, E], {A: 4, B: 10, C: F(13, 2), D: F(11, 2), E: F(10, 3)}),
    ([B, C, D, E, A], {A: 3, B: 9, C: 7, D: F(13, 2), E: F(10, 3)}),
    ([B, C, D, E, A], {A: 2, B: 8, C: 7, D: F(13, 2), E: 5}),  # = its input: the fixed point
]


@pytest.mark.parametrize("passes", [1, 2, 3, 4, 5])
def test_classic_round_one_pass_by_pass(passes):
    """With the bound at j passes, the list after round 1 is pass 1.j's output, scored with
    its input (§1.5: the bound reached, W = the list before the last pass)."""
    out = k.compute_season(season(replace(CLASSIC, fixed_point_max_passes=passes), ROUNDS[:1]))
    listed = out.lists[1]
    order, computed = ROUND_ONE_PASSES[passes - 1]
    assert [r.player for r in listed.rows] == order
    assert dict(scores(listed)) == computed
    assert listed.passes == passes
    assert listed.end == (k.FIXED_POINT if passes == 5 else k.BOUND)


def test_classic_worked_example_converges_round_by_round():
    out = k.compute_season(season(CLASSIC))
    assert [x.weight for x in out.lists] == [1, 0, 0, 0]
    assert [(x.passes, x.end) for x in out.lists] == [
        (1, k.FIXED_POINT), (5, k.FIXED_POINT), (2, k.FIXED_POINT), (2, k.FIXED_POINT),
    ]  # fmt: skip
    assert scores(out.lists[1]) == [(B, 8), (C, 7), (D, F(13, 2)), (E, 5), (A, 2)]
    assert scores(out.lists[2]) == [(E, 15), (B, 8), (D, F(19, 3)), (A, 5), (C, 4)]
    assert scores(out.lists[3]) == [(E, 17), (B, 12), (A, 9), (D, 5), (C, F(29, 6))]
    # A fixed point values itself: the scores are shares of the list's own values.
    for listed in out.lists:
        assert listed.valued == listed.values()


def test_classic_pass_2_1_is_the_previous_valuation_of_round_two():
    """Pass 2.1 values round 2 with L₁ (B C D E A): what `previous` gives from there."""
    out = k.compute_season(season(replace(CLASSIC, fixed_point_max_passes=1)))
    # One pass per round is `previous`: round 1 then stops at pass 1.1's list.
    assert [r.player for r in out.lists[1].rows] == [B, A, C, D, E]
    start = SeasonIn(players=(B, C, D, E, A), start_points={}, rounds=ROUNDS[:2],
                     settings=replace(CLASSIC, fixed_point_max_passes=1))  # fmt: skip
    # Round 1 from B C D E A is already a fixed point; round 2's first pass is 2.1.
    listed = k.compute_season(start).lists[2]
    assert dict(scores(listed)) == {A: 7, B: 8, C: 7, D: F(47, 6), E: 11}


# --- §3.4 (c) kfc and (d) kfc with D withdrawn ---------------------------------------------------


def test_kfc_worked_example():
    out = k.compute_season(season(KFC))
    assert out.lists[0].top == 6
    assert [(r.player, r.score, r.value) for r in out.lists[0].rows] == [
        (A, 6, 6), (B, 5, 5), (C, 4, 4), (D, 3, 3), (E, 2, 2),
    ]  # fmt: skip
    assert scores(out.lists[1]) == [(B, 11), (A, 6), (C, F(11, 2)), (D, 5), (E, 3)]
    assert scores(out.lists[2]) == [(B, 11), (A, 9), (E, 9), (D, F(121, 20)), (C, F(11, 2))]
    assert scores(out.lists[3]) == [
        (E, F(29, 2)), (B, 14), (A, 9), (D, F(101, 20)), (C, F(49, 10)),
    ]  # fmt: skip
    assert all(x.weight == (1 if x.after == 0 else 0) for x in out.lists)


def test_kfc_variant_with_a_fading_own_value_and_a_loss_share():
    variant = replace(KFC, own_value_fade_rounds=5, factors=replace(KFC.factors, loss=F(1, 20)))
    out = k.compute_season(season(variant))
    assert [x.own_weight for x in out.lists] == [1, F(4, 5), F(3, 5), F(2, 5)]
    first = dict(scores(out.lists[1]))
    assert first[B] == 10 and first[A] == F(101, 20)
    assert scores(out.lists[3]) == [
        (E, F(25, 2)), (B, F(193, 20)), (A, F(32, 5)), (C, F(39, 10)), (D, F(71, 20)),
    ]  # fmt: skip


def test_kfc_with_a_withdrawn_player():
    out = k.compute_season(season(KFC, withdrawn=frozenset({D})))
    assert out.lists[0].top == 4  # n = 4, round_half_even(4.5)
    assert [(r.player, r.score, r.value) for r in out.lists[0].rows] == [
        (A, 4, 4), (B, 3, 3), (C, 2, 2), (E, 1, 1),
    ]  # fmt: skip
    assert scores(out.lists[1]) == [(B, 7), (A, 4), (C, F(11, 4)), (E, F(3, 2))]
    assert scores(out.lists[2]) == [(B, 7), (E, F(11, 2)), (A, 5), (C, F(11, 4))]
    assert scores(out.lists[3]) == [(E, F(19, 2)), (B, 9), (A, F(9, 2)), (C, F(83, 40))]
    assert D not in out.start_points


def test_withdrawn_without_credit_changes_no_number():
    plain = k.compute_season(season(replace(KFC, withdrawn_credit=None)))
    flagged = k.compute_season(season(replace(KFC, withdrawn_credit=None),
                                      withdrawn=frozenset({D})))  # fmt: skip
    assert [table(x) for x in flagged.lists] == [table(x) for x in plain.lists]


def test_a_win_against_a_withdrawn_player_is_credited_in_the_breakdown():
    out = k.compute_season(season(KFC, withdrawn=frozenset({D})))
    played = [(n + 1, o[B]) for n, o in enumerate(out.outcomes) if B in o]
    lines = k.score_breakdown(
        B, played, out.lists[3].valued, settings=KFC, withdrawn={D}, own=out.lists[3].own_weight
    )
    assert [(x.round, x.value, x.factor, x.points) for x in lines] == [
        (0, 4, 1, 4), (1, 2, 1, 2), (2, 3, 0, 0), (3, 4, F(3, 4), 3),
    ]  # fmt: skip
    assert lines[3].term.withdrawn and lines[3].valued == "own"
    assert sum(x.points for x in lines) == dict(scores(out.lists[3]))[B] == 9


# --- §3.5 Haren 2016, round 1 --------------------------------------------------------------------

HAREN_PLAYERS = (
    "Suurmeijer", "Roorda", "Tasma", "Kieft", "Graafland", "Bontsema", "Alshorman", "Raaijen",
    "vd Mossel", "Romijn", "Hindriks", "Gielen", "Tuinman", "Guinée", "Blanksma", "Bouwman",
)  # fmt: skip
HAREN_GAMES = (
    ("Suurmeijer", "vd Mossel", "1-0"), ("Romijn", "Roorda", "0-1"), ("Tasma", "Hindriks", "1-0"),
    ("Kieft", "Gielen", "1/2-1/2"), ("Tuinman", "Graafland", "0-1"),
    ("Bontsema", "Guinée", "1-0"), ("Alshorman", "Blanksma", "1-0"), ("Bouwman", "Raaijen", "0-1"),
)  # fmt: skip
HAREN = k.Settings(
    own_value_once=True, valuation=k.CURRENT, start_points=k.NO_START, top_value=80,
    factors=k.Factors(loss=F(0), absent=F(1, 3), external=F(1, 3), unexcused=F(1, 3),
                      bye=F(2, 3)),
)  # fmt: skip


def test_haren_2016_round_one_converges_in_two_passes_to_the_published_list():
    games = tuple(GameIn(*g) for g in HAREN_GAMES)
    out = k.compute_season(SeasonIn(HAREN_PLAYERS, {}, (RoundIn(1, games=games),), HAREN))
    listed = out.lists[1]
    assert (listed.passes, listed.end) == (2, k.FIXED_POINT)
    assert scores(listed) == [
        ("Suurmeijer", 151), ("Roorda", 149), ("Tasma", 147), ("Graafland", 145),
        ("Bontsema", 143), ("Alshorman", 141), ("Raaijen", 139),
        ("Kieft", 109), ("Gielen", F(217, 2)),  # published: Gielen 109 above Kieft 108½ (§3.5)
        ("vd Mossel", 71), ("Romijn", 70), ("Hindriks", 69), ("Tuinman", 68), ("Guinée", 67),
        ("Blanksma", 66), ("Bouwman", 65),
    ]  # fmt: skip


# --- §3.6 KFC's sample tournament ----------------------------------------------------------------


def test_kfc_sample_tournament_every_score_and_value():
    players = ("Amurru", "Helena", "Ninedena", "Inanna", "Hermes", "Isenbrink", "Achill",
               "Verdandi", "Ajax")  # fmt: skip
    g = GameIn
    rounds = (
        RoundIn(1, games=(g("Helena", "Amurru", "1/2-1/2"), g("Inanna", "Ninedena", "1-0"),
                          g("Achill", "Isenbrink", "1-0")),
                absent=("Hermes", "Ajax"), byes=("Verdandi",)),
        RoundIn(2, games=(g("Amurru", "Inanna", "1-0"), g("Achill", "Helena", "1-0"),
                          g("Ninedena", "Verdandi", "1-0"), g("Isenbrink", "Ajax", "1-0")),
                absent=("Hermes",)),
        RoundIn(3, games=(g("Amurru", "Achill", "1-0"), g("Helena", "Inanna", "1-0"),
                          g("Ninedena", "Hermes", "1-0"), g("Ajax", "Verdandi", "1-0")),
                byes=("Isenbrink",)),
        RoundIn(4, games=(g("Ninedena", "Amurru", "0-1"), g("Hermes", "Achill", "1-0"),
                          g("Ajax", "Helena", "0-1"), g("Verdandi", "Isenbrink", "1-0")),
                byes=("Inanna",)),
        RoundIn(5, games=(g("Hermes", "Amurru", "1/2-1/2"), g("Inanna", "Achill", "1/2-1/2"),
                          g("Isenbrink", "Ajax", "-+")),
                unexcused=("Helena",), external=("Ninedena",)),
    )  # fmt: skip
    out = k.compute_season(SeasonIn(players, {}, rounds, KFC, withdrawn=frozenset({"Verdandi"})))
    assert [(r.player, r.score, r.value) for r in out.lists[5].rows] == [
        ("Amurru", F(75, 2), 10), ("Achill", F(47, 2), 9), ("Hermes", F(116, 5), 8),
        ("Ninedena", F(463, 20), 7), ("Helena", F(449, 20), 6), ("Inanna", F(37, 2), 5),
        ("Ajax", F(103, 10), 4), ("Isenbrink", 9, 3),
    ]  # fmt: skip
    after_three = out.lists[3].rows
    assert [(r.player, r.score) for r in after_three[1:3]] == [("Helena", 20), ("Achill", 20)]


# --- §1.2 values, §2 options one by one -----------------------------------------------------------


def test_top_value_rounding_and_ratio():
    even = k.Settings(top_value_rounding=k.HALF_EVEN)
    assert [k.top_value(n, k.Settings()) for n in (4, 5, 8)] == [5, 6, 11]
    assert [k.top_value(n, even) for n in (4, 5, 8)] == [4, 6, 10]
    # r = 2: T = (n − 1) · 2 / 1
    assert k.top_value(5, k.Settings(value_ratio=F(2))) == 8
    assert k.top_value(5, k.Settings(value_ratio=F(2), top_value=30)) == 30


def test_normalised_values():
    normalised = k.Settings(normalised_values=True)
    assert k.values(8, normalised) == [3, F(27, 10), F(12, 5), F(21, 10), F(19, 10), F(8, 5),
                                       F(13, 10), 1]  # fmt: skip
    # n = 9: the exact midpoints 2.75 and 2.25 round to even.
    assert k.values(9, normalised) == [3, F(14, 5), F(5, 2), F(11, 5), 2, F(9, 5), F(3, 2),
                                       F(6, 5), 1]  # fmt: skip
    assert k.values(1, normalised) == [3]
    out = k.compute_season(season(normalised))
    assert out.lists[0].top == 3
    assert [r.value for r in out.lists[1].rows] == [3, F(5, 2), 2, F(3, 2), 1]
    assert dict(scores(out.lists[1]))[B] == 3  # a win against A, valued 3 on the initial list


def one_player(settings, *rounds):
    return k.compute_season(SeasonIn(("p", "q"), {}, tuple(rounds), settings))


def absences(kind: str, count: int) -> list[RoundIn]:
    return [RoundIn(n, **{kind: ("p",)}, games=()) for n in range(1, count + 1)]


def test_absence_cap_counts_rounds_per_kind():
    """§2.6: Bornse, absent with notice 1/6 at most 8 times; the ninth pays 0."""
    bornse = k.Settings(top_value=30, step=1, start_points=k.PERMANENT, absent_max=8,
                        factors=k.Factors(absent=F(1, 6)))  # fmt: skip
    # p keeps place 1 (value 30): start points 30 forever, q has 29.
    out = one_player(bornse, *absences("absent", 9))
    assert [dict(scores(x))["p"] for x in out.lists] == [0, 5, 10, 15, 20, 25, 30, 35, 40, 40]
    played = [(n, k.Outcome(k.ABSENT)) for n in range(1, 10)]
    lines = k.score_breakdown("p", played, {"p": 30}, settings=bornse)
    assert [x.points for x in lines] == [5] * 8 + [0]
    assert lines[-1].term.capped and lines[-1].term.nth == 9
    # the long absence counts separately, with its own cap and share
    long = replace(bornse, long_absent_max=1)
    out = one_player(long, *absences("absent", 8), RoundIn(9, long_absent=("p",)),
                     RoundIn(10, long_absent=("p",)))  # fmt: skip
    assert dict(scores(out.lists[10]))["p"] == 40 + 10


def test_absence_halving_counts_absent_and_unexcused():
    """§2.7: 35 % of own value 10, three absences: 3.5, 1.75, 0.875."""
    halving = k.Settings(top_value=10, start_points=k.PERMANENT, absence_halving=True,
                         factors=k.Factors(absent=F(7, 20), unexcused=F(7, 20)))  # fmt: skip
    rounds = [RoundIn(1, absent=("p",)), RoundIn(2, unexcused=("p",)), RoundIn(3, absent=("p",)),
              RoundIn(4, byes=("p",))]  # fmt: skip
    out = one_player(halving, *rounds)
    assert [dict(scores(x))["p"] for x in out.lists] == [
        0, F(7, 2), F(21, 4), F(49, 8), F(49, 8) + F(20, 3),
    ]  # fmt: skip


def test_external_by_result():
    """§2.5: own value 30, De Pijp's 7/6, 5/6, 3/6; without an entry, points_external."""
    pijp = k.Settings(top_value=30, start_points=k.PERMANENT, external_by_result=True,
                      factors=k.Factors(external_win=F(7, 6), external_draw=F(5, 6),
                                        external_loss=F(1, 2)))  # fmt: skip
    results = {"1": 35, "1/2": 25, "0": 15}
    for result, points in results.items():
        out = one_player(pijp, RoundIn(1, external=("p",), external_results=(("p", result),)))
        assert dict(scores(out.lists[1]))["p"] == points
    out = one_player(pijp, RoundIn(1, external=("p",)))
    assert dict(scores(out.lists[1]))["p"] == 20  # 2/3 · 30
    off = replace(pijp, external_by_result=False)
    out = one_player(off, RoundIn(1, external=("p",), external_results=(("p", "1"),)))
    assert dict(scores(out.lists[1]))["p"] == 20


def test_long_absent_default_share_is_a_third():
    out = one_player(k.Settings(top_value=30, start_points=k.PERMANENT),
                     RoundIn(1, long_absent=("p",)))  # fmt: skip
    assert dict(scores(out.lists[1]))["p"] == 10


def test_start_points_none_and_permanent():
    none = k.compute_season(season(k.Settings(start_points=k.NO_START)))
    assert [x.weight for x in none.lists] == [1, 0, 0, 0]
    permanent = k.compute_season(season(k.Settings(start_points=k.PERMANENT), closed=True))
    assert [x.weight for x in permanent.lists] == [1, 1, 1, 1]
    # `none` is `start_fade_rounds` = 1
    fade_one = k.compute_season(season(k.Settings(start_fade_rounds=1)))
    assert [table(x) for x in none.lists] == [table(x) for x in fade_one.lists]


def test_a_cycle_is_resolved_by_the_mean_keys():
    """§1.5 RESOLVE: two players who only drew each other, own value once, loss 0 — each
    list values the other higher, so the order flips every pass."""
    flip = k.Settings(own_value_once=True, valuation=k.CURRENT, start_points=k.NO_START,
                      top_value=10, step=5, factors=k.Factors(draw=F(1)))  # fmt: skip
    # p first (10), q (5): p scores 10 + 5 = 15, q 5 + 10 = 15: a tie, initial order: fixed.
    out = one_player(flip, RoundIn(1, games=(GameIn("p", "q", "1/2-1/2"),)))
    assert out.lists[1].end == k.FIXED_POINT
    # With a draw share of 2 the other's value counts double: p 10 + 10 = 20, q 5 + 20 = 25.
    flip = replace(flip, factors=k.Factors(draw=F(2)))
    out = one_player(flip, RoundIn(1, games=(GameIn("p", "q", "1/2-1/2"),)))
    listed = out.lists[1]
    assert listed.end == k.CYCLE and listed.passes == 2
    # mean over [p q] (p 20, q 25) and [q p] (p 5 + 20 = 25, q 10 + 10 = 20): 45/2 each
    assert scores(listed) == [("p", F(45, 2)), ("q", F(45, 2))]
    assert listed.valued == {"p": F(15, 2), "q": F(15, 2)}


# --- properties ----------------------------------------------------------------------------------


def same_lists(a: k.SeasonOut, b) -> bool:
    return [
        (x.after, x.top, x.weight, [(r.player, r.rank, r.value, r.start_points, r.games, r.score,
                                     r.key) for r in x.rows])
        for x in a.lists
    ] == [
        (x.after, x.top, x.weight, [(r.player, r.rank, r.value, r.start_points, r.games, r.score,
                                     r.key) for r in x.rows])
        for x in b.lists
    ]  # fmt: skip


def old_season(s: SeasonIn):
    def rounds(r):
        return before.RoundIn(r.number, tuple(before.GameIn(*astuple(g)) for g in r.games),
                              r.byes, r.absent, r.external, r.unexcused, r.present)  # fmt: skip

    def astuple(g):
        return (g.white, g.black, g.result)

    f = s.settings.factors
    old_settings = before.Settings(
        top_value=s.settings.top_value, step=s.settings.step,
        start_fade_rounds=s.settings.start_fade_rounds,
        factors=before.Factors(f.win, f.draw, f.loss, f.bye, f.absent, f.external, f.unexcused),
    )  # fmt: skip
    return before.SeasonIn(s.players, s.start_points, tuple(map(rounds, s.rounds)),
                           old_settings, s.closed)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(seasons())
def test_a_season_without_variants_is_computed_exactly_as_before(season_in):
    new = k.compute_season(season_in)
    old = before.compute_season(old_season(season_in))
    assert same_lists(new, old)
    # and every breakdown line as before
    for listed, prior in zip(new.lists[1:], new.lists, strict=False):
        for row in listed.rows[:3]:
            played = [(n + 1, o[row.player]) for n, o in enumerate(new.outcomes[: listed.after])
                      if row.player in o]  # fmt: skip
            lines = k.score_breakdown(row.player, played, prior.values(),
                                      season_in.settings.factors)  # fmt: skip
            assert [(x.round, x.value, x.valued, x.factor, x.points) for x in lines] == [
                (x.round, x.value, x.valued, x.factor, x.points)
                for x in before.score_breakdown(row.player, played, prior.values(),
                                                season_in.settings.factors)
            ]  # fmt: skip
            assert listed.valued == prior.values()


VARIANTS = st.builds(
    k.Settings,
    own_value_once=st.booleans(),
    own_value_fade_rounds=st.sampled_from([0, 3]),
    top_value_rounding=st.sampled_from([k.HALF_UP, k.HALF_EVEN]),
    value_ratio=st.sampled_from([F(3), F(2), F(6, 5)]),
    normalised_values=st.booleans(),
    start_points=st.sampled_from([k.FADING, k.NO_START, k.PERMANENT]),
    absent_max=st.sampled_from([0, 1]),
    absence_halving=st.booleans(),
    factors=st.sampled_from([k.Factors(), KFC.factors, CLASSIC.factors]),
)


@settings(max_examples=60, deadline=None)
@given(seasons(), VARIANTS)
def test_current_with_one_pass_is_previous(season_in, variant):
    previous = k.compute_season(replace(season_in, settings=variant))
    one_pass = replace(variant, valuation=k.CURRENT, fixed_point_max_passes=1)
    assert same_lists(k.compute_season(replace(season_in, settings=one_pass)), previous)


@settings(max_examples=40, deadline=None)
@given(seasons(), VARIANTS, st.sampled_from([k.PREVIOUS, k.CURRENT]))
def test_every_variant_breakdown_sums_to_the_score(season_in, variant, valuation):
    variant = replace(variant, valuation=valuation)
    out = k.compute_season(replace(season_in, settings=variant))
    for listed in out.lists:
        for row in listed.rows:
            played = [(n + 1, o[row.player]) for n, o in enumerate(out.outcomes[: listed.after])
                      if row.player in o]  # fmt: skip
            lines = k.score_breakdown(row.player, played, listed.valued, settings=variant,
                                      own=listed.own_weight)  # fmt: skip
            assert sum((x.points for x in lines), F(0)) == row.score
        if listed.end == k.FIXED_POINT:
            assert listed.valued == listed.values()


def lists_by_the_formula(season_in: SeasonIn) -> list[tuple]:
    """The oracle: keizer-variants.md §1.3–1.5 in plain Fractions, player by player and term by
    term, as the spec writes F_k — the score after round k is Σ share × W_k(basis) over the
    terms of rounds 1..k, plus w_own(k) × the own value; the key adds w_start(k) × the start
    points; the list is the players by key, ties in the initial order; passes until the list
    values itself, repeats (then the mean values over the cycle) or the bound."""
    s = season_in.settings
    players = k.ranked_players(season_in)
    place_values = k.values(len(players), s)
    start = k.default_start_points(season_in)
    rounds = k.counted_rounds(season_in.rounds)
    outcomes = [k.round_outcomes(r) for r in rounds]
    withdrawn = season_in.withdrawn if s.withdrawn_credit is not None else frozenset()
    terms = {
        p: k.player_terms(p, [(n + 1, o[p]) for n, o in enumerate(outcomes) if p in o], s,
                          withdrawn)
        for p in players
    }  # fmt: skip
    max_passes = s.fixed_point_max_passes if s.valuation == k.CURRENT else 1

    def values_of(listed):
        return dict(zip(listed, place_values, strict=True))

    def f(after, worth):
        w_own = k.own_weight(after, s)
        w_start = k.list_start_weight(after, len(rounds), season_in.closed, s)
        score = {
            p: sum((t.share * worth.get(t.basis, 0) for t in terms[p]
                    if t.round <= after and t.basis is not None), F(0))
            + w_own * worth[p]
            for p in players
        }  # fmt: skip
        key = {p: score[p] + w_start * start[p] for p in players}
        return sorted(players, key=key.__getitem__, reverse=True), score, key

    found, listed = [], list(players)
    for after in range(len(rounds) + 1):
        seen, end = [listed], k.BOUND
        for passes in range(1, max_passes + 1):  # noqa: B007
            worth = values_of(listed)
            following, score, key = f(after, worth)
            if following == listed:
                end = k.FIXED_POINT
                break
            if following in seen:
                cycle = seen[seen.index(following) :]
                worth = {p: sum(values_of(c)[p] for c in cycle) / F(len(cycle)) for p in players}
                following, score, key = f(after, worth)
                end = k.CYCLE
                break
            seen.append(following)
            listed = following
        listed = following
        found.append((
            [(p, score[p], key[p], v) for p, v in zip(listed, place_values, strict=True)],
            passes, end if s.valuation == k.CURRENT else "", worth,
        ))  # fmt: skip
    return found


@settings(max_examples=100, deadline=None)
@given(
    seasons(),
    VARIANTS,
    st.sampled_from([k.Factors(win=F(2), draw=F(2), loss=F(2)), None]),
    st.sampled_from([100, 2]),
    st.sampled_from([None, F(3, 4)]),
    st.data(),
)
def test_every_list_is_the_formula_of_its_valuation(season_in, variant, flip, bound, credit,
                                                   data):  # fmt: skip
    """The lists (order, scores, keys, values, the values they were valued with, passes and
    how they ended) against the formula evaluated in plain Fractions, with `current`
    valuation (and `previous`); shares of 2 without start points make cycles."""
    variant = replace(variant, valuation=data.draw(st.sampled_from([k.CURRENT, k.PREVIOUS])),
                      fixed_point_max_passes=bound, withdrawn_credit=credit)  # fmt: skip
    if flip is not None:
        variant = replace(variant, factors=flip, start_points=k.NO_START)
    withdrawn = frozenset(data.draw(st.sets(st.sampled_from(season_in.players), max_size=2)))
    season_in = replace(season_in, settings=variant, withdrawn=withdrawn)
    out = k.compute_season(season_in)
    for listed in out.lists:
        event(listed.end or "previous")
    assert [
        ([(r.player, r.score, r.key, r.value) for r in x.rows], x.passes, x.end, dict(x.valued))
        for x in out.lists
    ] == lists_by_the_formula(season_in)
