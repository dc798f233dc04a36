"""Stored tables' data compressed with lz4 instead of PostgreSQL's default pglz, where the server
has it (PostgreSQL 14 and later, built with lz4, as Debian's and the official images are).

A stored tournament of 2000 players is about 1 MB of JSON: a change writes it again, and pglz
took 13 of the 46 ms of that statement (measured on the benchmark's largest circuit season);
lz4 compresses it to about the same size. Values stored before keep their compression until
they are written again. Nothing changes on other databases, or where lz4 is missing."""

from django.db import migrations


def _has_lz4(cursor) -> bool:
    cursor.execute(
        "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
    )
    row = cursor.fetchone()
    return bool(row and row[0])


def _set(method: str):
    def run(apps, schema_editor):
        connection = schema_editor.connection
        if connection.vendor != "postgresql":
            return
        table = apps.get_model("rankings", "StandingsTable")._meta.db_table
        with connection.cursor() as cursor:
            if not _has_lz4(cursor):
                return
            cursor.execute(f'ALTER TABLE "{table}" ALTER COLUMN "data" SET COMPRESSION {method}')

    return run


class Migration(migrations.Migration):
    dependencies = [("rankings", "0009_row_indexes_covered")]

    operations = [migrations.RunPython(_set("lz4"), _set("DEFAULT"), elidable=False)]
