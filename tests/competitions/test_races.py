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

from competitions.models import Game, Round
from competitions.views import manage_url
from rankings.imports import import_competition
from tests.concurrency import in_two_threads
from tests.keizer_data import small_file

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
