"""chess-othello-options.md §1: the configurable tie-break list. Golden tests: worked examples 1A
(under every unplayed-rounds rule) and 1B, the FIDE TEC tie-break exercise of March 2024, a
published FIDE-2009 case; properties: the default list gives today's table."""

from dataclasses import replace
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.systems.chess import tiebreak_codes as codes
from rankings.engines import chess_tiebreaks as tb
from rankings.engines.chess import (
    RESULTS,
    THREE_TWO_ONE,
    Game,
    GroupIn,
    RoundIn,
    Settings,
    group_scaled,
    group_table,
)

from .chess_today import group_scaled_today

DRAW = "1/2-1/2"


def values(group: GroupIn, codes: str, rule: str = tb.FIDE2023) -> dict[str, dict]:
    """player -> code -> value under the list `codes`."""
    table = group_table(group, Settings(tiebreaks=codes, unplayed_rounds=rule))
    return {r.player: dict(zip(table.codes, r.tiebreaks, strict=True)) for r in table.rows}


def column(group: GroupIn, code: str, rule: str = tb.FIDE2023) -> dict[str, F]:
    return {p: v[code] for p, v in values(group, code, rule).items()}


def places(group: GroupIn, codes: str, rule: str = tb.FIDE2023, **kw) -> list[tuple[int, str]]:
    table = group_table(group, Settings(tiebreaks=codes, unplayed_rounds=rule, **kw))
    return [(r.place, r.player) for r in table.rows]


# --- worked example 1A (§1.7) ------------------------------------------------------------------

EX_1A = GroupIn(
    players=("A", "B", "C", "D", "E", "F"),
    rounds=(
        RoundIn(games=(Game("A", "B", "1-0"), Game("C", "D", DRAW), Game("E", "F", "0-1"))),
        RoundIn(games=(Game("F", "A", "0-1"), Game("D", "E", "+-"), Game("B", "C", "1-0"))),
        RoundIn(games=(Game("A", "D", DRAW), Game("F", "B", "0-1")), walkovers=("C",)),
        RoundIn(games=(Game("C", "A", "0-1"), Game("D", "B", DRAW)), walkovers=("E",)),
    ),
)


def half(x: float) -> F:
    return F(x).limit_denominator(4)


def test_1a_fide2023_bh_cut_and_sb():
    got = values(EX_1A, "BH BH/C1 SB")
    expected = {
        "A": (8, 6.5, 6.75),
        "B": (9, 7.5, 4.25),
        "C": (10, 8.5, 2.75),
        "D": (10, 8.5, 6.25),
        "E": (4.5, 3.5, 1),
        "F": (8, 7, 1),
    }
    for player, (bh, c1, sb) in expected.items():
        assert got[player] == {"BH": half(bh), "BH/C1": half(c1), "SB": half(sb)}, player


def test_1a_adjusted_scores_credit_a_final_absence_as_a_draw():
    comp = tb.Computed(
        tb.Context(
            players=EX_1A.players,
            results=tuple(tuple(r) for r in _results(EX_1A)),
            scale={"win": 4, "draw": 2, "loss": 0},
        )
    )
    assert [F(a, 4) for a in comp.adj] == [F(7, 2), F(5, 2), F(3, 2), F(5, 2), 1, F(3, 2)]
    # E round 2 is a forfeit loss, round 3 an absence before his WO; F round 4 his final absence
    e_items = tb.explain(comp, "BH/C1", 4)
    assert [(it.category, it.vur, it.dummy) for it in e_items] == [
        ("", False, False),
        ("16.2.4", True, True),
        ("16.2.3", True, True),
        ("16.2.1", False, True),
    ]
    assert sum(it.cut == "low" and it.vur for it in e_items) == 1  # a VUR is cut
    assert tb.explain(comp, "BH", 5)[3].category == "16.2.5"


def _results(group: GroupIn):
    from rankings.engines.chess import _scaled_results

    return _scaled_results(group)


