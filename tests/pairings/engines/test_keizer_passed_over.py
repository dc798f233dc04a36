"""Why the Keizer pairer passed over nearer players (issue 46, item 15): every top-down pair lists
the players ranked between its two with the reason the higher one did not get them. Constructed
cases for each reason, and on generated seasons every reason checked against the literal reading
of rules.md §4.3 in test_keizer.py (the pairs themselves are checked there)."""

from itertools import combinations

from hypothesis import HealthCheck, given, settings

from pairings.engines.keizer import (
    BALANCE,
    COLOURS,
    HAS_BYE,
    MANUAL,
    MET_OFTEN,
    MET_RECENTLY,
    NOT_FREE,
    PAIRED_HIGHER,
    REST_NEEDED,
    RUN,
    ColourClash,
    History,
    NoPairing,
    PastGame,
    Refusal,
    pair_round,
)
from tests.pairings.engines.test_keizer import Literal, pairing_inputs, perfect_matching


def reasons(pair):
    return [(p.player, p.why) for p in pair.passed_over]


def test_a_rematch_within_the_gap_names_the_round_they_met():
    out = pair_round(number=10, ranking="abcd", history=History(games=(PastGame(9, "b", "a"),)))
    first, second = out.pairs
    assert (first.white, first.black) == ("a", "c")
    assert reasons(first) == [("b", Refusal(MET_RECENTLY, round=9))]
    assert not first.nearest
    # b's nearest free player is d: c is a's already, which is no rule against b-d.
    assert reasons(second) == [("c", Refusal(PAIRED_HIGHER, partner="a"))]
    assert second.nearest


def test_a_fifth_meeting_names_the_number_of_meetings():
    games = tuple(PastGame(r, "a", "b") for r in (1, 9, 17, 25))
    out = pair_round(number=40, ranking="abcd", history=History(games=games))
    assert reasons(out.pairs[0]) == [("b", Refusal(MET_OFTEN, meetings=4))]


def test_colours_name_the_limit_each_player_would_break():
    # a and b: white, black, black. Each may not have a third black, so neither can be black.
    history = History(
        games=(
            PastGame(1, "a", "x"),
            PastGame(2, "y", "a"),
            PastGame(3, "y", "a"),
            PastGame(1, "b", "y"),
            PastGame(2, "x", "b"),
            PastGame(3, "x", "b"),
        )
    )
    out = pair_round(number=4, ranking="abcd", history=history)
    first = next(p for p in out.pairs if "a" in (p.white, p.black))
    assert reasons(first) == [
        (
            "b",
            Refusal(
                COLOURS,
                clashes=(ColourClash("b", "black", RUN, 3), ColourClash("a", "black", RUN, 3)),
            ),
        )
    ]


def test_colours_of_a_balance_beyond_two():
    # a and b: two more whites than blacks; white would make three for either.
    history = History(
        games=(
            PastGame(1, "a", "x"),
            PastGame(2, "y", "a"),
            PastGame(3, "a", "x"),
            PastGame(4, "a", "y"),
            PastGame(5, "x", "a"),
            PastGame(6, "a", "y"),
            PastGame(5, "b", "x"),
            PastGame(6, "b", "y"),
        )
    )
    out = pair_round(number=7, ranking="abcd", history=history)
    (passed,) = out.pairs[0].passed_over
    assert passed.why == Refusal(
        COLOURS,
        clashes=(ColourClash("a", "white", BALANCE, 3), ColourClash("b", "white", BALANCE, 3)),
    )


def test_a_rematch_whose_reversed_colours_break_a_limit_names_the_round_it_reverses():
    # a had white against b in round 1; reversed, b would be white a third time in a row.
    history = History(games=(PastGame(1, "a", "b"), PastGame(18, "b", "x"), PastGame(19, "b", "y")))
    out = pair_round(number=20, ranking="abcd", history=history)
    assert reasons(out.pairs[0]) == [
        ("b", Refusal(COLOURS, round=1, clashes=(ColourClash("b", "white", RUN, 3),)))
    ]


def test_an_allowed_player_passed_over_because_the_others_could_not_all_be_paired_then():
    # a-b is allowed, but c and d met last round: a gets c so that b and d can play.
    out = pair_round(number=6, ranking="abcd", history=History(games=(PastGame(5, "c", "d"),)))
    first, second = out.pairs
    assert reasons(first) == [("b", Refusal(REST_NEEDED))]
    assert reasons(second) == [("c", Refusal(PAIRED_HIGHER, partner="a"))]
    assert not first.nearest and second.nearest


