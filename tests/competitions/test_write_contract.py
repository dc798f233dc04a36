"""One write contract (architecture.md): a manager's action on a page of many results is one
service call, one transaction and one scoped `results_changed`, so one recompute; and only the
rows the manager changed from what the form showed are written.

Each test posts a multi-result form of one system the way the page sends it, outside a test
transaction, and counts with tests.helpers.count_writes.
"""

import re
from html import unescape

import pytest
from django.test import Client

from competitions.models import Game, Round
from competitions.systems.boardgame.models import Table
from competitions.systems.boardgame.services import table_fingerprint
from competitions.systems.bridge.models import ChallengeScore, Pool
from competitions.systems.bridge.system import round_scope
from competitions.text import plain_number
from competitions.views import manage_url
from rankings.imports import import_competition
from tests.bridge_files import big_ladder
from tests.chess_files import chess_file
from tests.helpers import count_writes, recompute_afresh, stored
from tests.keizer_data import generated_file
from tests.othello_files import gp_file

pytestmark = pytest.mark.django_db(transaction=True)

FLIP = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0", "+-": "-+", "-+": "+-"}


def manager_of(season, django_user_model) -> Client:
    user = django_user_model.objects.create_user("writer", password="pw-writer-1")
    season.series.managers.add(user)
    client = Client()
    client.force_login(user)
    return client


# --- Keizer: the results grid of an evening ---


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


# --- chess: the results of a group's round ---


def test_chess_round_saves_its_results_in_one_transaction_and_one_recompute(django_user_model):
    season = import_competition(chess_file())
    client = manager_of(season, django_user_model)
    round_ = Round.objects.get(group__name="Gruppe A", number=1)
    games = list(round_.games.order_by("board"))
    form = {"save_results": "1"}
    for game in games:
        form[f"result_{game.pk}"] = FLIP[game.result]
        form[f"initial-result_{game.pk}"] = game.result
    url = manage_url(season, "round", "klyve", round_.group_id, 1)

    with count_writes() as writes:
        assert client.post(url, form).status_code == 302

    assert (writes.transactions, writes.recomputes) == (1, 1)
    assert writes.signals == [(frozenset({season.pk}), f"t:{round_.tournament_id}")]
    assert [g.result for g in round_.games.order_by("board")] == [FLIP[g.result] for g in games]
    season.refresh_from_db()
    assert season.standings_version == season.data_version


def test_chess_round_leaves_a_game_the_manager_did_not_change(django_user_model):
    season = import_competition(chess_file())
    client = manager_of(season, django_user_model)
    round_ = Round.objects.get(group__name="Gruppe A", number=1)
    first, second = round_.games.order_by("board")
    form = {
        "save_results": "1",
        f"result_{first.pk}": first.result,
        f"initial-result_{first.pk}": first.result,
        f"result_{second.pk}": "0-1",
        f"initial-result_{second.pk}": second.result,
    }
    Game.objects.filter(pk=first.pk).update(result="0-1")  # someone else, meanwhile

    with count_writes() as writes:
        url = manage_url(season, "round", "klyve", round_.group_id, 1)
        assert client.post(url, form).status_code == 302

    assert (Game.objects.get(pk=first.pk).result, Game.objects.get(pk=second.pk).result) == (
        "0-1",
        "0-1",
    )
    assert (writes.transactions, writes.recomputes) == (1, 1)


# --- bridge: the IMP grid of a pool ---


def test_bridge_pool_saves_its_imps_in_one_transaction_and_one_recompute(django_user_model):
    season = import_competition(big_ladder(2, 2, series="grid"))
    client = manager_of(season, django_user_model)
    pool = Pool.objects.get(round__season=season, round__number=2, number=1)
    stored = {
        (s.player_id, s.challenge.number): s.imps
        for s in ChallengeScore.objects.filter(challenge__round=pool.round).select_related(
            "challenge"
        )
    }
    form = {"stay": "1"}
    changes = 0
    for member in pool.members.all():
        for c in (1, 2, 3):
            shown = stored.get((member.player_id, c))
            text = "" if shown is None else plain_number(shown)
            form[f"imps_{member.player_id}_{c}"] = text
            form[f"initial-imps_{member.player_id}_{c}"] = text
            if c == 1:  # every player's first challenge changes: new, corrected or cleared
                form[f"imps_{member.player_id}_{c}"] = str((shown or 0) + 7)
                changes += 1
    assert changes >= 4

    with count_writes() as writes:
        response = client.post(manage_url(season, "pool", 2, 1), form)

    assert response.status_code == 302
    assert (writes.transactions, writes.recomputes) == (1, 1)
    assert writes.signals == [(frozenset({season.pk}), round_scope(2))]
    season.refresh_from_db()
    assert season.standings_version == season.data_version


