"""Chess manager pages: tournament, groups, players, pairing, results, WOs and corrections, and
the standings following each change through the real recompute."""

import pytest
from django.test import Client

from competitions.models import Game, Group, Player, Round, RoundEntry, Season, Tournament
from competitions.systems.chess.models import GroupPlayer
from competitions.views import manage_url
from rankings.imports import import_competition
from rankings.selectors import standings_table
from tests.chess_files import chess_file

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return import_competition(chess_file())


@pytest.fixture
def secretary(django_user_model, season):
    user = django_user_model.objects.create_user("secretary", password="pw-secretary-1")
    season.series.managers.add(user)
    client = Client()
    client.force_login(user)
    return client


def post(client, url, data, capture):
    with capture(execute=True):
        return client.post(url, data)


def test_only_managers_see_the_manager_pages(client, season, django_user_model):
    group = Group.objects.get(name="Gruppe A")
    url = manage_url(season, "group", "klyve", group.pk)
    assert client.get(url).status_code == 302  # to the login page
    other = django_user_model.objects.create_user("other", password="pw-other-123")
    client.force_login(other)
    assert client.get(url).status_code == 403
    assert client.get(manage_url(season, "pair", "klyve", group.pk)).status_code == 403


def test_every_manager_page_renders(secretary, season):
    group = Group.objects.get(name="Gruppe A")
    member = group.members.first()
    for url in [
        manage_url(season),
        manage_url(season, "tournament", "klyve"),
        manage_url(season, "group", "klyve", group.pk),
        manage_url(season, "member", "klyve", group.pk, member.pk),
        manage_url(season, "round", "klyve", group.pk, 1),
        manage_url(season, "pair", "klyve", group.pk),
    ]:
        response = secretary.get(url)
        assert response.status_code == 200, url


