"""The bridge pool ladder at federation scale: one season of 40 pools of 5 (200 players) over
20 rounds of 3 challenges, a few no-shows per challenge."""

import random

from common import bulk_common, shared_manage_pages, shared_pages
from django.db import transaction

from competitions.models import Round
from competitions.systems.bridge.models import Challenge, ChallengeScore, Pool, PoolMember
from rankings.urls_helpers import season_url

NAME = "bridge"
SYSTEM = "bridge-ladder"


def season_file(series: str, label: str, pools: int, rounds: int, *, seed: int) -> dict:
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(5 * pools)]
    first = [players[i : i + 5] for i in range(0, len(players), 5)]
    return {
        "format": "competition/1",
        "system": SYSTEM,
        "series": series,
        "season": label,
        "name": f"BBO ladder {label}",
        "clubs": [{"id": f"c{i}", "name": f"Club {i}"} for i in range(6)],
        "players": [
            {"id": p, "name": f"Player {p}", "club": f"c{i % 6}"} for i, p in enumerate(players)
        ],
        "pools": first,
        "rounds": [
            {
                "number": number,
                "challenges": [
                    {
                        "imps": {
                            p: rng.randint(-3000, 3000) / 100
                            for p in players
                            if rng.random() > 0.05
                        }
                    }
                    for _ in range(3)
                ],
            }
            for number in range(1, rounds + 1)
        ],
    }


def federation(quick: bool) -> list[dict]:
    pools, rounds = (6, 4) if quick else (40, 20)
    return [season_file("bench-ladder", "2026", pools, rounds, seed=1)]


def describe(season) -> str:
    rounds = Round.objects.filter(season=season).count()
    members = PoolMember.objects.filter(round__season=season).count()
    scores = ChallengeScore.objects.filter(challenge__round__season=season).count()
    return f"{rounds} rounds, {members:,} pool places, {scores:,} IMP scores"


def bare_load(season) -> list:
    """What the recompute reads: pool members and IMP scores of every round, with no ORDER BY
    (the models' default orderings left out: the floor reads in no order)."""
    members = list(
        PoolMember.objects.filter(round__season=season)
        .order_by()
        .values_list("round_id", "pool__number", "player__key", "reason")
    )
    scores = list(
        ChallengeScore.objects.filter(challenge__round__season=season)
        .order_by()
        .values_list("challenge__round_id", "challenge__number", "player__key", "imps")
    )
    return members + scores


# The change the envelope guards (the round being played; issue 44).
GUARDED_CHANGES = ("one_change",)


def changes(seasons) -> list:
    """A change in the round being played (the weekly case: a manager enters or corrects the
    IMPs of the current round) and one in the middle of the season (Elo is sequential: it
    reaches that round and all later ones)."""
    return [("one_change", (seasons[-1], "last")), ("one_change_mid_season", (seasons[-1], "mid"))]


def change(target):
    """Change one player's IMPs of a challenge, as the manager's pool form saves them
    (competitions.systems.bridge.services.pool_scores_save); again changes it back."""
    from competitions.edits import Edit
    from competitions.systems.bridge.services import pool_scores_save

    season, where = target if isinstance(target, tuple) else (target, "last")
    rounds = list(Round.objects.filter(season=season).order_by("number"))
    chosen = rounds[-1] if where == "last" else rounds[len(rounds) // 2]
    pool = Pool.objects.get(round=chosen, number=max(1, chosen.pools.count() // 2))
    score = (
        ChallengeScore.objects.filter(challenge__round=chosen, challenge__number=2)
        .filter(player__pool_entries__pool=pool)
        .order_by("player__key")
        .first()
    )
    key = (score.player_id, 2)
    original = score.imps

    def swap():
        current = ChallengeScore.objects.get(pk=score.pk).imps
        with transaction.atomic():
            pool_scores_save(
                pool=pool,
                rows=[Edit.sent(key, original + 1 if current == original else original)],
                challenges=3,
            )

    return swap


_POOLS: dict[tuple, list] = {}


def _pools(data: dict) -> list:
    """The pools of every round, as the import stores them (computed once per file)."""
    from competitions.systems.bridge import ladder
    from competitions.systems.bridge.interchange import imps_of
    from competitions.systems.bridge.ladder import LadderData, RoundData
    from competitions.systems.bridge.settings import parse_settings

    key = (data["season"], len(data["players"]), len(data["rounds"]))
    if key not in _POOLS:
        rounds = [
            RoundData(
                number=r["number"],
                pools=data["pools"] if i == 0 else None,
                challenges=[
                    {p: imps_of(v, "") for p, v in c["imps"].items()} for c in r["challenges"]
                ],
            )
            for i, r in enumerate(data["rounds"])
        ]
        state = ladder.state(LadderData(settings=parse_settings({}), start_elo={}, rounds=rounds))
        _POOLS[key] = state.pools
    return _POOLS[key]


def bulk_insert(data: dict, slug: str) -> None:
    from decimal import Decimal

    pools = _pools(data)
    base = bulk_common(data, series_slug=slug)
    season = base.season
    rounds = Round.objects.bulk_create(
        Round(season=season, number=r["number"]) for r in data["rounds"]
    )
    pool_rows = Pool.objects.bulk_create(
        Pool(round=round_, number=k + 1)
        for round_, round_pools in zip(rounds, pools, strict=True)
        for k in range(len(round_pools))
    )
    by_pool = {(p.round_id, p.number): p for p in pool_rows}
    PoolMember.objects.bulk_create(
        (
            PoolMember(
                pool=by_pool[(round_.pk, k + 1)],
                round=round_,
                player=base.players[key],
                position=position,
            )
            for round_, round_pools in zip(rounds, pools, strict=True)
            for k, pool in enumerate(round_pools)
            for position, key in enumerate(pool)
        ),
        batch_size=5000,
    )
    challenges = Challenge.objects.bulk_create(
        Challenge(round=round_, number=c + 1)
        for round_, r in zip(rounds, data["rounds"], strict=True)
        for c in range(len(r["challenges"]))
    )
    by_challenge = {(c.round_id, c.number): c for c in challenges}
    ChallengeScore.objects.bulk_create(
        (
            ChallengeScore(
                challenge=by_challenge[(round_.pk, c + 1)],
                player=base.players[key],
                imps=Decimal(repr(value)),
            )
            for round_, r in zip(rounds, data["rounds"], strict=True)
            for c, challenge in enumerate(r["challenges"])
            for key, value in challenge["imps"].items()
        ),
        batch_size=5000,
    )


def field(players: int) -> dict:
    pools = max(1, players // 5)
    return season_file(f"bench-ladder-{players}", "2026", pools, 3, seed=players)


def pages(season) -> list:
    from rankings.models import StandingsTable

    last = (
        StandingsTable.objects.filter(season=season, kind="round")
        .order_by("-position")
        .values_list("position", flat=True)
        .first()
    )
    return [
        ("round", season_url(season, "round", 1)),
        ("pool", season_url(season, "pool", last, 1)),
        ("elo", season_url(season, "elo")),
    ] + shared_pages(season, "p1")


def manage_pages(season) -> list:
    """The latest round (its pools and what is entered), one pool's IMP entry, and the next
    round's pools (what promotion and relegation give)."""
    from competitions.views import manage_url

    last = Round.objects.filter(season=season).order_by("-number").first()
    return [
        ("round", manage_url(season, "round", last.number)),
        ("pool", manage_url(season, "pool", last.number, 1)),
        ("next_round", manage_url(season, "next_round")),
    ] + shared_manage_pages(season)


def rps_page(season) -> str:
    return season_url(season, "elo")
