"""Read paths of the bridge ladder: a season's pools, challenges and IMPs in a fixed handful of
queries, as plain data for the engine (rankings) and the manager pages."""

from collections import defaultdict
from decimal import Decimal

from competitions.models import Round, Season

from .ladder import LadderData, RoundData
from .models import Challenge, ChallengeScore, PoolMember, StartElo
from .settings import parse_settings


def ladder_rounds(season: Season) -> list[Round]:
    """The season's rounds (a ladder's rounds belong to the season, not to a tournament)."""
    return list(Round.objects.filter(season=season, tournament=None).order_by("number"))


def ladder_data(season: Season, *, from_round: int = 1) -> LadderData:
    """Everything the ladder engine needs of a season: five queries, whatever its size.
    `from_round`: only the rounds from that number on (an incremental recompute).

    Pools are counted from the top in their stored order, members in their stored order. A
    round without any pool member (left so in the admin) takes the pools the moves give."""
    later = {"round__number__gte": from_round} if from_round > 1 else {}
    rounds = list(
        Round.objects.filter(season=season, tournament=None, number__gte=from_round)
        .order_by("number")
        .values_list("id", "number")
    )
    members = (
        PoolMember.objects.filter(round__season=season, round__tournament=None, **later)
        .order_by("round_id", "pool__number", "position", "id")
        .values_list("round_id", "pool__number", "player__key", "reason")
    )
    pools: dict[int, dict[int, list[str]]] = defaultdict(dict)
    reasons: dict[int, dict[str, str]] = defaultdict(dict)
    for round_id, pool, key, reason in members:
        pools[round_id].setdefault(pool, []).append(key)
        if reason:
            reasons[round_id][key] = reason
    counts: dict[int, int] = defaultdict(int)
    for round_id, number in Challenge.objects.filter(
        round__season=season, round__tournament=None, **later
    ).values_list("round_id", "number"):
        counts[round_id] = max(counts[round_id], number)
    imps: dict[int, dict[int, dict[str, Decimal]]] = defaultdict(lambda: defaultdict(dict))
    scores = ChallengeScore.objects.filter(
        challenge__round__season=season, challenge__round__tournament=None
    )
    if from_round > 1:
        scores = scores.filter(challenge__round__number__gte=from_round)
    for round_id, number, key, value in scores.values_list(
        "challenge__round_id", "challenge__number", "player__key", "imps"
    ):
        imps[round_id][number][key] = value
    start_elo = dict(
        StartElo.objects.filter(entry__season=season).values_list("entry__player__key", "start_elo")
    )
    data_rounds = []
    for i, (round_id, number) in enumerate(rounds):
        stored = [pools[round_id][n] for n in sorted(pools[round_id])]
        data_rounds.append(
            RoundData(
                number=number,
                pools=stored if stored or (i == 0 and from_round == 1) else None,
                challenges=[dict(imps[round_id][c]) for c in range(1, counts[round_id] + 1)],
                reasons=reasons[round_id],
            )
        )
    return LadderData(
        settings=parse_settings(season.settings), start_elo=start_elo, rounds=data_rounds
    )
