"""The chess journey in Chromium: an organiser builds a group, pairs and scores six Monrad rounds
from the keyboard, and the public crosstable shows it, every number opening its terms."""

import pytest
from playwright.sync_api import expect

from competitions.models import Game, Group, RoundEntry
from rankings.imports import import_competition
from tests.e2e.session import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = [
    ("a", "Anna Berg", 1720),
    ("b", "Bjørn Dahl", 1650),
    ("c", "Cecilie Lund", None),
    ("d", "David Moen", 1500),
    ("e", "Eva Strand", None),
]


@pytest.fixture
def organiser(django_user_model):
    season = import_competition(
        {
            "format": "competition/1",
            "system": "chess-bgp",
            "series": "telemark-bgp",
            "season": "2025/26",
            "name": "Telemark BGP 2025/26",
            "clubs": [{"id": "c1", "name": "Skien Sjakklubb"}],
            "players": [{"id": k, "name": n, "club": "c1"} for k, n, _r in PLAYERS],
            "tournaments": [],
        }
    )
    user = django_user_model.objects.create_user("organiser", password="pw-organiser-1")
    season.series.managers.add(user)
    return season


def test_an_organiser_runs_a_six_round_monrad_group_and_publishes_its_crosstable(
    live_server, page, organiser
):
    base = live_server.url
    log_in(page, base, "organiser", "pw-organiser-1")
    page.click("text=Telemark BGP 2025/26")

    page.fill("input[name=name]", "Skien BGP")
    page.fill("input[name=date]", "2026-02-07")
    page.click("button:has-text('Create tournament')")
    page.wait_for_selector("text=Tournament Skien BGP created.")
    page.fill("input[name=g-name]", "Gruppe A")
    page.select_option("select[name=g-scale]", "1-half-0")
    page.click("button[name=add_group]")
    page.wait_for_selector("text=Group Gruppe A created.")

    for key, name, rating in PLAYERS:
        page.fill("input[name=m-player]", f"{name} ({key})")
        page.fill("input[name=m-player_class]", "Kadett")
        page.fill("input[name=m-born]", "2012")
        if rating:
            page.fill("input[name=m-rating]", str(rating))
        page.click("button[name=add_player]")
        page.wait_for_selector(f".alert-success:has-text('{name} added')")
    # Two new players, typed in: a seventh makes the group odd, so every round has a WO.
    for name in ("Frida Haugen", "Gustav Olsen"):
        page.fill("input[name=m-player]", name)
        page.check("input[name=m-new]")
        page.fill("input[name=m-player_class]", "Lilleputt")
        page.click("button[name=add_player]")
        page.wait_for_selector(f".alert-success:has-text('{name} added')")
    # Start numbers by rating (the default): the list shows them before round 1.
    expect(page.locator("#start-numbers-shown")).to_have_text("Start numbers: by rating")
    first_row = page.locator("#members tbody tr").first.inner_text()
    assert "Anna Berg" in first_row

    keys = ["1", "=", "0"]
    for number in range(1, 7):
        page.click(f"text=Pair round {number} (Monrad)")
        page.wait_for_selector("#pairing")
        assert "WO (walkover):" in page.inner_text("main")
        page.click(f"button:has-text('Save round {number}')")
        page.wait_for_selector(f"text=Round {number} paired and saved")
        # Keyboard-fast: one key per board, the cursor moves on by itself, Enter saves. The
        # page's script must have run first (the message shows while it may still load):
        # without it every key lands in the first box, and the server refuses "1=0". The
        # script puts the cursor in the first box when it runs.
        expect(page.locator("input.result-input").first).to_be_focused()
        for board in range(3):
            page.keyboard.press(keys[(board + number) % 3])
        page.keyboard.press("Enter")
        page.wait_for_selector(".alert-success:has-text('Results saved')")
        page.click("text=← Gruppe A")

    group = Group.objects.get(name="Gruppe A")
    assert Game.objects.filter(round__group=group).exclude(result="").count() == 18
    assert RoundEntry.objects.filter(round__group=group, status="walkover").count() == 6
    walkovers = RoundEntry.objects.filter(round__group=group, status="walkover")
    assert len({e.player_id for e in walkovers}) == 6  # nobody had a second WO

    page.click("text=Public crosstable")
    table = page.locator("table.crosstable")
    headers = table.locator(":scope > thead > tr > th").all_inner_texts()
    assert [h.strip() for h in headers] == [
        "Pl", "Name (class)", "Points", "M1", "M2", "Berger", "Born", "1", "2", "3", "4", "5", "6",
    ]  # fmt: skip
    rows = table.locator(":scope > tbody > tr")
    assert rows.count() == 7
    text = table.inner_text()
    assert "WO" in text and "(Kadett)" in text and "(Lilleputt)" in text
    # Every number explains itself: a Monrad value opens its terms, the cut one struck through.
    m1 = rows.first.locator(":scope > td").nth(3)
    m1.locator("summary").click()
    body = m1.locator(".explain-body")
    assert body.is_visible()
    assert "Left out: the lowest." in body.inner_text()
    assert body.locator("tr.text-decoration-line-through").count() == 1
    # Published: anyone (logged out too) reads the same crosstable, and can download it.
    url = page.url
    page.context.clear_cookies()
    page.goto(url)
    assert page.locator("table.crosstable > tbody > tr").count() == 7
    with page.expect_download() as download:
        page.click("a:has-text('CSV')")
    assert download.value.suggested_filename.endswith(".csv")
