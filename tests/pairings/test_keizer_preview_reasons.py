"""The Keizer pairing preview says why a pair is not the nearest one (issue 46, item 15): under
such a pair, one line for each player ranked between its two, "Not <name> (<place>): <reason>";
the nearest pairs stay quiet."""

import re

import pytest
from django.test import Client

from competitions.models import Player
from competitions.views import manage_url
from pairings.engines.keizer import (
    BALANCE,
    COLOURS,
    HAS_BYE,
    MET_OFTEN,
    PAIRED_HIGHER,
    REST_NEEDED,
    RUN,
    ColourClash,
    PairOut,
    PassedOver,
    Refusal,
)
from pairings.systems.keizer.passed_over import passed_over_lines
from rankings.imports import import_competition
from tests.keizer_data import small_file

NAMES = {"a": "Eva <Smit>", "b": "Bram", "c": "Jan", "d": "Henk"}
RANKS = {"a": 1, "b": 2, "c": 3, "d": 4}


def lines(pair: PairOut, board_of=None) -> list[str]:
    return [
        str(line)
        for line in passed_over_lines(pair, name=NAMES.get, ranks=RANKS, board_of=board_of or {})
    ]


def test_each_reason_in_one_line_names_escaped_and_isolated():
    pair = PairOut(
        "a",
        "d",
        passed_over=(
            PassedOver(
                "b",
                Refusal(
                    COLOURS,
                    clashes=(ColourClash("b", "black", RUN, 3), ColourClash("a", "black", RUN, 3)),
                ),
            ),
            PassedOver("c", Refusal(REST_NEEDED)),
        ),
    )
    assert lines(pair) == [
        "Not <bdi>Bram</bdi> (2): both would get black 3 times in a row",
        "Not <bdi>Jan</bdi> (3): allowed, but then the others could not all be paired",
    ]


def test_colour_limits_of_one_player_and_of_a_rematch():
    pair = PairOut(
        "c",
        "a",
        passed_over=(
            PassedOver(
                "b",
                Refusal(
                    COLOURS,
                    round=18,
                    clashes=(ColourClash("a", "white", BALANCE, 3),),
                ),
            ),
        ),
    )
    assert lines(pair) == [
        "Not <bdi>Bram</bdi> (2): a rematch takes the colours of round 18 reversed: "
        "<bdi>Eva &lt;Smit&gt;</bdi> would have 3 more whites than blacks"
    ]
    pair = PairOut(
        "a",
        "c",
        passed_over=(
            PassedOver(
                "b",
                Refusal(
                    COLOURS,
                    clashes=(
                        ColourClash("a", "black", BALANCE, -3),
                        ColourClash("b", "white", RUN, 3),
                    ),
                ),
            ),
        ),
    )
    assert lines(pair) == [
        "Not <bdi>Bram</bdi> (2): <bdi>Eva &lt;Smit&gt;</bdi> would have 3 more blacks than "
        "whites, <bdi>Bram</bdi> would get white 3 times in a row"
    ]


def test_players_not_free_are_named_only_under_a_pair_that_skipped_someone():
    paired = PassedOver("b", Refusal(PAIRED_HIGHER, partner="x"))
    bye = PassedOver("c", Refusal(HAS_BYE))
    assert lines(PairOut("a", "d", passed_over=(paired, bye)), {"x": 1}) == []
    often = PassedOver("c", Refusal(MET_OFTEN, meetings=4))
    assert lines(PairOut("a", "d", passed_over=(paired, often)), {"x": 1}) == [
        "Not <bdi>Bram</bdi> (2): already on board 1",
        "Not <bdi>Jan</bdi> (3): they have met 4 times already",
    ]


@pytest.mark.django_db
def test_the_preview_says_under_the_top_pair_whom_it_passed_over_and_why(
    django_user_model, django_capture_on_commit_callbacks
):
    # The list after round 2: p4, p3, p1, p2 (external tonight), p5 (the bye), p6. Eva (p4)
    # met Bram (p3) in round 1 and Jan (p1) in round 2: she gets the late entrant; Bram and
    # Jan are each other's nearest.
    with django_capture_on_commit_callbacks(execute=True):
        season = import_competition(small_file())
    Player.objects.filter(key="p3").update(name="Bram <Visser>")
    user = django_user_model.objects.create_user("leader", password="pw-leader-1")
    season.series.managers.add(user)
    client = Client()
    client.force_login(user)
    html = client.get(manage_url(season, "pair", 3)).content.decode()
    explained = re.findall(r'<tr class="passed-over">(.*?)</tr>', html, re.S)
    assert len(explained) == 1  # board 2 is the nearest pair: quiet
    assert re.findall(r"<div>(.*?)</div>", explained[0]) == [
        "Not <bdi>Bram &lt;Visser&gt;</bdi> (2): met in round 1",
        "Not <bdi>Jan de Vries</bdi> (3): met in round 2",
        "Not <bdi>Henk Mulder</bdi> (5): has the bye",
    ]
    first_board = html.index('class="has-passed-over"')
    assert html.index("Eva Smit", first_board) < html.index(explained[0])
