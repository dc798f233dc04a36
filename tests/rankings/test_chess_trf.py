"""FIDE TRF16 export of a chess group: read back by a TRF parser we did not write (the `trf`
package), and checked column by column against the TRF16 player-line specification."""

import pytest
import trf as trf_parser
from django.urls import reverse

from competitions.models import Group
from competitions.systems.chess import trf
from rankings.imports import import_competition
from rankings.urls_helpers import season_url
from tests.chess_files import chess_file
from tests.helpers import document

pytestmark = pytest.mark.django_db


def download(client, season, group: Group) -> str:
    response = client.get(season_url(season, "group_trf", group.tournament.key, group.pk))
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('.trf"')
    return response.content.decode("utf-8")


@pytest.fixture
def season():
    return import_competition(chess_file())


def test_the_export_reads_back_with_an_independent_parser(client, season):
    group = Group.objects.get(name="Gruppe A")
    text = download(client, season, group)
    parsed = trf_parser.loads(text)
    assert parsed.name == "Klyve BGP, Gruppe A"
    assert parsed.startdate == "2025/10/04"
    assert parsed.numplayers == 5 and parsed.numrounds == 4
    by_start = {p.startrank: p for p in parsed.players}
    assert [by_start[n].name for n in range(1, 6)] == [
        "Anna Berg",
        "Bjørn Dahl",
        "Cecilie Lund",
        "David Moen",
        "Eva Strand",
    ]
    rows = {r["player"]: r for r in document(season)["tournaments"][0]["groups"][0]["rows"]}
    for start, key in enumerate("abcde", start=1):
        assert by_start[start].points == rows[key]["points"]
        assert by_start[start].rank == rows[key]["place"]
    assert by_start[1].rating == 1500 and by_start[2].rating == 0
    assert by_start[1].birthdate == "2011/00/00"
    # a (1): beat b (2) with white, beat e (5) with black, drew d (4), beat c (3).
    assert [(g.startrank, g.color, g.result, g.round) for g in by_start[1].games] == [
        (2, "w", "1", 1),
        (5, "b", "1", 2),
        (4, "w", "=", 3),
        (3, "w", "1", 4),
    ]
    # b (2): the WO is a pairing-allocated bye, the forfeit win a "+".
    assert [(g.startrank, g.color, g.result) for g in by_start[2].games] == [
        (1, "b", "0"),
        (3, "w", "1"),
        (0, "-", "U"),
        (5, "w", "+"),
    ]
    # d (4) did not play round 4: a zero-point bye. e (5) lost by forfeit.
    assert (by_start[4].games[3].startrank, by_start[4].games[3].result) == (0, "Z")
    assert (by_start[5].games[3].startrank, by_start[5].games[3].result) == (2, "-")


# TRF16 player line: (first column, last column) of each field, 1-based as the spec numbers them.
COLUMNS = {
    "data identification number": (1, 3),
    "starting rank": (5, 8),
    "sex": (10, 10),
    "title": (11, 13),
    "name": (15, 47),
    "rating": (49, 52),
    "federation": (54, 56),
    "fide id": (58, 68),
    "birth date": (70, 79),
    "points": (81, 84),
    "rank": (86, 89),
}


def field(line: str, name: str) -> str:
    first, last = COLUMNS[name]
    return line[first - 1 : last]


def round_fields(line: str, r: int) -> tuple[str, str, str]:
    """Round r (1-based): opponent in 92-95, colour 97, result 99, each round 10 columns on."""
    base = 92 + 10 * (r - 1)
    return line[base - 1 : base + 3], line[base + 4], line[base + 6]


