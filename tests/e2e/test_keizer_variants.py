"""A competition leader picks a Keizer variant (keizer-variants.md §4) on the season's settings
page, changes one factor, and sees the ranking list and a breakdown follow each change."""

import pytest

from competitions.models import Season
from rankings.imports import import_competition
from tests.e2e.session import log_in
from tests.keizer_data import small_file

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def leader(django_user_model):
    data = small_file()
    data["rounds"].pop()  # two evenings played
    season = import_competition(data)
    user = django_user_model.objects.create_user("leader", password="pw-leader-1")
    season.series.managers.add(user)
    return user


def anouk(page):
    """Anouk Bakker's line of the list: her score, and its breakdown opened."""
    # Her own line (other lines name her in their breakdowns): by the player column.
    row = page.locator("table.keizer-ranking tbody tr").filter(
        has=page.locator(":scope > td:nth-child(2)", has_text="Anouk Bakker")
    )
    score = row.locator(":scope > td details.explain").first
    score.locator("summary").click()
    return score.locator("summary").inner_text(), score.locator(".explain-body").inner_text()


def test_a_leader_picks_a_preset_and_changes_a_factor(live_server, page, leader):
    base = live_server.url
    season_page = f"{base}/de-toren/2025-2026/"
    log_in(page, base, "leader", "pw-leader-1")

    # Today's rules (the seed club): Anouk lost twice, a sixth of the winner's value each.
    page.goto(season_page)
    score, breakdown = anouk(page)
    assert score == "2.50"
    assert "own value" not in breakdown

    # The settings page: pick KeizerForClubs' variant and save.
    page.goto(f"{base}/manage/de-toren/2025-2026/")
    page.click("a:has-text('Settings')")
    page.select_option("select[name=preset]", "kfc")
    page.click("button:has-text('Save')")
    page.wait_for_url(f"{base}/manage/de-toren/2025-2026/")
    assert Season.objects.get().settings == {"preset": "kfc"}

    # The list follows: own value counted once, a loss scores nothing.
    page.goto(season_page)
    assert "KeizerForClubs (program defaults)" in page.inner_text("#season-rules")
    score, breakdown = anouk(page)
    assert score == "5.00"
    assert "own value, counted once" in breakdown and "lost to" in breakdown

    # Back on the settings page the preset's values are shown; change the loss share only.
    page.goto(f"{base}/manage/de-toren/2025-2026/settings/")
    loss = page.locator("[data-setting=points_loss]")
    assert loss.locator("[data-preset-value]").inner_text() == "0"
    assert loss.locator("[data-changed]").count() == 0
    page.fill("input[name=points_loss]", "1/2")
    page.click("button:has-text('Save')")
    page.wait_for_url(f"{base}/manage/de-toren/2025-2026/")
    assert Season.objects.get().settings == {"preset": "kfc", "points_loss": "1/2"}
    page.goto(f"{base}/manage/de-toren/2025-2026/settings/")
    assert page.locator("[data-setting=points_loss] [data-changed]").count() == 1

    # The list and Anouk's breakdown follow: each loss now half the winner's value.
    page.goto(season_page)
    score, breakdown = anouk(page)
    assert score == "14.00"
    assert "1/2" in breakdown
    assert "Loss (share of the opponent's value): 1/2" in page.inner_text("#season-rules")
