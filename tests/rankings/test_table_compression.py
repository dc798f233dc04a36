"""Stored tables' data is compressed with lz4 on a PostgreSQL that has it (migration
rankings/0010): a large stored tournament is written again at every change, and pglz took a
quarter of that statement."""

import pytest
from django.db import connection

from rankings.models import StandingsTable


@pytest.mark.django_db
def test_stored_table_data_is_compressed_with_lz4_where_the_server_has_it():
    if connection.vendor != "postgresql":
        pytest.skip("a PostgreSQL column setting")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
        )
        row = cursor.fetchone()
        if not (row and row[0]):
            pytest.skip("this PostgreSQL has no lz4")
        cursor.execute(
            "SELECT attcompression FROM pg_attribute WHERE attrelid = %s::regclass "
            "AND attname = 'data'",
            [StandingsTable._meta.db_table],
        )
        assert cursor.fetchone()[0] == "l"