def test_bridge_pool_leaves_a_cell_the_manager_did_not_change(django_user_model):
    season = import_competition(big_ladder(2, 2, series="grid"))
    client = manager_of(season, django_user_model)
    pool = Pool.objects.get(round__season=season, round__number=2, number=1)
    first, second = list(pool.members.order_by("position"))[:2]
    form = {"stay": "1"}
    for member in pool.members.all():
        for c in (1, 2, 3):
            score = ChallengeScore.objects.filter(
                challenge__round=pool.round, challenge__number=c, player=member.player
            ).first()
            text = "" if score is None else plain_number(score.imps)
            form[f"imps_{member.player_id}_{c}"] = form[f"initial-imps_{member.player_id}_{c}"] = (
                text
            )
    form[f"imps_{second.player_id}_1"] = "11"
    # Meanwhile another manager enters first's challenge 1 as 9.
    ChallengeScore.objects.update_or_create(
        challenge=pool.round.challenges.get(number=1), player=first.player, defaults={"imps": 9}
    )

    with count_writes() as writes:
        assert client.post(manage_url(season, "pool", 2, 1), form).status_code == 302

    scores = ChallengeScore.objects.filter(challenge__round=pool.round, challenge__number=1)
    assert scores.get(player=first.player).imps == 9
    assert scores.get(player=second.player).imps == 11
    assert (writes.transactions, writes.recomputes) == (1, 1)


# --- board games: a table's result ---


def test_boardgame_table_correction_is_one_transaction_and_one_recompute(
    django_user_model, circuit_file
):
    season = import_competition(circuit_file)
    client = manager_of(season, django_user_model)
    table = Table.objects.get(round__tournament__key="t1", round__number=1)
    form = {
        "game": "Catan",
        "loaded": table_fingerprint(table),
        "player_1": "p4",
        "player_2": "p3",
        "player_3": "p2",
        "player_4": "p1",
    }  # the order reversed: four ranks change

    with count_writes() as writes:
        response = client.post(manage_url(season, "table_edit", "t1", 1, table.pk), form)

    assert response.status_code == 302
    assert (writes.transactions, writes.recomputes) == (1, 1)
    assert writes.signals == [(frozenset({season.pk}), f"t:{table.round.tournament_id}")]
    ranks = dict(table.seats.values_list("player__key", "rank"))
    assert ranks == {"p4": 1, "p3": 2, "p2": 3, "p1": 4}
    season.refresh_from_db()
    assert season.standings_version == season.data_version


# --- Othello GP: a tournament's final standings ---


def test_othello_standings_are_one_transaction_and_one_recompute(django_user_model):
    season = import_competition(gp_file())
    client = manager_of(season, django_user_model)
    tournament = season.tournaments.get(key="t2")
    shown = "1; p2; SE; N1990\n2; p1; SE; N1855.5\n3; p3; SE; F1910"
    typed = "1; p1; SE; N1990\n2; p2; SE; N1855.5\n3; p3; SE; F1910\n4; p4; SE; N1500"

    with count_writes() as writes:
        response = client.post(
            manage_url(season, "tournament", "t2"),
            {"form": "typed", "text": typed, "initial-text": shown},
        )

    assert response.status_code == 302
    assert (writes.transactions, writes.recomputes) == (1, 1)
    assert writes.signals == [(frozenset({season.pk}), f"t:{tournament.pk}")]
    places = dict(tournament.placements.values_list("player__key", "place"))
    assert places == {"p1": 1, "p2": 2, "p3": 3, "p4": 4}
    season.refresh_from_db()
    assert season.standings_version == season.data_version


