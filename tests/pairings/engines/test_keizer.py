"""Keizer pairing (rules.md §4.3): golden cases, and the pairer against a brute-force reading of
the rules on small inputs (the same pairing, found whenever one exists), plus the rule
properties on generated seasons: no rematch within 7 rounds and no colour-limit breach unless
reported as relaxed, at most 4 meetings, the bye rule, the same input giving the same pairing."""

from functools import cache
from itertools import combinations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pairings.engines.keizer import (
    History,
    NoPairing,
    PastGame,
    Rules,
    pair_round,
    stages,
)


def pairs_of(out):
    return [(p.white, p.black) for p in out.pairs]


# --- golden cases -------------------------------------------------------------------------------


def test_without_history_the_list_pairs_one_two_three_four_higher_ranked_white():
    out = pair_round(number=1, ranking=["a", "b", "c", "d"], history=History())
    assert pairs_of(out) == [("a", "b"), ("c", "d")]
    assert out.bye is None and out.relaxed == ()
    assert out.as_json() == {
        "round": 1,
        "pairs": [
            {"white": "a", "black": "b", "manual": False},
            {"white": "c", "black": "d", "manual": False},
        ],
        "bye": None,
        "relaxed": [],
    }


def test_the_bye_goes_to_the_lowest_ranked_without_a_bye_in_the_previous_seven_rounds():
    history = History(byes=((3, "e"),))
    assert pair_round(number=10, ranking="abcde", history=history).bye == "d"  # 10 - 3 <= 7
    assert pair_round(number=11, ranking="abcde", history=history).bye == "e"  # 11 - 3 = 8


def test_a_volunteer_gets_the_bye():
    out = pair_round(number=1, ranking="abcde", history=History(), volunteer="b")
    assert out.bye == "b" and pairs_of(out) == [("a", "c"), ("d", "e")]
    assert out.relaxed == ()


def test_the_bye_skips_a_player_without_whom_the_others_cannot_be_paired():
    # c and d met last round, but a-c and b-d pair the other four: e has the bye.
    history = History(games=(PastGame(4, "c", "d"), PastGame(4, "a", "e")))
    out = pair_round(number=5, ranking="abcde", history=history)
    assert out.bye == "e"
    history = History(games=(PastGame(4, "a", "b"), PastGame(3, "a", "c"), PastGame(2, "a", "d")))
    out = pair_round(number=5, ranking="abcde", history=history)
    # Without e, a has nobody: a may only play e, so the bye goes up to d.
    assert out.bye == "d" and ("a", "e") in [tuple(sorted(p)) for p in pairs_of(out)]


def test_top_down_gives_the_highest_the_highest_allowed_partner_that_leaves_a_pairing():
    # a-b allowed but then c-d met: a greedy pairer gets stuck; the rule gives a-c, b-d.
    history = History(games=(PastGame(5, "c", "d"),))
    out = pair_round(number=6, ranking="abcd", history=history)
    assert sorted(tuple(sorted(p)) for p in pairs_of(out)) == [("a", "c"), ("b", "d")]


def test_no_rematch_before_round_m_plus_8():
    history = History(games=(PastGame(3, "a", "b"),))
    assert sorted(pairs_of(pair_round(number=10, ranking="abcd", history=history)))[0] != ("a", "b")
    assert pairs_of(pair_round(number=11, ranking="abcd", history=history))[0] == ("b", "a")


def test_a_rematch_reverses_the_colours_of_the_last_meeting():
    history = History(games=(PastGame(1, "a", "b"), PastGame(9, "b", "a")))
    assert pairs_of(pair_round(number=20, ranking="ab", history=history)) == [("a", "b")]


def test_colours_lower_balance_then_black_last_then_higher_ranked():
    # c has had black twice more than white: c gets white against a.
    history = History(games=(PastGame(1, "x", "c"), PastGame(2, "y", "c")))
    assert pairs_of(pair_round(number=3, ranking="ac", history=history)) == [("c", "a")]
    # Equal balance, b had black last: b gets white.
    history = History(games=(PastGame(1, "b", "x"), PastGame(2, "y", "b")))
    assert pairs_of(pair_round(number=3, ranking="ab", history=history)) == [("b", "a")]
    # Equal balance, neither had black last: the higher-ranked gets white.
    history = History(games=(PastGame(1, "a", "x"), PastGame(2, "y", "a"), PastGame(1, "b", "y")))
    history = History(games=history.games + (PastGame(2, "x", "b"),))
    assert pairs_of(pair_round(number=3, ranking="ab", history=history)) == [("a", "b")]


