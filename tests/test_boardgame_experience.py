"""The board-game circuit as a secretary and a player live it: likely mistakes are shown back
before they are saved, corrections leave a readable history, a tournament in progress says so,
players find themselves, downloads are readable."""

import copy
import csv
import io
import zipfile

import pytest
from django.urls import reverse
from django.utils import timezone

from competitions.models import Player, Tournament
from competitions.systems.boardgame.forms import unusual_ranks
from competitions.systems.boardgame.models import Table
from competitions.text import fold
from competitions.views import manage_url
from rankings.imports import import_competition
from rankings.urls_helpers import season_url

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "ranks,unusual",
    [
        ([1, 2, 3, 4], False),
        ([1, 2, 2, 4], False),  # competition form
        ([1, 2, 2, 3], False),  # dense form
        ([1, 1, 1, 4], False),
        ([1, 1, 2], False),
        ([2, 2, 3], True),  # nobody first
        ([1, 3, 3], True),  # a rank skipped with no tie before it
        ([1, 2, 4, 4], True),
    ],
)
def test_ranks_in_neither_form_are_unusual(ranks, unusual):
    assert unusual_ranks(ranks) is unusual


def post_table(client, season, data, number=2):
    return client.post(manage_url(season, "round", "t2", number), data)


def test_a_name_is_found_whatever_its_accents_case_and_spacing(manager_client, season):
    Player.objects.create(series=season.series, key="aurelie", name="Aurélie  Dubois")
    response = post_table(
        manager_client,
        season,
        {"game": "Azul", "player_1": "aurelie dubois", "player_2": "BERT   claes"},
    )
    assert response.status_code == 302
    table = Table.objects.get(round__tournament__key="t2", round__number=2)
    assert sorted(table.seats.values_list("player__key", flat=True)) == ["aurelie", "p2"]


def test_a_game_title_close_to_a_known_one_is_shown_back_once(manager_client, season):
    data = {"game": "Catann", "player_1": "p1", "player_2": "p2"}
    shown = post_table(manager_client, season, data)
    assert shown.status_code == 400
    assert "“Catann” is a new game title. Did you mean “Catan”?" in shown.content.decode()
    assert not Table.objects.filter(round__tournament__key="t2", round__number=2).exists()
    assert post_table(manager_client, season, {**data, "confirmed": "1"}).status_code == 302
    assert Table.objects.get(round__tournament__key="t2", round__number=2).game == "Catann"
    # A title met before, or far from any, is not questioned.
    data = {"game": "Ticket to Ride", "player_1": "p3", "player_2": "p4"}
    assert post_table(manager_client, season, data).status_code == 302


def test_a_second_tournament_of_the_same_name_and_date_or_outside_the_season_is_questioned(
    manager_client, season
):
    url = manage_url(season, "tournament_create")
    same = manager_client.post(url, {"name": "gent", "date": "2025-03-16"})
    assert "has a tournament “gent” on that date already" in same.content.decode()
    late = manager_client.post(url, {"name": "Leuven", "date": "2031-04-01"})
    assert "The date is in 2031, but this is season 2025." in late.content.decode()
    assert Tournament.objects.filter(season=season).count() == 3
    confirmed = manager_client.post(url, {"name": "Leuven", "date": "2031-04-01", "confirmed": "1"})
    assert confirmed.status_code == 302
    assert Tournament.objects.filter(season=season, name="Leuven").exists()


def test_a_duplicate_player_name_is_questioned(manager_client, season):
    url = reverse("manage:players", args=["belgian-circuit"])
    data = {"add_player": "1", "player-name": "an  PEETERS"}
    shown = manager_client.post(url, data)
    assert "A player called “An Peeters” exists already (Spelclub Mechelen)" in (
        shown.content.decode()
    )
    assert Player.objects.filter(series=season.series).count() == 5
    assert manager_client.post(url, {**data, "confirmed": "1"}).status_code == 302
    assert Player.objects.filter(series=season.series).count() == 6


def test_a_correction_shows_in_the_tables_own_history(manager_client, manager, season):
    table = Table.objects.get(round__tournament__key="t2", round__number=1, number=2)
    url = manage_url(season, "table_edit", "t2", 1, table.pk)
    form = manager_client.get(url).context["form"]
    data = {name: form[name].value() or "" for name in form.fields}
    data.update(rank_1="2", rank_2="1")  # Bert and Dirk swap
    assert manager_client.post(url, data).status_code == 302
    record = table.history.order_by("-history_date", "-history_id").first()
    assert record.history_user == manager
    assert "Bert Claes: 1 → 2" in record.history_change_reason
    assert "Dirk Maes: 2 → 1" in record.history_change_reason