def test_an_organiser_builds_a_group_pairs_it_and_enters_results(
    secretary, season, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    created = post(
        secretary,
        manage_url(season, "tournament_create"),
        {"name": "Skien BGP", "date": "2026-02-07", "county": "on"},
        capture,
    )
    tournament = Tournament.objects.get(name="Skien BGP")
    assert created["Location"] == manage_url(season, "tournament", tournament.key)
    assert tournament.options == {"county_championship": True}
    post(
        secretary,
        manage_url(season, "tournament", tournament.key),
        {"add_group": "1", "g-name": "Gruppe A", "g-scale": "3-2-1"},
        capture,
    )
    group = tournament.groups.get()
    group_url = manage_url(season, "group", tournament.key, group.pk)
    for label, rating, born in (
        ("Anna Berg (a)", "", "2011"),
        ("Bjørn Dahl (b)", "1400", ""),
        ("c", "1600", "2014"),
    ):
        response = post(
            secretary,
            group_url,
            {
                "add_player": "1",
                "m-player": label,
                "m-rating": rating,
                "m-born": born,
                "m-player_class": "Kadett",
            },
            capture,
        )
        assert response.status_code == 302, response.content.decode()[:3000]
    response = post(
        secretary,
        group_url,
        {
            "add_player": "1",
            "m-player": "Ny Spiller",
            "m-new": "on",
            "m-player_class": "Kadett",
            "m-born": "2012",
        },
        capture,
    )
    assert response.status_code == 302
    assert Player.objects.get(name="Ny Spiller").born == 2012
    # Unknown without "new": refused, with the reason.
    refused = secretary.post(group_url, {"add_player": "1", "m-player": "Nobody Known"})
    assert refused.status_code == 400
    assert "Tick “a new player”" in refused.content.decode()

    # Start numbers by rating (the default) before round 1, whatever the typing order: the
    # page lists c (1600) and b (1400) first; saving round 1 gives them.
    page = secretary.get(group_url).content.decode()
    assert 'id="start-numbers-shown">Start numbers: by rating' in page
    assert page.index("Cecilie Lund") < page.index("Bjørn Dahl") < page.index("Anna Berg")

    pair_url = manage_url(season, "pair", tournament.key, group.pk)
    page = secretary.get(pair_url).content.decode()
    assert "Cecilie Lund" in page and "Save round 1" in page
    saved = post(secretary, pair_url, {"save": "1"}, capture)
    round_url = manage_url(season, "round", tournament.key, group.pk, 1)
    assert saved["Location"] == round_url
    games = list(Game.objects.filter(round__group=group).order_by("board"))
    assert len(games) == 2 and all(g.result == "" for g in games)
    order = list(group.members.order_by("position").values_list("player__key", "rating"))
    assert order[:2] == [("c", 1600), ("b", 1400)]
    # Start numbers 1-2 and 3-4: c (1) white against b (2).
    assert {e.colour: e.player.key for e in games[0].entries.all()} == {"white": "c", "black": "b"}

    # A result that is no result: refused, nothing stored.
    bad = secretary.post(round_url, {"save_results": "1", f"result_{games[0].pk}": "2-0"})
    assert bad.status_code == 400 and "is no result" in bad.content.decode()
    post(
        secretary,
        round_url,
        {"save_results": "1", f"result_{games[0].pk}": "1", f"result_{games[1].pk}": "="},
        capture,
    )
    assert [g.result for g in Game.objects.filter(round__group=group).order_by("board")] == [
        "1-0",
        "1/2-1/2",
    ]
    table = standings_table(
        season=Season.objects.get(pk=season.pk), kind="group", key=str(group.pk)
    )
    assert [(r["player"], r["points"], r["cells"]) for r in table.row_details][:1] == [
        ("c", 3, ["+H4"]),  # b lost: last on the 3-2-1 scale behind the two who drew
    ]
    # A correction: the draw was a win for black after all.
    post(
        secretary,
        round_url,
        {"save_results": "1", f"result_{games[0].pk}": "1-0", f"result_{games[1].pk}": "0"},
        capture,
    )
    table = standings_table(
        season=Season.objects.get(pk=season.pk), kind="group", key=str(group.pk)
    )
    board_two = {e.colour: e.player.key for e in games[1].entries.all()}
    points = {r["player"]: r["points"] for r in table.row_details}
    assert (points[board_two["white"]], points[board_two["black"]]) == (1, 3)
    # The county championship gives 20 to each class winner, 10 to the others.
    bgp = standings_table(season=Season.objects.get(pk=season.pk), kind="bgp", key=tournament.key)
    assert sorted(r["points"] for r in bgp.row_details) == [10, 10, 20, 20]


def test_a_pairing_made_elsewhere_is_entered_by_hand_with_a_walkover(
    secretary, season, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    group = Group.objects.get(name="Gruppe A")
    post(secretary, manage_url(season, "round_create", "klyve", group.pk), {}, capture)
    round_ = Round.objects.get(group=group, number=5)
    url = manage_url(season, "round", "klyve", group.pk, 5)
    ids = {p.key: str(p.pk) for p in Player.objects.all()}
    post(secretary, url, {"add_game": "1", "game-white": ids["e"], "game-black": ids["a"],
                          "game-result": "0"}, capture)  # fmt: skip
    post(secretary, url, {"add_walkover": "1", "wo-player": ids["d"]}, capture)
    # A player twice in a round: refused with the reason.
    again = secretary.post(url, {"add_game": "1", "game-white": ids["a"], "game-black": ids["b"]})
    assert again.status_code == 400
    assert RoundEntry.objects.filter(round=round_).count() == 3
    entries = {e.player.key: e.status for e in RoundEntry.objects.filter(round=round_)}
    assert entries == {"a": "played", "e": "played", "d": "walkover"}
    table = standings_table(
        season=Season.objects.get(pk=season.pk), kind="group", key=str(group.pk)
    )
    cells = {r["player"]: r["cells"][4] for r in table.row_details}
    assert cells["d"] == "WO" and cells["a"].startswith("+S") and cells["b"] == ""
    # Corrections: delete the WO, then the round (the last one).
    wo = RoundEntry.objects.get(round=round_, status="walkover")
    post(secretary, manage_url(season, "walkover_delete", "klyve", group.pk, 5, wo.pk), {}, capture)
    assert not RoundEntry.objects.filter(pk=wo.pk).exists()
    post(secretary, manage_url(season, "round_delete", "klyve", group.pk, 5), {}, capture)
    assert not Round.objects.filter(pk=round_.pk).exists()
    # Only the last round can be deleted.
    post(secretary, manage_url(season, "round_delete", "klyve", group.pk, 2), {}, capture)
    assert Round.objects.filter(group=group, number=2).exists()


def test_a_player_with_results_stays_in_the_group(
    secretary, season, django_capture_on_commit_callbacks
):
    group = Group.objects.get(name="Gruppe A")
    member = group.members.get(player__key="a")
    response = post(
        secretary,
        manage_url(season, "member_remove", "klyve", group.pk, member.pk),
        {},
        django_capture_on_commit_callbacks,
    )
    assert response.status_code == 302
    assert GroupPlayer.objects.filter(pk=member.pk).exists()


def test_editing_a_players_birth_year_changes_it_everywhere(
    secretary, season, django_capture_on_commit_callbacks
):
    group = Group.objects.get(name="Gruppe A")
    member = group.members.get(player__key="a")
    post(
        secretary,
        manage_url(season, "member", "klyve", group.pk, member.pk),
        {"player_class": "Junior", "born": "2009", "rating": "1550"},
        django_capture_on_commit_callbacks,
    )
    assert Player.objects.get(key="a").born == 2009
    table = standings_table(
        season=Season.objects.get(pk=season.pk), kind="group", key=str(group.pk)
    )
    row = next(r for r in table.row_details if r["player"] == "a")
    assert (row["born"], row["class"], row["rating"]) == (2009, "Junior", 1550)
    other = standings_table(
        season=Season.objects.get(pk=season.pk),
        kind="group",
        key=str(Group.objects.get(name="Alle").pk),
    )
    assert next(r for r in other.row_details if r["player"] == "a")["born"] == 2009


def test_pairing_needs_the_results_of_the_round_before(secretary, season):
    group = Group.objects.get(name="Alle")  # its round 2 has a game without a result
    response = secretary.get(manage_url(season, "pair", "km", group.pk))
    assert response.status_code == 302
    page = secretary.get(manage_url(season, "group", "km", group.pk)).content.decode()
    assert "Enter the results of round 2 before pairing the next round." in page


def test_a_group_played_elsewhere_is_imported_from_its_trf_file(
    secretary, season, django_capture_on_commit_callbacks
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from rankings.urls_helpers import season_url

    capture = django_capture_on_commit_callbacks
    source = Group.objects.get(name="Gruppe A")
    text = secretary.get(season_url(season, "group_trf", "klyve", source.pk)).content
    # A tournament of its own: a player plays in one group of a tournament, and Anna, Bjørn
    # and Cecilie play in Kretsmesterskap's already.
    Tournament.objects.create(season=season, key="skien", name="Skien BGP")
    post(
        secretary,
        manage_url(season, "tournament", "skien"),
        {"add_group": "1", "g-name": "Fra TRF", "g-scale": "1-half-0"},
        capture,
    )
    group = Group.objects.get(name="Fra TRF")
    url = manage_url(season, "group", "skien", group.pk)
    with capture(execute=True):
        response = secretary.post(
            url, {"import_trf": "1", "trf-file": SimpleUploadedFile("a.trf", text)}
        )
    assert response.status_code == 302, response.content.decode()[:3000]
    # The same players (matched by name), the same games: the same crosstable.
    assert list(group.members.order_by("position").values_list("player__key", "rating")) == [
        ("a", 1500), ("b", None), ("c", None), ("d", None), ("e", None),
    ]  # fmt: skip
    fresh = Season.objects.get(pk=season.pk)

    def crosstable(g):
        rows = standings_table(season=fresh, kind="group", key=str(g.pk)).row_details
        return [
            (r["player"], r["place"], r["points"], r["monrad"], r["berger"], r["cells"])
            for r in rows
        ]

    assert crosstable(group) == crosstable(source)
    # A file whose two lines disagree is refused, naming where; nothing is stored.
    porsgrunn = Tournament.objects.create(season=season, key="porsgrunn", name="Porsgrunn")
    other = Group.objects.create(tournament=porsgrunn, name="Feil", position=9)
    broken = text.decode().replace("   2 b 0", "   2 b 1", 1).encode()
    response = secretary.post(
        manage_url(season, "group", "porsgrunn", other.pk),
        {"import_trf": "1", "trf-file": SimpleUploadedFile("b.trf", broken)},
    )
    assert response.status_code == 400
    assert "disagree on the result" in response.content.decode()
    assert not other.members.exists() and not other.rounds.exists()


def test_an_empty_round_entered_by_hand_is_filled_or_deleted_before_pairing(
    secretary, season, django_capture_on_commit_callbacks
):
    group = Group.objects.get(name="Gruppe A")
    post(secretary, manage_url(season, "round_create", "klyve", group.pk), {},
         django_capture_on_commit_callbacks)  # fmt: skip
    response = secretary.get(manage_url(season, "pair", "klyve", group.pk), follow=True)
    assert "Round 5 has no games yet" in response.content.decode()
    assert not Game.objects.filter(round__group=group, round__number=6).exists()


def _manager_counts(client, season_obj, tournament="big") -> list[int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    group = Group.objects.get(tournament__season=season_obj, tournament__key=tournament)
    counts = []
    for url in (
        manage_url(season_obj, "group", tournament, group.pk),
        manage_url(season_obj, "round", tournament, group.pk, 1),
        manage_url(season_obj, "pair", tournament, group.pk),
    ):
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200, url
        counts.append(len(ctx.captured_queries))
    return counts


def test_manager_page_query_counts_do_not_grow_with_players(django_user_model):
    from tests.rankings.test_chess_pages import big_file

    user = django_user_model.objects.create_user("secretary", password="pw-secretary-1")
    client = Client()
    client.force_login(user)
    small = import_competition(big_file(8))
    small.series.managers.add(user)
    small_counts = _manager_counts(client, small)
    large = import_competition(big_file(60), replace=True)
    large_counts = _manager_counts(client, large)
    assert large_counts == small_counts


def small_trf(rounds_line: str = "XXR 2", name: str = "Ola Nordmann") -> bytes:
    """Three players, two rounds: 1 beats 2, then 2 and 3 draw; the others have a bye."""
    from competitions.systems.chess import trf

    players = [
        trf.TrfPlayer(
            1, "Ola Nordmann", games=[trf.TrfGame(2, "w", "1"), trf.TrfGame(0, "-", "U")]
        ),
        trf.TrfPlayer(2, "Kari Hansen", games=[trf.TrfGame(1, "b", "0"), trf.TrfGame(3, "w", "=")]),
        trf.TrfPlayer(3, "Per Berg", games=[trf.TrfGame(0, "-", "U"), trf.TrfGame(2, "b", "=")]),
    ]
    text = trf.write(trf.TrfGroup(name="Fra TRF", rounds=2, players=players))
    # The name as given, whatever `write` makes of it (it blanks a control character).
    return text.replace("XXR 2", rounds_line).replace("Ola Nordmann", name).encode()


def import_trf(client, season, content: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    tournament = Tournament.objects.get(key="klyve")
    group = Group.objects.create(tournament=tournament, name="Fra TRF", position=9)
    response = client.post(
        manage_url(season, "group", "klyve", group.pk),
        {"import_trf": "1", "trf-file": SimpleUploadedFile("g.trf", content)},
    )
    return response, group


@pytest.mark.parametrize("newline", ["\n", "\r", "\r\n"], ids=["lf", "cr-only", "crlf"])
def test_a_trf_file_with_any_line_ending_is_imported(secretary, season, newline):
    response, group = import_trf(secretary, season, small_trf().replace(b"\n", newline.encode()))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert group.members.count() == 3 and group.rounds.count() == 2
    assert Game.objects.filter(round__group=group).count() == 2


@pytest.mark.parametrize(
    "content,message",
    [
        (small_trf(name="Ola\x00Nordmann"), "Line 5: the control character U+0000"),
        (small_trf("XXR 300"), "TRF line 8: 300 rounds; a group has at most 100."),
        (small_trf("XXR 20000"), "TRF line 8: 20000 rounds; a group has at most 100."),
        (small_trf("XXR " + "9" * 5000), "TRF line 8: XXR: 999999999"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "Line 2: the control character U+001A"),
        (b"012 x\n001 " + b"1" * 20_000 + b"\n", "Line 2: a line of 20004 characters"),
        (b" " * 2_000_001, "The file is larger than 2 MB"),
    ],
    ids=["nul-in-a-name", "xxr-300", "xxr-20000", "xxr-5000-digits", "png", "long-line", "big"],
)
def test_a_trf_file_beyond_the_bounds_is_refused_naming_its_line_and_stores_nothing(
    secretary, season, content, message
):
    """A NUL in a name answered 500 (DataError); "XXR 20000" made the worker time out, and
    "XXR 300" stored 300 empty rounds."""
    players = Player.objects.count()
    response, group = import_trf(secretary, season, content)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not group.members.exists() and not group.rounds.exists()
    assert Player.objects.count() == players


def test_a_returning_player_keeps_their_class_and_one_without_is_flagged(
    secretary, season, django_capture_on_commit_callbacks
):
    """Added by name to a new group, a player kept class "–" and got no BGP points without a
    word (issue 46): the class of their latest group this season carries over, and a player
    with no class is named on the group page and the season's manager page."""
    capture = django_capture_on_commit_callbacks
    post(
        secretary,
        manage_url(season, "tournament_create"),
        {"name": "Skien BGP", "date": "2026-02-07"},
        capture,
    )
    tournament = Tournament.objects.get(name="Skien BGP")
    post(
        secretary,
        manage_url(season, "tournament", tournament.key),
        {"add_group": "1", "g-name": "Gruppe A", "g-scale": "1-half-0"},
        capture,
    )
    group = tournament.groups.get()
    group_url = manage_url(season, "group", tournament.key, group.pk)
    response = post(secretary, group_url, {"add_player": "1", "m-player": "c"}, capture)
    assert response.status_code == 302
    assert group.members.get(player__key="c").player_class == "Lilleputt"  # from Klyve
    assert 'id="no-class"' not in secretary.get(group_url).content.decode()
    post(
        secretary,
        group_url,
        {"add_player": "1", "m-player": "Ny Spiller", "m-new": "on"},
        capture,
    )
    page = secretary.get(group_url).content.decode()
    assert "1 player has no class: no BGP points." in page
    season_page = secretary.get(manage_url(season)).content.decode()
    assert "1 player in this season's groups has no class: no BGP points." in season_page
