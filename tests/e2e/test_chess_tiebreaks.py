"""chess-othello-options.md §1 in Chromium: an organiser switches a group from today's NSF
tie-breaks to FIDE-SWISS, and the public crosstable and the tournament's BGP points change (worked
example 1A: B and D tie on 2½ points; NSF puts B second, FIDE's Buchholz Cut 1 puts D second)."""

import pytest

from competitions.models import Group
from rankings.imports import import_competition
from rankings.urls_helpers import season_url
from tests.e2e.session import log_in
from tests.rankings.test_chess_tiebreak_pages import example_1a

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def organiser(django_user_model):
    season = import_competition(example_1a())
    user = django_user_model.objects.create_user("organiser", password="pw-organiser-1")
    season.series.managers.add(user)
    return season


def second_place(page) -> str:
    return page.locator("table.crosstable > tbody > tr").nth(1).inner_text()


def bgp_of(page, name: str) -> str:
    return page.locator("tr", has_text=name).first.inner_text()


def test_an_organiser_switches_a_group_to_fide_swiss_and_the_places_change(
    live_server, page, organiser
):
    base = live_server.url
    group = Group.objects.get(name="Swiss")
    crosstable = base + season_url(organiser, "group", "ex1a", group.pk)
    log_in(page, base, "organiser", "pw-organiser-1")
    page.goto(crosstable)
    assert "Player V" in second_place(page)
    headers = page.locator("table.crosstable > thead > tr > th").all_inner_texts()
    assert headers[3:6] == ["M1", "M2", "Berger"]  # after the points, before the rounds
    page.click("text=Tournament and BGP points")
    assert "17" in bgp_of(page, "Player V") and "15" in bgp_of(page, "Player X")

    page.goto(crosstable)
    page.click("a.btn:has-text('Manage')")
    page.fill("input[name=g-tiebreaks]", "FIDE-SWISS")
    page.click("button[name=save_group]")
    page.wait_for_selector("text=Group saved.")

    page.click("text=Public crosstable")
    assert "Player X" in second_place(page)
    headers = page.locator("table.crosstable > thead > tr > th").all_inner_texts()
    assert [h.strip() for h in headers[3:10]] == ["BH/C1", "BH", "SB", "PS", "DE", "WIN", "BWG"]
    bh_c1 = page.locator("table.crosstable > thead > tr > th", has_text="BH/C1")
    assert bh_c1.get_attribute("title").startswith("Buchholz")
    # X's Buchholz Cut 1 opens its terms: the forfeit he won counts a dummy with his own points.
    row = page.locator("table.crosstable > tbody > tr").nth(1)
    row.locator("details.explain summary").nth(1).click()
    assert "dummy" in row.inner_text()
    page.click("text=Tournament and BGP points")
    assert "15" in bgp_of(page, "Player V") and "17" in bgp_of(page, "Player X")
