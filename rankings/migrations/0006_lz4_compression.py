"""Stored standings JSON compressed with lz4 instead of pglz where the server offers it
(PostgreSQL 14 and later, built with lz4): a page that reads part of a large stored table (the
circuit's tournament day, about 1 MB at 2000 players) unpacks it about twice as fast. Values
already stored keep their compression until they are written again (every recompute writes
them). Elsewhere (SQLite, an older server, a server without lz4) nothing changes."""

from django.db import migrations

COLUMNS = (("rankings_standingstable", "data"), ("rankings_standingsrow", "detail"))


def lz4(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql" or connection.pg_version < 140000:
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
        )
        row = cursor.fetchone()
        if not row or not row[0]:
            return  # a server built without lz4
        for table, column in COLUMNS:
            cursor.execute(f'ALTER TABLE "{table}" ALTER COLUMN "{column}" SET COMPRESSION lz4')


def pglz(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql" or connection.pg_version < 140000:
        return
    with connection.cursor() as cursor:
        for table, column in COLUMNS:
            cursor.execute(f'ALTER TABLE "{table}" ALTER COLUMN "{column}" SET COMPRESSION pglz')


class Migration(migrations.Migration):
    dependencies = [("rankings", "0005_orjson_fields")]

    operations = [migrations.RunPython(lz4, pglz, elidable=True)]