def test_no_third_game_in_a_row_with_the_same_colour():
    # a had white twice (balance 0 after an earlier black): a must not get white a third time.
    history = History(
        games=(
            PastGame(1, "x", "a"),
            PastGame(2, "x", "a"),
            PastGame(3, "a", "y"),
            PastGame(4, "a", "y"),
            PastGame(4, "b", "z"),
        )
    )
    # balances: a 0, b +1 -> a would get white by balance, but that is a's third in a row.
    assert pairs_of(pair_round(number=5, ranking="ab", history=history)) == [("b", "a")]


def test_a_colour_balance_beyond_two_is_not_allowed_then_relaxed():
    history = History(
        games=(
            PastGame(1, "a", "x"),
            PastGame(2, "y", "a"),
            PastGame(3, "a", "x"),
            PastGame(4, "a", "y"),
        )
    )
    history = History(
        games=history.games
        + (
            PastGame(1, "b", "x"),
            PastGame(2, "y", "b"),
            PastGame(3, "b", "x"),
            PastGame(4, "b", "y"),
        )
    )
    # a and b both +2 with white last: whoever gets white reaches +3. Only the relaxation helps.
    out = pair_round(number=5, ranking="ab", history=history)
    assert out.relaxed == ("colours",) and pairs_of(out) == [("a", "b")]


def test_the_rematch_gap_is_relaxed_one_round_at_a_time():
    history = History(games=(PastGame(7, "a", "b"),))
    out = pair_round(number=10, ranking="ab", history=history)
    assert out.relaxed == ("rematch-gap:2",) and pairs_of(out) == [("b", "a")]


def test_four_meetings_are_never_exceeded_and_the_leader_is_told_who_cannot_be_paired():
    history = History(games=tuple(PastGame(r, "a", "b") for r in (1, 9, 17, 25)))
    with pytest.raises(NoPairing) as caught:
        pair_round(number=40, ranking="ab", history=history)
    assert caught.value.unpaired == ("a", "b")
    history = History(games=(PastGame(9, "a", "b"),))
    with pytest.raises(NoPairing):  # met last round: even a gap of 1 forbids it
        pair_round(number=10, ranking="ab", history=history)


def test_the_bye_rule_is_relaxed_first():
    history = History(byes=((9, "a"), (8, "b"), (7, "c")))
    out = pair_round(number=10, ranking="abc", history=history)
    assert out.relaxed == ("bye",) and out.bye == "c"


def test_a_volunteer_who_cannot_be_spared_is_passed_over_and_that_is_reported():
    history = History(games=(PastGame(9, "a", "b"),))
    out = pair_round(number=10, ranking="abc", history=history, volunteer="c")
    assert out.bye != "c" and out.volunteer_passed_over and "bye" in out.relaxed


def test_manual_pairs_go_first_may_break_any_rule_and_say_which():
    history = History(games=(PastGame(9, "a", "b"),))
    out = pair_round(number=10, ranking="abcd", history=history, manual=[("a", "b")])
    manual = [p for p in out.pairs if p.manual]
    assert [(p.white, p.black) for p in manual] == [("b", "a")]  # colours reversed
    assert manual[0].breaks == ("rematch-gap",)
    assert pairs_of(out) == [("b", "a"), ("c", "d")]
    with pytest.raises(ValueError):
        pair_round(number=10, ranking="abcd", history=history, manual=[("a", "x")])
    with pytest.raises(ValueError):
        pair_round(number=10, ranking="abcd", history=history, manual=[("a", "b"), ("b", "c")])


