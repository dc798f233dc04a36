"""Behaviours every page shares (static/js/site.js), in Chromium: an opened explanation stays
inside a phone's screen and one is open at a time; a confirmation is asked once."""

import importlib.util
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from competitions.models import Group, Season
from competitions.views import manage_url
from rankings.imports import import_competition
from rankings.urls_helpers import season_url
from tests.bridge_files import big_ladder
from tests.chess_files import chess_file
from tests.e2e.session import log_in
from tests.keizer_data import small_file
from tests.othello_files import gp_file

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def inside_the_window(page, locator) -> None:
    box = locator.bounding_box()
    width = page.evaluate("document.documentElement.clientWidth")
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, box
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_an_explanation_at_a_phone_s_right_edge_stays_on_the_screen(
    live_server, browser, circuit_file
):
    season = import_competition(circuit_file)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(live_server.url + season_url(season, "yearly"))
    # The total, in the last column of a table that scrolls sideways on a phone.
    explains = page.locator(".table-responsive details.explain")
    first, second = explains.nth(1), explains.nth(0)
    first.locator("summary").click()
    body = first.locator(".explain-body")
    assert body.is_visible()
    inside_the_window(page, body)
    # It is not cut off by the scrolling table: the whole text shows over the page, below its
    # number.
    assert body.evaluate("el => getComputedStyle(el).position") == "fixed"
    assert body.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    assert body.bounding_box()["y"] >= first.locator("summary").bounding_box()["y"]
    # One at a time: opening the number above closes it; Escape and a tap elsewhere close.
    # (The page closes the other one on the "toggle" event, which the browser fires after the
    # click returns: `expect` waits for it, where an immediate look raced it.)
    second.locator("summary").click()
    expect(second.locator(".explain-body")).to_be_visible()
    expect(body).to_be_hidden()
    page.keyboard.press("Escape")
    expect(second.locator(".explain-body")).to_be_hidden()
    first.locator("summary").click()
    expect(body).to_be_visible()
    page.locator("h1").click()
    expect(body).to_be_hidden()
    context.close()


def test_a_number_beside_a_heading_opens_inside_a_phone_s_screen(
    live_server, browser, circuit_file
):
    """An explanation outside a table (the season overview's bonus cap beside its card title)
    is moved into the window when it would stick out."""
    data = dict(circuit_file, previous_participants=[35, 38, 44, 52, 53, 57, 57, 60])
    season = import_competition(data)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(live_server.url + reverse("season", args=[season.series.slug, season.slug]))
    cap = page.locator(".card-header details.explain").first
    cap.locator("summary").click()
    body = cap.locator(".explain-body")
    assert "rounded half up to tens" in body.inner_text()
    inside_the_window(page, body)
    context.close()


def closed(season) -> bool:
    return Season.objects.get(pk=season.pk).closed


def test_a_confirmation_is_asked_once(live_server, page, django_user_model):
    season = import_competition(small_file())
    user = django_user_model.objects.create_user("leader", password="pw-leader-1")
    season.series.managers.add(user)
    base = live_server.url
    log_in(page, base, "leader", "pw-leader-1")
    asked, accept = [], []

    def answer(dialog):
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.on("dialog", answer)
    page.goto(base + manage_url(season, "keizer_list"))
    close = page.locator("form[data-confirm] button[type=submit]:has-text('Close the season')")
    close.click()
    page.wait_for_timeout(300)
    assert asked == ["Close the season?"]
    assert not closed(season)
    # Answered yes, once, the form is sent: the server answers (here that an evening waits).
    accept.append(True)
    close.click()
    page.wait_for_selector(".alert-danger")
    assert asked == ["Close the season?", "Close the season?"]
    assert "Pair or delete the evening that is waiting first." in page.inner_text(".alert-danger")


def test_an_explanation_in_a_card_beside_another_keeps_its_table_inside_the_card(
    live_server, browser
):
    """A ladder pool's challenge tables sit two to a row on a laptop: an Elo change's duels,
    opened in its cell, made the table wider than its card (its last column under the next
    card); it opens over the page instead, and the table keeps its width."""
    from tests.bridge_files import big_ladder

    data = big_ladder(2, 2, series="cards")
    for player in data["players"]:  # names as long as a club's (the duels' first column)
        player["name"] = f"Marguerite.{player['id']}"
    season = import_competition(data)
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(live_server.url + season_url(season, "pool", 1, 1))
    card = page.locator("#challenge-1")
    table = card.locator("table").first
    before = table.bounding_box()["width"]
    assert before <= card.bounding_box()["width"] + 1
    change = card.locator("details.explain").nth(1)
    change.locator("summary").click()
    body = change.locator(".explain-body")
    expect(body).to_be_visible()
    assert body.evaluate("b => getComputedStyle(b).position") == "fixed"
    assert abs(table.bounding_box()["width"] - before) <= 1
    assert table.bounding_box()["width"] <= card.bounding_box()["width"] + 1
    inside_the_window(page, body)
    context.close()


