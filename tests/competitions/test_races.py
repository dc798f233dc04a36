"""Two managers at once (issue 45, "Concurrent edits"): a duplicate create is a form error, never
a 500; an action that removes what someone is writing into (unpair, delete) waits for the write
or refuses it cleanly, and nothing accepted is lost.

PostgreSQL only: each race runs two real threads, each with its own database connection and its
own logged-in test Client, against committed data (outside a test transaction). Races are run
many times; every try must answer without a 500 and lose nothing it accepted.
"""

import threading
from html import unescape
from html.parser import HTMLParser

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from competitions.models import Club, Game, Group, Player, Round, Season
from competitions.systems.boardgame import services as boardgame
from competitions.systems.boardgame.models import Seat, Table
from competitions.systems.chess import services as chess
from competitions.views import manage_url
from rankings.imports import import_competition
from tests.chess_files import chess_file
from tests.concurrency import in_two_threads
from tests.keizer_data import small_file
from tests.othello_files import gp_file

pytestmark = pytest.mark.django_db(transaction=True)

TRIES = 20


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip(
            f"row locks and concurrent connections need PostgreSQL, not {connection.vendor}"
        )


def managers(season, django_user_model, n: int = 2) -> list[Client]:
    clients = []
    for i in range(n):
        user = django_user_model.objects.create_user(f"manager{i}", password="pw-manager-123")
        season.series.managers.add(user)
        client = Client(raise_request_exception=False)
        client.force_login(user)
        clients.append(client)
    return clients


def at_once(**work) -> dict[str, object]:
    """Run two callables at the same moment, each in its own thread (tests.concurrency); their
    results by name. Any exception fails the test."""
    (first, a), (second, b) = work.items()
    roles = {"race-1": a, "race-2": b}
    results, errors = in_two_threads(lambda: roles[threading.current_thread().name](), "race")
    assert errors == {}, errors
    return {first: results["race-1"], second: results["race-2"]}


