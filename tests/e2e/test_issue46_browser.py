"""Issue 46 in Chromium: a yearly breakdown adds up to its total (item 8), the chess crosstable
downloads as an XLSX that keeps its cells as typed (item 10), and the admin is in sections, one
per system, whose lists filter down to a group (item 12)."""

import io
from decimal import Decimal
from pathlib import Path

import openpyxl
import pytest
from django.core.management import call_command

from competitions.models import Group
from competitions.registry import all_systems, get_system
from rankings.imports import import_competition
from rankings.urls_helpers import season_url
from tests.chess_files import played_chess_file

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def number(text: str) -> Decimal:
    return Decimal(text.strip().replace("\u2212", "-"))


def test_a_yearly_total_s_breakdown_adds_up_with_its_rounding_line(live_server, page, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    page.goto(live_server.url + "/belgian-circuit/2025/yearly/")
    # Kobe Goossens's counted tournaments show 1372.64 together; his exact total is 1372.63.
    row = page.locator("tr", has=page.locator("a", has_text="Kobe Goossens"))
    explain = row.locator("details.explain")
    explain.locator("summary").click()
    body = explain.locator(".explain-body")
    assert body.is_visible()
    total = number(explain.locator("summary").inner_text())
    lines = {}
    for line in body.locator("tbody tr").all():
        label, value = line.locator("td").all_inner_texts()
        lines[label] = number(value)
    parts = {label: value for label, value in lines.items() if label != "Rounding"}
    assert len(parts) == 5 and sum(parts.values()) != total  # the case the rounding line is for
    assert "Rounding" in lines, body.inner_text()
    assert sum(lines.values()) == total
    assert f"sum = {total}" in body.inner_text()


def test_the_crosstable_s_xlsx_comes_first_and_keeps_its_cells_as_typed(live_server, page):
    season = import_competition(played_chess_file())
    group = Group.objects.get(name="Gruppe A", tournament__key="klyve")
    page.goto(live_server.url + season_url(season, "group", "klyve", group.pk))
    formats = page.locator("a[href*='_export=']").all_inner_texts()
    assert formats.index("XLSX") < formats.index("CSV"), formats
    assert page.get_by_text(
        "In the CSV, a text starting with =, +, - or @ begins with an apostrophe"
    ).is_visible()
    with page.expect_download() as download:
        page.locator("a[href*='_export=xlsx']").click()
    assert download.value.suggested_filename.endswith(".xlsx")
    sheet = openpyxl.load_workbook(io.BytesIO(Path(download.value.path()).read_bytes())).active
    typed = [
        cell
        for row in sheet.iter_rows(min_row=2)
        for cell in row
        if isinstance(cell.value, str) and cell.value[:1] in "+-=@'"
    ]
    assert "+S5" in [cell.value for cell in typed]
    assert typed and all(cell.data_type == "s" for cell in typed)
    assert not [cell.value for cell in typed if cell.value.startswith("'")]


def test_the_admin_has_a_section_per_system_and_its_games_filter_down_to_a_group(
    live_server, page, django_user_model, settings
):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    import_competition(played_chess_file())
    django_user_model.objects.create_superuser("admin", password="pw-admin-1")
    base = live_server.url
    page.goto(f"{base}/admin/login/?next=/admin/")
    page.fill("input[name=username]", "admin")
    page.fill("input[name=password]", "pw-admin-1")
    page.click("input[type=submit]")
    page.wait_for_url(f"{base}/admin/")
    captions = [text.strip() for text in page.locator("#content-main caption").all_text_contents()]
    systems = [str(spec.name) for spec in all_systems()]
    assert captions[: 1 + len(systems)] == ["Series and players", *systems], captions

    chess = page.locator(
        "#content-main .module",
        has=page.locator("caption", has_text=str(get_system("chess-bgp").name)),
    )
    chess.get_by_role("link", name="Games", exact=True).click()
    sidebar = page.locator("#changelist-filter")
    for level, choice in (
        ("series", "Telemark BGP"),
        ("season", "2025/26"),
        ("tournament", "Klyve BGP"),
        ("group", "Gruppe A"),
    ):
        sidebar.locator("details", has=page.locator("summary", has_text=f"By {level}")).locator(
            "a", has_text=choice
        ).first.click()
        page.wait_for_url(f"**{level}=*")
    headers = [h.strip().lower() for h in page.locator("#result_list thead th").all_inner_texts()]
    assert headers[1:3] == ["tournament", "group"], headers
    rows = page.locator("#result_list tbody tr").all()
    assert rows
    for row in rows:
        cells = row.locator("td, th").all_inner_texts()
        assert cells[1:3] == ["Klyve BGP", "Gruppe A"], cells