def test_the_player_lines_follow_the_trf16_columns(client, season):
    text = download(client, season, Group.objects.get(name="Gruppe A"))
    lines = [line for line in text.splitlines() if line.startswith("001")]
    assert len(lines) == 5
    first = lines[0]
    assert field(first, "data identification number") == "001"
    assert field(first, "starting rank") == "   1"
    assert field(first, "name") == "Anna Berg".ljust(33)
    assert field(first, "rating") == "1500"
    assert field(first, "birth date") == "2011/00/00"
    assert field(first, "points") == " 3.5"
    assert field(first, "rank") == "   1"
    # The separators between the fields are blank.
    for column in (4, 9, 14, 48, 53, 57, 69, 80, 85, 90, 91):
        assert first[column - 1] == " ", column
    assert [round_fields(first, r) for r in range(1, 5)] == [
        ("   2", "w", "1"),
        ("   5", "b", "1"),
        ("   4", "w", "="),
        ("   3", "w", "1"),
    ]
    second = lines[1]
    assert field(second, "rating") == "    "
    assert round_fields(second, 3) == ("0000", "-", "U")
    assert field(lines[3], "rank") == "   3"  # d, start number 4, is third
    header = dict(
        line.split(" ", 1) for line in text.splitlines() if line[:3] in {"012", "062", "072"}
    )
    assert header == {"012": "Klyve BGP, Gruppe A", "062": "5", "072": "1"}
    assert "XXR 4" in text.splitlines()


def test_a_three_two_one_group_names_its_points_and_a_pending_game_has_no_result(client, season):
    text = download(client, season, Group.objects.get(name="Gruppe B"))
    assert "BBW 3.0" in text and "BBL 1.0" in text and "BBF 0.0" in text
    parsed = trf_parser.loads(text)
    assert {p.startrank: p.points for p in parsed.players} == {1: 1.0, 2: 3.0}
    pending = download(client, season, Group.objects.get(name="Alle"))
    line = next(line for line in pending.splitlines() if line.startswith("001    3"))
    # A game not played yet: opponent and colour, the result left blank.
    assert [round_fields(line, r) for r in (1, 2)] == [("0000", "-", "U"), ("   2", "w", " ")]


def test_long_and_strange_names_keep_the_columns(client):
    data = chess_file()
    data["players"][0]["name"] = "Ζωή 张伟 <script>alert(1)</script> / = " + "x" * 150
    season = import_competition(data)
    text = download(client, season, Group.objects.get(name="Gruppe A"))
    line = next(line for line in text.splitlines() if line.startswith("001    1"))
    assert field(line, "name") == data["players"][0]["name"][:33]
    assert field(line, "rating") == "1500"
    assert trf_parser.loads(text).players[0].name == data["players"][0]["name"][:33].strip()


def test_the_trf_of_an_unknown_group_is_404(client, season):
    group = Group.objects.get(name="Gruppe A")
    assert client.get(season_url(season, "group_trf", "km", group.pk)).status_code == 404
    assert (
        client.get(
            reverse("season", args=["telemark-bgp", "2025-26"])
            + "tournaments/klyve/groups/999/trf/"
        ).status_code
        == 404
    )


def test_parse_reads_what_write_wrote():
    group = trf.TrfGroup(
        name="Test",
        date="2025/10/04",
        rounds=2,
        players=[
            trf.TrfPlayer(
                1,
                "Anna",
                1500,
                2011,
                "1.5",
                1,
                [trf.TrfGame(2, "w", "1"), trf.TrfGame(0, "-", "U")],
            ),
            trf.TrfPlayer(
                2, "Bo", None, None, "0.0", 2, [trf.TrfGame(1, "b", "0"), trf.TrfGame(0, "-", "Z")]
            ),
        ],
    )
    parsed = trf.parse(trf.write(group))
    assert parsed.name == "Test" and parsed.rounds == 2
    assert [(p.start, p.name, p.rating, p.born, p.points, p.rank) for p in parsed.players] == [
        (1, "Anna", 1500, 2011, "1.5", 1),
        (2, "Bo", None, None, "0.0", 2),
    ]
    assert parsed.players[0].games == group.players[0].games
    assert parsed.players[1].games == group.players[1].games
