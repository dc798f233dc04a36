"""A Keizer season through the real stack on PostgreSQL: import, attendance, pairing, results and
corrections, each committed, each bringing the stored lists up to date by itself (ORM signal or
results_changed -> on_commit -> Celery task -> season_recompute under the advisory lock).

The stored lists do not depend on the order the results were entered in."""

import random

import pytest
from django.db import connection

from competitions.models import Game, Round, Season
from competitions.systems.keizer import services
from pairings.systems.keizer.pairing import pair_next_round, save
from rankings.engines import keizer as engine
from rankings.imports import import_competition
from rankings.selectors import standings_document
from rankings.systems.keizer.standings import load_season, number
from tests.conftest import skip_or_fail
from tests.helpers import stored
from tests.keizer_data import generated_file

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def postgresql():
    if connection.vendor != "postgresql":
        skip_or_fail("the Keizer integration test runs on PostgreSQL (DATABASE_URL)")


def fresh(season: Season) -> Season:
    return Season.objects.select_related("series").get(pk=season.pk)


def engine_standings(season: Season) -> list[dict]:
    """What the engine says, straight from the stored results."""
    season_in, _rounds = load_season(season)
    last = engine.compute_season(season_in).lists[-1]
    return [
        {"player": r.player, "rank": r.rank, "score": number(r.score), "value": r.value}
        for r in last.rows
    ]


def test_a_season_runs_evening_by_evening_with_the_lists_always_up_to_date():
    season = import_competition(generated_file(16, 4, seed=7, series="club"))
    assert not fresh(season).stale
    entries = list(season.entries.select_related("player"))
    for evening in (5, 6, 7):
        statuses = {e: "present" for e in entries}
        statuses[entries[evening]] = "absent"
        statuses[entries[evening + 1]] = "external"
        services.attendance_save(season=season, number=evening, date=None, statuses=statuses)
        save(season, pair_next_round(season))
        round_ = Round.objects.get(season=season, number=evening)
        assert round_.games.count() == 7 and round_.entries.filter(status="bye").count() == 0
        for game in round_.games.order_by("board"):
            services.game_result_set(game=game, result=["1-0", "0-1", "1/2-1/2"][game.board % 3])
        season = fresh(season)
        assert not season.stale
        doc = standings_document(season=season)
        assert len(doc["rounds"]) == evening + 1
        assert doc["standings"] == engine_standings(season)
    # A correction of the first evening recomputes everything after it, by itself.
    before = standings_document(season=fresh(season))
    game = Game.objects.filter(round__season=season, round__number=1).order_by("board").first()
    services.game_result_set(game=game, result="0-1" if game.result == "1-0" else "1-0")
    after = standings_document(season=fresh(season))
    assert after["rounds"][0] == before["rounds"][0]
    assert after["rounds"][1] != before["rounds"][1]
    assert after["standings"] == engine_standings(fresh(season))


def test_the_stored_lists_do_not_depend_on_the_order_results_were_entered():
    season = import_competition(generated_file(12, 6, seed=3, series="order"))
    original = stored(season)
    games = list(Game.objects.filter(round__season=season))
    results = {g.pk: g.result for g in games}
    rng = random.Random(5)
    for order in range(2):
        rng.shuffle(games)
        for game in games:  # take every result back, in a random order
            services.game_result_set(game=game, result="")
        assert len(standings_document(season=fresh(season))["rounds"]) == 1
        rng.shuffle(games)
        for game in games:  # and enter them again in another
            game.refresh_from_db()
            services.game_result_set(game=game, result=results[game.pk])
        assert stored(fresh(season)) == original, order