def test_the_relaxation_order_of_step_six():
    names = [(s.bye_relaxed, s.gap, s.colour_limits) for s in stages(Rules(), bye=True)]
    assert names[:3] == [(False, 7, True), (True, 7, True), (True, 6, True)]
    assert names[7] == (True, 1, True) and names[8] == (True, 7, False)
    assert names[-1] == (True, 1, False) and len(names) == 2 + 6 + 7
    assert len(stages(Rules(), bye=False)) == 1 + 6 + 7


# --- an independent, literal reading of §4.3 on small inputs -------------------------------------


def perfect_matching(edges: set, order: dict):
    """Whether a set of players can all be paired along `edges` (exhaustive, memoised)."""

    @cache
    def perfect(left: frozenset) -> bool:
        if not left:
            return True
        u = min(left, key=order.get)
        return any(frozenset((u, v)) in edges and perfect(left - {u, v}) for v in left - {u})

    return perfect


class Literal:
    """rules.md §4.3 read literally, by exhaustive search: slow, obviously right."""

    def __init__(self, number, ranking, history, rules, volunteer):
        self.number, self.ranking, self.rules, self.volunteer = number, ranking, rules, volunteer
        self.games = sorted(history.games, key=lambda g: g.round)
        self.byes = history.byes

    def colours_of(self, p):
        return [("W" if g.white == p else "B") for g in self.games if p in (g.white, g.black)]

    def ok(self, p, colour):
        seq = self.colours_of(p) + [colour]
        balance = seq.count("W") - seq.count("B")
        run = self.rules.colour_run + 1
        return abs(balance) <= self.rules.colour_balance and not (
            len(seq) >= run and len(set(seq[-run:])) == 1
        )

    def meetings(self, a, b):
        return [g for g in self.games if {g.white, g.black} == {a, b}]

    def colours(self, a, b, limits):
        met = self.meetings(a, b)
        if met:
            last = met[-1]
            white, black = last.black, last.white
            if limits and not (self.ok(white, "W") and self.ok(black, "B")):
                return None
            return white, black
        ca, cb = self.colours_of(a), self.colours_of(b)
        ba, bb = ca.count("W") - ca.count("B"), cb.count("W") - cb.count("B")
        if ba != bb:
            pref = (a, b) if ba < bb else (b, a)
        elif (ca[-1:] == ["B"]) != (cb[-1:] == ["B"]):
            pref = (a, b) if ca[-1:] == ["B"] else (b, a)
        else:
            pref = (a, b)
        if not limits:
            return pref
        for white, black in (pref, pref[::-1]):
            if self.ok(white, "W") and self.ok(black, "B"):
                return white, black
        return None

    def allowed(self, a, b, gap, limits):
        met = self.meetings(a, b)
        if len(met) >= self.rules.max_meetings:
            return False
        if any(self.number - g.round <= gap for g in met):
            return False
        return self.colours(a, b, limits) is not None

    def recent_bye(self, p):
        return any(p == q and self.number - r <= self.rules.bye_gap for r, q in self.byes)

    def run(self):
        order = {p: i for i, p in enumerate(self.ranking)}
        odd = len(self.ranking) % 2 == 1
        for stage in stages(self.rules, bye=odd):
            edges = {
                frozenset((a, b))
                for a, b in combinations(self.ranking, 2)
                if self.allowed(a, b, stage.gap, stage.colour_limits)
            }

            perfect = perfect_matching(edges, order)

            everyone = frozenset(self.ranking)
            bye = None
            if odd:
                bottom_up = list(reversed(self.ranking))
                fresh = [p for p in bottom_up if not self.recent_bye(p)]
                first = [self.volunteer] if self.volunteer in order else []
                if stage.bye_relaxed:
                    candidates = first + fresh + bottom_up
                else:
                    candidates = first or fresh
                bye = next((c for c in candidates if perfect(everyone - {c})), None)
                if bye is None:
                    continue
                everyone = everyone - {bye}
            if not perfect(everyone):
                continue
            pairs, left = [], everyone
            while left:
                u = min(left, key=order.get)
                v = next(
                    v
                    for v in sorted(left - {u}, key=order.get)
                    if frozenset((u, v)) in edges and perfect(left - {u, v})
                )
                pairs.append(self.colours(u, v, stage.colour_limits))
                left = left - {u, v}
            return stage, bye, pairs
        return None


