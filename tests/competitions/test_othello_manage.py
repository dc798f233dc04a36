"""Othello GP manager pages: tournaments, final standings typed or uploaded, settings; what is
refused says why and stores nothing; query counts do not grow with the players."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competitions.models import Player, SeasonPlayer, Tournament
from competitions.systems.othello.models import Placement
from competitions.views import manage_url
from rankings.imports import import_competition
from tests.helpers import document, tournament_of
from tests.othello_files import gp_file

pytestmark = pytest.mark.django_db


@pytest.fixture
def gp(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return import_competition(gp_file())


@pytest.fixture
def client_of(django_user_model, gp):
    user = django_user_model.objects.create_user("gp-secretary", password="pw-secretary-1")
    gp.series.managers.add(user)
    client = Client()
    client.force_login(user)
    return client


def stored(key: str) -> list[tuple]:
    return list(
        Placement.objects.filter(tournament__key=key)
        .order_by("place")
        .values_list("place", "player__key", "country", "nordic", "ffo", "provisional")
    )


def post_typed(client, season, key: str, text: str, **extra):
    return client.post(
        manage_url(season, "tournament", key), {"form": "typed", "text": text, **extra}
    )


T3 = "1; p4; SE; N1500\n2; Julien Lefèvre (p3); FR; P1900/350\n3; Alva Lind; SE; debutant\n"


def test_the_season_page_lists_the_tournaments_and_a_new_one_is_created(client_of, gp):
    page = client_of.get(manage_url(gp)).content.decode()
    assert "Stockholm Open" in page and "Correct standings" in page and "Enter standings" in page
    response = client_of.post(
        manage_url(gp, "tournament_create"), {"name": "SM 2025", "date": "2025-11-08", "sm": "on"}
    )
    assert response.status_code == 302
    created = Tournament.objects.get(name="SM 2025")
    assert created.options == {"sm": True}
    second = client_of.post(manage_url(gp, "tournament_create"), {"name": "SM again", "sm": "on"})
    assert second.status_code == 400
    assert "is this season&#x27;s Swedish championship already" in second.content.decode()
    both = client_of.post(
        manage_url(gp, "tournament_create"), {"name": "Odd", "sm": "on", "egp": "on"}
    )
    assert both.status_code == 400
    assert not Tournament.objects.filter(name__in=["SM again", "Odd"]).exists()


def test_typed_standings_are_stored_and_the_gp_standings_follow(
    client_of, gp, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = post_typed(client_of, gp, "t3", T3)
    assert response.status_code == 302
    assert stored("t3") == [
        (1, "p4", "SE", 1500, None, False),
        (2, "p3", "FR", None, 1900, True),
        (3, "p5", "SE", None, None, False),
    ]
    t3 = tournament_of(document(gp), "t3")
    # NR 1500, 1034.4, 1000: S = 834.4, M = 10.3376, x = M^(-1/2) = 0.311: 10, 3, 0
    assert t3["series"] == [10, 3, 0]
    assert t3["points"] == [
        {"player": "p4", "place": 1, "points": 10},
        {"player": "p3", "place": 2, "points": None},
        {"player": "p5", "place": 3, "points": 0},
    ]
    page = client_of.get(response["Location"]).content.decode()
    assert "Final standings of Malmö GP saved: 3 participants." in page
    assert "3; Alva Lind (p5); SE; debutant" in page  # the stored standings, ready to correct


@pytest.mark.parametrize(
    "text,message",
    [
        ("1; p4; SE; N1500\n1; p3; FR; F1900\n", "Line 2 (Julien Lefèvre): place 1 again"),
        ("1; p4; SE; N1500\n2; p3; FR;\n", "Line 2 (Julien Lefèvre): no rating entry"),
        ("1; p4; SE; N1500\n2; Nobody; FR; F1\n", "Line 2 (Nobody): unknown player"),
        ("", "This field is required."),
    ],
)
def test_refused_standings_name_the_row_and_store_nothing(client_of, gp, text, message):
    before = stored("t1")
    response = post_typed(client_of, gp, "t1", text)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert stored("t1") == before


def test_unknown_names_become_players_of_the_series_when_asked(client_of, gp):
    response = post_typed(
        client_of, gp, "t3", "Mikko Virtanen; FI; N2000\np1; N1900\n", create_players="on"
    )
    assert response.status_code == 302
    mikko = Player.objects.get(series=gp.series, name="Mikko Virtanen")
    assert stored("t3")[0][:3] == (1, mikko.key, "FI")
    assert SeasonPlayer.objects.filter(season=gp, player=mikko).exists()


def test_correcting_swaps_places_keeps_rows_and_history(client_of, gp):
    original = {p.player.key: p.pk for p in Placement.objects.filter(tournament__key="t2")}
    response = post_typed(client_of, gp, "t2", "1; p1; SE; N1855.5\n2; p2; SE; N1990\n")
    assert response.status_code == 302
    rows = Placement.objects.filter(tournament__key="t2").order_by("place")
    assert [(p.place, p.player.key) for p in rows] == [(1, "p1"), (2, "p2")]
    assert {p.player.key: p.pk for p in rows} == {k: original[k] for k in ("p1", "p2")}
    p3 = Placement.history.filter(player__key="p3", tournament__key="t2")
    assert p3.filter(history_type="-").exists()  # the removed participant, in the history
    assert Placement.history.filter(id=original["p1"], history_type="~").exists()


def test_a_csv_upload_with_a_header(client_of, gp):
    content = "plats;spelare;land;rating\n2;p2;SE;N1990\n1;Anna Lindqvist;SE;1850\n"
    response = client_of.post(
        manage_url(gp, "tournament", "t3"),
        {
            "form": "upload",
            "csv-file": SimpleUploadedFile(
                "gp.csv", content.encode("cp1252"), content_type="text/csv"
            ),
        },
    )
    assert response.status_code == 302
    assert [row[:2] for row in stored("t3")] == [(1, "p1"), (2, "p2")]


def upload(client, season, key: str, content: bytes):
    return client.post(
        manage_url(season, "tournament", key),
        {"form": "upload", "csv-file": SimpleUploadedFile("gp.csv", content)},
    )


@pytest.mark.parametrize("newline", ["\r", "\r\n"], ids=["cr-only", "crlf"])
def test_typed_and_uploaded_standings_with_any_line_ending_are_read_line_by_line(
    client_of, gp, newline
):
    """CR-only line endings (an old Mac, some spreadsheets) answered 500 (csv.Error), typed or
    uploaded; they are lines like LF's."""
    assert post_typed(client_of, gp, "t3", T3).status_code == 302
    expected = stored("t3")
    Placement.objects.filter(tournament__key="t3").delete()
    response = post_typed(client_of, gp, "t3", T3.replace("\n", newline))
    assert response.status_code == 302, response.content.decode()[:2000]
    assert stored("t3") == expected
    Placement.objects.filter(tournament__key="t3").delete()
    response = upload(client_of, gp, "t3", T3.replace("\n", newline).encode())
    assert response.status_code == 302, response.content.decode()[:2000]
    assert stored("t3") == expected


