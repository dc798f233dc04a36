"""A Keizer club moves in from KeizerForClubs in the browser (issue 47 item 5): the manager
uploads the tournament file on the manager's pages, reads the preview (nothing stored yet),
stores it, and the public ranking list shows the numbers the file stores."""

import pytest

from competitions.models import Season, Series
from tests.e2e.session import log_in
from tests.kfc_builder import SAMPLE_PLAYERS, sample

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def leader(django_user_model):
    series = Series.objects.create(slug="kfc-club", name="KFC Club", system="keizer")
    Season.objects.create(series=series, label="2023", name="KFC Club 2023")
    user = django_user_model.objects.create_user("leader", password="pw-leader-1")
    series.managers.add(user)
    return user


def test_a_leader_moves_a_season_in_from_keizerforclubs(live_server, page, leader, tmp_path):
    base = live_server.url
    path = tmp_path / "Test-Tournament.s3db"
    sample(path, text_config={"NiceName": "Schaakclub Test"})
    log_in(page, base, "leader", "pw-leader-1")

    page.goto(f"{base}/manage/kfc-club/2023/")
    page.click("a:has-text('Move in from KeizerForClubs')")
    page.wait_for_url(f"{base}/manage/kfc-club/2023/move-in/keizerforclubs/")
    page.set_input_files("input[name=file]", str(path))
    page.fill("input[name=label]", "2024")
    page.click("button:has-text('Preview')")

    # The preview: the check, every player in the initial list's order, nothing stored.
    check = page.inner_text("#move-in-check")
    assert "all 8 players equal the ones the KeizerForClubs file stores" in check
    rows = page.locator("#move-in-players tbody tr")
    assert rows.count() == len(SAMPLE_PLAYERS)
    assert [rows.nth(i).locator("td").nth(1).inner_text() for i in range(3)] == [
        "Amurru", "Helena", "Ninedena",
    ]  # fmt: skip
    assert "Withdrawn" in rows.nth(7).inner_text() and "Verdandi" in rows.nth(7).inner_text()
    assert "7/20" in page.inner_text("#move-in-settings")
    assert page.locator("#move-in-rounds tbody tr").count() == 5
    assert not Season.objects.filter(label="2024").exists()

    page.click("button:has-text('Store the season')")
    page.wait_for_url(f"{base}/manage/kfc-club/2024/")
    assert "was moved in from KeizerForClubs" in page.inner_text("main")

    # The public list: each player's place and score as the file has them.
    page.goto(f"{base}/kfc-club/2024/")
    shown = []
    for row in page.locator("table.keizer-ranking > tbody > tr").all():
        cells = row.locator(":scope > td")
        score = cells.nth(2).locator(":scope > details > summary").inner_text()
        shown.append((cells.nth(0).inner_text().strip(), cells.nth(1).inner_text(), score))
    expected = sorted((p for p in SAMPLE_PLAYERS if p[2] != 9), key=lambda p: p[4])
    assert shown == [(str(rank), name, f"{s:.2f}") for name, _r, _st, s, rank in expected]
