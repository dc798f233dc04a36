"""Issue 46 in Chromium, as a club secretary walks it: the youth-chess items (a returning
player's class, round 1 by rating, no BGP points from a group not played), the board-game items
(one game whatever its spelling, a player created at a table pointed to their club, a
tournament after the final asked) and the Keizer item (a new evening's attendance starts from
the regulars). Each test names the commit whose fix it guards; the data that is not the journey
comes from a competition file."""

import pytest
from playwright.sync_api import expect

from competitions.models import Player, RoundEntry, Tournament
from competitions.systems.boardgame.models import Table
from competitions.systems.chess.models import GroupPlayer
from competitions.views import manage_url
from rankings.imports import import_competition
from rankings.urls_helpers import season_url
from tests.chess_files import chess_file
from tests.e2e.session import log_in
from tests.keizer_data import small_file

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-secretary-1"


@pytest.fixture
def secretary(django_user_model, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return django_user_model.objects.create_user("secretary", password=PASSWORD)


def managed(data: dict, secretary):
    season = import_competition(data)
    season.series.managers.add(secretary)
    return season


def chess_with(*groups: dict, base: dict | None = None) -> dict:
    """A chess file with one more tournament, Skien BGP, of the groups given."""
    data = base or chess_file()
    data["tournaments"].append(
        {
            "id": "skien",
            "name": "Skien BGP",
            "date": "2026-02-07",
            "county_championship": False,
            "draw_seed": 5,
            "groups": list(groups),
        }
    )
    return data


def empty_group(players=()) -> dict:
    return {"name": "Gruppe S", "scale": "1-half-0", "players": list(players), "rounds": []}


def shown(locator) -> str:
    """A locator's text as a reader sees it: without the invisible marks that isolate a name
    in a message (U+2068, U+2069)."""
    return locator.inner_text().replace("\u2068", "").replace("\u2069", "")


def group_page(page, base: str, season) -> None:
    page.goto(base + manage_url(season, "tournament", "skien"))
    page.click("#groups a:has-text('Gruppe S')")
    page.wait_for_selector("#members")


def member_row(page, name: str):
    return page.locator("#members tbody tr", has=page.get_by_text(name, exact=True))


def add_player(page, typed: str, *, new=False, rating: int | None = None) -> None:
    page.fill("input[name=m-player]", typed)
    if new:
        page.check("input[name=m-new]")
    if rating is not None:
        page.fill("input[name=m-rating]", str(rating))
    page.click("button[name=add_player]")
    page.wait_for_selector(f".alert-success:has-text('{typed.split(' (')[0]} added')")


# --- item 1 ---------------------------------------------------------------------------------------


def test_a_returning_chess_player_keeps_their_class_and_one_without_is_flagged(
    live_server, page, secretary
):
    """Issue 46 item 1, fix 59ddaeb: added by name to a new group, a series player kept class
    "–" and got no BGP points without a word. Cecilie Lund played Klyve and the county
    championship as Lilleputt: added to Skien's group without a class typed, she is Lilleputt
    there; a new player without a class is counted on the group page and the season's manager
    page, and the count goes once Edit gives the class."""
    season = managed(chess_with(empty_group()), secretary)
    base = live_server.url
    log_in(page, base, "secretary", PASSWORD)
    group_page(page, base, season)
    add_player(page, "Cecilie Lund")
    cells = member_row(page, "Cecilie Lund").locator("td")
    expect(cells.nth(2)).to_have_text("Lilleputt")
    expect(page.locator("#no-class")).to_have_count(0)

    add_player(page, "Nora Ny", new=True)
    expect(member_row(page, "Nora Ny").locator("td").nth(2)).to_have_text("–")
    expect(page.locator("#no-class")).to_contain_text("1 player has no class: no BGP points.")
    group_url = page.url
    page.goto(base + manage_url(season))
    expect(page.locator("#no-class")).to_contain_text(
        "1 player in this season's groups has no class: no BGP points."
    )

    # Edit gives Nora her class: nobody is flagged any more.
    page.goto(group_url)
    member_row(page, "Nora Ny").get_by_role("link", name="Edit").click()
    page.fill("input[name=player_class]", "Miniputt")
    page.click("button:has-text('Save')")
    page.wait_for_selector(".alert-success:has-text('Nora Ny saved.')")
    expect(page.locator("#no-class")).to_have_count(0)
    assert sorted(
        GroupPlayer.objects.filter(group__name="Gruppe S").values_list(
            "player__name", "player_class"
        )
    ) == [("Cecilie Lund", "Lilleputt"), ("Nora Ny", "Miniputt")]


# --- item 2 ---------------------------------------------------------------------------------------


def test_chess_round_1_is_paired_by_rating_whatever_the_typing_order(live_server, page, secretary):
    """Issue 46 item 2, fix 8cf6e38: players typed as 900, 1100, 1300, 1500 were paired
    900–1100 and 1300–1500 unless someone pressed "Start numbers by rating". rules.md §3: start
    numbers by rating, round 1 pairs 1 against 2, 3 against 4; the page shows those numbers and
    saving the round gives them."""
    season = managed(chess_with(empty_group()), secretary)
    base = live_server.url
    log_in(page, base, "secretary", PASSWORD)
    group_page(page, base, season)
    typed = [("Ola 900", 900), ("Kari 1100", 1100), ("Per 1300", 1300), ("Siri 1500", 1500)]
    for name, rating in typed:
        add_player(page, name, new=True, rating=rating)
    # Before pairing the list already shows the start numbers round 1 will give (fix46).
    expect(page.locator("#start-numbers-shown")).to_have_text("Start numbers: by rating")
    assert member_names(page) == ["Siri 1500", "Per 1300", "Kari 1100", "Ola 900"]
    numbers = page.locator("#members tbody tr td:first-child").all_inner_texts()
    assert numbers == ["1", "2", "3", "4"]

    page.click("text=Pair round 1 (Monrad)")
    page.wait_for_selector("#pairing")
    boards = []
    for row in page.locator("#pairing tbody tr").all():
        _board, white, black, _again = row.locator("td").all_inner_texts()
        boards.append({white.strip(), black.strip()})
    assert boards == [{"Siri 1500 (1)", "Per 1300 (2)"}, {"Kari 1100 (3)", "Ola 900 (4)"}]

    page.click("button:has-text('Save round 1')")
    page.wait_for_selector("text=Round 1 paired and saved")
    page.click("text=← Gruppe S")
    assert member_names(page) == ["Siri 1500", "Per 1300", "Kari 1100", "Ola 900"]


def member_names(page) -> list[str]:
    rows = page.locator("#members tbody tr")
    return [
        rows.nth(i).locator("td").nth(1).inner_text().split(" ·")[0] for i in range(rows.count())
    ]


def boards_of(page) -> list[set[str]]:
    boards = []
    for row in page.locator("#pairing tbody tr").all():
        _board, white, black, _again = row.locator("td").all_inner_texts()
        boards.append({white.strip(), black.strip()})
    return boards


def test_chess_start_numbers_as_set_by_the_organiser_are_an_explicit_choice(
    live_server, page, secretary
):
    """Issue 46 item 2, the explicit manual order (fix46): after 8cf6e38 round 1 always paired
    by rating and saving it re-sorted the start numbers, so a seeded list from the federation
    could not be kept. The secretary types the seeded list (Per, Siri, Ola, Kari), chooses
    "as set by the organiser", moves Kari to number 2 by typing it; round 1 pairs Per–Kari and
    Siri–Ola, saving it keeps the numbers, and the group's pages say which order it is."""
    season = managed(chess_with(empty_group()), secretary)
    base = live_server.url
    log_in(page, base, "secretary", PASSWORD)
    group_page(page, base, season)
    for name, rating in (("Per", 1300), ("Siri", 1500), ("Ola", 900), ("Kari", 1100)):
        add_player(page, name, new=True, rating=rating)
    assert member_names(page) == ["Siri", "Per", "Kari", "Ola"]  # by rating, the default

    page.check("#start-by-organiser")
    page.click("button:has-text('Save start numbers')")
    page.wait_for_selector(".alert-success:has-text('Start numbers saved.')")
    expect(page.locator("#start-numbers-shown")).to_have_text(
        "Start numbers: as set by the organiser"
    )
    assert member_names(page) == ["Per", "Siri", "Ola", "Kari"]  # as typed
    page.get_by_label("Start number of Kari").fill("2")
    page.click("button:has-text('Save start numbers')")
    page.wait_for_selector(".alert-success:has-text('Start numbers saved.')")
    assert member_names(page) == ["Per", "Kari", "Siri", "Ola"]
    boxes = page.locator("#members tbody input[type=number]")
    assert [boxes.nth(i).input_value() for i in range(4)] == ["1", "2", "3", "4"]

    page.click("text=Pair round 1 (Monrad)")
    page.wait_for_selector("#pairing")
    expect(page.locator("#start-numbers-shown")).to_have_text(
        "Start numbers: as set by the organiser"
    )
    assert boards_of(page) == [{"Per (1)", "Kari (2)"}, {"Siri (3)", "Ola (4)"}]
    page.click("button:has-text('Save round 1')")
    page.wait_for_selector("text=Round 1 paired and saved")
    page.click("text=← Gruppe S")
    assert member_names(page) == ["Per", "Kari", "Siri", "Ola"]  # kept
    expect(page.locator("#start-numbers-form")).to_have_count(0)  # fixed now
    expect(page.locator("#start-numbers-shown")).to_have_text(
        "Start numbers: as set by the organiser"
    )
    page.click("text=Public crosstable")
    expect(page.locator("#start-numbers-shown")).to_have_text(
        "Start numbers: as set by the organiser"
    )


# --- item 3 ---------------------------------------------------------------------------------------


def test_a_chess_group_gives_bgp_points_only_once_played(live_server, page, secretary):
    """Issue 46 item 3, fix 8bb8b53: a group of four with no games gave each player 20 BGP
    points at once, in the public season standings. Unplayed, the tournament page says its
    BGP points are provisional, naming the group, and nobody has points, and the season's BGP
    standings name the group still to come (fix46); once round 1 is paired and both results
    are typed, the points are there and the notes are gone."""
    data = {**chess_file(), "tournaments": []}
    players = [
        {"player": key, "class": "Kadett", "born": 2011, "rating": rating}
        for key, rating in (("a", 1500), ("b", 1400), ("d", 1300), ("e", 1200))
    ]
    season = managed(chess_with(empty_group(players), base=data), secretary)
    base = live_server.url
    tournament = base + season_url(season, "tournament", "skien")
    standings = base + season_url(season, "classes")

    page.goto(tournament)
    assert "Provisional: group Gruppe S has rounds to play or results to come" in shown(
        page.locator("#bgp-waiting")
    )
    expect(page.locator("main table")).to_have_count(0)  # no BGP table
    page.goto(standings)
    expect(page.locator("main")).to_contain_text("No BGP points yet.")
    assert "Anna Berg" not in page.inner_text("main")
    # The season's standings name the group still to come, with its tournament (fix46).
    note = page.locator("#bgp-provisional")
    assert shown(note).startswith(
        "Provisional: these standings do not yet count the BGP points of groups with rounds "
        "to play or results to come: Gruppe S (Skien BGP)."
    )
    note.get_by_role("link", name="Skien BGP").click()
    expect(page.locator("#bgp-waiting")).to_be_visible()

    log_in(page, base, "secretary", PASSWORD)
    group_page(page, base, season)
    page.click("text=Pair round 1 (Monrad)")
    page.click("button:has-text('Save round 1')")
    page.wait_for_selector("text=Round 1 paired and saved")
    expect(page.locator("input.result-input").first).to_be_focused()  # the page's script ran
    page.keyboard.press("1")
    page.keyboard.press("0")
    page.keyboard.press("Enter")
    page.wait_for_selector(".alert-success:has-text('Results saved')")

    page.goto(tournament)
    expect(page.locator("#bgp-waiting")).to_have_count(0)
    expect(page.locator("main table tbody tr")).to_have_count(4)  # Kadett: the four of them
    page.goto(standings)
    expect(page.locator("#bgp-provisional")).to_have_count(0)
    kadett = page.locator("main table").inner_text()
    assert all(name in kadett for name in ("Anna Berg", "Bjørn Dahl", "David Moen", "Eva Strand"))
    assert "20" in kadett


# --- item 4 ---------------------------------------------------------------------------------------


@pytest.fixture
def circuit(circuit_file, secretary):
    return managed(circuit_file, secretary)


def test_a_board_game_title_is_one_game_whatever_its_spelling_and_two_titles_merge(
    live_server, page, secretary, circuit_file
):
    """Issue 46 item 4, fix a723339: `catan ` became a game of its own beside "Catan", with
    its own ranking and finalists. Typed at a table, it is the season's Catan; a title accepted
    earlier with a typo ("Carcasonne", from the file) is merged into Carcassonne on the season
    page, and the per-game rankings list each game once."""
    circuit_file["tournaments"][0]["rounds"][1]["tables"][0]["game"] = "Carcasonne"
    season = managed(circuit_file, secretary)
    base = live_server.url
    log_in(page, base, "secretary", PASSWORD)
    page.goto(base + manage_url(season, "round", "t2", 2))
    page.fill("input[name=game]", "catan ")
    page.fill("input[name=player_1]", "An Peeters (p1)")
    page.fill("input[name=player_2]", "Dirk Maes (p4)")
    page.click("button:has-text('Save table')")
    page.wait_for_selector(".alert-success")
    expect(page.locator("#entered-tables li").first).to_contain_text("Table 1 · Catan")

    page.goto(base + manage_url(season))
    card = page.locator("#game-titles")
    expect(card).to_contain_text("3 games this season.")
    options = card.locator("select[name=title] option").all_inner_texts()
    assert options == ["Carcasonne (1 table)", "Carcassonne (1 table)", "Catan (4 tables)"]
    card.locator("select[name=title]").select_option(label="Carcasonne (1 table)")
    card.locator("input[name=new]").fill("carcassonne")
    card.locator("button:has-text('Rename')").click()
    said = shown(page.locator(".alert-success"))
    assert "1 table of Carcasonne now has the game Carcassonne." in said
    expect(page.locator("#game-titles")).to_contain_text("2 games this season.")

    page.goto(base + season_url(season, "games"))
    titles = page.locator("main .card-header a").all_inner_texts()
    assert sorted(titles) == ["Carcassonne", "Catan"]
    assert Table.objects.filter(round__season=season, game="Carcassonne").count() == 2


# --- item 11 --------------------------------------------------------------------------------------


def test_a_board_game_player_created_at_a_table_is_pointed_to_their_club(
    live_server, page, circuit
):
    """Issue 46 item 11, fix 777c13e: a player created at a table had no club, so the interclub
    ignored them until someone fixed it elsewhere. The round page says so with a link; following
    it, the secretary gives the club."""
    base = live_server.url
    log_in(page, base, "secretary", PASSWORD)
    page.goto(base + manage_url(circuit, "round", "t2", 2))
    page.fill("input[name=game]", "Azul")
    page.fill("input[name=player_1]", "An Peeters (p1)")
    page.fill("input[name=player_2]", "Nieuwe Speler")
    page.click("button:has-text('Save table')")
    page.check("input[name=new_2]")
    page.click("button:has-text('Save table')")
    warning = page.locator(".alert-warning", has_text="Nieuwe Speler")
    expect(warning).to_contain_text(
        "Nieuwe Speler is a new player without a club: give them their club "
        "(the interclub counts players by club)."
    )
    warning.get_by_role("link", name="give them their club").click()
    page.select_option("select[name=player-club]", label="Gent Speelt")
    page.click("button:has-text('Save')")
    page.wait_for_selector(".alert-success:has-text('Player Nieuwe Speler saved.')")
    assert Player.objects.get(name="Nieuwe Speler").club.name == "Gent Speelt"


# --- item 13 --------------------------------------------------------------------------------------


def test_a_board_game_tournament_after_the_final_is_asked_not_stored_silently(
    live_server, page, circuit
):
    """Issue 46 item 13, fix a1604b3 (first 5d1654d, which refused it): a regular tournament
    dated after the final (30 November) was stored without a word and fed the final's
    finalists. The form asks; confirmed, it is stored."""
    base = live_server.url
    log_in(page, base, "secretary", PASSWORD)
    page.goto(base + manage_url(circuit))
    page.fill("input[name=name]", "Late")
    page.fill("input[name=date]", "2025-12-14")
    page.click("button:has-text('Create tournament')")
    assert (
        "The final Final is on 30 Nov 2025, before this date: the final is the season's "
        "last tournament, and this one would count for its finalists."
    ) in shown(page.locator(".alert-warning"))
    assert not Tournament.objects.filter(name="Late").exists()
    page.click("button:has-text('It is right: save anyway')")
    page.wait_for_selector(".alert-success")
    assert Tournament.objects.get(name="Late").date.isoformat() == "2025-12-14"


# --- item 14 --------------------------------------------------------------------------------------


def chosen(page, name: str) -> str:
    """The attendance button checked on the player's line."""
    line = page.locator("ul.attendance li", has=page.get_by_text(name, exact=True))
    checked = line.locator("input:checked")
    expect(checked).to_have_count(1)
    return line.locator(f"label[for={checked.get_attribute('id')}]").inner_text().strip()


def test_a_new_keizer_evening_starts_from_the_regulars(live_server, page, secretary):
    """Issue 46 item 14, fix 432411c: a new evening's attendance copied the last evening's
    "External", "Absent" and "No notice", and a hurried "Save and pair" repeated them. On
    evening 3 Anouk played for a club team and Henk was absent with notice: evening 4 starts
    with who played as present and those two as no notice; the last evening's choices are one
    click away."""
    data = small_file()
    data["rounds"][2].update(
        games=[
            {"white": "p1", "black": "p3", "result": "1-0"},
            {"white": "p4", "black": "p6", "result": "1/2-1/2"},
        ],
        absent=["p5"],
        present=["p1", "p3", "p4", "p6"],
    )
    del data["rounds"][2]["volunteer"]
    season = managed(data, secretary)
    base = live_server.url
    log_in(page, base, "secretary", PASSWORD)
    page.click("text=De Toren interne competitie 2025-2026")
    page.click("text=Take attendance for evening 4")
    expect(page.locator("[data-present-count]")).to_have_text("4")  # (the page's script ran)
    regulars = ("Jan de Vries", "Bram Visser", "Eva Smit", "Late Entrant")
    assert [chosen(page, name) for name in regulars] == ["Present"] * 4
    assert chosen(page, "Anouk Bakker") == "No notice"
    assert chosen(page, "Henk Mulder") == "No notice"

    page.click("#copy-last")
    expect(page.locator("#copy-last")).to_have_count(0)
    assert chosen(page, "Anouk Bakker") == "External"
    assert chosen(page, "Henk Mulder") == "Absent"
    assert chosen(page, "Jan de Vries") == "Present"
    page.click("text=Start afresh")
    expect(page.locator("#copy-last")).to_be_visible()

    # A hurried "Save and pair" keeps nobody away on last evening's word.
    page.click("button:has-text('Save and pair')")
    page.wait_for_selector("table.pair-preview")
    statuses = dict(
        RoundEntry.objects.filter(round__season=season, round__number=4).values_list(
            "player__name", "status"
        )
    )
    assert statuses["Anouk Bakker"] == statuses["Henk Mulder"] == RoundEntry.Status.UNEXCUSED
