"""Reading typed and uploaded final standings (competitions/systems/othello/entry.py, ratings.py):
every fault named with its line, nothing read past it."""

from decimal import Decimal

import pytest

from competitions.models import Player
from competitions.systems.othello.entry import StandingsText, split_lines
from competitions.systems.othello.ratings import (
    RatingEntry,
    RatingError,
    describe,
    entry_from_json,
    entry_to_json,
    parse_typed,
    typed,
)
from competitions.uploads import WINDOWS_1252, decode

PLAYERS = [
    Player(pk=1, key="p1", name="Anna Lindqvist"),
    Player(pk=2, key="p2", name="Björn Sandberg"),
    Player(pk=3, key="p3", name="Erik Berg"),
    Player(pk=4, key="p4", name="Erik Berg"),
    Player(pk=5, key="p5", name="<script>alert(1)</script> / = 李伟"),
]


def read(text: str, **kwargs) -> StandingsText:
    kwargs.setdefault("create_players", False)
    return StandingsText(text, players=PLAYERS, country="SE", **kwargs)


# --- rating entries ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,entry",
    [
        ("1850", RatingEntry(nordic=Decimal("1850"))),
        ("N1850", RatingEntry(nordic=Decimal("1850"))),
        ("nordic 1850.5", RatingEntry(nordic=Decimal("1850.50"))),
        ("F2100", RatingEntry(ffo=Decimal("2100"))),
        ("ffo 2100,25", RatingEntry(ffo=Decimal("2100.25"))),
        ("P1900/350", RatingEntry(ffo=Decimal(1900), provisional=True, uncertainty=Decimal(350))),
        (
            "p 1900 ± 350",
            RatingEntry(ffo=Decimal(1900), provisional=True, uncertainty=Decimal(350)),
        ),
        ("F1900/350", RatingEntry(ffo=Decimal(1900), provisional=True, uncertainty=Decimal(350))),
        ("N1850 F2100", RatingEntry(nordic=Decimal(1850), ffo=Decimal(2100))),
        ("debutant", RatingEntry()),
        ("D", RatingEntry()),
        ("-", RatingEntry()),
    ],
)
def test_typed_rating_entries(text, entry):
    assert parse_typed(text) == entry


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "no rating entry"),
        ("   ", "no rating entry"),
        ("N", "cannot read"),
        ("1850x", "cannot read"),
        ("P1900", "needs its uncertainty"),
        ("N1850/20", "without an uncertainty"),
        ("F1900 F2000", "one FFO rating"),
        ("N99999", "from 0 to 5000"),
        ("P1900/3000", "from 0 to 2000"),
    ],
)
def test_bad_typed_rating_entries_say_why(text, message):
    with pytest.raises(RatingError) as caught:
        parse_typed(text)
    assert message in caught.value.message


@pytest.mark.parametrize(
    "entry",
    [
        RatingEntry(),
        RatingEntry(nordic=Decimal("1850.00")),
        RatingEntry(ffo=Decimal("2100.50")),
        RatingEntry(ffo=Decimal(1900), provisional=True, uncertainty=Decimal(350)),
        RatingEntry(nordic=Decimal(1700), ffo=Decimal(2000)),
    ],
)
def test_typed_and_json_forms_read_back_the_same(entry):
    assert parse_typed(typed(entry)) == entry
    assert entry_from_json(entry_to_json(entry)) == entry
    assert describe(entry)


# --- lines --------------------------------------------------------------------------------------


def test_four_three_and_two_field_lines():
    result = read("1; Anna Lindqvist (p1); SE; N2150\np2; FR; F2000\n\nErik Berg (p3); debutant\n")
    assert result.errors == []
    assert [(r.place, r.player.key, r.country, r.rating) for r in result.rows] == [
        (1, "p1", "SE", RatingEntry(nordic=Decimal(2150))),
        (2, "p2", "FR", RatingEntry(ffo=Decimal(2000))),
        (3, "p3", "SE", RatingEntry()),
    ]


def test_tabs_from_a_spreadsheet_and_a_lowercase_country():
    result = read("2\tanna lindqvist\tfi\t1800\n1\tp2\t\tN1900\n")
    assert result.errors == []
    assert [(r.place, r.player.key, r.country) for r in result.rows] == [
        (2, "p1", "FI"),
        (1, "p2", "SE"),
    ]


def test_a_header_line_orders_the_columns():
    result = read("rating,country,player,place\nN1900,SE,p2,2\nF2000,FR,p1,1\n")
    assert result.errors == []
    assert [(r.place, r.player.key) for r in result.rows] == [(2, "p2"), (1, "p1")]


def test_a_duplicate_place_is_refused_with_the_row_named():
    result = read("1; p1; SE; N1900\n1; p2; SE; N1800\n")
    assert result.errors == ["Line 2 (Björn Sandberg): place 1 again (line 1 has place 1)"]


def test_a_missing_rating_entry_is_refused_with_the_row_named():
    result = read("1; p1; SE; N1900\n2; p2; SE; \n")
    assert len(result.errors) == 1
    assert result.errors[0].startswith("Line 2 (Björn Sandberg): no rating entry")


def test_places_beyond_the_participants_are_refused():
    result = read("1; p1; SE; N1900\n3; p2; SE; N1800\n")
    assert result.errors == [
        "Line 2 (Björn Sandberg): place 3, but there are 2 participants (places 1 to 2)"
    ]


def test_unknown_and_ambiguous_players_and_doubles():
    result = read("Nobody; N1900\nErik Berg; N1800\np1; N1700\nAnna Lindqvist; N1600\n")
    assert result.errors[0].startswith("Line 1 (Nobody): unknown player")
    assert result.errors[1] == (
        "Line 2 (Erik Berg): 2 players are called Erik Berg: write Erik Berg (p3) or Erik Berg (p4)"
    )
    assert result.errors[2] == "Line 4 (Anna Lindqvist): listed twice (also on line 3)"


def test_unknown_names_become_new_players_when_asked():
    result = read("Nobody; N1900\np1; N1800\nnobody; N1700\n", create_players=True)
    assert result.errors == ["Line 3 (nobody): listed twice (also on line 1)"]
    result = read("Nobody New; N1900\np1; N1800\n", create_players=True)
    assert result.errors == []
    assert result.rows[0].player is None and result.rows[0].new_name == "Nobody New"


def test_a_line_of_another_shape_and_bad_fields():
    result = read("1; p1; SE; N1900; extra\nx; p2; SE; N1\n1; p5; Sweden; N1\n")
    assert result.errors[0].startswith("Line 1: expected")
    assert "the place 'x' is not a whole number" in result.errors[1]
    assert "a country is two letters" in result.errors[2]


def test_an_empty_text_and_a_bad_header():
    assert read("  \n").errors == ["No participants: type one line per participant."]
    assert read("place;country\n").errors[0].startswith("Line 1: the header needs")


def test_odd_names_are_found_by_their_label():
    result = read("<script>alert(1)</script> / = 李伟 (p5); N1500\n")
    assert result.errors == [] and result.rows[0].player.key == "p5"


def test_split_lines_keeps_quoted_separators():
    assert split_lines('1,"Berg, Erik",SE,N1\n\n') == [(1, ["1", "Berg, Erik", "SE", "N1"])]


def test_uploads_in_utf8_with_bom_and_in_windows_1252():
    assert decode("\ufeffplace;player\n".encode(), legacy=WINDOWS_1252) == "place;player\n"
    assert decode("Åström".encode("cp1252"), legacy=WINDOWS_1252) == "Åström"
