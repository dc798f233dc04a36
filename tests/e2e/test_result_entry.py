"""The main journey: a secretary enters a table in the browser, players read the standings."""

import pytest

from competitions.systems.boardgame.models import Seat
from rankings.imports import import_competition
from tests.e2e.session import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def secretary(django_user_model, circuit_file):
    season = import_competition(circuit_file)
    user = django_user_model.objects.create_user("secretary", password="pw-secretary-1")
    season.series.managers.add(user)
    return user


def test_secretary_enters_a_table_and_every_ranking_follows(live_server, page, secretary):
    base = live_server.url
    log_in(page, base, "secretary", "pw-secretary-1")

    page.click("text=Belgian board game circuit 2025")
    page.click("tr:has-text('Gent') >> text=Enter results")
    page.click("text=Round 2")
    assert page.locator("#entered-tables").inner_text().startswith("No tables yet")

    # Finishing order, a tie typed as a rank: Els and Dirk share second place.
    page.fill("input[name=game]", "Azul")
    page.fill("input[name=player_1]", "Cis Janssens (p3)")
    page.fill("input[name=player_2]", "Els Wouters (p5)")
    page.fill("input[name=player_3]", "Dirk Maes (p4)")
    page.fill("input[name=rank_3]", "2")
    page.click("button:has-text('Save table')")
    page.wait_for_selector(".alert-success")
    assert "Table 1 saved: Azul, 3 players." in page.inner_text(".alert-success")
    assert "1. Cis Janssens, 2. Dirk Maes, 2. Els Wouters" in page.inner_text("#entered-tables")
    assert Seat.objects.filter(round__tournament__key="t2", round__number=2).count() == 3

    # A mistake is refused with the reason, and nothing is stored.
    page.fill("input[name=game]", "Azul")
    page.fill("input[name=player_1]", "Cis Janssens (p3)")
    page.fill("input[name=player_2]", "An Peeters (p1)")
    page.click("button:has-text('Save table')")
    assert "already plays at table 1 in this round" in page.inner_text(".alert-danger")
    assert Seat.objects.filter(round__tournament__key="t2", round__number=2).count() == 3

    # The public tournament page shows the new table and the new daily ranking.
    page.click("text=See the standings")
    page.wait_for_selector("text=Round 2")
    round_two = page.locator("h2:has-text('Round 2') + div")
    assert "Azul" in round_two.inner_text()
    daily = page.locator(".card:has-text('Daily ranking') table.table-hover")
    # Cis: Catan shared first of 3 (75 + 3 + 0.5) + Azul first of 3 (100 + 3 + 0.67) = 182.17
    assert "182.17" in daily.inner_text()
    assert daily.locator(":scope > tbody > tr").first.inner_text().split("\t")[1] == "Cis Janssens"

    # Yearly, per-game and player pages follow as well.
    page.get_by_role("link", name="Yearly ranking", exact=True).click()
    page.wait_for_url("**/yearly/")
    assert "Cis Janssens" in page.locator("table.table-hover").inner_text()
    page.get_by_role("link", name="Per game", exact=True).click()
    page.wait_for_url("**/games/")
    page.click("a:has-text('Azul')")
    rows = page.locator("table.table-hover > tbody > tr")
    assert rows.count() == 3
    assert "Cis Janssens" in rows.first.inner_text()
    rows.first.locator("a").click()
    assert page.locator("h1").inner_text() == "Cis Janssens"
