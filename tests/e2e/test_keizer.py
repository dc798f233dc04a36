"""Three club evenings in the browser: the competition leader takes attendance, pairs the round,
prints the pairing list, enters the results with the keyboard, and the ranking list follows,
every score opening its breakdown."""

import pytest
from playwright.sync_api import expect

from competitions.models import Game, Player, RoundEntry
from rankings.imports import import_competition
from tests.e2e.session import log_in
from tests.keizer_data import small_file

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def leader(django_user_model):
    data = small_file()
    data["rounds"].pop()  # evening 3 is still to come
    season = import_competition(data)
    user = django_user_model.objects.create_user("leader", password="pw-leader-1")
    season.series.managers.add(user)
    return user


def test_a_leader_runs_three_evenings(live_server, page, leader):
    base = live_server.url
    log_in(page, base, "leader", "pw-leader-1")
    page.click("text=De Toren interne competitie 2025-2026")
    page.click("text=Take attendance for evening 3")

    # Attendance, starting from the last evening (Henk was absent with notice): one click per
    # player. Anouk plays for a club team tonight; Henk is back and volunteers for the bye.
    # The count is the page's script's ("–" until it has run): wait for it, as for the
    # keyboard entry below.
    present = page.locator("[data-present-count]")
    expect(present).to_have_text("5")
    anouk, henk = (Player.objects.get(key=k).pk for k in ("p2", "p5"))
    page.click(f"label[for=id_p{anouk}_2]")
    page.click(f"label[for=id_p{henk}_0]")
    expect(present).to_have_text("5")
    page.fill("input[name=date]", "2025-09-18")
    page.select_option("select[name=volunteer]", label="Henk Mulder")
    page.click("button:has-text('Save and pair')")

    # The preview, then publish.
    page.wait_for_selector("text=Every rule is kept.")
    preview = page.inner_text("table.pair-preview")
    assert "Eva Smit" in preview and "Late Entrant" in preview
    assert "Henk Mulder" in page.inner_text(".card:has-text('Preview')")  # the bye
    # Eva (1) met Bram (2) and Jan (3) the last two evenings: under her pair, why she gets the
    # late entrant (issue 46, item 15). Bram and Jan are each other's nearest: no line.
    passed_over = page.locator("table.pair-preview tr.passed-over")
    expect(passed_over).to_have_count(1)
    expect(passed_over.locator("div")).to_have_text(
        [
            "Not Bram Visser (2): met in round 1",
            "Not Jan de Vries (3): met in round 2",
            "Not Henk Mulder (5): has the bye",
        ]
    )
    page.click("button:has-text('Publish this pairing')")

    # The printable pairing list, with board numbers and the bye.
    page.wait_for_selector("table.pairing-list")
    printed = page.inner_text("table.pairing-list")
    assert "Eva Smit" in printed and "Late Entrant" in printed
    assert "Bye: Henk Mulder" in page.inner_text(".print-sheet")
    assert RoundEntry.objects.get(round__number=3, player__key="p5").status == "bye"

    # Results from the keyboard: board, Enter, result, Enter.
    page.click("text=Enter results")
    page.wait_for_selector("#quick-result")
    for board, typed in (("1", "1"), ("2", "=")):
        # Enter moves from the board to the result once the page's script has run (before,
        # it would send the board alone: refused, nothing saved); the script puts the cursor
        # in the board field when it runs.
        expect(page.locator("#quick-result input[name=board]")).to_be_focused()
        page.fill("#quick-result input[name=board]", board)
        page.press("#quick-result input[name=board]", "Enter")
        page.keyboard.type(typed)
        page.keyboard.press("Enter")
        page.wait_for_selector(f".alert-success:has-text('Board {board}:')")
    assert sorted(Game.objects.filter(round__number=3).values_list("result", flat=True)) == [
        "1-0",
        "1/2-1/2",
    ]

    # The list after evening 3, with every score explained.
    page.click("text=Public page of this evening")
    page.click("text=The list after this evening")
    page.wait_for_selector("h1:has-text('Ranking list after round 3')")
    first_score = page.locator("table tbody tr").first.locator("details.explain").first
    first_score.locator("summary").click()
    body = first_score.locator(".explain-body")
    assert body.is_visible()
    assert "Score after round 3" in body.inner_text()
    assert "list after round 2" in body.inner_text()

    # Evenings 4 and 5 the same way, attendance as last time (the defaults), whatever the
    # pairer needs to relax with six players; every board's result typed.
    for number, results in ((4, "1=0"), (5, "0=1")):
        page.goto(f"{base}/manage/de-toren/2025-2026/")
        page.click(f"text=Take attendance for evening {number}")
        page.click("button:has-text('Save and pair')")
        page.click("button:has-text('Publish this pairing')")
        page.wait_for_selector("table.pairing-list")
        boards = Game.objects.filter(round__number=number).count()
        assert boards >= 2
        page.click("text=Enter results")
        page.wait_for_selector("#quick-result")
        for board in range(1, boards + 1):
            expect(page.locator("#quick-result input[name=board]")).to_be_focused()  # (above)
            page.fill("#quick-result input[name=board]", str(board))
            page.press("#quick-result input[name=board]", "Enter")
            page.keyboard.type(results[(board - 1) % len(results)])
            page.keyboard.press("Enter")
            page.wait_for_selector(f".alert-success:has-text('Board {board}:')")
        assert not Game.objects.filter(round__number=number, result="").exists()
        page.click("text=Public page of this evening")
        page.click("text=The list after this evening")
        page.wait_for_selector(f"h1:has-text('Ranking list after round {number}')")
        listed = page.inner_text("main")
        for name in ("Jan de Vries", "Anouk Bakker", "Bram Visser", "Eva Smit", "Henk Mulder"):
            assert name in listed