def test_1a_nsf_values_are_todays():
    got = values(EX_1A, "MK/C1 MK BK")
    expected = {
        "A": (6.5, 7.5, 6.25),
        "B": (7.5, 8.5, 3.75),
        "C": (8.5, 8.5, 1.25),
        "D": (7.5, 7.5, 3.75),
        "E": (1, 1, 0),
        "F": (7, 7, 1),
    }
    for player, (c1, mk, bk) in expected.items():
        assert got[player] == {"MK/C1": half(c1), "MK": half(mk), "BK": half(bk)}, player


def test_1a_other_codes():
    got = values(EX_1A, "WIN WON BPG REP PS")
    expected = {
        "A": (3, 3, 2, 4, 9),
        "B": (2, 2, 3, 4, 5.5),
        "C": (1, 0, 1, 4, 4),
        "D": (1, 0, 2, 4, 6.5),
        "E": (1, 0, 0, 2, 1),
        "F": (1, 1, 1, 3, 4),
    }
    for player, row in expected.items():
        codes = ("WIN", "WON", "BPG", "REP", "PS")
        assert tuple(got[player][c] for c in codes) == tuple(half(v) for v in row), player


def test_1a_fide2026_caps_only_ds_forfeit_win():
    got = values(EX_1A, "BH BH/C1 SB", tb.FIDE2026)
    assert got["D"] == {"BH": F(17, 2), "BH/C1": F(15, 2), "SB": F(19, 4)}
    before = values(EX_1A, "BH BH/C1 SB")
    assert {p: v for p, v in got.items() if p != "D"} == {
        p: v for p, v in before.items() if p != "D"
    }


def test_1a_fide2009_virtual_opponents():
    assert column(EX_1A, "BH", tb.FIDE2009) == {
        "A": 7,
        "B": 8,
        "C": 9,
        "D": F(17, 2),
        "E": 5,
        "F": F(19, 2),
    }


@pytest.mark.parametrize(
    ("codes", "rule", "second", "third"),
    [
        ("NSF", tb.FIDE2023, "B", "D"),
        ("FIDE-SWISS", tb.FIDE2023, "D", "B"),
        ("FIDE-SWISS", tb.FIDE2026, "B", "D"),
        ("FIDE-SWISS", tb.FIDE2009, "D", "B"),
    ],
)
def test_1a_the_b_d_tie_under_each_list(codes, rule, second, third):
    ranked = places(EX_1A, codes, rule)
    assert ranked[1:3] == [(2, second), (3, third)]
    assert ranked[4:] == [(5, "F"), (6, "E")]


def test_1a_de_puts_f_above_e():
    assert places(EX_1A, "DE")[4:] == [(5, "F"), (6, "E")]


# --- worked example 1B (§1.8) ------------------------------------------------------------------

MATRIX_1B = {
    ("A", "B"): 1,
    ("A", "C"): 0,
    ("A", "D"): 1,
    ("A", "E"): 1,
    ("A", "F"): 0,
    ("B", "C"): 1,
    ("B", "D"): 1,
    ("B", "E"): 0,
    ("B", "F"): 1,
    ("C", "D"): 0,
    ("C", "E"): 1,
    ("C", "F"): 1,
    ("D", "E"): 1,
    ("D", "F"): 1,
    ("E", "F"): F(1, 2),
}


