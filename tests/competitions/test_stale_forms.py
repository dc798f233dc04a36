"""A save from a form that someone else's save made stale is refused, never a silent loss
(issue 45 "Concurrent edits"; competitions/edits.py `refuse_stale`, architecture.md "One write
per action"). So is a season's settings page, of every system (issue 48): an option is a row.

For every bulk-entry grid (Keizer's results and attendance, a chess round, a bridge pool's IMPs,
the Othello GP's typed standings) and Keizer's quick entry of one board: two logged-in managers,
Anna and Bert, open the page. Anna saves a change of row 1. Bert, from the page he opened
before, changes row 2, which Anna did not touch: saved, and Anna's change stays. Bert changes
row 1 (and row 2) instead: the whole save is refused naming row 1 and Anna, nothing of it is
stored, the form shows what Bert typed. Two saves of the same row with different values at the
same moment: one wins, the other is refused; never a 500.

Real clients posting the forms the pages render, outside a test transaction; the simultaneous
saves need PostgreSQL (threads with their own connections, row locks).
"""

import threading
from dataclasses import dataclass
from decimal import Decimal
from html.parser import HTMLParser

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from competitions import services as shared_services
from competitions.models import Game, Round, RoundEntry, Season
from competitions.registry import get_system
from competitions.systems.bridge import services as bridge_services
from competitions.systems.bridge.models import ChallengeScore, Pool
from competitions.systems.chess import services as chess_services
from competitions.systems.keizer import services as keizer_services
from competitions.systems.othello import services as othello_services
from competitions.systems.othello.models import Placement
from competitions.views import SHOWN_SETTINGS, manage_url
from rankings.imports import import_competition
from tests.bridge_files import big_ladder
from tests.chess_files import chess_file
from tests.concurrency import Interval, in_two_threads, overlap, timed
from tests.keizer_data import generated_file, small_file
from tests.othello_files import gp_file

pytestmark = pytest.mark.django_db(transaction=True)

RESULTS = ["1-0", "0-1", "1/2-1/2"]


# --- the forms a page renders, as a browser would send them -------------------------------------


class _Forms(HTMLParser):
    """Every <form>'s fields: inputs (checked radios only), selected options, textareas."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[dict[str, str]] = []
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({})
            return
        if not self.forms:
            return
        fields = self.forms[-1]
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("submit", "button", "file"):
                return
            if kind in ("radio", "checkbox") and "checked" not in a:
                return
            # A checked box without a value is sent as "on", as a browser sends it.
            fields[name] = a.get("value") or ("on" if kind == "checkbox" else "")
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select:
            if self._select not in fields or "selected" in a:
                fields[self._select] = a.get("value") or ""
        elif tag == "textarea" and name:
            self._textarea = name
            fields[name] = ""

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea" and self._textarea:
            text = self.forms[-1][self._textarea]
            # A browser drops the newline right after <textarea>.
            self.forms[-1][self._textarea] = text[1:] if text.startswith("\n") else text
            self._textarea = None

    def handle_data(self, data):
        if self._textarea:
            self.forms[-1][self._textarea] += data


def form_with(html: str, field: str) -> dict[str, str]:
    """The fields of the page's form that has `field`."""
    parser = _Forms()
    parser.feed(html)
    found = [form for form in parser.forms if field in form]
    assert found, f"no form with {field}"
    return dict(found[0])


# --- the grids ----------------------------------------------------------------------------------


@dataclass
class Grid:
    """One page of many rows: where it is, its rows (1 and 2), how a row is typed and stored."""

    url: str
    marker: str  # a field only this page's form has
    extra: dict  # what its submit button sends
    rows: tuple
    values: dict  # per row: (stored before, Anna's, Bert's)
    services: object  # the module whose refuse_stale the save goes through
    one_row: bool = False  # a form of one row (the quick entry)

    def open(self, client: Client) -> dict[str, str]:
        response = client.get(self.url)
        assert response.status_code == 200
        return form_with(response.content.decode(), self.marker)

    def post(self, client: Client, form: dict, changes: dict):
        data = dict(form, **self.extra)
        for row, value in changes.items():
            self.type(data, row, value)
        return client.post(self.url, data)

    def typed(self, html: str, row) -> object:
        return self.read(form_with(html, self.marker), row)

    # per grid
    def type(self, form: dict, row, value) -> None:
        raise NotImplementedError

    def read(self, form: dict, row) -> object:
        raise NotImplementedError

    def stored(self, row) -> object:
        raise NotImplementedError

    def label(self, row) -> str:
        raise NotImplementedError


