"""Standings as files: CSV (one per table, zipped when several) and spreadsheets."""

import csv
import io
import zipfile

from django.utils.text import slugify

from competitions.registry import get_system


def _cell(value) -> str:
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    return repr(value) if isinstance(value, float) else str(value)


def rows_to_csv(header: tuple[str, ...], rows: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([_cell(row.get(name)) for name in header])
    return out.getvalue()


def csv_tables(system: str, document: dict) -> dict[str, str]:
    flat = get_system(system).standings.flat_tables(document)
    return {
        f"{slugify(name) or 'table'}.csv": rows_to_csv(header, rows)
        for name, (header, rows) in flat.items()
    }


def csv_archive(tables: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in tables.items():
            archive.writestr(name, content)
    return buffer.getvalue()