@st.composite
def pairing_inputs(draw, max_players: int = 8):
    pool = [f"p{i}" for i in range(draw(st.integers(2, max_players)))]
    rules = draw(
        st.sampled_from(
            [
                Rules(),
                Rules(rematch_gap=3, bye_gap=2),
                Rules(rematch_gap=2, max_meetings=2, colour_balance=1, colour_run=1),
            ]
        )
    )
    number = draw(st.integers(1, 10))
    games, byes = [], []
    for r in range(1, number):
        players = draw(st.lists(st.sampled_from(pool), unique=True))
        if len(players) % 2:
            byes.append((r, players.pop()))
        for i in range(0, len(players), 2):
            games.append(PastGame(r, players[i], players[i + 1]))
    ranking = draw(st.lists(st.sampled_from(pool), unique=True, min_size=1))
    volunteer = draw(st.one_of(st.none(), st.sampled_from(ranking)))
    return number, ranking, History(games=tuple(games), byes=tuple(byes)), rules, volunteer


@given(pairing_inputs())
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_pairing_is_the_one_the_rules_define_and_exists_whenever_one_does(case):
    number, ranking, history, rules, volunteer = case
    expected = Literal(number, ranking, history, rules, volunteer).run()
    try:
        out = pair_round(
            number=number, ranking=ranking, history=history, rules=rules, volunteer=volunteer
        )
    except NoPairing:
        assert expected is None
        return
    assert expected is not None, "paired although the rules allow no pairing"
    stage, bye, pairs = expected
    assert out.bye == bye
    assert pairs_of(out) == sorted(
        pairs, key=lambda p: min(ranking.index(p[0]), ranking.index(p[1]))
    )
    assert ("colours" in out.relaxed) == (not stage.colour_limits)
    gap = next((int(r.split(":")[1]) for r in out.relaxed if r.startswith("rematch-gap:")), None)
    assert gap == (stage.gap if stage.gap < rules.rematch_gap else None)


@given(pairing_inputs(max_players=12))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_rules_hold_unless_reported_relaxed_and_the_same_input_pairs_the_same(case):
    number, ranking, history, rules, volunteer = case
    try:
        out = pair_round(
            number=number, ranking=ranking, history=history, rules=rules, volunteer=volunteer
        )
    except NoPairing:
        return
    again = pair_round(
        number=number, ranking=list(ranking), history=history, rules=rules, volunteer=volunteer
    )
    assert again == out
    literal = Literal(number, ranking, history, rules, volunteer)
    gap = next(
        (int(r.split(":")[1]) for r in out.relaxed if r.startswith("rematch-gap:")),
        rules.rematch_gap,
    )
    seated = [p for pair in pairs_of(out) for p in pair]
    assert sorted(seated + ([out.bye] if out.bye else [])) == sorted(ranking)
    for white, black in pairs_of(out):
        met = literal.meetings(white, black)
        assert len(met) < rules.max_meetings  # never relaxed
        assert all(number - g.round > gap for g in met)
        if "colours" not in out.relaxed:
            assert literal.ok(white, "W") and literal.ok(black, "B")
        if met:
            assert (met[-1].white, met[-1].black) == (black, white)
    breaks_bye_rule = out.bye is not None and (
        out.bye != volunteer if volunteer is not None else literal.recent_bye(out.bye)
    )
    assert ("bye" in out.relaxed) == breaks_bye_rule
    if out.bye is not None and "bye" not in out.relaxed:
        if volunteer is not None:
            assert out.bye == volunteer
        else:
            assert not literal.recent_bye(out.bye)


def test_a_volunteer_outside_the_field_is_ignored():
    out = pair_round(number=1, ranking="abc", history=History(), volunteer="z")
    assert out.bye == "c"


@given(st.integers(2, 40))
@settings(max_examples=30, deadline=None)
def test_without_history_everyone_is_paired_in_list_order(n):
    assume(n % 2 == 0)
    ranking = [f"p{i}" for i in range(n)]
    out = pair_round(number=1, ranking=ranking, history=History())
    assert pairs_of(out) == [(ranking[i], ranking[i + 1]) for i in range(0, n, 2)]