# Buttons and fields inside a table that scrolls sideways and end past its visible part: on a
# phone the manager does not see them until they scroll the table. The check of
# scripts/screenshots.py, which runs it on every page.
_spec = importlib.util.spec_from_file_location(
    "screenshots", Path(__file__).resolve().parents[2] / "scripts" / "screenshots.py"
)
_screenshots = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_screenshots)
HIDDEN_ACTIONS = _screenshots.HIDDEN_ACTIONS
BROKEN_WORDS = _screenshots.BROKEN_WORDS


def manage_season(season) -> str:
    return reverse("manage:season", args=[season.series.slug, season.slug])


def test_a_manager_s_buttons_fit_a_phone_s_screen(live_server, browser, django_user_model):
    """The manager's lists with a button on each row (the Keizer evenings, a chess group's
    members, the GP's tournaments, the ladder's rounds): on a phone the columns a row can do
    without (date, players present, class, year of birth, pools) move under its number or
    name, so that the buttons stay on the screen."""
    keizer = import_competition(small_file())
    chess = import_competition(chess_file())
    gp = import_competition(gp_file())
    ladder = import_competition(big_ladder(4, 3))
    user = django_user_model.objects.create_user("leader", password="pw-leader-1")
    for season in (keizer, chess, gp, ladder):
        season.series.managers.add(user)
    group = Group.objects.get(tournament__season=chess, tournament__key="klyve", name="Gruppe A")
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    log_in(page, live_server.url, "leader", "pw-leader-1")
    for path, button, moved in (
        (manage_season(keizer), "Attendance", "players present"),
        (manage_url(chess, "group", "klyve", group.pk), "Remove", "Lilleputt · 2014"),
        (manage_season(gp), "standings", "2025"),
        (manage_season(ladder), "Open", "4 pools · 20 players"),
    ):
        page.goto(live_server.url + path)
        rows = page.locator(f".table-responsive :is(a, button):has-text('{button}')")
        assert rows.count() >= 3, path
        assert page.evaluate(HIDDEN_ACTIONS) == [], path
        inside_the_window(page, rows.last)
        # What moved is there on the phone.
        assert moved in page.locator(".table-responsive").first.inner_text(), path
    context.close()


def test_no_button_splits_a_word_on_a_phone(live_server, browser, django_user_model, circuit_file):
    """Swedish has the longest words of the four languages: on a phone, the Keizer evening's
    attendance (four buttons a player share the width), its quick result entry, the circuit's
    tournament page and a season's deletion ("Ja, ta bort säsong 2025-2026", which split at
    the hyphen) keep every word of their buttons whole."""
    keizer = import_competition(small_file())
    circuit = import_competition(circuit_file)
    user = django_user_model.objects.create_user("leader", password="pw-leader-1")
    for season in (keizer, circuit):
        season.series.managers.add(user)
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "django_language", "value": "sv", "url": live_server.url}])
    page = context.new_page()
    log_in(page, live_server.url, "leader", "pw-leader-1")
    for path in (
        manage_url(keizer, "attendance", 3),
        manage_url(keizer, "results", 2),
        season_url(circuit, "tournament", "t1"),
        reverse("manage:season_delete", args=[keizer.series.slug, keizer.slug]),
    ):
        page.goto(live_server.url + path)
        assert page.locator(".btn").count() >= 2, path
        assert page.evaluate(BROKEN_WORDS) == [], path
    context.close()


def test_help_from_a_season_opens_at_its_system_s_rules_on_a_phone(live_server, browser):
    """The menu's "How points are computed" on a season page lands on that system's section
    of the help page, not at its top (the board-game rules, 6,900 px above the Keizer ones on
    a phone); the help page lists its sections first."""
    season = import_competition(small_file())
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(live_server.url + season_url(season))
    page.locator(".navbar-toggler").click()
    page.get_by_role("link", name="How points are computed").click()
    page.wait_for_load_state()
    heading = page.locator("h2#keizer")
    expect(heading).to_be_in_viewport()
    assert page.evaluate("window.scrollY") > 0
    # The section list at the top leads to every system's rules.
    page.goto(live_server.url + reverse("help"))
    links = page.locator("nav a[href^='#']")
    assert links.count() >= 5
    page.get_by_role("link", name=str(heading.inner_text())).first.click()
    expect(heading).to_be_in_viewport()
    context.close()
