"""Issue 48 part 7 in Chromium: an organiser proposes FIDE-SWISS for the season, or for one group
on its own page, previews the places and BGP points that would change (worked example 1A: X up to
2nd, V down to 3rd, so X gets second place's 17 BGP points and V third place's 15, in the
tournament and in the class's season total), then saves, and the public crosstable and BGP
points show the change."""

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


def rows(preview, key: str) -> list[str]:
    """The rows of one table of the preview, as a reader sees them."""
    texts = preview.locator(f"table[data-preview='{key}'] tbody tr").all_inner_texts()
    return [" ".join(text.split()) for text in texts]


def bgp_of(page, name: str) -> str:
    return page.locator("tr", has_text=name).first.inner_text()


def second_place(page) -> str:
    return page.locator("table.crosstable > tbody > tr").nth(1).inner_text()


def test_an_organiser_previews_fide_swiss_for_the_season_then_saves_it(
    live_server, page, organiser
):
    base = live_server.url
    crosstable = base + season_url(organiser, "group", "ex1a", Group.objects.get(name="Swiss").pk)
    log_in(page, base, "organiser", "pw-organiser-1")
    page.goto(crosstable)
    assert "Player V" in second_place(page)

    page.goto(base + f"/manage/{organiser.series.slug}/{organiser.slug}/")
    page.click("a:has-text('Settings')")
    page.fill("input[name=tiebreaks]", "FIDE-SWISS")
    page.click("button[name=preview]")
    preview = page.locator("#preview")
    preview.wait_for()
    assert "nothing is saved" in preview.inner_text()
    assert rows(preview, "places/ex1a/Swiss") == ["Player X 3 → 2", "Player V 2 → 3"]
    assert rows(preview, "points/ex1a") == ["Player X 15 → 17", "Player V 17 → 15"]
    assert rows(preview, "totals/Junior") == ["Player X 15 → 17", "Player V 17 → 15"]
    # Not saved yet: the public crosstable is as it was.
    settings_page = page.url
    page.goto(crosstable)
    assert "Player V" in second_place(page)

    page.goto(settings_page)
    page.fill("input[name=tiebreaks]", "FIDE-SWISS")
    page.click("button:has-text('Save')")
    page.wait_for_selector("text=Settings saved")
    page.goto(crosstable)
    assert "Player X" in second_place(page)


def test_an_organiser_switches_a_group_to_fide_swiss_with_the_preview_of_places_and_bgp(
    live_server, page, organiser
):
    base = live_server.url
    group = Group.objects.get(name="Swiss")
    crosstable = base + season_url(organiser, "group", "ex1a", group.pk)
    log_in(page, base, "organiser", "pw-organiser-1")
    page.goto(crosstable)
    page.click("text=Tournament and BGP points")
    assert "17" in bgp_of(page, "Player V") and "15" in bgp_of(page, "Player X")

    page.goto(crosstable)
    page.click("a.btn:has-text('Manage')")
    group_page = page.url
    page.fill("input[name=g-tiebreaks]", "FIDE-SWISS")
    page.click("button[name=preview_group]")
    preview = page.locator("#preview")
    preview.wait_for()
    assert "nothing is saved" in preview.inner_text()
    assert "BGP points: Example 1A" in preview.inner_text()
    assert rows(preview, "places/ex1a/Swiss") == ["Player X 3 → 2", "Player V 2 → 3"]
    assert rows(preview, "points/ex1a") == ["Player X 15 → 17", "Player V 17 → 15"]
    assert rows(preview, "totals/Junior") == ["Player X 15 → 17", "Player V 17 → 15"]
    # The form keeps the proposal; nothing is saved yet.
    assert page.input_value("input[name=g-tiebreaks]") == "FIDE-SWISS"
    page.goto(crosstable)
    assert "Player V" in second_place(page)

    page.goto(group_page)
    page.fill("input[name=g-tiebreaks]", "FIDE-SWISS")
    page.click("button[name=save_group]")
    page.wait_for_selector("text=Group saved.")
    page.click("text=Public crosstable")
    assert "Player X" in second_place(page)
    page.click("text=Tournament and BGP points")
    assert "15" in bgp_of(page, "Player V") and "17" in bgp_of(page, "Player X")
