"""Othello GP incremental standings: a change of one tournament's placements recomputes that
tournament and the season standings only, and what is stored is exactly what a full recompute
stores (a property, over random seasons and random corrections)."""

import itertools
import json
import random

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competitions.models import Season, Tournament
from competitions.systems.othello import services
from competitions.systems.othello.entry import EntryRow
from competitions.systems.othello.models import Placement
from competitions.systems.othello.ratings import RatingEntry
from competitions.systems.othello.scopes import change_scope
from competitions.systems.othello.system import KEY
from rankings.imports import import_competition
from rankings.models import StandingsTable
from rankings.services import season_recompute
from rankings.systems.othello import standings as gp_standings
from tests.helpers import clear_standings, fresh, stored
from tests.rankings.conftest import reached

pipeline = pytest.mark.django_db(transaction=True)
EXAMPLES = itertools.count()


def season_file(seed: int, tournaments: int, players: int, best_n: int) -> dict:
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(players)]

    def rating():
        kind = rng.randrange(4)
        if kind == 0:
            return {"nordic": rng.randrange(80_000, 230_000) / 100}
        if kind == 1:
            return {"ffo": rng.randrange(120_000, 250_000) / 100}
        if kind == 2:
            return {"ffo": rng.randrange(1200, 2500), "provisional": True, "uncertainty": 300}
        return {}

    events = []
    for t in range(tournaments):
        field = rng.sample(ids, rng.randint(2, players))
        events.append(
            {
                "id": f"t{t + 1}",
                "name": f"GP {t + 1}",
                "date": f"2025-{t + 1:02d}-01",
                "participants": [
                    {
                        "player": p,
                        "place": place,
                        "country": rng.choice(["SE", "SE", "FI"]),
                        "rating": rating(),
                    }
                    for place, p in enumerate(field, 1)
                ],
            }
        )
    return {
        "format": "competition/1",
        "system": KEY,
        "series": f"gp-incremental-{seed}",
        "season": "2025",
        "settings": {"best_n": best_n},
        "players": [{"id": p, "name": f"Player {p}"} for p in ids],
        "tournaments": events,
    }


def correct(season: Season, rng: random.Random) -> None:
    """One manager's save of one tournament's standings: places shuffled, one rating and one
    country changed, as the standings form saves them."""
    tournament = rng.choice(list(season.tournaments.all()))
    placements = list(Placement.objects.filter(tournament=tournament).select_related("player"))
    places = [p.place for p in placements]
    rng.shuffle(places)
    rows = []
    for i, (p, place) in enumerate(zip(placements, places, strict=True)):
        nordic = p.nordic
        country = p.country
        if i == 0:
            nordic = rng.choice([None, rng.randrange(800, 2300)])
            country = rng.choice(["SE", "NO"])
        rows.append(
            EntryRow(
                line=i + 1,
                place=place,
                player=p.player,
                new_name="",
                country=country,
                rating=RatingEntry(
                    nordic, p.ffo if nordic is None else None, p.provisional, p.uncertainty
                )
                if nordic is not None or p.ffo is not None
                else RatingEntry(),
            )
        )
    with transaction.atomic():
        services.standings_save(tournament=tournament, rows=rows)


def placements(season) -> list[tuple]:
    return list(
        Placement.objects.filter(tournament__season=season)
        .order_by("pk")
        .values_list("tournament_id", "player_id", "place", "country", "nordic", "ffo")
    )


@pipeline
@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 10_000),
    tournaments=st.integers(1, 5),
    players=st.integers(2, 12),
    best_n=st.integers(1, 5),
    changes=st.integers(1, 3),
)
def test_an_incremental_update_stores_exactly_what_a_full_recompute_stores(
    recomputed, seed, tournaments, players, best_n, changes
):
    data = season_file(seed, tournaments, players, best_n)
    # A series of its own per example (a GP series cannot be deleted: Placement.player is
    # PROTECT).
    data["series"] = f"gp-incremental-{next(EXAMPLES)}"
    season = import_competition(data)
    rng = random.Random(seed)
    for _ in range(changes):
        before = set(StandingsTable.objects.filter(season=season).values_list("pk", flat=True))
        lines = placements(season)
        recomputed.clear()
        correct(season, rng)
        assert not fresh(season).stale
        after = set(StandingsTable.objects.filter(season=season).values_list("pk", flat=True))
        reach = reached(recomputed, season)
        if placements(season) == lines:  # the correction changed nothing: nothing to compute
            assert reach == set()
        else:  # only the tournament's table and the standings table were recomputed
            assert len(reach) == 2 and ("standings", "") in reach
        assert before == after
    incremental = stored(season)
    clear_standings(season)
    season_recompute(season_id=season.pk, force=True)
    assert stored(season) == incremental


@pipeline
def test_a_change_the_update_cannot_place_computes_in_full():
    season = import_competition(season_file(1, 3, 6, 5))
    placement = Placement.objects.filter(tournament__season=season).first()
    assert change_scope(Placement, placement) == f"t:{placement.tournament_id}"
    assert change_scope(Season, season) is None
    assert gp_standings.update(season, frozenset({"earlier"})) is None
    assert gp_standings.update(season, frozenset({"t:999999"})) is None
    # A tournament added since (no signal: as stored before its recompute): the tournaments
    # differ from the stored tables, so the whole season is computed.
    Tournament.objects.bulk_create([Tournament(season=season, key="new", name="New")])
    assert gp_standings.update(season, frozenset({f"t:{placement.tournament_id}"})) is None
    # With the SM tie-break every participant's rating is read: a full compute.
    season_recompute(season_id=season.pk, force=True)
    Season.objects.filter(pk=season.pk).update(settings={"sm_tiebreak": True})
    season.refresh_from_db()
    assert gp_standings.update(season, frozenset({f"t:{placement.tournament_id}"})) is None
    update = None
    Season.objects.filter(pk=season.pk).update(settings={})
    season.refresh_from_db()
    update = gp_standings.update(season, frozenset({f"t:{placement.tournament_id}"}))
    assert update is not None
    assert [t.kind for t in update.tables] == ["tournament", "standings"]


def _forget_the_order(season: Season) -> None:
    """The season's tournament tables as stored before their data kept who placed where."""
    for table in StandingsTable.objects.filter(season=season, kind=gp_standings.KIND_TOURNAMENT):
        del table.data["order"], table.data["other_country"]
        table.save(update_fields=["data"])


@pipeline
def test_tournament_tables_stored_before_they_kept_the_order_are_read_from_their_lines():
    data = season_file(7, 4, 9, 3)
    data["series"] = "gp-incremental-older"
    season = import_competition(data)
    tables = list(StandingsTable.objects.filter(season=season, kind=gp_standings.KIND_TOURNAMENT))
    # The tables' data and their lines give the same players and points, in place order.
    from_data = gp_standings._stored_points(tables)
    assert from_data == dict(gp_standings._stored_lines([table.pk for table in tables]))
    assert any(points is None for lines in from_data.values() for _player, points in lines)
    _forget_the_order(season)
    correct(season, random.Random(7))
    assert not fresh(season).stale
    updated = json.loads(stored(season))
    clear_standings(season)
    season_recompute(season_id=season.pk, force=True)
    full = json.loads(stored(season))
    assert updated["rows"] == full["rows"]
    for (kind, key, position, data), again in zip(updated["tables"], full["tables"], strict=True):
        # the tables the update did not reach keep their data as stored, without the order
        assert [kind, key, position] == again[:3]
        assert data == {k: v for k, v in again[3].items() if k in data}