def _three(first: str, choices=RESULTS) -> tuple[str, str, str]:
    others = [c for c in choices if c != first]
    return first, others[0], others[1]


class KeizerGrid(Grid):
    def __init__(self):
        season = import_competition(generated_file(20, 4, series="stale"))
        self.round = Round.objects.get(season=season, number=2)
        games = list(self.round.games.order_by("board")[:2])
        super().__init__(
            url=manage_url(season, "results", 2),
            marker="all",
            extra={},
            rows=(1, 2),
            values={g.board: _three(g.result) for g in games},
            services=keizer_services,
        )
        self.season = season

    def type(self, form, row, value):
        form[f"board{row}"] = value

    def read(self, form, row):
        return form[f"board{row}"]

    def stored(self, row):
        return self.round.games.get(board=row).result

    def label(self, row):
        return f"Board {row}"


class KeizerQuick(KeizerGrid):
    def __init__(self):
        super().__init__()
        self.marker = "quick"
        self.one_row = True

    def type(self, form, row, value):
        form["board"], form["result"] = str(row), value

    def read(self, form, row):
        assert form["board"] == str(row)
        return form["result"]


class KeizerAttendance(Grid):
    def __init__(self):
        season = import_competition(small_file())
        self.round = Round.objects.get(season=season, number=3)
        self.players = {e.player.key: e.player for e in self.round.entries.select_related("player")}
        super().__init__(
            url=manage_url(season, "attendance", 3),
            marker="volunteer",
            extra={},
            rows=("p1", "p3"),  # present on evening 3, not the volunteer for the bye
            values={
                key: _three("present", ["present", "absent", "external", "unexcused"])
                for key in ("p1", "p3")
            },
            services=keizer_services,
        )

    def type(self, form, row, value):
        form[f"p{self.players[row].pk}"] = value

    def read(self, form, row):
        return form[f"p{self.players[row].pk}"]

    def stored(self, row):
        return RoundEntry.objects.get(round=self.round, player__key=row).status

    def label(self, row):
        return self.players[row].name


class ChessRound(Grid):
    def __init__(self):
        season = import_competition(chess_file())
        self.round = Round.objects.get(group__name="Gruppe A", number=1)
        games = list(self.round.games.order_by("board")[:2])
        self.games = {g.board: g for g in games}
        super().__init__(
            url=manage_url(season, "round", "klyve", self.round.group_id, 1),
            marker=f"result_{games[0].pk}",
            extra={"save_results": "1"},
            rows=(1, 2),
            values={g.board: _three(g.result) for g in games},
            services=chess_services,
        )

    def type(self, form, row, value):
        form[f"result_{self.games[row].pk}"] = value

    def read(self, form, row):
        return form[f"result_{self.games[row].pk}"]

    def stored(self, row):
        return Game.objects.get(pk=self.games[row].pk).result

    def label(self, row):
        return f"Board {row}"


class BridgePool(Grid):
    def __init__(self):
        season = import_competition(big_ladder(2, 2, series="stale"))
        self.pool = Pool.objects.get(round__season=season, round__number=2, number=1)
        self.round = self.pool.round
        members = list(self.pool.members.select_related("player").order_by("position")[:2])
        self.players = {m.player.key: m.player for m in members}
        super().__init__(
            url=manage_url(season, "pool", 2, 1),
            marker=f"imps_{members[0].player_id}_1",
            extra={"stay": "1"},
            rows=tuple(self.players),
            values={},
            services=bridge_services,
        )
        self.values = {key: (self.stored(key), Decimal(7), Decimal(-3)) for key in self.players}

    def type(self, form, row, value):
        form[f"imps_{self.players[row].pk}_1"] = "" if value is None else str(value)

    def read(self, form, row):
        text = form[f"imps_{self.players[row].pk}_1"]
        return Decimal(text) if text else None

    def stored(self, row):
        score = ChallengeScore.objects.filter(
            challenge__round=self.pool.round, challenge__number=1, player=self.players[row]
        ).first()
        return None if score is None else score.imps

    def label(self, row):
        return f"{self.players[row].name}, challenge 1"


