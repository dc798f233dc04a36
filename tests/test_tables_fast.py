"""The one-pass table body (competitions/templatetags/tables_fast.py) writes what
django-tables2's own template writes, and the cached signature answers as inspect does."""

import functools
import re

import django_tables2 as tables
import django_tables2.utils as tables_utils
import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils.html import format_html
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions import signature_cache
from tests.helpers import without_csrf


def _cells(html: str) -> list[str]:
    """Rows and cells of a rendered table body, whitespace between tags dropped."""
    body = html.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", body)).strip().split("</tr>")


class Sample(tables.Table):
    name = tables.Column(attrs={"td": {"class": "who", "data-len": lambda value: len(value)}})
    score = tables.Column(localize=True)
    plain = tables.Column(localize=False)
    link = tables.Column(linkify=lambda record: f"/p/{record['name']}/")
    html = tables.Column(empty_values=())

    def render_html(self, record):
        return format_html("<b>{}</b>", record["name"])

    class Meta:
        row_attrs = {"data-name": lambda record: record["name"]}


ROWS = [
    {"name": "<Ann & Bo>", "score": 1234.5, "plain": 1234.5, "link": "x"},
    {"name": "=SUM(A1)", "score": 2, "plain": None, "link": "y"},
    {"name": "Ελένη 李", "score": None, "plain": 0.5, "link": "z"},
]


def _render(template: str, rows) -> str:
    request = RequestFactory().get("/", HTTP_ACCEPT_LANGUAGE="nl")
    table = Sample(rows, template_name=template)
    return render_to_string(template, {"table": table, "request": request})


def test_the_body_is_django_tables2s_own():
    from django.utils import translation

    for language in ("en", "nl"):
        with translation.override(language):
            ours = _render("tables/bootstrap5.html", ROWS)
            theirs = _render("django_tables2/bootstrap5.html", ROWS)
            assert _cells(ours) == _cells(theirs)
    assert "&lt;Ann &amp; Bo&gt;" in ours and "<b>=SUM(A1)</b>" in ours
    assert 'data-len="10"' in ours and 'data-name="=SUM(A1)"' in ours


def test_an_empty_table_says_so():
    ours = _render("tables/bootstrap5-responsive.html", [])
    theirs = _render("django_tables2/bootstrap5-responsive.html", [])
    assert _cells(ours) == _cells(theirs) and "table-responsive" in ours


class Thing:
    def method(self, value, record=None, **kwargs):
        return value

    def __call__(self, a):
        return a


def test_the_cached_signature_answers_as_inspect():
    signature_cache.install()
    assert tables_utils.signature is signature_cache.signature

    def plain(value, *args, record, **rest):
        return value

    thing = Thing()
    for fn in (
        plain,
        thing.method,
        Thing().method,
        Thing.method,
        functools.partial(plain, 1),
        thing,
        len,
    ):
        assert signature_cache.signature(fn) == signature_cache._original(fn), fn
        assert signature_cache.signature(fn) == signature_cache._original(fn), fn


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


@pytest.mark.django_db
def test_every_table_of_the_public_pages_is_the_same_as_django_tables2_s_cells(
    client, circuit_file, monkeypatch
):
    """Each system's public pages (a season imported from its test file, one with a sorted
    ranking and a second page) written with the direct cells and again with django-tables2's
    own `get_cell` for every cell: the same bytes."""
    from competitions.templatetags import tables_fast
    from rankings.imports import import_competition
    from tests.bridge_files import big_ladder
    from tests.chess_files import chess_file
    from tests.keizer_data import small_file
    from tests.othello_files import gp_file
    from tests.rankings import (
        test_bridge_pages,
        test_chess_pages,
        test_keizer_pages,
        test_othello_pages,
        test_pages,
    )

    urls = [
        *test_pages.page_urls(import_competition(circuit_file)),
        *test_othello_pages.page_urls(import_competition(gp_file())),
        *test_chess_pages.page_urls(import_competition(chess_file())),
        *test_keizer_pages.page_urls(import_competition(small_file())),
        *test_bridge_pages.urls_of(import_competition(big_ladder(3, 2, series="fast"))),
    ]
    urls += [f"{urls[0]}?sort=-points", f"{urls[2]}?sort=name&page=1"]

    def page(url: str) -> bytes:
        response = client.get(url)
        assert response.status_code == 200, url
        return without_csrf(response.content)

    direct = [page(url) for url in urls]
    assert sum(body.count(b"<td") for body in direct) > 200
    monkeypatch.setattr(
        tables_fast, "cell_maker", lambda table, column: lambda row: row.get_cell(column.name)
    )
    assert [page(url) for url in urls] == direct
