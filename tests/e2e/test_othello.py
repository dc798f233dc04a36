"""The GP journey in Chromium: a manager types a tournament's final standings (a mistake is
refused with its line named), and the GP standings, the explanations and the chart follow."""

import pytest
from playwright.sync_api import expect

from competitions.models import Season
from competitions.systems.othello.models import Placement
from rankings.imports import import_competition
from rankings.urls_helpers import season_url
from tests.e2e.session import log_in
from tests.othello_files import gp_file

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def secretary(django_user_model):
    season = import_competition(gp_file())
    user = django_user_model.objects.create_user("gp-secretary", password="pw-secretary-1")
    season.series.managers.add(user)
    return user


def test_a_manager_enters_a_tournament_and_the_gp_standings_follow(live_server, page, secretary):
    base = live_server.url
    log_in(page, base, "gp-secretary", "pw-secretary-1")

    page.click("text=Swedish Othello GP 2025")
    page.click("tr:has-text('Malmö GP') >> text=Enter standings")
    text = page.locator("textarea[name=text]")
    assert text.input_value() == ""
    # The finder, the count and Ctrl+Enter are the page's script's: it has run once the count
    # shows (the page may show before it runs; Enter in the finder would then send the form).
    ready = page.locator("#standings-count")
    expect(ready).to_contain_text("Participants typed")

    # The finder fills the line begun with its place; the next line is typed.
    text.type("1; ")
    page.fill("#player-finder", "Oskar Blom (p6)")
    page.press("#player-finder", "Enter")
    assert text.input_value() == "1; Oskar Blom (p6); SE; N1400\n"
    text.focus()
    text.type("1; Alva Lind; SE; \n")
    assert "Participants typed: 2" in page.inner_text("#standings-count")
    page.click("button:has-text('Save standings')")
    errors = page.inner_text(".alert-danger")
    assert "Line 2 (Alva Lind): no rating entry" in errors
    assert "Line 2 (Alva Lind): place 1 again (line 1 has place 1)" not in errors  # one fault
    assert Placement.objects.filter(tournament__key="t3").count() == 0

    # Corrected, and saved with Ctrl+Enter (the script again first, on the page shown anew).
    expect(ready).to_contain_text("Participants typed")
    page.fill("textarea[name=text]", "1; Oskar Blom (p6); SE; N2400\n2; Alva Lind; SE; debutant")
    page.press("textarea[name=text]", "Control+Enter")
    page.wait_for_selector(".alert-success")
    assert "Final standings of Malmö GP saved: 2 participants." in page.inner_text(".alert-success")
    assert Placement.objects.filter(tournament__key="t3").count() == 2

    # The public tournament page: NR 2400 and 1000, S = 1600, M = 13.4: 13 and 0.
    page.click("text=Public tournament page")
    assert "13.4" in page.inner_text(".gp-summary")
    rows = page.locator("table tbody tr")
    assert rows.count() == 2
    points = rows.first.locator("td").last.locator("summary")
    assert points.inner_text() == "13"
    points.click()
    explanation = rows.first.locator("td").last.locator(".explain-body")
    assert explanation.is_visible()
    assert "Place 1 gets g1 = floor(M) = floor(13.4) = 13." in explanation.inner_text()

    # The GP standings follow: Oskar Blom now has 0 + 13.
    page.click("text=GP standings")
    row = page.locator("table tbody tr:has-text('Oskar Blom')")
    assert row.locator("td").nth(2).inner_text().strip() == "13"
    row.locator("td").nth(2).locator("summary").click()
    assert "Malmö GP" in row.locator(".explain-body").inner_text()

    # His player page: the chart is drawn from the same numbers as the table.
    row.locator("a:has-text('Oskar Blom')").click()
    assert page.locator("h1").inner_text() == "Oskar Blom"
    page.wait_for_function("() => window.Chart && Chart.getChart(document.querySelector('canvas'))")
    data = page.evaluate(
        "() => Chart.getChart(document.querySelector('canvas')).data.datasets[0].data"
    )
    assert data == [0, 13]
    cells = page.locator("table.table-striped > tbody > tr > td:nth-child(3) summary")
    assert cells.all_inner_texts() == ["0", "13"]


