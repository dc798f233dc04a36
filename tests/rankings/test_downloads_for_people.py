"""The CSV and XLSX downloads are for people (issue 46, item 10): numbers as the page shows them
(rounded the same way, still numbers), no page markup, names where the page shows names. The
JSON download keeps the full precision (docs/interchange.md)."""

import csv
import io
import json
import zipfile

import openpyxl
import pytest
from django.urls import reverse

from rankings.imports import import_competition
from rankings.urls_helpers import season_url
from tests.bridge_files import CLUB, ladder_file
from tests.keizer_data import small_file

pytestmark = pytest.mark.django_db


def csv_rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode("utf-8"), newline="")))


def xlsx_rows(response) -> list[list]:
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    return [[cell.value for cell in row] for row in sheet.iter_rows()]


def test_keizer_list_downloads_the_scores_as_the_page_shows_them(client):
    season = import_competition(small_file())
    url = season_url(season)
    rows = csv_rows(client.get(url, {"_export": "csv"}))
    header = rows[0]
    by_name = {row[1]: dict(zip(header, row, strict=True)) for row in rows[1:]}
    scores = {row["Score"] for row in by_name.values()}
    assert "4.67" in scores  # p5's 14/3, not 4.666666666666667
    assert all(len(s.split(".")[-1]) <= 2 for s in scores if "." in s)
    sheet = xlsx_rows(client.get(url, {"_export": "xlsx"}))
    assert 4.67 in [row[sheet[0].index("Score")] for row in sheet[1:]]
    # The JSON keeps the exact number.
    document = json.loads(
        client.get(
            reverse("standings_download", args=[season.series.slug, season.slug, "json"])
        ).content
    )
    assert 14 / 3 in [line["score"] for line in document["standings"]]


@pytest.fixture
def ladder():
    return import_competition(
        ladder_file(
            pools=[["a1", "a2", "a3", "a4", "a5"], CLUB],
            rounds=[
                {
                    "number": 1,
                    "challenges": [
                        {"imps": {"djchili74": 9.5, "Tolie": 4, "HanLaporte": 0.3}},
                        {"imps": {"HanLaporte": 12, "djchili74": 2, "Tolie": -1.5}},
                    ],
                }
            ],
        )
    )


@pytest.mark.parametrize(
    "page", [("elo",), ("round", 1), ("pool", 1, 2)], ids=["elo", "round", "pool"]
)
def test_bridge_downloads_whole_elo_and_no_page_markup(client, ladder, page):
    for fmt, read in (("csv", csv_rows), ("xlsx", xlsx_rows)):
        rows = read(client.get(season_url(ladder, *page), {"_export": fmt}))
        cells = [str(c) for row in rows for c in row]
        assert not any("<" in c for c in cells), (fmt, cells)  # no <details> of the page
        elo = rows[0].index(next(h for h in rows[0] if h.startswith("Elo")))
        for row in rows[1:]:
            assert float(row[elo]).is_integer(), (fmt, row)  # 1300, not 1300.55…


def test_the_pool_download_has_the_imps_as_numbers(client, ladder):
    sheet = xlsx_rows(client.get(season_url(ladder, "pool", 1, 2), {"_export": "xlsx"}))
    imps = sheet[0].index("Total IMPs")
    assert sorted(row[imps] for row in sheet[1:])[-1] == 12.3  # HanLaporte: 0.3 + 12


def test_the_ceremony_file_names_the_best_club(client, season):
    response = client.get(
        reverse("standings_download", args=["belgian-circuit", season.slug, "zip"])
    )
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    rows = csv_rows_of(archive.read("tournament-t1-ceremony.csv"))
    assert rows[0] == ["step", "player", "name", "club", "club_name"]
    club = next(row for row in rows if row[0] == "club")
    assert club[3] in ("c1", "c2")
    assert club[4] == {"c1": "Spelclub Mechelen", "c2": "Gent Speelt"}[club[3]]


def csv_rows_of(content: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(content.decode("utf-8"), newline="")))
