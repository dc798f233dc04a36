"""The Othello GP through the real recompute (PostgreSQL in CI): result entry, an admin-style
correction, a tournament flag and a season setting each bring the stored standings up to date
after the commit; recomputing twice stores the same, byte for byte."""

import pytest
from django.db import transaction

from competitions.models import Season, Tournament
from competitions.systems.othello import services
from competitions.systems.othello.entry import StandingsText
from competitions.systems.othello.models import Placement
from rankings.imports import import_competition
from rankings.services import season_recompute
from tests.helpers import document, fresh, stored, tournament_of
from tests.othello_files import gp_file

pipeline = pytest.mark.django_db(transaction=True)


def standings(season: Season) -> list[tuple]:
    return [(r["player"], r["rank"], r["points"]) for r in document(season)["standings"]]


@pipeline
def test_entering_standings_recomputes_after_the_commit():
    season = import_competition(gp_file())
    assert not fresh(season).stale
    t3 = Tournament.objects.get(key="t3")
    players = list(season.series.players.all())
    rows = StandingsText(
        "p6; SE; N2400\np5; SE; N1000\n", players=players, country="SE", create_players=False
    ).rows
    with transaction.atomic():
        services.standings_save(tournament=t3, rows=rows)
        assert fresh(season).stale  # inside the transaction: marked, not computed
    assert not fresh(season).stale
    # NR 2400, 1000: S = 1600, M = 13.4 -> 13, 0
    assert tournament_of(document(season), "t3")["series"] == [13, 0]
    assert ("p6", 3, 13) in standings(season)


@pipeline
def test_a_correction_of_one_placement_recomputes():
    season = import_competition(gp_file())
    placement = Placement.objects.get(tournament__key="t1", player__key="p3")
    placement.country = "SE"  # Julien Lefèvre was a Swede at the Open after all
    placement.save()
    season = fresh(season)
    assert not season.stale
    t1 = tournament_of(document(season), "t1")
    assert t1["points"][2] == {"player": "p3", "place": 3, "points": 4}
    assert ("p3", 3, 4) in standings(season)


@pipeline
def test_the_sm_flag_and_the_season_switch_recompute():
    data = gp_file()
    # S = 3 * 200 = 600, M = 9.4: series 9, 2, 0; p1 15 + 2 = 17 = 8 + 9 of p2
    data["tournaments"][1]["participants"] = [
        {"player": "p2", "place": 1, "country": "SE", "rating": {"nordic": 1100}},
        {"player": "p1", "place": 2, "country": "SE", "rating": {"nordic": 1100}},
        {"player": "p6", "place": 3, "country": "SE", "rating": {"nordic": 1100}},
    ]
    season = import_competition(data)
    assert standings(season)[:2] == [("p1", 1, 17), ("p2", 1, 17)]
    t2 = Tournament.objects.get(key="t2")
    t2.options = {"sm": True}
    t2.save()
    assert not fresh(season).stale
    assert standings(season)[:2] == [("p1", 1, 17), ("p2", 1, 17)]  # the rule is off
    season = fresh(season)
    season.settings = {"sm_tiebreak": True}
    season.save()
    assert not fresh(season).stale
    assert standings(season)[:2] == [("p2", 1, 17), ("p1", 2, 17)]  # 9 SM points against 2
    t2.options = {}
    t2.save()
    # no SM: equal SM points (0), then rating: p1's last NR 1100 = p2's 1100: shared
    assert standings(season)[:2] == [("p1", 1, 17), ("p2", 1, 17)]


@pipeline
def test_recomputing_twice_stores_the_same():
    season = import_competition(gp_file(settings={"sm_tiebreak": True, "egp_rule": True}))
    first = stored(season)
    assert season_recompute(season_id=season.pk, force=True)
    assert stored(season) == first


@pytest.mark.django_db
def test_a_recompute_reads_each_tournament_s_placements_in_turn():
    """The streamed placements are load_season's, tournament by tournament in the order of
    their ids (not the season's: undated tournaments last there); a tournament without
    placements empty."""
    from datetime import date

    from rankings.systems.othello.standings import load_season, streamed_placements

    data = gp_file()
    data["tournaments"][0]["date"] = None
    season = import_competition(data)
    Tournament.objects.create(season=season, key="empty", name="No one yet", date=date(2025, 1, 2))
    tournaments, by_tournament = load_season(season)
    assert tournaments[-1].date is None and "empty" in [t.key for t in tournaments]
    with transaction.atomic():  # a server-side cursor, as in a recompute
        streamed = list(streamed_placements(season, tournaments))
    by_id = sorted(tournaments, key=lambda t: t.pk)
    assert by_id != tournaments  # the undated first tournament comes first here
    assert streamed == [(t, by_tournament.get(t.pk, [])) for t in by_id]
    assert (
        sum(len(rows) for _t, rows in streamed)
        == Placement.objects.filter(tournament__season=season).count()
    )


@pipeline
def test_tournaments_whose_ids_run_against_the_season_s_order_give_the_same_standings():
    """A recompute reads the placements in the order of the tournaments' ids and puts the
    results back in the season's order: a file listing its tournaments latest first stores
    what the same file in date order does (tables, positions, every line's detail)."""
    from rankings.models import StandingsTable

    forward = import_competition(gp_file())
    data = gp_file(series="swedish-gp-reversed")
    data["tournaments"] = list(reversed(data["tournaments"]))
    backward = import_competition(data)
    ids = dict(backward.tournaments.values_list("key", "pk"))
    assert ids["t2"] < ids["t1"]  # created latest first
    for season in (forward, backward):
        assert season_recompute(season_id=season.pk, force=True)

    def tables(season):
        return [
            (tb.kind, tb.key, tb.position, tb.data, [(r.rank, r.points, r.detail) for r in rows])
            for tb in StandingsTable.objects.filter(season=season).order_by("position", "kind")
            for rows in [tb.rows.order_by("position")]
        ]

    assert tables(backward) == tables(forward)
    assert [t["id"] for t in document(backward)["tournaments"]] == ["t1", "t2", "t3"]
    assert document(backward)["standings"] == document(forward)["standings"]
