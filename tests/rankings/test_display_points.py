"""Points on the public pages are written as Django's number_format writes them, rounded
half up, in the reader's language."""

from hypothesis import given, settings
from hypothesis import strategies as st


def test_points_are_written_as_number_format_writes_them():
    from decimal import Decimal

    from django.utils import translation
    from django.utils.formats import number_format

    from rankings.tables import display_points, points_writer, rounded

    values = [0, 1, -1, 0.005, -0.005, 2.675, 1234567.891, 1e-7, 123, Decimal("9.995"), "3.25"]
    for language in ("en", "nl", "sv", "nb"):
        with translation.override(language):
            for value in values:
                for places in (0, 1, 2, 3):
                    expected = number_format(rounded(value, places), decimal_pos=places)
                    assert display_points(value, places) == expected, (language, value, places)
                    # the writer an explanation takes once writes the same
                    assert points_writer()(value, places) == expected, (language, value, places)
    assert display_points(None) == "–"


@settings(max_examples=300, deadline=None)
@given(
    value=st.integers(-(10**9), 10**9)
    | st.floats(-1e9, 1e9, allow_nan=False, allow_infinity=False)
    | st.decimals(-(10**9), 10**9, places=4, allow_nan=False, allow_infinity=False),
    places=st.integers(0, 3),
    language=st.sampled_from(["en", "nl", "sv", "nb"]),
)
def test_points_kept_per_value_are_written_as_number_format_writes_them(value, places, language):
    """display_points keeps what it wrote per value, places and separator: a second call (from
    the cache) and values equal as keys (1 and 1.0) write what number_format writes."""
    from django.utils import translation
    from django.utils.formats import number_format

    from rankings.tables import display_points, rounded

    with translation.override(language):
        expected = number_format(rounded(value, places), decimal_pos=places)
        assert display_points(value, places) == expected
        assert display_points(value, places) == expected
        if value == int(value):
            assert display_points(int(value), places) == expected