@pytest.mark.parametrize(
    "content,message",
    [
        (b"1; p4; SE; N1500\n2; Nu\x00ll; SE; N1400\n", "Line 2: the control character U+0000"),
        (b"1; p4; SE; N1500\r2; Bin\x1a; SE; N1400\r", "Line 2: the control character U+001A"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "Line 2: the control character U+001A"),
        (b"1; " + b"x" * 200_000 + b"; SE; N1400\n", "Line 1: a line of 200014 characters"),
        (b"x" * 1_000_001, "The file is larger than 1 MB"),
        (b"\xff\xfe1\x00;\x00", "Line 1: the file is UTF-16 text"),
    ],
    ids=["nul", "control", "png", "200kb-field", "oversized", "utf-16"],
)
def test_a_file_that_is_no_text_is_refused_naming_its_line_and_nothing_is_stored(
    client_of, gp, content, message
):
    """A NUL in a new player's name answered 500 (DataError), a binary file or a field over
    128 KB too (csv.Error)."""
    players = Player.objects.count()
    response = upload(client_of, gp, "t3", content)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert stored("t3") == [] and Player.objects.count() == players
    typed = post_typed(client_of, gp, "t3", content.decode("latin-1"), create_players="on")
    assert typed.status_code == 400
    assert stored("t3") == [] and Player.objects.count() == players


def test_a_bad_csv_upload_names_its_line(client_of, gp):
    content = "place,player,country,rating\n1,p1,SE,N1850\n1,p2,SE,N1800\n"
    response = client_of.post(
        manage_url(gp, "tournament", "t3"),
        {"form": "upload", "csv-file": SimpleUploadedFile("gp.csv", content.encode())},
    )
    assert response.status_code == 400
    assert (
        "Line 3 (Björn Sandberg): place 1 again (line 2 has place 1)" in response.content.decode()
    )
    assert stored("t3") == []