def test_boardgame_first_table_of_a_round_with_a_new_player_updates_as_a_full_recompute(
    django_user_model, circuit_file
):
    """The table's one scope (its tournament) reaches all it wrote: the round it opened and
    the new player it added give the standings a full recompute gives."""
    season = import_competition(circuit_file)
    client = manager_of(season, django_user_model)
    form = {"game": "Azul", "player_1": "p5", "player_2": "Nieuwe Speler", "new_2": "on"}
    form["player_3"], form["rank_3"] = "p1", "1"

    with count_writes() as writes:
        response = client.post(manage_url(season, "round", "t2", 2), form)

    assert response.status_code == 302
    assert (writes.transactions, writes.recomputes) == (1, 1)
    updated = stored(season)
    assert recompute_afresh(season) == updated


def test_othello_standings_leave_a_line_the_manager_did_not_change(django_user_model):
    """p3's rating was corrected meanwhile; the manager sends p3's line back as shown and
    swaps p1 and p2: p3 keeps the correction."""
    season = import_competition(gp_file())
    client = manager_of(season, django_user_model)
    tournament = season.tournaments.get(key="t2")
    shown = "1; p2; SE; N1990\n2; p1; SE; N1855.5\n3; p3; SE; F1910"
    typed = "1; p1; SE; N1855.5\n2; p2; SE; N1990\n3; p3; SE; F1910"
    tournament.placements.filter(player__key="p3").update(ffo=1920)  # meanwhile

    with count_writes() as writes:
        response = client.post(
            manage_url(season, "tournament", "t2"),
            {"form": "typed", "text": typed, "initial-text": shown},
        )

    assert response.status_code == 302
    assert (writes.transactions, writes.recomputes) == (1, 1)
    lines = {p.player.key: (p.place, p.ffo, p.nordic) for p in tournament.placements.all()}
    assert lines == {"p1": (1, None, 1855.5), "p2": (2, None, 1990), "p3": (3, 1920, None)}


# --- each page sends back what it showed ---


def shown_copies(html: str) -> dict[str, str]:
    """The hidden copies of what a page showed, by field name."""
    return {
        name: unescape(value)
        for name, value in re.findall(
            r'<input type="hidden" name="initial-([^"]+)" value="([^"]*)"', html
        )
    }


def test_the_pages_send_back_what_they_showed(django_user_model, circuit_file):
    keizer = import_competition(generated_file(20, 4, series="grid"))
    client = manager_of(keizer, django_user_model)
    html = client.get(manage_url(keizer, "results", 2)).content.decode()
    games = Game.objects.filter(round__season=keizer, round__number=2)
    assert shown_copies(html) == {f"board{g.board}": g.result for g in games}

    chess = import_competition(chess_file())
    chess.series.managers.add(*keizer.series.managers.all())
    round_ = Round.objects.get(group__name="Gruppe A", number=1)
    html = client.get(manage_url(chess, "round", "klyve", round_.group_id, 1)).content.decode()
    assert shown_copies(html) == {f"result_{g.pk}": g.result for g in round_.games.all()}

    bridge = import_competition(big_ladder(2, 2, series="ladder"))
    bridge.series.managers.add(*keizer.series.managers.all())
    html = client.get(manage_url(bridge, "pool", 2, 1)).content.decode()
    pool = Pool.objects.get(round__season=bridge, round__number=2, number=1)
    stored = {
        f"imps_{s.player_id}_{s.challenge.number}": plain_number(s.imps)
        for s in ChallengeScore.objects.filter(challenge__round=pool.round).select_related(
            "challenge"
        )
    }
    copies = shown_copies(html)
    assert len(copies) == 3 * pool.members.count()
    assert {k: v for k, v in copies.items() if v} == {
        k: v for k, v in stored.items() if k in copies
    }

    gp = import_competition(gp_file())
    gp.series.managers.add(*keizer.series.managers.all())
    html = client.get(manage_url(gp, "tournament", "t2")).content.decode()
    assert shown_copies(html)["text"].splitlines() == [
        "1; Björn Sandberg (p2); SE; N1990",
        "2; Anna Lindqvist (p1); SE; N1855.5",
        "3; Julien Lefèvre (p3); SE; F1910",
    ]
