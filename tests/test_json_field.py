"""Stored JSON is written (rankings.services._dumps) and read (competitions.fields.JSONField)
with orjson where that is exact, and with the json module where it is not."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from competitions.fields import JSONField
from rankings.services import _dumps

values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**140), max_value=2**140)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


def _read(text):
    return JSONField().from_db_value(text, None, None)


@given(values)
def test_what_is_written_reads_back_the_same(value):
    text = _dumps(value)
    assert json.loads(text) == value
    back = _read(text)
    assert back == value and json.dumps(back) == json.dumps(value)


def test_a_big_integer_stays_exact():
    value = {"elo": 2**100 + 1, "list": [12345678901234567890123]}
    assert _read(_dumps(value)) == value
    assert isinstance(_read(_dumps(value))["elo"], int)


def test_integer_keys_are_written_as_json_writes_them():
    assert _dumps({1: "a", "b": [1.5, None]}) == '{"1":"a","b":[1.5,null]}'


def test_what_orjson_refuses_is_read_as_django_reads_it():
    assert _read('{"x": NaN}')["x"] != _read('{"x": NaN}')["x"]  # json.loads: a NaN
    assert _read("not json") == "not json"
    assert _read(None) is None


@pytest.mark.django_db
def test_stored_standings_json_is_compressed_with_lz4_where_the_server_has_it():
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
        )
        (offered,) = cursor.fetchone()
        cursor.execute(
            "SELECT attname, attcompression FROM pg_attribute WHERE attname IN ('data', 'detail')"
            " AND attrelid IN ('rankings_standingstable'::regclass,"
            " 'rankings_standingsrow'::regclass)"
        )
        found = dict(cursor.fetchall())
    assert found == ({"data": "l", "detail": "l"} if offered else {"data": "", "detail": ""})
