"""competitions.columns.LocalDateColumn: a date as the page's language writes it, and as a
spreadsheet reads it in a download."""

import datetime

import django_tables2 as tables
from django.utils import translation
from django_tables2.export import TableExport

from competitions.columns import LocalDateColumn


class Evenings(tables.Table):
    number = tables.Column()
    date = LocalDateColumn(kind="weekday_year", default="–")


ROWS = [
    {"number": 1, "date": datetime.date(2026, 12, 4)},
    {"number": 2, "date": "2026-03-09"},  # as stored standings keep a date
    {"number": 3, "date": None},
]


def test_the_page_writes_the_language_s_date():
    with translation.override("nl"):
        shown = [row.get_cell("date") for row in Evenings(ROWS).rows]
    # on one line (no-break spaces): a phone's narrow column broke it into three
    assert shown == ["vr\u00a04\u00a0dec\u00a02026", "ma\u00a09\u00a0mrt\u00a02026", "–"]


def test_a_download_keeps_iso_dates_in_every_language():
    for language in ("en", "nl", "sv", "nb"):
        with translation.override(language):
            csv = TableExport("csv", Evenings(ROWS)).export()
        assert csv.splitlines()[1:] == ["1,2026-12-04", "2,2026-03-09", "3,"], language


def test_a_spreadsheet_gets_date_cells():
    import io

    import openpyxl

    with translation.override("nl"):
        xlsx = TableExport("xlsx", Evenings(ROWS)).export()
    sheet = openpyxl.load_workbook(io.BytesIO(xlsx)).active
    cells = [row[1] for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert [c.date() if c else c for c in cells] == [
        datetime.date(2026, 12, 4),
        datetime.date(2026, 3, 9),
        None,
    ]
