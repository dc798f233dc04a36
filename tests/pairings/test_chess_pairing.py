"""The chess pairing attached to the system's spec: the pair_round JSON of interchange.md for a
stored group, WOs of the whole tournament, rematches said out loud, and saving."""

import pytest
from django.core.exceptions import ValidationError

from competitions.models import Group, RoundEntry
from competitions.registry import get_system
from rankings.imports import import_competition
from tests.chess_files import chess_file

pytestmark = pytest.mark.django_db


def test_the_next_round_of_a_stored_group_as_pair_round_json():
    season = import_competition(chess_file())
    pairing = get_system("chess-bgp").pairing
    group = Group.objects.get(name="Gruppe A")
    proposal = pairing.pair_next_round(season, group=group)
    assert proposal["round"] == 5 and proposal["group"] == group.pk
    assert set(proposal) == {"round", "group", "pairs", "bye", "relaxed"}
    paired = [k for p in proposal["pairs"] for k in (p["white"], p["black"])]
    assert sorted(paired + [proposal["bye"]]) == ["a", "b", "c", "d", "e"]
    # b, d and e had their WO; a (3½) and c (1½) had none: c has the fewest points.
    assert proposal["bye"] == "c"
    assert all(p["manual"] is False for p in proposal["pairs"])
    round_ = pairing.save(season, proposal)
    assert round_.number == 5
    assert RoundEntry.objects.get(round=round_, status="walkover").player.key == "c"
    assert round_.games.filter(result="").count() == 2
    with pytest.raises(ValidationError) as refused:
        pairing.pair_next_round(season, group=group)
    # In the page's words, translatable ("round 5 has games without a result" was the engine's).
    assert refused.value.messages == ["Enter the results of round 5 before pairing the next round."]


def test_rematches_are_named_in_relaxed_and_walkovers_elsewhere_count():
    data = chess_file()
    data["players"].append({"id": "h", "name": "Hedda Vik"})
    group_b = data["tournaments"][0]["groups"][1]
    group_b["players"].append({"player": "h", "class": "Miniputt"})
    group_b["rounds"][0].append({"walkover": "h"})
    season = import_competition(data)
    pairing = get_system("chess-bgp").pairing
    small = Group.objects.get(name="Gruppe B")  # f and g met; h had a WO
    proposal = pairing.pair_next_round(season, group=small, present=["f", "g"])
    assert proposal["relaxed"] == ["rematch:1"] and proposal["pairs"][0]["rematch"]
    # In Gruppe A, b, d and e had their WO; of a (3½ points) and c (1½) the one with the fewest
    # points gets it. (A WO in another group of the tournament cannot happen: a player plays in
    # one group of a tournament, rules.md §3.)
    big = Group.objects.get(name="Gruppe A")
    assert pairing.pair_next_round(season, group=big)["bye"] == "c"
