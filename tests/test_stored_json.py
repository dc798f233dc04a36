"""Stored standings JSON (Django's JSONField) reads back as it was written, on SQLite and
PostgreSQL alike: big integers exactly, keys as strings, text that looks like a number as
text when read as text (KT)."""

import pytest
from django.db import connection
from django.db.models.fields.json import KT

from competitions.models import Player, Season, Series
from rankings.models import StandingsRow, StandingsTable

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    series = Series.objects.create(name="Stored JSON", slug="stored-json", system="keizer")
    return Season.objects.create(series=series, label="2025", name="2025")


def test_what_is_stored_reads_back_the_same(season):
    data = {
        "elo": 2**100 + 1,
        "list": [12345678901234567890123, -(2**70), 1.5, None, True],
        "name": 'Ζήτα "quoted" \\ O\'Hare',
        "by_round": {"1": 2, "10": [3]},
    }
    table = StandingsTable.objects.create(season=season, kind="k", key="", data=data)
    back = StandingsTable.objects.get(pk=table.pk).data
    assert back == data
    assert isinstance(back["elo"], int) and isinstance(back["list"][0], int)


def test_integer_keys_are_read_back_as_strings(season):
    table = StandingsTable.objects.create(season=season, kind="k", data={1: "a", 1001: "b"})
    assert StandingsTable.objects.get(pk=table.pk).data == {"1": "a", "1001": "b"}


def test_a_number_like_key_read_as_text_stays_a_string(season):
    """A member number "1001" as a player key, read from a line's detail by KT, on every
    database (SQLite's JSON extraction alone gives it back as the number 1001)."""
    player = Player.objects.create(series=season.series, key="1001", name="A")
    table = StandingsTable.objects.create(season=season, kind="k")
    StandingsRow.objects.create(
        table=table, season=season, player=player, position=0, detail={"player": "1001"}
    )
    rows = StandingsRow.objects.filter(table=table)
    assert list(rows.values_list(KT("detail__player"), flat=True)) == ["1001"]
    assert list(rows.values_list("detail", flat=True)) == [{"player": "1001"}]


def test_stored_standings_json_is_compressed_with_lz4_where_the_server_has_it():
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
