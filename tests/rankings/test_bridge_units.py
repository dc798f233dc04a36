"""The ladder's stored challenges made from the engine's integer units are the ones made from
its decimals (rankings/systems/bridge/standings.py): the same JSON, number for number."""

from decimal import Decimal

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.systems.bridge import engine as e
from rankings.systems.bridge import standings

D = Decimal
UNIT = 10**e.PLACES
KEYS = [f"p{i}" for i in range(8)]

ratings = st.one_of(
    st.integers(800, 1800).map(D),
    st.decimals(min_value=D(800), max_value=D(1800), places=30),
)
imps = st.one_of(st.none(), st.integers(-300, 300).map(lambda n: D(n) / 4))


@settings(max_examples=200, deadline=None)
@given(
    pool=st.lists(ratings, min_size=1, max_size=6), scores=st.lists(imps, min_size=6, max_size=6)
)
def test_a_challenge_stored_from_units_is_the_one_stored_from_decimals(pool, scores):
    members = KEYS[: len(pool)]
    before = dict(zip(members, pool, strict=False))
    played = {p: v for p, v in zip(members, scores, strict=False) if v is not None}
    lines = e.challenge_changes(members, before, played, e.Settings())
    assert all(line.units is not None for line in lines)
    from_units = standings._challenges(lines)
    from_decimals = [standings._challenge(line) for line in lines]
    assert orjson.dumps(from_units) == orjson.dumps(from_decimals)


@given(
    micro=st.integers(-(10**9), 10**9),
    offset=st.integers(-(10**21), 10**21),
    far=st.integers(0, 10**24 - 1),
)
def test_six_decimals_from_units_are_round_of_the_float_near_a_midpoint_and_away(
    micro, offset, far
):
    half = 10**24 // 2
    for units in (micro * 10**24 + half + offset, micro * 10**24 + far):
        assert standings._six(units) == round(units / UNIT, 6)


@given(st.integers(-(10**36), 10**36))
def test_whole_numbers_from_units_are_the_engines_shown(units):
    assert standings._shown_units(units) == e.shown(D(units).scaleb(-e.PLACES, context=e.CONTEXT))
