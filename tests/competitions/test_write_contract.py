"""One write contract (architecture.md): a manager's action on a page of many results is one
service call, one transaction and one scoped `results_changed`, so one recompute; and only the
rows the manager changed from what the form showed are written.

Each test posts a multi-result form of one system the way the page sends it, outside a test
transaction, and counts with tests.helpers.count_writes.
"""

import pytest
from django.test import Client

from competitions.interchange import import_competition
from competitions.models import Game, Round
from competitions.views import manage_url
from tests.helpers import count_writes
from tests.keizer_data import generated_file

pytestmark = pytest.mark.django_db(transaction=True)

FLIP = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0", "+-": "-+", "-+": "+-"}


def manager_of(season, django_user_model) -> Client:
    user = django_user_model.objects.create_user("writer", password="pw-writer-1")
    season.series.managers.add(user)
    client = Client()
    client.force_login(user)
    return client


# --- Keizer: the results grid of an evening ------------------------------------------------------


def test_keizer_grid_saves_five_boards_in_one_transaction_and_one_recompute(django_user_model):
    season = import_competition(generated_file(20, 4, series="grid"))
    client = manager_of(season, django_user_model)
    evening = Round.objects.get(season=season, number=2)
    games = list(evening.games.order_by("board"))
    assert len(games) >= 6
    form = {"all": "1"}
    for game in games:
        form[f"board{game.board}"] = game.result
        form[f"initial-board{game.board}"] = game.result
    for game in games[:5]:
        form[f"board{game.board}"] = FLIP[game.result]

    with count_writes() as writes:
        response = client.post(manage_url(season, "results", 2), form)

    assert response.status_code == 302
    assert writes.transactions == 1
    assert writes.recomputes == 1
    assert writes.signals == [(frozenset({season.pk}), f"round:{evening.pk}")]
    stored = dict(evening.games.values_list("board", "result"))
    assert stored == {g.board: FLIP[g.result] if g in games[:5] else g.result for g in games}
    season.refresh_from_db()
    assert season.standings_version == season.data_version


def test_keizer_grid_leaves_a_board_the_manager_did_not_change(django_user_model):
    """Board 1 was corrected by someone else after the form was shown; the manager sends it
    back as shown, changing board 2 only: board 1 keeps the other correction."""
    season = import_competition(generated_file(20, 4, series="grid"))
    client = manager_of(season, django_user_model)
    first, second = Game.objects.filter(round__season=season, round__number=2).order_by("board")[:2]
    form = {"all": "1"}
    for game in Game.objects.filter(round=first.round):
        form[f"board{game.board}"] = form[f"initial-board{game.board}"] = game.result
    form[f"board{second.board}"] = FLIP[second.result]
    Game.objects.filter(pk=first.pk).update(result=FLIP[first.result])  # meanwhile

    with count_writes() as writes:
        assert client.post(manage_url(season, "results", 2), form).status_code == 302

    assert Game.objects.get(pk=first.pk).result == FLIP[first.result]
    assert Game.objects.get(pk=second.pk).result == FLIP[second.result]
    assert (writes.transactions, writes.recomputes) == (1, 1)


def test_keizer_grid_without_a_change_writes_nothing(django_user_model):
    season = import_competition(generated_file(20, 4, series="grid"))
    client = manager_of(season, django_user_model)
    form = {"all": "1"}
    for game in Game.objects.filter(round__season=season, round__number=2):
        form[f"board{game.board}"] = form[f"initial-board{game.board}"] = game.result

    with count_writes() as writes:
        assert client.post(manage_url(season, "results", 2), form).status_code == 302

    assert (writes.transactions, writes.recomputes, writes.signals) == (0, 0, [])
