"""Standings as files: CSV (one per table, zipped when several) and spreadsheets.

Every cell that leaves the site in a CSV goes through `neutralise` (OWASP's rule against formula
injection): text that a spreadsheet would run as a formula (it starts with =, +, -, @, a tab or a
carriage return) gets a leading apostrophe, which shows the text as typed. An XLSX needs no
apostrophe: `xlsx_bytes` writes every text as a text cell (a shared string), which a spreadsheet
shows as typed and never runs, so a crosstable's `+S11` reads `+S11`. Numbers stay numbers. Every
CSV is written by `csv_text`, which also quotes a cell holding a CR or an LF: unquoted, a
spreadsheet starts a new row there, and the rest of the cell (a name's "=HYPERLINK(...)" after a CR)
becomes a cell of its own that nothing neutralised. This module is the one writer of every system's
downloads: the zipped tables, the page downloads (CSV, XLSX; no other format is offered) and the
`export_standings` command.
"""

import csv
import datetime
import io
import re
import zipfile
from decimal import Decimal

from django.utils.text import slugify
from django_tables2.export import TableExport
from openpyxl import Workbook
from openpyxl.styles import Font

from competitions.models import Club, Player, SeasonPlayer
from competitions.registry import get_system

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def neutralise(value):
    """The value as a spreadsheet may read it: text that would run as a formula is quoted."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        if not PLAIN_NUMBER.match(value):
            return "'" + value
    return value


def _cell(value) -> str:
    if isinstance(value, list):
        return neutralise(" ".join(str(v) for v in value))
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    return neutralise(str(value))


def csv_text(rows) -> str:
    """The CSV of `rows` (sequences of cells), every text cell neutralised; a cell with a
    separator, a quote, a CR or an LF quoted (the CRLF line ending of RFC 4180 makes the csv
    module quote both)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([neutralise(cell) for cell in row])
    return out.getvalue()


def rows_to_csv(header: tuple[str, ...], rows: list[dict]) -> str:
    return csv_text([header, *([_cell(row.get(name)) for name in header] for row in rows)])


def csv_tables(system: str, document: dict, names: dict | None = None) -> dict[str, str]:
    """The document's tables as CSV files, named after them. With `names` (see
    `names_of`), every table with a player column gets the player's name beside it, one with a
    club column (the prize ceremony's best club) the club's name, and the archive lists the
    players and tournaments by id, for a reader of the files."""
    flat = get_system(system).standings.flat_tables(document)
    files = {}
    for name, (header, rows) in flat.items():
        if names and "player" in header:
            header, rows = _beside(header, rows, "player", "name", names["players"])
        if names and "club" in header:
            header, rows = _beside(header, rows, "club", "club_name", names["club_names"])
        files[f"{slugify(name) or 'table'}.csv"] = rows_to_csv(header, rows)
    if names:
        files["names-players.csv"] = rows_to_csv(
            ("id", "name", "club"),
            [
                {"id": key, "name": name, "club": names["clubs"].get(key, "")}
                for key, name in names["players"].items()
            ],
        )
        files["names-tournaments.csv"] = rows_to_csv(
            ("id", "name", "date"), list(names["tournaments"].values())
        )
    return files


def _beside(header: tuple, rows: list[dict], column: str, added: str, names: dict):
    """The table with a column `added` after `column`: the name of the id it holds."""
    at = header.index(column) + 1
    rows = [{**row, added: names.get(row.get(column), "")} for row in rows]
    return (*header[:at], added, *header[at:]), rows


def names_of(season) -> dict:
    """The names behind a season's ids: its players (with their club's name, `clubs`), the
    series' clubs (`club_names`) and the season's tournaments."""
    clubs = {
        e.player.key: e.club.name
        for e in SeasonPlayer.objects.filter(season=season).select_related("player", "club")
        if e.club
    }
    return {
        "players": dict(
            Player.objects.filter(series_id=season.series_id)
            .order_by("key")
            .values_list("key", "name")
        ),
        "clubs": clubs,
        "club_names": dict(
            Club.objects.filter(series_id=season.series_id).values_list("key", "name")
        ),
        "tournaments": {
            t.key: {"id": t.key, "name": t.name, "date": t.date.isoformat() if t.date else ""}
            for t in season.tournaments.all()
        },
    }


def csv_archive(tables: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in tables.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def _xlsx_value(value):
    """A cell as openpyxl takes it: a number, a date or None as it is, anything else as text
    (a lazy translation, a list)."""
    if value is None or isinstance(value, int | float | Decimal | datetime.date):
        return value
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(value)


def xlsx_bytes(title: str, rows) -> bytes:
    """A one-sheet XLSX of `rows` (sequences of cells; the first is the header, in bold): text
    as text cells, whatever it starts with (openpyxl takes a text starting with "=" for a
    formula; its type is set back to text), numbers as numbers."""
    book = Workbook()
    sheet = book.active
    sheet.title = title
    bold = Font(bold=True)
    for index, row in enumerate(rows):
        sheet.append([_xlsx_value(cell) for cell in row])
        for cell in sheet[index + 1]:
            if isinstance(cell.value, str):
                cell.data_type = "s"
            if index == 0:
                cell.font = bold
    sheet.freeze_panes = "A2"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


class SafeTableExport(TableExport):
    """django-tables2's download of a page's table as XLSX (written by `xlsx_bytes`, text as
    text cells) or CSV (written by `csv_text`, every cell neutralised), the sheet named after
    the page. Only the formats the tables offer (`rankings.tables.BaseTable.export_formats`):
    tablib's others either need packages the site does not install (ODS, XLS, YAML answered
    500) or are no spreadsheet."""

    FORMATS = {f: TableExport.FORMATS[f] for f in (TableExport.XLSX, TableExport.CSV)}

    @classmethod
    def is_valid_format(cls, export_format) -> bool:
        return export_format in cls.FORMATS

    def export(self):
        headers = [self.dataset.headers] if self.dataset.headers else []
        if self.format == TableExport.CSV:
            return csv_text([*headers, *self.dataset])
        return xlsx_bytes(self.dataset.title or "Standings", [*headers, *self.dataset])
