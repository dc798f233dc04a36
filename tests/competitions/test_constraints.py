"""What the database itself refuses, whichever path writes (admin, import, shell): checked on
the real database of the run (PostgreSQL in CI, SQLite's triggers otherwise)."""

import pytest
from django.db import IntegrityError, connection, transaction

from competitions.models import Game, Group, Player, Round, RoundEntry, Season, Series, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    series = Series.objects.create(slug="club", name="Club", system="keizer")
    season = Season.objects.create(series=series, label="2025", name="Club 2025")
    players = [Player.objects.create(series=series, key=k, name=k.upper()) for k in "abcd"]
    round_ = Round.objects.create(season=season, number=1)
    return season, players, round_


def play(round_, white, black, board=1) -> Game:
    game = Game.objects.create(round=round_, board=board)
    RoundEntry.objects.create(
        round=round_, player=white, status="played", game=game, colour="white"
    )
    RoundEntry.objects.create(
        round=round_, player=black, status="played", game=game, colour="black"
    )
    return game


def refused(make) -> None:
    """The write fails, at once or when the transaction checks its deferred constraints."""
    with pytest.raises(IntegrityError), transaction.atomic():
        make()
        connection.check_constraints()


def test_a_player_cannot_play_two_games_of_one_round_in_either_colour(club):
    _season, (a, b, c, d), round_ = club
    play(round_, a, b)
    refused(lambda: play(round_, c, a, board=2))  # black in the second, white in the first
    refused(lambda: play(round_, b, d, board=2))


def test_a_player_cannot_have_a_game_and_a_bye_in_one_round(club):
    _season, (a, b, c, _d), round_ = club
    play(round_, a, b)
    refused(lambda: RoundEntry.objects.create(round=round_, player=a, status="bye"))
    RoundEntry.objects.create(round=round_, player=c, status="bye")
    refused(lambda: play(round_, c, _d, board=2))


def test_a_game_has_one_player_per_colour_and_only_players_who_played_have_one(club):
    _season, (a, b, c, _d), round_ = club
    game = play(round_, a, b)
    refused(
        lambda: RoundEntry.objects.create(
            round=round_, player=c, status="played", game=game, colour="white"
        )
    )
    refused(lambda: RoundEntry.objects.create(round=round_, player=c, status="played"))
    refused(lambda: RoundEntry.objects.create(round=round_, player=c, status="bye", game=game))


def test_an_entry_belongs_to_the_round_of_its_game(club):
    season, (_a, _b, c, d), round_ = club
    game = play(round_, _a, _b)
    other = Round.objects.create(season=season, number=2)
    refused(
        lambda: RoundEntry.objects.create(
            round=other, player=c, status="played", game=game, colour="white"
        )
    )


def test_a_round_agrees_with_its_tournament_and_group():
    series = Series.objects.create(slug="bgp", name="BGP", system="chess-bgp")
    spring, autumn = (
        Season.objects.create(series=series, label=label, name=label) for label in ("S", "A")
    )
    open_ = Tournament.objects.create(season=spring, key="open", name="Open")
    other = Tournament.objects.create(season=spring, key="other", name="Other")
    group = Group.objects.create(tournament=open_, name="A")
    refused(lambda: Round.objects.create(season=autumn, tournament=open_, number=1))
    refused(lambda: Round.objects.create(season=spring, tournament=other, group=group, number=1))
    refused(lambda: Round.objects.create(season=spring, group=group, number=1))  # no tournament
    ok = Round.objects.create(season=spring, tournament=open_, group=group, number=1)
    # Moving the tournament to another season moves its rounds along.
    Tournament.objects.filter(pk=open_.pk).update(season=autumn)
    ok.refresh_from_db()
    assert ok.season_id == autumn.pk