def test_the_finder_inserts_whole_lines_that_save(live_server, page, secretary):
    """Issue 46, item 9: two players found make two well-formed lines, each at a line
    boundary with the next place, the player's latest country and rating entry."""
    log_in(page, live_server.url, "gp-secretary", "pw-secretary-1")
    page.click("text=Swedish Othello GP 2025")
    page.click("tr:has-text('Malmö GP') >> text=Enter standings")
    expect(page.locator("#standings-count")).to_contain_text("Participants typed")
    for name in ("Anna Lindqvist (p1)", "Julien Lefèvre (p3)"):
        page.fill("#player-finder", name)
        page.press("#player-finder", "Enter")
    text = page.locator("textarea[name=text]")
    assert text.input_value() == (
        "1; Anna Lindqvist (p1); SE; N1855.5\n2; Julien Lefèvre (p3); SE; F1910\n"
    )
    assert "Participants typed: 2" in page.inner_text("#standings-count")
    # The caret on a line of its own: a third player goes below, the place follows.
    page.fill("#player-finder", "Oskar Blom (p6)")
    page.press("#player-finder", "Enter")
    assert text.input_value().endswith("\n3; Oskar Blom (p6); SE; N1400\n")
    page.click("button:has-text('Save standings')")
    page.wait_for_selector(".alert-success")
    assert list(
        Placement.objects.filter(tournament__key="t3")
        .order_by("place")
        .values_list("place", "player__key", "country", "nordic", "ffo")
    ) == [(1, "p1", "SE", 1855.5, None), (2, "p3", "SE", None, 1910), (3, "p6", "SE", 1400, None)]


def test_a_player_sees_what_a_place_at_the_next_gp_gives(live_server, page, secretary):
    """Issue 46, item 17: from the standings, a player, a place and the field give the
    points, the new season total and the new rank."""
    page.goto(live_server.url + season_url(Season.objects.get(), "standings"))
    page.click("text=What would a place at the next GP give you?")
    page.select_option("select[name=player]", "p1")
    page.fill("input[name=place]", "1")
    page.fill("input[name=participants]", "6")
    page.fill("input[name=field]", "1400")
    page.click("button:has-text('Compute')")
    assert "Anna Lindqvist at place 1 of 6" in page.inner_text("h2.h5")
    assert page.inner_text(".next-gp-points summary") == "20"
    assert page.inner_text(".next-gp-total summary") == "38"
    assert page.inner_text(".next-gp-rank summary") == "1"
    page.click(".next-gp-total summary")
    assert "Total: 38" in page.inner_text(".next-gp-total .explain-body")


def test_a_manager_switches_the_series_reading_and_the_tournament_page_follows(
    live_server, page, secretary
):
    """chess-othello-options.md §3.1: the season's `series_rule` from chained (today) to
    direct; Stockholm Open's series 15, 8, 4, 2, 1, 0 becomes 15, 8, 5, 2, 1, 1, and the page
    says which reading and which tie-break chain the season uses."""
    base = live_server.url
    log_in(page, base, "gp-secretary", "pw-secretary-1")
    season = Season.objects.get(series__slug="swedish-gp", slug="2025")
    tournament = f"{base}{season_url(season, 'tournament', 't1')}"

    page.goto(tournament)
    assert page.inner_text(".gp-series") == "15, 8, 4, 2, 1, 0"
    assert page.inner_text(".gp-series-rule summary") == "chained"
    assert "share the rank" in page.inner_text(".gp-tiebreaks")

    page.goto(f"{base}/manage/swedish-gp/2025/settings/")
    page.select_option("select[name=series_rule]", "direct")
    page.fill("input[name=season_tiebreaks]", "SM WOF WORLD LOT")
    page.fill("textarea[name=tiebreak_data]", "p1 1893 312\np2 - 40")
    page.click("button:has-text('Save')")
    page.wait_for_selector(".alert-success")
    season.refresh_from_db()
    assert season.settings["series_rule"] == "direct"
    assert season.settings["tiebreak_data"] == {
        "p1": {"wof": 1893, "world": 312},
        "p2": {"world": 40},
    }

    page.goto(tournament)
    expect(page.locator(".gp-series")).to_have_text("15, 8, 5, 2, 1, 1")
    assert page.inner_text(".gp-series-rule summary") == "direct"
    page.click(".gp-series-rule summary")
    assert "the last place gets 1" in page.inner_text(".gp-series-rule .explain-body")
    assert "SM, WOF, WORLD, LOT" in page.inner_text(".gp-tiebreaks")
    # Place 3's points explain the direct reading.
    third = page.locator("table tbody tr").nth(2).locator("td").last
    third.locator("summary").click()
    assert "floor(M · x^2)" in third.locator(".explain-body").inner_text()
