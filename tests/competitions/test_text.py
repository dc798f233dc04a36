"""competitions.text: a stored number as a form field shows it (plain_number), a date as the
reader's language writes it (local_date)."""

import datetime
from decimal import Decimal

from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from competitions.text import DATE_FORMATS, local_date, plain_number


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


def test_dates_as_each_language_writes_them():
    day = datetime.datetime(2026, 12, 4, 18, 40)
    expected = {
        "en": ["4 Dec 2026", "4 Dec 2026, 18:40", "Fri 4 Dec", "Friday 4 December 2026"],
        "nl": ["4 dec 2026", "4 dec 2026, 18:40", "vr 4 dec", "vrijdag 4 december 2026"],
        "sv": ["4 dec 2026", "4 dec 2026 kl. 18:40", "fre 4 dec", "fredag 4 december 2026"],
        "nb": ["4. des. 2026", "4. des. 2026 kl. 18:40", "fre 4. des.", "fredag 4. desember 2026"],
    }
    for language, dates in expected.items():
        with translation.override(language):
            kinds = ("date", "date_time", "weekday", "long")
            assert [local_date(day, kind) for kind in kinds] == dates
            assert local_date(None) == ""
    with translation.override("sv"):
        assert local_date(datetime.date(2026, 3, 9)) == "9 mars 2026"
        assert local_date("2026-03-09", "day_month") == "9 mars"  # as stored standings keep it
        assert local_date("2026/27") == "2026/27"  # not a date: as it is
    assert set(DATE_FORMATS) == {
        "date",
        "date_time",
        "day_month",
        "weekday",
        "weekday_year",
        "long",
    }
