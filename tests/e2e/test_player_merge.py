"""A typo accepted as a new player is merged into the right one in the browser, and the public
standings show one player (issue 46, item 7)."""

import pytest

from competitions.models import Player, SeasonPlayer
from competitions.systems.boardgame.models import Seat
from rankings.imports import import_competition
from rankings.services import season_recompute
from tests.e2e.session import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def typo_season(django_user_model, circuit_file):
    """The circuit, where Dirk Maes's seat at Gent's second table was entered as "Dirk Maas"."""
    season = import_competition(circuit_file)
    user = django_user_model.objects.create_user("secretary", password="pw-secretary-1")
    season.series.managers.add(user)
    typo = Player.objects.create(series=season.series, key="dirk-maas", name="Dirk Maas")
    seat = Seat.objects.get(player__key="p4", table__round__tournament__key="t2", table__number=2)
    Seat.objects.filter(pk=seat.pk).update(player=typo)
    SeasonPlayer.objects.create(season=season, player=typo, position=99)
    season_recompute(season_id=season.pk, force=True)
    return season


def test_secretary_merges_a_typo_player_and_the_standings_show_one(live_server, page, typo_season):
    base = live_server.url
    yearly = f"{base}/{typo_season.series.slug}/{typo_season.slug}/yearly/"
    page.goto(yearly)
    assert "Dirk Maas" in page.locator("table.table-hover").inner_text()

    log_in(page, base, "secretary", "pw-secretary-1")
    page.click("text=Players and clubs")
    page.click("a:has-text('Dirk Maas')")
    page.click("text=Merge into…")
    page.fill("input[name=q]", "Dirk")
    page.click("button:has-text('Search')")
    page.click("li:has-text('Dirk Maes') >> text=Merge into this player…")
    moves = page.locator("table").inner_text()
    assert "seats" in moves and "2025" in moves
    page.click("button:has-text('Yes, merge')")
    page.wait_for_selector(".alert-success")
    assert "Dirk Maas merged into Dirk Maes" in page.inner_text(".alert-success")

    page.goto(yearly)
    standings = page.locator("table.table-hover").inner_text()
    assert "Dirk Maas" not in standings
    assert standings.count("Dirk Maes") == 1