class OthelloStandings(Grid):
    # Shown: "1; Björn Sandberg (p2); SE; N1990 / 2; Anna Lindqvist (p1); SE; N1855.5 /
    # 3; Julien Lefèvre (p3); SE; F1910".
    RATING = {"p1": "nordic", "p3": "ffo"}

    def __init__(self):
        season = import_competition(gp_file())
        self.tournament = season.tournaments.get(key="t2")
        self.round = Round(season=season)  # the page has no round; its season is what counts
        super().__init__(
            url=manage_url(season, "tournament", "t2"),
            marker="text",
            extra={},
            rows=("p1", "p3"),
            values={
                "p1": (Decimal("1855.5"), Decimal(1700), Decimal(1800)),
                "p3": (Decimal(1910), Decimal(1950), Decimal(1990)),
            },
            services=othello_services,
        )

    def _line(self, form, row) -> tuple[list[str], int]:
        lines = form["text"].splitlines()
        return lines, next(i for i, line in enumerate(lines) if f"({row})" in line)

    def type(self, form, row, value):
        lines, i = self._line(form, row)
        prefix = "N" if self.RATING[row] == "nordic" else "F"
        lines[i] = "; ".join([*lines[i].split("; ")[:3], f"{prefix}{value}"])
        form["text"] = "\n".join(lines)

    def read(self, form, row):
        lines, i = self._line(form, row)
        return Decimal(lines[i].split("; ")[3][1:])

    def stored(self, row):
        placement = Placement.objects.get(tournament=self.tournament, player__key=row)
        return getattr(placement, self.RATING[row])

    def label(self, row):
        return Placement.objects.get(tournament=self.tournament, player__key=row).player.name


GRIDS = {
    "keizer-results": KeizerGrid,
    "keizer-quick": KeizerQuick,
    "keizer-attendance": KeizerAttendance,
    "chess-round": ChessRound,
    "bridge-pool": BridgePool,
    "othello-standings": OthelloStandings,
}


@pytest.fixture(params=list(GRIDS))
def grid(request) -> Grid:
    return GRIDS[request.param]()


@pytest.fixture
def anna_and_bert(grid, django_user_model) -> tuple[Client, Client]:
    series = grid.round.season.series
    clients = []
    for name in ("anna", "bert"):
        user = django_user_model.objects.create_user(name, password=f"pw-{name}-123")
        series.managers.add(user)
        client = Client(raise_request_exception=False)
        client.force_login(user)
        clients.append(client)
    return clients[0], clients[1]


def test_a_row_nobody_else_changed_is_saved_from_a_form_opened_before(grid, anna_and_bert):
    anna, bert = anna_and_bert
    first, second = grid.rows
    annas_form, berts_form = grid.open(anna), grid.open(bert)
    anna_value, bert_value = grid.values[first][1], grid.values[second][2]

    assert grid.post(anna, annas_form, {first: anna_value}).status_code == 302
    assert grid.post(bert, berts_form, {second: bert_value}).status_code == 302

    assert grid.stored(first) == anna_value  # Bert's form sent it back as shown: kept
    assert grid.stored(second) == bert_value


def test_a_row_someone_else_changed_is_refused_naming_it_and_who(grid, anna_and_bert):
    anna, bert = anna_and_bert
    first, second = grid.rows
    annas_form, berts_form = grid.open(anna), grid.open(bert)
    anna_value, bert_value = grid.values[first][1], grid.values[first][2]
    assert grid.post(anna, annas_form, {first: anna_value}).status_code == 302

    changes = {first: bert_value}
    if not grid.one_row:
        changes[second] = grid.values[second][2]  # a row nobody else changed: not stored either
    refused = grid.post(bert, berts_form, changes)

    assert refused.status_code == 400
    html = refused.content.decode()
    assert "Nothing was saved" in html
    assert f"{grid.label(first)}: changed by anna at " in html.replace("&#x27;", "'")
    assert "— reload" in html
    assert grid.stored(first) == anna_value
    if not grid.one_row:
        assert grid.stored(second) == grid.values[second][0]
        assert grid.typed(html, second) == grid.values[second][2]
    assert grid.typed(html, first) == bert_value  # what Bert typed, shown again


