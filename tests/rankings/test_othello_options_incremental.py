"""chess-othello-options.md §3 with the incremental update: a season with the direct reading
and the tie-break chain SM WOF WORLD LOT stores after each corrected tournament exactly what a
full recompute stores (the chain needs nothing the update does not read)."""

import random

import pytest

from rankings.imports import import_competition
from rankings.services import season_recompute
from tests.helpers import clear_standings, fresh, stored
from tests.rankings.conftest import reached
from tests.rankings.test_othello_incremental import correct, placements, season_file

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("seed", [3, 11])
def test_an_incremental_update_with_the_options_equals_a_full_recompute(recomputed, seed):
    data = season_file(seed, 4, 10, 3)
    data["series"] = f"gp-options-{seed}"
    data["settings"] |= {
        "series_rule": "direct",
        "season_tiebreaks": "SM WOF WORLD LOT",
        "tiebreak_seed": seed,
        "tiebreak_data": {"p1": {"wof": 1893.5}, "p2": {"world": 40}, "p3": {"wof": 1700}},
    }
    season = import_competition(data)
    rng = random.Random(seed)
    for _ in range(3):
        lines = placements(season)
        recomputed.clear()
        correct(season, rng)
        assert not fresh(season).stale
        if placements(season) != lines:  # the update, not a full compute
            assert len(reached(recomputed, season)) == 2
    incremental = stored(season)
    assert '"tiebreaks": [["SM"' in incremental and '"series_rule": "direct"' in incremental
    clear_standings(season)
    season_recompute(season_id=season.pk, force=True)
    assert stored(season) == incremental
