"""What a secretary and a player do on a tournament day, in Chromium: read every score on any
screen, open what a number is made of, correct mistakes, add a player mid-table, confirm
unusual ranks, and follow the day on the tournament-day screen."""

import time

import pytest
from django.utils import timezone

from competitions.models import Player, Season, Tournament
from competitions.systems.boardgame.models import Seat, Table
from competitions.views import manage_url
from rankings.imports import import_competition
from rankings.urls_helpers import season_url
from tests.e2e import session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def circuit(circuit_file, django_user_model):
    season = import_competition(circuit_file)
    user = django_user_model.objects.create_user("secretary", password="pw-secretary-1")
    season.series.managers.add(user)
    return season


def log_in(page, base: str) -> None:
    session.log_in(page, base, "secretary", "pw-secretary-1")


@pytest.mark.parametrize("width", [390, 1366, 1920])
def test_every_table_card_shows_its_scores_without_scrolling(live_server, browser, circuit, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(live_server.url + season_url(circuit, "tournament", "t1"))
    cards = page.locator(".seat-card")
    assert cards.count() == 2
    for i in range(cards.count()):
        card = cards.nth(i)
        box = card.bounding_box()
        header = card.locator("th", has_text="Score")
        assert header.is_visible()
        cell = header.bounding_box()
        assert cell["x"] + cell["width"] <= box["x"] + box["width"] + 1, f"card {i} at {width}px"
        # nothing in the card scrolls sideways
        assert card.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
        for score in card.locator("table.seat-table > tbody > tr > td:last-child").all():
            assert score.is_visible() and score.inner_text().strip()
    # A score's opened computation stays on the screen: it neither widens the page past the
    # window nor starts off its left edge.
    page.locator(".seat-table details.explain > summary").first.click()
    body = page.locator(".seat-table details.explain[open] > .explain-body").first
    assert body.is_visible()
    box = body.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    context.close()


def test_a_number_opens_its_computation(live_server, page, circuit):
    page.goto(live_server.url + season_url(circuit, "tournament", "t1"))
    card = page.locator(".seat-card").first
    score = card.locator("details.explain").first
    assert not score.locator(".explain-body").is_visible()
    score.locator("summary").click()
    body = score.locator(".explain-body")
    assert body.is_visible()
    # An Peeters won the Catan table of 4 (ranks 1, 2, 2, 4): 100 + 4 + 0.5
    assert "Placement: 100 × (4 − 1" in body.inner_text()
    assert "Score = 104.50" in body.inner_text()
    daily = page.locator("table.table-hover details.explain").first
    daily.locator("summary").click()
    assert "Daily total" in daily.locator(".explain-body").inner_text()
    page.goto(live_server.url + season_url(circuit, "yearly"))
    yearly = page.locator("table.table-hover details.explain").first
    yearly.locator("summary").click()
    assert "The best 5 regular tournaments and the final" in yearly.inner_text()


def test_a_tournament_is_deleted_after_a_confirmation_that_names_what_goes(
    live_server, page, circuit
):
    log_in(page, live_server.url)
    page.goto(live_server.url + manage_url(circuit, "tournament", "t1"))
    page.click("text=Delete the tournament…")
    text = page.inner_text("main")
    assert "Delete tournament Mechelen?" in text
    assert "2 rounds" in text and "2 tables" in text and "6 seats" in text
    page.click("button:has-text('Yes, delete')")
    page.wait_for_selector(".alert-success")
    assert not Tournament.objects.filter(key="t1").exists()
    assert Seat.objects.filter(round__season=circuit).count() == 13 - 6


def test_a_season_is_renamed_and_deleted_with_a_confirmation(live_server, page, circuit):
    log_in(page, live_server.url)
    page.goto(live_server.url + manage_url(circuit))
    page.click("text=Rename or delete the season")
    page.fill("input[name=label]", "2025/26")
    page.click("button:has-text('Save')")
    page.wait_for_url("**/manage/belgian-circuit/2025-26/")
    page.click("text=Rename or delete the season")
    page.click("text=Delete the season…")
    text = page.inner_text("main")
    assert "3 tournaments" in text and "13 seats" in text
    page.click("button:has-text('Yes, delete')")
    page.wait_for_url(f"{live_server.url}/manage/")
    assert not Season.objects.exists()


def test_a_player_without_results_is_deleted_and_one_with_results_is_kept(
    live_server, page, circuit
):
    Player.objects.create(series=circuit.series, key="dup", name="An Peeters (twice)")
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/manage/belgian-circuit/players/dup/delete/")
    assert "Nothing else is deleted" in page.inner_text("main")
    page.click("button:has-text('Yes, delete')")
    page.wait_for_selector(".alert-success")
    assert not Player.objects.filter(key="dup").exists()
    page.goto(f"{live_server.url}/manage/belgian-circuit/players/p1/delete/")
    assert "has results" in page.inner_text("main")
    assert page.locator("button:has-text('Yes, delete')").count() == 0


def test_a_new_player_is_added_without_losing_the_table(live_server, page, circuit):
    log_in(page, live_server.url)
    page.goto(live_server.url + manage_url(circuit, "round", "t2", 2))
    page.fill("input[name=game]", "Azul")
    page.fill("input[name=player_1]", "cis  janssens")  # spacing and case do not matter
    page.fill("input[name=player_2]", "Zoë Nieuwkomer")
    page.fill("input[name=player_3]", "Dirk Maes (p4)")
    page.click("button:has-text('Save table')")
    # Refused with the reason, everything typed still there, a box to add the player.
    assert "No player “Zoë Nieuwkomer”" in page.inner_text("#table-form")
    assert page.input_value("input[name=player_1]") == "cis  janssens"
    assert page.input_value("input[name=player_3]") == "Dirk Maes (p4)"
    page.check("input[name=new_2]")
    page.click("button:has-text('Save table')")
    page.wait_for_selector(".alert-success")
    newcomer = Player.objects.get(name="Zoë Nieuwkomer")
    table = Table.objects.get(round__tournament__key="t2", round__number=2)
    assert sorted(table.seats.values_list("player__key", "rank")) == sorted(
        [("p3", 1), (newcomer.key, 2), ("p4", 3)]
    )


def test_unusual_ranks_are_shown_back_for_confirmation(live_server, page, circuit):
    log_in(page, live_server.url)
    page.goto(live_server.url + manage_url(circuit, "round", "t2", 2))
    page.fill("input[name=game]", "Azul")
    for i, (player, rank) in enumerate([("p3", "2"), ("p4", "2"), ("p5", "3")], 1):
        page.fill(f"input[name=player_{i}]", player)
        page.fill(f"input[name=rank_{i}]", rank)
    page.click("button:has-text('Save table')")
    assert "Ranks 2, 2, 3 are unusual" in page.inner_text(".alert-warning")
    assert not Table.objects.filter(round__tournament__key="t2", round__number=2).exists()
    page.click("button:has-text('It is right: save anyway')")
    page.wait_for_selector(".alert-success")
    table = Table.objects.get(round__tournament__key="t2", round__number=2)
    assert sorted(table.seats.values_list("rank", flat=True)) == [2, 2, 3]


def test_the_tournament_day_screen_follows_without_reloading(live_server, page, circuit):
    today = Tournament.objects.get(key="t2")
    today.date = timezone.localdate()  # the tournament is played today
    today.save()
    page.goto(live_server.url + season_url(circuit, "tournament_live", "t2") + "?every=2")
    assert "Round 1: 2 tables entered" in page.inner_text(".live-body")
    page.evaluate("window.__same_page = true")
    round_two = circuit.rounds.create(tournament=Tournament.objects.get(key="t2"), number=2)
    table = Table.objects.create(round=round_two, number=1, game="Azul")
    for rank, key in enumerate(["p3", "p1"], 1):
        Seat.objects.create(table=table, player=Player.objects.get(key=key), rank=rank)
    deadline = time.monotonic() + 15  # (wait_for_function would need unsafe-eval: CSP)
    while "Round 2: 1 table entered" not in page.inner_text(".live-body"):
        assert time.monotonic() < deadline, "the screen did not follow within 15 s"
        page.wait_for_timeout(250)
    assert page.evaluate("window.__same_page") is True  # updated in place, not reloaded
    assert "3 participants have no table in this round yet" in page.inner_text(".live-body")