def test_manual_pairs_and_the_bye_are_not_free_and_leave_the_pair_the_nearest():
    out = pair_round(number=1, ranking="abcdefg", history=History(), manual=[("b", "c")])
    assert out.bye == "g"
    top = next(p for p in out.pairs if p.white == "a")
    assert (top.white, top.black) == ("a", "d")
    assert reasons(top) == [
        ("b", Refusal(MANUAL, partner="c")),
        ("c", Refusal(MANUAL, partner="b")),
    ]
    assert top.nearest
    manual = next(p for p in out.pairs if p.manual)
    assert manual.passed_over == () and manual.nearest
    out = pair_round(number=1, ranking="abcde", history=History(), volunteer="b")
    assert reasons(out.pairs[0]) == [("b", Refusal(HAS_BYE))]
    assert out.pairs[0].nearest


def test_without_history_every_pair_is_the_nearest_and_passes_nobody_over():
    out = pair_round(number=1, ranking="abcdef", history=History())
    assert all(p.passed_over == () and p.nearest for p in out.pairs)


# --- every reason true, on generated seasons ----------------------------------------------------


def check_clash(literal: Literal, clash: ColourClash) -> None:
    """The clash is what the literal reading says giving that colour would do."""
    rules = literal.rules
    colour = "W" if clash.colour == "white" else "B"
    seq = literal.colours_of(clash.player) + [colour]
    assert not literal.ok(clash.player, colour)
    if clash.limit == BALANCE:
        assert seq.count("W") - seq.count("B") == clash.value
        assert abs(clash.value) > rules.colour_balance
    else:
        assert clash.limit == RUN and clash.value == rules.colour_run + 1
        assert set(seq[-clash.value :]) == {colour} and len(seq) >= clash.value


@given(pairing_inputs(max_players=10))
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_every_reported_reason_is_true_and_every_player_in_between_has_one(case):
    number, ranking, history, rules, volunteer = case
    try:
        out = pair_round(
            number=number, ranking=ranking, history=history, rules=rules, volunteer=volunteer
        )
    except NoPairing:
        return
    literal = Literal(number, ranking, history, rules, volunteer)
    gap = next(
        (int(r.split(":")[1]) for r in out.relaxed if r.startswith("rematch-gap:")),
        rules.rematch_gap,
    )
    limits = "colours" not in out.relaxed
    order = {p: i for i, p in enumerate(ranking)}
    edges = {
        frozenset(pair) for pair in combinations(ranking, 2) if literal.allowed(*pair, gap, limits)
    }
    perfect = perfect_matching(edges, order)
    left = frozenset(ranking) - {out.bye}
    partner = {}
    for pair in out.pairs:  # board order: the order step 3 paired them (no manual pairs here)
        high, low = sorted((pair.white, pair.black), key=order.get)
        assert [p.player for p in pair.passed_over] == ranking[order[high] + 1 : order[low]]
        for passed in pair.passed_over:
            other, why = passed.player, passed.why
            met = literal.meetings(high, other)
            if why.rule == HAS_BYE:
                assert other == out.bye
                continue
            if why.rule == PAIRED_HIGHER:
                assert other not in left and partner[other] == why.partner
                assert order[why.partner] < order[high]
                continue
            assert other in left and why.rule not in NOT_FREE
            if why.rule == MET_OFTEN:
                assert len(met) == why.meetings >= rules.max_meetings
            elif why.rule == MET_RECENTLY:
                assert met and met[-1].round == why.round and number - why.round <= gap
            elif why.rule == COLOURS:
                assert limits and literal.colours(high, other, limits=True) is None
                assert why.clashes and {c.player for c in why.clashes} <= {high, other}
                for clash in why.clashes:
                    check_clash(literal, clash)
                if met:  # a rematch: the colours of its last meeting reversed
                    assert why.round == met[-1].round
                    reversed_ = {met[-1].black: "white", met[-1].white: "black"}
                    assert all(reversed_[c.player] == c.colour for c in why.clashes)
            else:
                assert why.rule == REST_NEEDED
                assert frozenset((high, other)) in edges
                assert not perfect(left - {high, other})
        assert pair.nearest == all(p.why.rule in NOT_FREE for p in pair.passed_over)
        partner[low], partner[high] = high, low
        left = left - {high, low}