def round_robin(players: tuple[str, ...], score) -> GroupIn:
    """A single round robin by the circle method; `score(white, black)` is white's points."""
    seats = list(players)
    rounds = []
    for _ in range(len(players) - 1):
        games = []
        for k in range(len(seats) // 2):
            white, black = seats[k], seats[-1 - k]
            result = {1: "1-0", 0: "0-1", F(1, 2): DRAW}[score(white, black)]
            games.append(Game(white, black, result))
        rounds.append(RoundIn(games=tuple(games)))
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return GroupIn(players=players, rounds=tuple(rounds))


EX_1B = round_robin(
    ("A", "B", "C", "D", "E", "F"),
    lambda w, b: MATRIX_1B[(w, b)] if (w, b) in MATRIX_1B else 1 - MATRIX_1B[(b, w)],
)


def test_1b_nsf():
    assert places(EX_1B, "NSF") == [(1, "A"), (1, "B"), (3, "C"), (3, "D"), (5, "E"), (5, "F")]
    got = values(EX_1B, "NSF")
    assert {p: v["BK"] for p, v in got.items()} == {
        "A": F(15, 2),
        "B": F(15, 2),
        "C": 6,
        "D": 6,
        "E": F(15, 4),
        "F": F(15, 4),
    }
    assert {v["MK"] for p, v in got.items() if p in "ABCD"} == {12}
    assert {v["MK/C1"] for p, v in got.items() if p in "ABCD"} == {F(21, 2)}


def test_1b_fide_rr_direct_encounter_reapplied():
    assert places(EX_1B, "FIDE-RR") == [
        (1, "A"),
        (2, "B"),
        (3, "D"),
        (4, "C"),
        (5, "E"),
        (5, "F"),
    ]
    got = values(EX_1B, "FIDE-RR")
    assert {p: got[p]["DE"] for p in "ABCDEF"} == {
        "A": 1,
        "B": 2,
        "C": 4,
        "D": 3,
        "E": 1,  # E and F drew each other: one tier
        "F": 1,
    }
    assert got["E"]["WIN"] == got["F"]["WIN"] == 1
    assert got["E"]["SB"] == got["F"]["SB"] == F(15, 4)
    assert got["E"]["KS"] == got["F"]["KS"] == 1


def test_1b_a_lot_orders_the_final_ties_reproducibly():
    group = replace(EX_1B, tiebreak_seed=12345)
    first = places(group, "FIDE-RR", final_ties=tb.LOT)
    assert first[:4] == [(1, "A"), (2, "B"), (3, "D"), (4, "C")]
    assert sorted(first[4:]) == [(5, first[4][1]), (6, first[5][1])]
    assert places(group, "FIDE-RR", final_ties=tb.LOT) == first


def test_de_monrad_example_leaves_a_player_who_could_still_catch_up_tied():
    """§1.4.1 example: A beat B, C met neither; DE leaves all three tied, DE after a code that
    split C off puts A above B."""
    comp = _comp(
        GroupIn(
            players=("A", "B", "C", "X", "Y"),
            rounds=(RoundIn(games=(Game("A", "B", "1-0"), Game("C", "X", "1-0"))),),
        )
    )
    assert tb.direct_encounter(comp, [0, 1, 2], False) == [[0, 1, 2]]
    assert tb.direct_encounter(comp, [0, 1], False) == [[0], [1]]


def _comp(group: GroupIn) -> tb.Computed:
    return tb.Computed(
        tb.Context(
            players=group.players,
            results=tuple(tuple(r) for r in _results(group)),
            scale={"win": 4, "draw": 2, "loss": 0},
        )
    )


# --- the FIDE TEC tie-break exercise, March 2024 (EX) ------------------------------------------

# The crosstable as transcribed in marceljuenemann/tiebreak (src/__tests__/testcases/
# fide-exercise-2023.csv at 250ba71): per player and round, +/=/- then W/B (colour), F (forfeit)
# or BYE (+BYE a pairing-allocated bye, =BYE a half-point bye), then the opponent; "--" absent.
EXERCISE = """\
1,+W9,=B13,=W2,+B15,=W4
2,+B10,+W7,=B1,+W16,=B3
3,=W11,+B6,+W8,=B4,=W2
4,+B12,=BYE,+W13,=W3,=B1
5,-W13,-B15,+W11,=B7,+W10
6,-B14,-W3,+BYE,+W10,+B8
7,+W15,-B2,-B16,=W5,-B11
8,=B16,+W14,-B3,+W13,-W6
9,-B1,-W10,=BYE,-F11,+BYE
10,-W2,+B9,-W15,-B6,-B5
11,=B3,-W16,-B5,+F9,+W7
12,-W4,+BYE,+F14,--,--
13,+B5,=W1,-B4,-B8,-W14
14,+W6,-B8,-F12,--,+B13
15,-B7,+W5,+B10,-W1,-B16
16,=W8,+B11,+W7,-B2,+W15
"""


def exercise() -> GroupIn:
    lines = [line.split(",") for line in EXERCISE.splitlines()]
    players = tuple(str(n) for n in range(1, 17))
    rounds = []
    for r in range(5):
        games, walkovers, half_byes, seen = [], [], [], set()
        for line in lines:
            me, cell = line[0], line[1 + r]
            sign = cell[0]
            if cell == "--":
                continue
            if cell[1:] == "BYE":
                (walkovers if sign == "+" else half_byes).append(me)
                continue
            opponent = cell[2:]
            if opponent in seen:
                continue
            seen.add(me)
            if cell[1] == "F":
                games.append(Game(me, opponent, "+-" if sign == "+" else "-+"))
            else:
                white, black = (me, opponent) if cell[1] == "W" else (opponent, me)
                mine = {"+": 1, "=": F(1, 2), "-": 0}[sign]
                white_points = mine if white == me else 1 - mine
                games.append(Game(white, black, {1: "1-0", 0: "0-1", F(1, 2): DRAW}[white_points]))
        rounds.append(
            RoundIn(games=tuple(games), walkovers=tuple(walkovers), half_byes=tuple(half_byes))
        )
    return GroupIn(players=players, rounds=tuple(rounds))


def test_exercise_points():
    table = group_table(exercise(), Settings(tiebreaks="FIDE-SWISS"))
    points = {r.player: r.points for r in table.rows}
    assert points["1"] == F(7, 2) and points["2"] == 4 and points["4"] == F(7, 2)
    assert points["9"] == F(3, 2) and points["12"] == 2 and points["14"] == 2


def test_exercise_buchholz_published_values_under_fide2023():
    """The 21 values published with the exercise, as marceljuenemann/tiebreak's tests
    (src/__tests__/tiebreak.test.ts at 52cae80, "FIDE exercise 1-8") quote them."""
    got = values(exercise(), "BH BH/C1")
    published_bh = {
        "1": 12.5,
        "2": 13,
        "3": 15.5,
        "4": 15,
        "5": 8.5,
        "8": 13.5,
        "11": 13.5,
        "16": 12.5,
    }
    for player, bh in published_bh.items():
        assert got[player]["BH"] == half(bh), player
    published_c1 = {"5": 7.5, "8": 12, "11": 12, "7": 12.5, "9": 7.5, "13": 12, "1": 11}
    published_c1.update({"3": 13, "4": 11.5, "16": 11, "12": 9.5, "14": 9, "15": 11})
    for player, c1 in published_c1.items():
        assert got[player]["BH/C1"] == half(c1), player


def test_exercise_half_point_byes_are_vurs_and_count_a_draw():
    comp = _comp(exercise())
    four = tb.explain(comp, "BH", 3)  # player 4: half-point bye in round 2, then played on
    assert four[1].dummy and four[1].vur and four[1].category == "16.2.3"
    assert four[1].s == 2  # a draw, in quarters
    assert tb.value(comp, "REP", 3) == 4


# --- FIDE 2009, the published case of marceljuenemann/tiebreak -------------------------------


def test_fide2009_virtual_opponent_of_a_forfeit():
    group = GroupIn(
        players=("A", "B"),
        rounds=(RoundIn(games=(Game("A", "B", "1-0"),)), RoundIn(games=(Game("A", "B", "+-"),))),
        group_format=tb.MONRAD,  # two players who met: a round robin unless told otherwise
    )
    assert column(group, "BH", tb.FIDE2009) == {"A": F(3, 2), "B": F(5, 2)}


# --- the list: validation and macros -----------------------------------------------------------


def test_validation_names_what_is_wrong():
    assert codes.validate("NSF") == []
    assert codes.validate("bh/c1 BH sb ge de DE ks/l+3 aro/c1") == []
    assert codes.validate("BH XYZ") == [(codes.UNKNOWN, ["XYZ"])]
    assert codes.validate("BH BH") == [(codes.TWICE, ["BH"])]
    assert codes.validate("FIDE-SWISS SB") == [(codes.TWICE, ["SB"])]
    assert codes.validate(" ".join(["WIN"] + ["DE"] * 12)) == [(codes.TOO_MANY, ["DE"])]
    assert codes.validate("") == [(codes.EMPTY, [])]


def test_macros_expand_in_place():
    assert tb.expand("NSF", 5) == ("MK/C1", "MK", "BK")
    assert tb.expand("NSF", 7) == ("MK/C2", "MK/C1", "MK", "BK")
    assert tb.expand("DE fide-rr", 5) == ("DE", "DE", "WIN", "SB", "KS")
    assert tb.expand("FIDE-SWISS-RATED", 5)[3] == "ARO/C1"


def test_aro_rounds_half_up_and_cut_one_leaves_out_the_lowest():
    group = GroupIn(
        players=("a", "b", "c", "d"),
        rounds=(
            RoundIn(games=(Game("a", "b", "1-0"), Game("c", "d", "1-0"))),
            RoundIn(games=(Game("a", "c", "1-0"), Game("b", "d", "1-0"))),
        ),
        ratings={"b": 1500, "c": 1601, "d": None},
    )
    got = values(group, "ARO ARO/C1")
    assert got["a"] == {"ARO": 1551, "ARO/C1": 1601}  # 1550.5 rounds up
    assert got["d"] == {"ARO": 1551, "ARO/C1": 1601}
    assert got["b"] == {"ARO": 0, "ARO/C1": 0}  # both opponents unrated or none
    table = group_table(group, Settings(tiebreaks="ARO", aro_unrated=1000))
    assert {r.player: r.tiebreaks[0] for r in table.rows}["b"] == 1000


# --- properties: the defaults give today's table ----------------------------------------------


@st.composite
def groups(draw):
    size = draw(st.integers(2, 9))
    players = tuple(f"p{i}" for i in range(size))
    rounds = []
    for _ in range(draw(st.integers(0, 9))):
        order = draw(st.permutations(players))
        present = order[: draw(st.integers(0, size))]
        games = []
        for k in range(0, len(present) - 1, 2):
            games.append(Game(present[k], present[k + 1], draw(st.sampled_from((*RESULTS, "")))))
        walkovers = (present[-1],) if len(present) % 2 else ()
        rounds.append(RoundIn(games=tuple(games), walkovers=walkovers))
    scale = draw(st.sampled_from(("1-half-0", THREE_TWO_ONE)))
    return GroupIn(players=players, scale=scale, rounds=tuple(rounds))


def _table(scaled):
    return [
        (r.player, r.start, r.place, r.points, r.monrad, r.berger, r.cells, r.values, r.cuts)
        for r in scaled.rows
    ]


@settings(max_examples=150, deadline=None)
@given(groups(), st.integers(2, 9))
def test_the_default_list_gives_todays_table(group, long_from):
    config = Settings(monrad_long_from=long_from)
    assert _table(group_scaled(group, config)) == _table(group_scaled_today(group, config))


@settings(max_examples=150, deadline=None)
@given(groups(), st.integers(2, 9))
def test_todays_list_spelled_out_ranks_as_the_default(group, long_from):
    """The general path (the NSF codes computed one by one) agrees with today's."""
    today = group_scaled(group, Settings(monrad_long_from=long_from))
    codes = " ".join(today.codes)
    spelled = group_scaled(group, Settings(monrad_long_from=long_from, final_ties=tb.LOT))
    assert spelled.codes == today.codes
    # with no seed the lot decides nothing: the general path alone
    assert _table(spelled) == _table(today)
    assert [r.tiebreaks for r in spelled.rows] == [r.tiebreaks for r in today.rows]
    assert codes