def test_two_saves_of_the_same_row_at_once_one_wins_one_is_refused(
    grid, anna_and_bert, monkeypatch
):
    if connection.vendor != "postgresql":
        pytest.skip(
            f"row locks and concurrent connections need PostgreSQL, not {connection.vendor}"
        )
    anna, bert = anna_and_bert
    first = grid.rows[0]
    forms = {"anna": grid.open(anna), "bert": grid.open(bert)}
    clients = {"anna": anna, "bert": bert}
    values = {"anna": grid.values[first][1], "bert": grid.values[first][2]}
    # The comparison takes a while: two saves not waiting for each other would overlap there.
    intervals: list[Interval] = []
    if hasattr(grid.services, "refuse_stale"):
        monkeypatch.setattr(
            grid.services, "refuse_stale", timed(grid.services.refuse_stale, intervals, 0.3)
        )
    who = {}

    def save():
        name = "anna" if threading.current_thread().name.endswith("-1") else "bert"
        who[threading.current_thread().name] = name
        response = grid.post(clients[name], forms[name], {first: values[name]})
        return response.status_code, response.content.decode()

    results, errors = in_two_threads(save, "manager")

    assert errors == {}
    statuses = sorted(status for status, _html in results.values())
    assert statuses == [302, 400], statuses
    winner = next(who[t] for t, (status, _html) in results.items() if status == 302)
    refused = next(html for status, html in results.values() if status == 400)
    assert f"{grid.label(first)}: changed by {winner} at " in refused.replace("&#x27;", "'")
    assert grid.stored(first) == values[winner]
    if len(intervals) == 2:
        assert not overlap(*intervals), "the second save did not wait for the first"


def test_two_managers_opening_the_same_new_evening_at_once_one_wins(django_user_model):
    """Evening 4 does not exist yet: both pages suggest the same statuses; Anna and Bert mark
    Jan differently at the same moment. One save opens the evening, the other is compared with
    it and refused (Jan), never a 500."""
    if connection.vendor != "postgresql":
        pytest.skip(
            f"row locks and concurrent connections need PostgreSQL, not {connection.vendor}"
        )
    season = import_competition(small_file())
    clients = {}
    for name in ("anna", "bert"):
        user = django_user_model.objects.create_user(name, password=f"pw-{name}-123")
        season.series.managers.add(user)
        clients[name] = Client(raise_request_exception=False)
        clients[name].force_login(user)
    assert clients["anna"].post(manage_url(season, "pair", 3)).status_code == 302
    url = manage_url(season, "attendance", 4)
    jan = RoundEntry.objects.get(round__number=3, player__key="p1").player
    forms = {}
    for name, status in (("anna", "absent"), ("bert", "external")):
        response = clients[name].get(url)
        assert response.status_code == 200
        forms[name] = form_with(response.content.decode(), "volunteer")
        assert forms[name][f"p{jan.pk}"] == "present"
        forms[name][f"p{jan.pk}"] = status
    who = {}

    def save():
        name = "anna" if threading.current_thread().name.endswith("-1") else "bert"
        who[threading.current_thread().name] = name
        response = clients[name].post(url, forms[name])
        return response.status_code, response.content.decode()

    results, errors = in_two_threads(save, "manager")

    assert errors == {}
    assert sorted(status for status, _html in results.values()) == [302, 400]
    winner = next(who[t] for t, (status, _html) in results.items() if status == 302)
    refused = next(html for status, html in results.values() if status == 400)
    assert f"{jan.name}: changed by {winner} at " in refused
    stored = RoundEntry.objects.get(round__season=season, round__number=4, player=jan).status
    assert stored == forms[winner][f"p{jan.pk}"]


# --- the season settings page (the shared settings view, every system) -------------------------


