"""The bridge ladder in Chromium: a manager sets up a ladder of four pools, enters a round by
keyboard and by CSV, starts the next round, and runs three rounds; players read the ladder, open
an Elo change's duels and see their Elo chart."""

import pytest

from competitions.systems.bridge.models import ChallengeScore, PoolMember
from rankings.imports import import_competition
from tests.bridge_files import CLUB, ladder_file
from tests.e2e.session import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OTHERS = [f"Player {n:02d}" for n in range(1, 16)]
KEYS = [f"o{n:02d}" for n in range(1, 16)]


@pytest.fixture
def secretary(django_user_model):
    players = [{"id": k, "name": n} for k, n in zip(KEYS, OTHERS, strict=True)]
    players += [{"id": name, "name": name} for name in CLUB]
    season = import_competition(
        ladder_file(extra_players=players, settings={"pool_names": ["", "", "", "Roi de Cœur"]})
    )
    user = django_user_model.objects.create_user("secretary", password="pw-secretary-1")
    season.series.managers.add(user)
    return user


def fill_pool(page, values: list[list[str]]) -> None:
    """Fill a pool's grid, row by row (player) and column by column (challenge)."""
    for row, cells in enumerate(values):
        for col, value in enumerate(cells):
            page.fill(f'input.imps[data-row="{row}"][data-col="{col}"]', value)


def test_a_manager_runs_three_rounds_of_a_four_pool_ladder(live_server, page, secretary):
    base = live_server.url
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, base, "secretary", "pw-secretary-1")
    page.click("text=BBO ladder 2026")
    page.click("a:has-text('Set up the ladder')")
    page.fill("textarea[name=players]", "\n".join(OTHERS + CLUB))
    page.click("button:has-text('Make the pools of round 1')")
    page.wait_for_selector(".alert-success")
    assert "4 pools in round 1" in page.inner_text(".alert-success")
    assert page.locator(".bridge-pool").count() == 4

    # Round 1, pool 4 by keyboard: challenge 1 down its column, Enter after each score.
    page.locator(".bridge-pool").nth(3).locator("text=Enter IMPs").click()
    page.wait_for_url(f"{base}/manage/bbo/2026/rounds/1/pools/4/")
    page.wait_for_load_state()
    assert (
        page.evaluate("document.activeElement.dataset.row + document.activeElement.dataset.col")
        == "00"
    )
    for value in ["9.5", "4", "0,3", "\u22123", "-10"]:
        page.keyboard.type(value)
        page.keyboard.press("Enter")
    # ... and on to challenge 2 by itself.
    assert page.evaluate("document.activeElement.dataset.col") == "1"
    for value in ["2", "-1.5", "12", "-4", "-8"]:
        page.keyboard.type(value)
        page.keyboard.press("Enter")
    page.click("button:has-text('Save and go to the round')")
    page.wait_for_selector(".alert-success")
    assert ChallengeScore.objects.filter(player__key="HanLaporte").count() == 2

    # Pools 1 and 2 in the grid; pool 3's challenge 1 from a CSV file, the rest in the grid.
    for number in (1, 2):
        page.goto(f"{base}/manage/bbo/2026/rounds/1/pools/{number}/")
        fill_pool(page, [[str(10 - 3 * i)] * 3 for i in range(5)])
        page.click("button:has-text('Save and go to the next pool')")
        page.wait_for_selector(".alert-success")
    assert page.url.endswith("/rounds/1/pools/3/")
    csv = "player;IMPs\n" + "\n".join(f"{OTHERS[10 + i]};{5 - i},5" for i in range(5))
    page.select_option("select[name=challenge]", "1")
    page.set_input_files(
        "input[name=file]", {"name": "c1.csv", "mimeType": "text/csv", "buffer": csv.encode()}
    )
    page.click("button:has-text('Read the file')")
    page.wait_for_selector(".alert-success")
    assert page.input_value('input.imps[data-row="0"][data-col="0"]') == "5.5"
    # A bad file is refused with its line, and nothing changes.
    page.set_input_files(
        "input[name=file]",
        {"name": "bad.csv", "mimeType": "text/csv", "buffer": b"Player 11,1\nNobody,2\n"},
    )
    page.click("button:has-text('Read the file')")
    page.wait_for_selector(".invalid-feedback")
    assert "Line 2: no player “Nobody” in this series." in page.inner_text(".invalid-feedback")

    # The public pool page: the club's example, every change opens its duels.
    page.goto(f"{base}/bbo/2026/rounds/1/pools/4/")
    second = page.locator("#challenge-2")
    second.locator("summary:has-text('+50')").click()
    explanation = second.locator("details[open] .explain-body")
    assert explanation.is_visible()
    text = explanation.inner_text()
    assert "djchili74" in text and "1300" in text
    assert "25 × (4 − 2.000) = +50.00" in text
    first = [s.strip() for s in page.locator("#challenge-1 summary").all_inner_texts()]
    assert first == ["+50", "+25", "0", "\u221225", "\u221250"]

    # Start round 2: the preview shows the moves. A second tab (a second manager) has the same
    # page open and presses too: the round starts once.
    other = page.context.new_page()
    other.on("dialog", lambda dialog: dialog.accept())
    for tab in (page, other):
        tab.goto(f"{base}/manage/bbo/2026/rounds/next/")
    assert "from pool 2" in page.inner_text("#next-pools")
    page.click("button:has-text('Start round 2')")
    page.wait_for_url(f"{base}/manage/bbo/2026/rounds/2/")
    other.click("button:has-text('Start round 2')")
    other.wait_for_url(f"{base}/manage/bbo/2026/rounds/2/")
    assert "was started already" in other.inner_text(".alert-info")
    other.close()
    assert PoolMember.objects.filter(round__number=2).count() == 20

    # Rounds 2 and 3, quickly; a manual move with its reason before round 3 starts.
    for number in (2, 3):
        for pool in (1, 2, 3, 4):
            page.goto(f"{base}/manage/bbo/2026/rounds/{number}/pools/{pool}/")
            fill_pool(page, [[str(i - 2)] * 3 for i in range(5)])
            page.click("button:has-text('Save and go')")
            page.wait_for_selector(".alert-success")
        if number == 2:
            page.goto(f"{base}/manage/bbo/2026/rounds/2/")
            page.select_option("select[name=first]", index=4)
            page.select_option("select[name=second]", index=5)
            page.fill("input[name=reason]", "On holiday during pool 1's dates")
            page.click("button:has-text('Swap them')")
            page.wait_for_selector(".alert-success")
            page.goto(f"{base}/manage/bbo/2026/rounds/next/")
            page.click("button:has-text('Start round 3')")
            page.wait_for_url(f"{base}/manage/bbo/2026/rounds/3/")
    assert ChallengeScore.objects.filter(challenge__round__number=3).count() == 60

    # Players read the ladder after round 3 and their Elo chart.
    page.goto(f"{base}/bbo/2026/")
    assert "Round 3 is under way." in page.inner_text("#round-state")
    assert page.locator(".bridge-pool").count() == 4
    assert page.locator(".bridge-pool .badge:has-text('up')").count() == 6
    page.goto(f"{base}/bbo/2026/rounds/2/pools/1/")
    assert "On holiday during pool 1's dates" in page.inner_text("body")
    page.goto(f"{base}/bbo/players/HanLaporte/")
    drawn = "typeof Chart !== 'undefined' && Chart.getChart(document.querySelector('canvas'))"
    page.wait_for_function(drawn)
    assert page.locator("canvas[data-chart]").bounding_box()["height"] > 100
    assert "Pools, round by round" in page.inner_text("body")