class _Forms(HTMLParser):
    """The fields a browser would send of each form of a page (inputs, checked radios, the
    selected option of a select)."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict[str, str]] = []
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({})
        elif not self.forms:
            return
        elif tag == "input" and a.get("name"):
            if a.get("type") in ("radio", "checkbox") and "checked" not in a:
                return
            self.forms[-1][a["name"]] = a.get("value") or ""
        elif tag == "select":
            self._select = a.get("name")
            self.forms[-1].setdefault(self._select, "")
        elif tag == "option" and self._select and "selected" in a:
            self.forms[-1][self._select] = a.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


def page_form(client: Client, url: str, marker: str) -> dict[str, str]:
    """The form of the page at `url` that has a field named `marker`, as a browser sends it."""
    page = client.get(url)
    assert page.status_code == 200, url
    parser = _Forms()
    parser.feed(page.content.decode())
    found = [f for f in parser.forms if marker in f]
    assert len(found) == 1, f"{len(found)} forms with {marker} on {url}"
    form = found[0]
    form.pop("csrfmiddlewaretoken", None)
    return form


def page_text(response) -> str:
    """The text of the page a POST was redirected to (with its messages). Not the response's
    context: the test client collects the templates rendered in every thread."""
    return unescape(response.content.decode())


# --- Keizer: unpair or delete an evening while results are entered into it ----------------------


REMOVALS = {
    # what removes the evening's games, and what it says when results came first
    "unpair": "the pairing stays",
    "round_delete": "it cannot be deleted",
}


@pytest.mark.parametrize("removal", list(REMOVALS))
def test_keizer_removing_an_evening_while_results_are_entered_loses_nothing(
    django_user_model, removal
):
    """Unpair (or delete) evening 3 while another manager saves a result into it: either the
    result is stored and the removal refused, or the removal goes first and the result is
    refused with a message; never a 500, never a result reported saved and then gone."""
    season = import_competition(small_file())
    leader, recorder = managers(season, django_user_model)
    results_url = manage_url(season, "results", 3)
    attendance = page_form(leader, manage_url(season, "attendance", 3), "date")
    outcomes = {"removed": 0, "kept": 0}
    for _try in range(TRIES):
        if not Round.objects.filter(season=season, number=3).exists():
            assert leader.post(manage_url(season, "attendance", 3), attendance).status_code == 302
        assert leader.post(manage_url(season, "pair", 3)).status_code == 302
        grid = page_form(recorder, results_url, "all")
        grid["board1"] = "1-0"

        answers = at_once(
            remove=lambda: leader.post(manage_url(season, removal, 3), follow=True),
            save=lambda grid=grid: recorder.post(results_url, grid, follow=True),
        )

        assert {a.status_code for a in answers.values()} == {200}, answers
        games = Game.objects.filter(round__season=season, round__number=3)
        said = page_text(answers["save"])
        if games.exists():
            # The result came first: it is stored and the removal was refused.
            outcomes["kept"] += 1
            assert games.get(board=1).result == "1-0"
            assert "Results of evening 3 saved." in said
            assert REMOVALS[removal] in page_text(answers["remove"])
            games.update(result="")
            assert leader.post(manage_url(season, "unpair", 3)).status_code == 302
        else:
            # The removal went first: the result was refused, and the page said so.
            outcomes["removed"] += 1
            assert "Results of evening 3 saved." not in said
            assert "unpaired meanwhile; nothing was saved" in said
        third = Round.objects.filter(season=season, number=3).first()
        assert third is None or not third.games.exists()
    assert sum(outcomes.values()) == TRIES


def test_keizer_results_into_an_evening_unpaired_and_paired_again_are_refused(
    django_user_model,
):
    """The form was opened on one pairing; the evening was unpaired and paired again (new
    games on the same board numbers) before it was sent: nothing is written into the new
    pairing."""
    season = import_competition(small_file())
    leader, recorder = managers(season, django_user_model)
    results_url = manage_url(season, "results", 3)
    assert leader.post(manage_url(season, "pair", 3)).status_code == 302
    grid = page_form(recorder, results_url, "all")
    quick = page_form(recorder, results_url, "quick")
    assert leader.post(manage_url(season, "unpair", 3)).status_code == 302
    assert leader.post(manage_url(season, "pair", 3)).status_code == 302

    grid["board1"] = "1-0"
    quick.update(board="1", result="1")
    for form in (grid, quick):
        said = page_text(recorder.post(results_url, form, follow=True))
        assert "unpaired meanwhile; nothing was saved" in said
    assert set(Game.objects.filter(round__number=3).values_list("result", flat=True)) == {""}


def test_chess_round_deleted_while_its_results_are_saved(django_user_model):
    """Deleting a group's last round while another manager saves its results: the save comes
    first (and the results go with the round), or is refused with a message; never a 500 nor
    a 404."""
    season = import_competition(chess_file())
    deleter, recorder = managers(season, django_user_model)
    group = Group.objects.get(tournament__season=season, name="Gruppe A")
    a, b = (group.members.get(player__key=k).player for k in ("a", "b"))
    for _try in range(TRIES):
        round_ = chess.round_create(group=group)
        game = chess.game_add(round_=round_, white=a, black=b)
        url = manage_url(season, "round", "klyve", group.pk, round_.number)
        delete = manage_url(season, "round_delete", "klyve", group.pk, round_.number)
        form = {"save_results": "", f"result_{game.pk}": "1", f"initial-result_{game.pk}": ""}
        answers = at_once(
            delete=lambda delete=delete: deleter.post(delete, follow=True),
            save=lambda url=url, form=form: recorder.post(url, form),
        )
        assert answers["delete"].status_code == 200
        assert f"Round {round_.number} deleted." in page_text(answers["delete"])
        save = answers["save"]
        if save.status_code == 302 and save.url == url:
            pass  # saved, then the round went with its results
        else:  # refused: the form shown again (400), or the group's page with the message
            assert save.status_code in (302, 400), save
            said = page_text(save if save.status_code == 400 else recorder.get(save.url))
            assert "deleted meanwhile; nothing was saved" in said, said
        assert not Round.objects.filter(pk=round_.pk).exists()
        assert not Game.objects.filter(pk=game.pk).exists()


def test_board_game_table_deleted_while_it_is_corrected(circuit_file, django_user_model):
    """Deleting a table while another manager saves a correction of it: the correction comes
    first (and the table then goes), or is refused with a message; never a 500 nor a 404."""
    season = import_competition(circuit_file)
    deleter, corrector = managers(season, django_user_model)
    round_ = boardgame.round_of(tournament=season.tournaments.get(key="t2"), number=2)
    p1, p2 = (Player.objects.get(series=season.series, key=k) for k in ("p1", "p2"))
    for i in range(TRIES):
        table = boardgame.table_save(round_=round_, game="Catan", seats=[(p1, 1), (p2, 2)])
        round_ = table.round
        url = manage_url(season, "table_edit", "t2", 2, table.pk)
        form = page_form(corrector, url, "loaded")
        form["game"] = f"Azul {i}"
        answers = at_once(
            delete=lambda table=table: deleter.post(
                manage_url(season, "table_delete", "t2", 2, table.pk), follow=True
            ),
            save=lambda url=url, form=form: corrector.post(url, form, follow=True),
        )
        assert answers["delete"].status_code == 200 and answers["save"].status_code in (200, 400)
        said = page_text(answers["save"])
        assert f"Azul {i}, 2 players" in said or "This table was deleted meanwhile" in said, said
        assert not Table.objects.filter(pk=table.pk).exists()
        assert not Seat.objects.filter(table_id=table.pk).exists()


# --- the same thing created by two managers at the same moment ----------------------------------


def race(clients: list[Client], url: str, form: dict) -> tuple[list[int], str]:
    """Both managers post `form` to `url` at the same moment: their status codes (sorted) and
    the text of the refused one (a 400), if any."""
    answers = at_once(
        first=lambda: clients[0].post(url, form), second=lambda: clients[1].post(url, form)
    )
    refused = [page_text(a) for a in answers.values() if a.status_code == 400]
    return sorted(a.status_code for a in answers.values()), "".join(refused)


def test_two_managers_adding_the_same_player_at_once_add_one(circuit_file, django_user_model):
    season = import_competition(circuit_file)
    clients = managers(season, django_user_model)
    url = reverse("manage:players", args=[season.series.slug])
    for i in range(TRIES):
        name = f"Zoë Race {i}"
        statuses, refused = race(
            clients, url, {"add_player": "1", "player-name": name, "player-club": ""}
        )
        assert statuses == [302, 400]
        # Refused because it was added meanwhile, or (the second came after the first) shown
        # back to be confirmed as a namesake.
        assert (
            f"A player named {name} was added to this series meanwhile; nothing was saved"
            in refused
            or f"A player called “{name}” exists already" in refused
        ), refused
        assert Player.objects.filter(series=season.series, name=name).count() == 1


def test_two_managers_adding_the_same_club_at_once_add_one(circuit_file, django_user_model):
    season = import_competition(circuit_file)
    clients = managers(season, django_user_model)
    url = reverse("manage:players", args=[season.series.slug])
    for i in range(TRIES):
        name = f"Spelclub Race {i}"
        statuses, refused = race(clients, url, {"add_club": "1", "club-name": name})
        assert statuses == [302, 400]
        assert f"This series has a club {name} already." in refused
        assert Club.objects.filter(series=season.series, name=name).count() == 1


def test_two_managers_creating_the_same_season_at_once_create_one(circuit_file, django_user_model):
    season = import_competition(circuit_file)
    clients = managers(season, django_user_model)
    url = reverse("manage:season_create", args=[season.series.slug])
    for i in range(TRIES):
        label = f"{2030 + i}"
        statuses, refused = race(clients, url, {"label": label, "name": ""})
        assert statuses == [302, 400]
        assert f"Season {label} already exists." in refused
        assert Season.objects.filter(series=season.series, label=label).count() == 1


def test_two_managers_creating_the_same_tournament_at_once_create_one(
    circuit_file, django_user_model
):
    season = import_competition(circuit_file)
    clients = managers(season, django_user_model)
    url = manage_url(season, "tournament_create")
    for i in range(TRIES):
        name = f"Race {i}"
        statuses, refused = race(clients, url, {"name": name, "date": "2025-06-01"})
        assert statuses == [302, 400]
        assert (
            f"A tournament named {name} on that date was added to this season meanwhile" in refused
            or f"This season has a tournament “{name}” on that date already." in refused
        ), refused
        assert season.tournaments.filter(name=name).count() == 1


def test_two_managers_creating_the_same_chess_group_at_once_create_one(django_user_model):
    season = import_competition(chess_file())
    clients = managers(season, django_user_model)
    url = manage_url(season, "tournament", "klyve")
    for i in range(TRIES):
        name = f"Gruppe Race {i}"
        statuses, refused = race(
            clients, url, {"add_group": "1", "g-name": name, "g-scale": "1-half-0"}
        )
        assert statuses == [302, 400]
        assert f"This tournament has a group {name} already." in refused
        assert Group.objects.filter(tournament__season=season, name=name).count() == 1


def test_two_managers_adding_the_same_player_to_a_chess_group_at_once(django_user_model):
    season = import_competition(chess_file())
    clients = managers(season, django_user_model)
    group = Group.objects.get(tournament__season=season, name="Gruppe A")
    url = manage_url(season, "group", "klyve", group.pk)
    for i in range(TRIES):
        player = Player.objects.create(series=season.series, key=f"race{i}", name=f"Race {i}")
        statuses, refused = race(
            clients, url, {"add_player": "1", "m-player": f"Race {i}", "m-player_class": ""}
        )
        assert statuses == [302, 400]
        assert f"Race {i} is in this group already." in refused
        assert group.members.filter(player=player).count() == 1
        # A new player of the series ("a new player" ticked) typed by both at the same moment:
        # the second is refused; one after the other, the second is a namesake, as asked.
        # Either way no player is left outside the group.
        statuses, refused = race(
            clients, url, {"add_player": "1", "m-player": f"New {i}", "m-new": "on"}
        )
        assert statuses in ([302, 302], [302, 400]), statuses
        if 400 in statuses:
            assert f"A player named New {i} was added to this series meanwhile" in refused
        new = Player.objects.filter(series=season.series, name=f"New {i}")
        assert new.count() == group.members.filter(player__in=new).count() == statuses.count(302)


def test_two_managers_adding_a_player_to_the_keizer_list_at_once(django_user_model):
    season = import_competition(small_file())
    clients = managers(season, django_user_model)
    url = manage_url(season, "keizer_list")
    for i in range(TRIES):
        player = Player.objects.create(series=season.series, key=f"race{i}", name=f"Race {i}")
        statuses, refused = race(
            clients, url, {"action": "add", "add-player": player.pk, "add-name": ""}
        )
        assert statuses == [302, 400]
        assert season.entries.filter(player=player).count() == 1
        # A new player by name, typed by both: never a player left without the entry.
        statuses, refused = race(clients, url, {"action": "add", "add-name": f"New {i}"})
        assert statuses in ([302, 302], [302, 400]), statuses
        if 400 in statuses:
            assert f"A player named New {i} was added to this series meanwhile" in refused
        new = Player.objects.filter(series=season.series, name=f"New {i}")
        assert new.count() == season.entries.filter(player__in=new).count() == statuses.count(302)


def test_two_managers_making_a_gp_tournament_the_sm_at_once_make_one(django_user_model):
    season = import_competition(gp_file())
    clients = managers(season, django_user_model)
    url = manage_url(season, "tournament_create")
    for i in range(TRIES):
        answers = at_once(
            first=lambda i=i: clients[0].post(
                url, {"name": f"SM A {i}", "date": "2025-09-01", "sm": "on"}
            ),
            second=lambda i=i: clients[1].post(
                url, {"name": f"SM B {i}", "date": "2025-09-02", "sm": "on"}
            ),
        )
        assert sorted(a.status_code for a in answers.values()) == [302, 400]
        sm = [t for t in season.tournaments.all() if t.options.get("sm")]
        assert len(sm) == 1
        sm[0].delete()