def test_the_details_form_sets_the_flags(client_of, gp):
    url = manage_url(gp, "tournament", "t2")
    response = client_of.post(
        url, {"form": "details", "details-name": "Göteborg EGP", "details-egp": "on"}
    )
    assert response.status_code == 302
    t2 = Tournament.objects.get(key="t2")
    assert (t2.name, t2.date, t2.options) == ("Göteborg EGP", None, {"egp": True})
    refused = client_of.post(
        url, {"form": "details", "details-name": "X", "details-egp": "on", "details-sm": "on"}
    )
    assert refused.status_code == 400
    assert Tournament.objects.get(key="t2").name == "Göteborg EGP"


def test_the_settings_form_stores_only_what_differs_and_checks_the_country(client_of, gp):
    url = reverse("manage:season_settings", args=[gp.series.slug, gp.slug])
    assert client_of.get(url).status_code == 200
    values = {
        "best_n": "5",
        "country": "SE",
        "max_factor": "0.005",
        "max_base": "7",
        "nr_factor": "0.539",
        "nr_offset": "172",
        "provisional_floor": "1600",
        "debutant_rating": "1000",
        "rating_floor": "900",
        "sm_tiebreak": "on",
    }
    assert client_of.post(url, values).status_code == 302
    gp.refresh_from_db()
    assert gp.settings == {"max_factor": 0.005, "sm_tiebreak": True}
    refused = client_of.post(url, {**values, "country": "se"})
    assert refused.status_code == 400
    assert "two capital letters" in refused.content.decode()


def test_other_users_cannot_enter_standings(client, django_user_model, gp):
    url = manage_url(gp, "tournament", "t1")
    assert client.get(url).status_code == 302  # to the login
    stranger = django_user_model.objects.create_user("stranger", password="pw-stranger-12")
    client.force_login(stranger)
    before = stored("t1")
    assert client.post(url, {"form": "typed", "text": T3}).status_code == 403
    assert stored("t1") == before


def test_the_finder_suggests_each_player_with_a_whole_line_s_country_and_rating(client_of, gp):
    """Issue 46, item 9: a suggestion carries the country and rating entry of the player's
    latest tournament (t2 after t1), a player without one the series' country and debutant."""
    Player.objects.create(series=gp.series, key="p9", name='New "Player"')
    page = client_of.get(manage_url(gp, "tournament", "t3")).content.decode()
    assert (
        '<option value="Anna Lindqvist (p1)" data-country="SE" data-rating="N1855.5"></option>'
        in page
    )  # t1 had N1850
    assert (
        '<option value="Julien Lefèvre (p3)" data-country="SE" data-rating="F1910"></option>'
        in page
    )  # t1 had FR and P1900/350
    assert '<option value="Elsa Norén (p4)" data-country="SE" data-rating="debutant">' in page
    assert (
        '<option value="New &quot;Player&quot; (p9)" data-country="SE" data-rating="debutant">'
        in page
    )
    assert 'data-headers="{&quot;place&quot;: &quot;place&quot;' in page
    assert "<script>" not in page.split("<datalist")[1].split("</datalist>")[0]


def test_unknown_tournaments_are_404(client_of, gp):
    assert client_of.get(manage_url(gp) + "tournaments/nope/").status_code == 404


# The queries of the manager pages, one comment each.
LOGGED_IN = ["the session", "the user"]
MANAGER = [
    "the series named in the URL",
    "the user's own permissions (may manage every series?)",
    "the permissions of the user's groups",
    "is the user one of the series' managers",
]
SEASON = "the season with its series"
EXPECTED_QUERIES = {
    "season": [*LOGGED_IN, *MANAGER, SEASON, "the tournaments with their participant counts"],
    "tournament": [
        *LOGGED_IN,
        *MANAGER,
        SEASON,
        "the tournament",
        "its placements with their players",
        "the series' players (suggestions and lookup)",
        "each player's latest country and rating entry (the finder's lines)",
    ],
}


def test_manager_page_query_counts_do_not_grow_with_players(client_of, gp):
    def counts():
        result = []
        for url in [manage_url(gp), manage_url(gp, "tournament", "t1")]:
            with CaptureQueriesContext(connection) as ctx:
                assert client_of.get(url).status_code == 200
            result.append(len(ctx.captured_queries))
        return result

    before = counts()
    players = Player.objects.bulk_create(
        Player(series=gp.series, key=f"n{i}", name=f"New Player {i}") for i in range(60)
    )
    t1 = Tournament.objects.get(key="t1")
    Placement.objects.bulk_create(
        Placement(tournament=t1, player=p, place=7 + i, country="SE", nordic=1500)
        for i, p in enumerate(players)
    )
    assert counts() == before == [len(q) for q in EXPECTED_QUERIES.values()]
