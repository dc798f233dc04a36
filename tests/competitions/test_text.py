"""competitions.text.plain_number: a stored number as a form field shows it."""

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from competitions.text import plain_number


def test_plain_numbers_as_a_person_types_them():
    assert plain_number(None) == ""
    assert plain_number(Decimal("12.5000")) == "12.5"
    assert plain_number(Decimal("100.0000")) == "100"  # not "1E+2"
    assert plain_number(Decimal("-0.00")) == "0"
    assert plain_number(Decimal("-3.25")) == "-3.25"
    assert plain_number(7) == "7"


@given(
    st.decimals(
        allow_nan=False, allow_infinity=False, places=4, min_value=-(10**7), max_value=10**7
    )
)
def test_a_plain_number_reads_back_as_the_same_number(value):
    text = plain_number(value)
    assert Decimal(text) == value
    assert set(text) <= set("-0123456789.")  # no exponent, no comma, no grouping
    assert not text.endswith(".") and not (("." in text) and text.endswith("0"))
