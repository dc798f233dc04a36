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


def test_round_1_is_paired_by_rating_whatever_the_typing_order():
    """Players typed as 900, 1100, 1300, 1500 were paired 900–1100 and 1300–1500: round 1 pairs
    by start numbers by rating (rules.md §3) by itself, and saving it gives those numbers
    (issue 46)."""
    from competitions.models import Player
    from competitions.systems.chess import services

    season = import_competition(chess_file())
    tournament = season.tournaments.get(key="klyve")
    group = services.group_create(tournament=tournament, name="Gruppe R", scale="1-half-0")
    for key, rating in (("w900", 900), ("w1100", 1100), ("w1300", 1300), ("w1500", 1500)):
        player = Player.objects.create(series=season.series, key=key, name=key)
        services.member_add(group=group, player=player, player_class="", born=None, rating=rating)
    pairing = get_system("chess-bgp").pairing
    proposal = pairing.pair_next_round(season, group=group)
    assert proposal["round"] == 1
    pairs = [{p["white"], p["black"]} for p in proposal["pairs"]]
    assert pairs == [{"w1500", "w1300"}, {"w1100", "w900"}]
    pairing.save(season, proposal)
    assert list(group.members.order_by("position").values_list("player__key", flat=True)) == [
        "w1500",
        "w1300",
        "w1100",
        "w900",
    ]
