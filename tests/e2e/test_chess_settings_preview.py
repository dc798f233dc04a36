"""Issue 48 part 7 in Chromium: an organiser proposes FIDE-SWISS for the season, previews the
places that would change (worked example 1A: X up to 2nd, V down to 3rd), then saves, and the
public crosstable shows the new places."""

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
    rows = preview.locator("table[data-group='Swiss'] tbody tr").all_inner_texts()
    assert [" ".join(r.split()) for r in rows] == ["Player X 3 → 2", "Player V 2 → 3"]
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