def test_a_tournament_in_progress_says_so_and_names_no_day_winner(client, circuit_file):
    data = copy.deepcopy(circuit_file)
    data["tournaments"][1]["date"] = timezone.localdate().isoformat()  # Gent is today
    season = import_competition(data)
    html = client.get(season_url(season, "tournament", "t2")).content.decode()
    assert "In progress: after round 1 of 3" in html
    assert "Ranking after round 1" in html
    assert "Prize ceremony (provisional)" in html
    assert "Day winner" not in html and "Leader" in html
    overview = client.get(season_url(season)).content.decode()
    assert "leading after round 1" in overview
    finished = client.get(season_url(season, "tournament", "t1")).content.decode()
    assert "In progress" not in finished and "Day winner" in finished


def test_players_find_themselves_whatever_the_accents(client, season):
    Player.objects.create(series=season.series, key="aurelie", name="Aurélie Dubois")
    url = reverse("players", args=["belgian-circuit"])
    html = client.get(url, {"q": "aurelie"}).content.decode()
    assert "Aurélie Dubois" in html and "An Peeters" not in html
    by_club = client.get(url, {"q": "gent speelt"}).content.decode()
    assert "Cis Janssens" in by_club and "An Peeters" not in by_club
    assert "Find a player" in client.get(season_url(season)).content.decode()


def test_the_players_are_listed_in_name_order_whatever_the_database(
    client, season, django_user_model
):
    """An accent or a capital does not send a name to the end of the list (a byte order, as
    SQLite and PostgreSQL's C collation sort, put "Émile" after "Zoë"): the public players
    page, sorted by its column too, and the manager's players page."""
    for key, name in [
        ("z", "Zoë Wouters"),
        ("em", "Émile Brel"),
        ("e2", "emma Aerts"),
        ("ev", "Éva Lenaerts"),
    ]:
        Player.objects.create(series=season.series, key=key, name=name)
    names = [n for n in Player.objects.filter(series=season.series).values_list("name", flat=True)]
    expected = sorted(names, key=lambda n: fold(n))
    public = client.get(reverse("players", args=["belgian-circuit"]))
    assert [row.record["name"] for row in public.context["table"].rows] == expected
    by_column = client.get(reverse("players", args=["belgian-circuit"]), {"sort": "-player"})
    assert [row.record["name"] for row in by_column.context["table"].rows] == expected[::-1]
    manager = django_user_model.objects.create_user("sec", password="pw-sec-12345")
    season.series.managers.add(manager)
    client.force_login(manager)
    managed = client.get(reverse("manage:players", args=["belgian-circuit"]))
    assert [p["name"] for p in managed.context["players"]] == expected
    assert (
        expected.index("Émile Brel") < expected.index("emma Aerts") < expected.index("Éva Lenaerts")
    )


def test_the_player_page_shows_ludo_and_per_game_rankings_with_explanations(client, season):
    html = client.get(reverse("player", args=["belgian-circuit", "p1"])).content.decode()
    assert "LUDO" in html and "Per-game rankings" in html
    assert season_url(season, "game", "catan") in html
    assert "(max(" in html  # the per-game value opens its divisor


def test_season_downloads_name_the_players_and_page_downloads_round(client, season):
    zipped = client.get(reverse("standings_download", args=["belgian-circuit", "2025", "zip"]))
    archive = zipfile.ZipFile(io.BytesIO(zipped.content))
    yearly = list(csv.DictReader(io.StringIO(archive.read("yearly.csv").decode())))
    assert yearly[0]["name"] == "Cis Janssens"
    players = archive.read("names-players.csv").decode()
    assert "p1,An Peeters,Spelclub Mechelen" in players
    document = client.get(reverse("standings_download", args=["belgian-circuit", "2025", "json"]))
    assert document.json()["names"]["players"]["p1"] == "An Peeters"
    assert document.json()["names"]["tournaments"]["t1"] == "Mechelen"

    page = client.get(season_url(season, "game", "catan"), {"_export": "csv"}).content.decode()
    rows = list(csv.reader(io.StringIO(page)))
    assert all(len(value.split(".")[-1]) <= 2 for row in rows[1:] for value in row[3:4])
    assert {row[4] for row in rows[1:]} <= {"yes", ""}