@dataclass
class SettingsPage:
    """A season's settings page and two of its options (whole numbers): `first` (name, stored
    before, Anna's, Bert's), `second` (name, stored before, Bert's)."""

    season: Season
    first: tuple[str, int, int, int]
    second: tuple[str, int, int]

    @property
    def url(self) -> str:
        return reverse("manage:season_settings", args=[self.season.series.slug, self.season.slug])

    def open(self, client: Client) -> dict[str, str]:
        response = client.get(self.url)
        assert response.status_code == 200
        return form_with(response.content.decode(), SHOWN_SETTINGS)

    def post(self, client: Client, form: dict, changes: dict, **extra):
        data = dict(form, **{name: str(value) for name, value in changes.items()}, **extra)
        return client.post(self.url, data)

    def stored(self, name: str) -> int:
        spec = get_system(self.season.system).settings
        settings = Season.objects.get(pk=self.season.pk).settings
        return settings.get(name, spec.field(name).default)

    def label(self, name: str) -> str:
        return str(get_system(self.season.system).settings.field(name).label)


SETTINGS_PAGES = {
    "chess": (lambda r: chess_file(), ("bgp_further", 5, 4, 3), ("monrad_long_from", 7, 6)),
    "keizer": (lambda r: small_file(), ("step", 1, 2, 3), ("top_value", 0, 50)),
    "othello": (lambda r: gp_file(), ("best_n", 5, 4, 3), ("tiebreak_seed", 0, 7)),
    "bridge": (
        lambda r: big_ladder(2, 1, series="stale"),
        ("k", 25, 30, 20),
        ("start_elo", 1250, 1300),
    ),
    "boardgame": (
        lambda r: r.getfixturevalue("circuit_file"),
        ("best_n", 5, 4, 3),
        ("rounds_per_tournament", 3, 4),
    ),
}


@pytest.fixture(params=list(SETTINGS_PAGES))
def settings_page(request) -> SettingsPage:
    data, first, second = SETTINGS_PAGES[request.param]
    page = SettingsPage(import_competition(data(request)), first, second)
    assert page.stored(first[0]) == first[1] and page.stored(second[0]) == second[1]
    return page


@pytest.fixture
def two_managers(settings_page, django_user_model) -> tuple[Client, Client]:
    clients = []
    for name in ("anna", "bert"):
        user = django_user_model.objects.create_user(name, password=f"pw-{name}-123")
        settings_page.season.series.managers.add(user)
        client = Client(raise_request_exception=False)
        client.force_login(user)
        clients.append(client)
    return clients[0], clients[1]


def test_an_option_nobody_else_changed_is_saved_from_a_settings_form_opened_before(
    settings_page, two_managers
):
    """Before issue 48, Bert's save wrote back the first option as his page showed it,
    undoing Anna's change without a word."""
    anna, bert = two_managers
    (first, _before, annas, _berts), (second, _stored, berts) = (
        settings_page.first,
        settings_page.second,
    )
    before = Season.objects.get(pk=settings_page.season.pk).settings
    annas_form, berts_form = settings_page.open(anna), settings_page.open(bert)

    assert settings_page.post(anna, annas_form, {first: annas}).status_code == 302
    assert settings_page.post(bert, berts_form, {second: berts}).status_code == 302

    assert settings_page.stored(first) == annas  # Bert's form sent it back as shown: kept
    assert settings_page.stored(second) == berts
    # Nothing else was written: each save wrote only the option its manager changed.
    stored = Season.objects.get(pk=settings_page.season.pk).settings
    assert stored == {**before, first: annas, second: berts}


def test_an_option_someone_else_changed_is_refused_naming_it_and_who(settings_page, two_managers):
    anna, bert = two_managers
    (first, _before, annas, berts_first), (second, second_before, berts) = (
        settings_page.first,
        settings_page.second,
    )
    annas_form, berts_form = settings_page.open(anna), settings_page.open(bert)
    assert settings_page.post(anna, annas_form, {first: annas}).status_code == 302

    refused = settings_page.post(bert, berts_form, {first: berts_first, second: berts})

    assert refused.status_code == 400
    html = refused.content.decode().replace("&#x27;", "'")
    assert "Nothing was saved" in html
    assert f"{settings_page.label(first)}: changed by anna at " in html and "— reload" in html
    assert settings_page.stored(first) == annas
    assert settings_page.stored(second) == second_before  # nothing of Bert's save is stored
    shown_again = form_with(refused.content.decode(), SHOWN_SETTINGS)
    assert shown_again[first] == str(berts_first) and shown_again[second] == str(berts)
    # The form shown again still compares with what Bert first saw: saved as it is, refused.
    assert settings_page.post(bert, shown_again, {}).status_code == 400
    # Opened anew, it saves.
    assert (
        settings_page.post(bert, settings_page.open(bert), {first: berts_first}).status_code == 302
    )
    assert settings_page.stored(first) == berts_first


