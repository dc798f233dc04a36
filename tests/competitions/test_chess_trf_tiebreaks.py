"""Issue 48 part 4: a group's tie-break list travels in its TRF file (TRF-2026 record 202) and an
import reads it back (202, or 212 with the points first), or says why it cannot; so does its
format (automatic, Monrad, round robin: TRF-2026 record 192, the encoded type of tournament)."""

import pytest
import trf as trf_parser
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from competitions.models import Group, Season, Tournament
from competitions.systems.chess import trf
from competitions.systems.chess.settings import OWN_FORMAT, OWN_TIEBREAKS
from competitions.views import manage_url
from rankings.imports import import_competition
from rankings.selectors import standings_table
from rankings.urls_helpers import season_url
from tests.chess_files import chess_file
from tests.rankings.test_chess_tiebreak_pages import example_1a

pytestmark = pytest.mark.django_db

LIST = "WON BH/C1 SB"


@pytest.fixture
def season(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return import_competition(chess_file())


def manager_of(season) -> Client:
    user, _new = User.objects.get_or_create(username="sec")
    season.series.managers.add(user)
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def secretary(season):
    return manager_of(season)


def rows(season, group):
    table = standings_table(
        season=Season.objects.get(pk=season.pk), kind="group", key=str(group.pk)
    )
    return [(r["player"], r["place"], r["points"], r["tiebreaks"]) for r in table.row_details]


def import_into_new_group(client, season, text: bytes, capture, key="skien"):
    tournament = Tournament.objects.create(season=season, key=key, name=key.title())
    group = Group.objects.create(tournament=tournament, name="Fra TRF", position=9)
    with capture(execute=True):
        response = client.post(
            manage_url(season, "group", key, group.pk),
            {"import_trf": "1", "trf-file": SimpleUploadedFile("g.trf", text)},
            follow=True,
        )
    assert response.status_code == 200, response.content.decode()[:3000]
    group.refresh_from_db()
    return group, response.content.decode()


def test_a_groups_own_list_round_trips_through_its_trf_file(django_capture_on_commit_callbacks):
    """Worked example 1A: FIDE-SWISS puts X (D) second where NSF puts V (B); the file carries
    the list, and the group filled from it is ranked the same."""
    capture = django_capture_on_commit_callbacks
    with capture(execute=True):
        season = import_competition(example_1a())
    secretary = manager_of(season)
    source = Group.objects.get(name="Swiss")
    nsf = [r[:2] for r in rows(season, source)]
    with capture(execute=True):
        response = secretary.post(
            manage_url(season, "group", "ex1a", source.pk),
            {"save_group": "1", "g-name": source.name, "g-scale": source.scale,
             "g-tiebreaks": "FIDE-SWISS", "g-group_format": ""},
        )  # fmt: skip
    assert response.status_code == 302
    ranked = rows(season, source)
    assert [r[:2] for r in ranked][1:3] == [("x", 2), ("v", 3)] and nsf[1:3] == [("v", 2), ("x", 3)]
    text = secretary.get(season_url(season, "group_trf", "ex1a", source.pk)).content
    assert "202 BH/C1 BH SB PS DE WIN BWG" in text.decode().splitlines()
    # The TRF16 reader we did not write passes over the record and reads the places as before.
    parsed = trf_parser.loads(text.decode())
    assert [p.rank for p in sorted(parsed.players, key=lambda p: p.startrank)] == [
        r[1] for r in sorted(ranked, key=lambda r: r[0])
    ]
    group, page = import_into_new_group(secretary, season, text, capture)
    assert group.options[OWN_TIEBREAKS] == "FIDE-SWISS"
    assert "Tie-breaks from the file: FIDE-SWISS." in page
    assert rows(season, group) == ranked


def test_todays_list_writes_no_record_and_the_import_keeps_the_seasons_list(
    secretary, season, django_capture_on_commit_callbacks
):
    source = Group.objects.get(name="Gruppe A")
    text = secretary.get(season_url(season, "group_trf", "klyve", source.pk)).content
    assert not any(line.startswith(("202", "212")) for line in text.decode().splitlines())
    group, _page = import_into_new_group(
        secretary, season, text, django_capture_on_commit_callbacks
    )
    assert OWN_TIEBREAKS not in group.options


def small(record: str) -> bytes:
    players = [
        trf.TrfPlayer(1, "Ola Nordmann", games=[trf.TrfGame(2, "w", "1")]),
        trf.TrfPlayer(2, "Kari Hansen", games=[trf.TrfGame(1, "b", "0")]),
    ]
    text = trf.write(trf.TrfGroup(name="Fra TRF", rounds=1, players=players))
    return text.replace("062 ", f"{record}\n062 ", 1).encode()


@pytest.mark.parametrize(
    ("record", "stored", "note"),
    [
        ("212 PTS BH/C1 DE", "BH/C1 DE", "Tie-breaks from the file: BH/C1 DE."),
        ("202 bh/c1,sb", "bh/c1 sb", "Tie-breaks from the file: bh/c1 sb."),
        (
            "202 BH/C1 AOB",
            None,
            "TRF line 2: the tie-break list was not taken. Unknown tie-break code AOB",
        ),
        (
            "212 BH PTS",
            None,
            "TRF line 2: the standings are not ordered by points first, which a group cannot "
            "hold; the tie-break list was not taken.",
        ),
    ],
)
def test_an_imported_list_is_taken_or_named_with_its_line(
    secretary, season, django_capture_on_commit_callbacks, record, stored, note
):
    group, page = import_into_new_group(
        secretary, season, small(record), django_capture_on_commit_callbacks
    )
    assert group.members.count() == 2  # the results are imported either way
    assert group.options.get(OWN_TIEBREAKS) == stored
    assert note in page


def test_parse_reads_the_records_and_write_writes_202():
    group = trf.TrfGroup(name="T", rounds=0, tiebreaks=["BH/C1", "SB"])
    text = trf.write(group)
    assert "202 BH/C1 SB" in text.splitlines()
    parsed = trf.parse(text)
    assert parsed.tiebreaks == ["BH/C1", "SB"] and parsed.tiebreaks_record == (5, "202")
    assert trf.parse("212 PTS DE\n").tiebreaks == ["PTS", "DE"]


# --- the group format: TRF-2026 record 192 (docs/interchange.md, "TRF files of a group") ------


def test_a_groups_own_format_round_trips_through_its_trf_file(django_capture_on_commit_callbacks):
    """Worked example 1A set to a round robin with the FIDE Swiss list (a forfeit then counts
    as a game against the scheduled opponent, §1.5): the file says so in 192 (and in 092's
    words), another reader still reads it, and the group filled from it has that format and is
    ranked the same."""
    capture = django_capture_on_commit_callbacks
    with capture(execute=True):
        season = import_competition(example_1a(tiebreaks="FIDE-SWISS", format="round_robin"))
    secretary = manager_of(season)
    source = Group.objects.get(name="Swiss")
    ranked = rows(season, source)
    text = secretary.get(season_url(season, "group_trf", "ex1a", source.pk)).content.decode()
    lines = text.splitlines()
    assert "192 CUSTOM_ROUNDROBIN" in lines and "092 Individual: Round robin" in lines
    parsed = trf_parser.loads(text)
    assert [p.rank for p in sorted(parsed.players, key=lambda p: p.startrank)] == [
        r[1] for r in sorted(ranked, key=lambda r: r[0])
    ]
    group, page = import_into_new_group(secretary, season, text.encode(), capture)
    assert group.options[OWN_FORMAT] == "round_robin"
    assert group.options[OWN_TIEBREAKS] == "FIDE-SWISS"
    assert "Group format from the file: round robin." in page
    assert rows(season, group) == ranked


def test_the_seasons_format_is_written_and_read_back_as_the_groups_already(
    django_capture_on_commit_callbacks,
):
    capture = django_capture_on_commit_callbacks
    data = example_1a()
    data["settings"] = {"group_format": "monrad"}
    with capture(execute=True):
        season = import_competition(data)
    secretary = manager_of(season)
    source = Group.objects.get(name="Swiss")
    text = secretary.get(season_url(season, "group_trf", "ex1a", source.pk)).content
    assert "192 CUSTOM_SWISS" in text.decode().splitlines()
    group, page = import_into_new_group(secretary, season, text, capture)
    assert OWN_FORMAT not in group.options
    assert "Group format from the file: Monrad (Swiss) (the group's already)." in page.replace(
        "&#x27;", "'"
    )


def test_an_automatic_format_writes_no_type_record(secretary, season):
    source = Group.objects.get(name="Gruppe A")
    text = secretary.get(season_url(season, "group_trf", "klyve", source.pk)).content.decode()
    assert not any(line.startswith("192") for line in text.splitlines())
    assert "092 Individual: Monrad" in text.splitlines()


@pytest.mark.parametrize(
    ("record", "stored", "note"),
    [
        ("192 FIDE_DUTCH_2025", "monrad", "Group format from the file: Monrad (Swiss)."),
        ("192 fide_dutch_baku", "monrad", "Group format from the file: Monrad (Swiss)."),
        (
            "192 BERGER_DOUBLEROUNDROBIN",
            "round_robin",
            "Group format from the file: round robin.",
        ),
        (
            "192 FIDE_TEAM_TYPEA_MP_GP",
            None,
            "TRF line 2: the type of tournament FIDE_TEAM_TYPEA_MP_GP is not a group's format; "
            "the format was not taken.",
        ),
        (
            "192 CUSTOM_KNOCKOUT",
            None,
            "TRF line 2: the type of tournament CUSTOM_KNOCKOUT is not a group's format; the "
            "format was not taken.",
        ),
    ],
)
def test_an_imported_format_is_taken_or_named_with_its_line(
    secretary, season, django_capture_on_commit_callbacks, record, stored, note
):
    group, page = import_into_new_group(
        secretary, season, small(record), django_capture_on_commit_callbacks
    )
    assert group.members.count() == 2  # the results are imported either way
    assert group.options.get(OWN_FORMAT) == stored
    assert note in page.replace("&#x27;", "'")


def test_format_of_reads_fides_type_codes():
    assert (
        trf.format_of("CUSTOM_ROUNDROBIN")
        == trf.format_of("BERGER_ROUNDROBIN_G2")
        == ("round_robin")
    )
    assert trf.format_of("FIDE_DUTCH_2017") == trf.format_of("CUSTOM_SWISS") == "monrad"
    for code in ("FIDE_SCHILLER", "FIDE_TEAM_ROUNDROBIN", "SWISS", "", "CUSTOM_SWISS; DROP"):
        assert trf.format_of(code) is None, code
    group = trf.TrfGroup(name="T", group_format="round_robin")
    parsed = trf.parse(trf.write(group))
    assert parsed.type_record == (5, "CUSTOM_ROUNDROBIN")