def test_two_saves_of_the_same_option_at_once_one_wins_one_is_refused(
    settings_page, two_managers, monkeypatch
):
    if connection.vendor != "postgresql":
        pytest.skip(
            f"row locks and concurrent connections need PostgreSQL, not {connection.vendor}"
        )
    anna, bert = two_managers
    first, _before, annas, berts = settings_page.first
    clients = {"anna": anna, "bert": bert}
    forms = {"anna": settings_page.open(anna), "bert": settings_page.open(bert)}
    values = {"anna": annas, "bert": berts}
    intervals: list[Interval] = []
    monkeypatch.setattr(
        shared_services, "refuse_stale", timed(shared_services.refuse_stale, intervals, 0.3)
    )
    who = {}

    def save():
        name = "anna" if threading.current_thread().name.endswith("-1") else "bert"
        who[threading.current_thread().name] = name
        response = settings_page.post(clients[name], forms[name], {first: values[name]})
        return response.status_code, response.content.decode()

    results, errors = in_two_threads(save, "manager")

    assert errors == {}
    assert sorted(status for status, _html in results.values()) == [302, 400]
    winner = next(who[t] for t, (status, _html) in results.items() if status == 302)
    refused = next(html for status, html in results.values() if status == 400)
    assert f"{settings_page.label(first)}: changed by {winner} at " in refused.replace(
        "&#x27;", "'"
    )
    assert settings_page.stored(first) == values[winner]
    assert len(intervals) == 2 and not overlap(*intervals), "the second save did not wait"


def test_a_settings_form_previewed_first_still_compares_with_what_it_was_opened_with(
    django_user_model,
):
    """The chess settings page previews before saving: the preview shows the form again with
    the settings it was first opened with, so a save after it is refused as stale too."""
    page = SettingsPage(import_competition(chess_file()), ("bgp_further", 5, 4, 3), ("x", 0, 0))
    clients = []
    for name in ("anna", "bert"):
        user = django_user_model.objects.create_user(name, password=f"pw-{name}-123")
        page.season.series.managers.add(user)
        clients.append(Client(raise_request_exception=False))
        clients[-1].force_login(user)
    anna, bert = clients
    annas_form, berts_form = page.open(anna), page.open(bert)
    assert page.post(anna, annas_form, {"bgp_further": 4}).status_code == 302

    previewed = page.post(bert, berts_form, {"bgp_further": 3}, preview="1")
    assert (
        previewed.status_code == 200
        and "Preview: nothing is saved yet" in previewed.content.decode()
    )
    form = form_with(previewed.content.decode(), SHOWN_SETTINGS)
    assert form[SHOWN_SETTINGS] == berts_form[SHOWN_SETTINGS]  # as first opened
    refused = page.post(bert, form, {})
    assert refused.status_code == 400
    assert page.stored("bgp_further") == 4


def test_a_settings_post_without_what_it_showed_is_stored_whole(django_user_model):
    """A client that sends no `shown_settings` (a script, a page of an older release) is a
    writer without a form: its settings are stored as sent, as before."""
    page = SettingsPage(import_competition(chess_file()), ("bgp_further", 5, 4, 3), ("x", 0, 0))
    user = django_user_model.objects.create_user("anna", password="pw-anna-123")
    page.season.series.managers.add(user)
    client = Client()
    client.force_login(user)
    form = page.open(client)
    Season.objects.filter(pk=page.season.pk).update(settings={"monrad_long_from": 6})
    del form[SHOWN_SETTINGS]
    assert page.post(client, form, {"bgp_further": 4}).status_code == 302
    assert Season.objects.get(pk=page.season.pk).settings == {"bgp_further": 4}
    # The page's other forms carry no such field.
    new_season = client.get(reverse("manage:season_create", args=[page.season.series.slug]))
    assert SHOWN_SETTINGS not in new_season.content.decode()
