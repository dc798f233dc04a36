"""The bridge-ladder section of the competition file (interchange.md).

    "pools": [["p1", "p2", "p3", "p4", "p5"], ["p6", ...]],   // pools of the first round
    "start_elo": {"p11": 1310},                                // optional, default the setting
    "rounds": [{"number": 1, "challenges": [{"imps": {"p1": 12, "p2": -3.5}}, {"imps": {}}]}]

A player missing from `imps` did not play that challenge. A round from the second on takes the
pools that promotion and relegation of the round before give, unless it gives `"pools"` itself
(a manual move, late joiners, leavers). Clubsite's optional addition, exported too: a round may
give `"reasons": {"p3": "..."}`, the kept reason why a player is where he is in that round.
"""

import math
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from competitions.interchange import (
    A_LIST,
    AN_OBJECT,
    TEXT,
    FileError,
    ReadContext,
    expect,
    field_of,
    join,
    season_players,
    whole,
)
from competitions.models import Round, Season, SeasonPlayer

from . import ladder
from .ladder import LadderData, RoundData
from .models import Challenge, ChallengeScore, Pool, PoolMember, StartElo
from .selectors import ladder_data
from .settings import ELO_MAX, LadderSettings, parse_settings

# A replacing import writes only what differs (competitions.sync).
SYNC = True

IMPS_LIMIT = Decimal(10) ** 8  # ChallengeScore.imps: 10 digits, 2 of them decimals
REASON_MAX_LENGTH = PoolMember._meta.get_field("reason").max_length


def _decimal(value: Any, path: str, places: int, limit: Decimal, what: str) -> Decimal:
    """A JSON number as the exact decimal it reads as (12.5 is 12.5), with at most `places`
    decimals and below `limit` in size."""
    expect(value, (int, float), path, what)
    if isinstance(value, float) and not math.isfinite(value):
        raise FileError(path, _("expected a finite number"))
    try:
        number = Decimal(repr(value))
    except InvalidOperation:  # pragma: no cover - repr of an int or a finite float parses
        raise FileError(path, _("expected a number")) from None
    if abs(number) >= limit:
        raise FileError(path, _("must be below %(limit)s in size") % {"limit": limit})
    if number != number.quantize(Decimal(1).scaleb(-places)):
        raise FileError(path, _("at most %(n)s decimals") % {"n": places})
    return number


def imps_of(value: Any, path: str) -> Decimal:
    return _decimal(value, path, 2, IMPS_LIMIT, _("IMPs (a number)"))


def _read_pools(raw: Any, path: str, ctx: ReadContext, settings: LadderSettings) -> list[list[str]]:
    expect(raw, list, path, _("a list of pools (lists of player ids)"))
    seen: dict[str, str] = {}
    pools = []
    for k, pool in enumerate(raw):
        ppath = join(path, k)
        expect(pool, list, ppath, _("a list of player ids"))
        if not pool:
            raise FileError(ppath, _("a pool needs at least one player"))
        if len(pool) > settings.pool_size:
            raise FileError(
                ppath,
                _("%(n)s players, but a pool has at most %(max)s (pool_size)")
                % {"n": len(pool), "max": settings.pool_size},
            )
        keys = []
        for i, value in enumerate(pool):
            player = ctx.player(value, join(ppath, i))
            if player.key in seen:
                raise FileError(
                    join(ppath, i),
                    _("%(player)s is in %(where)s already")
                    % {"player": player.key, "where": seen[player.key]},
                )
            seen[player.key] = ppath
            keys.append(player.key)
        pools.append(keys)
    return pools


def _read_start_elo(data: dict, ctx: ReadContext) -> dict[str, Decimal]:
    raw = field_of(
        data, "start_elo", "", dict, _("an object of player ids and ratings"), required=False
    )
    result = {}
    for key, value in (raw or {}).items():
        path = join("start_elo", key)
        player = ctx.player(key, path)
        rating = _decimal(value, path, 4, Decimal(ELO_MAX + 1), _("a rating (a number)"))
        if rating < 0:
            raise FileError(path, _("must be at least 0"))
        result[player.key] = rating
    return result


def _read_reasons(raw: dict, path: str, ctx: ReadContext) -> dict[str, str]:
    reasons = field_of(
        raw, "reasons", path, dict, _("an object of player ids and texts"), required=False
    )
    result = {}
    for key, text in (reasons or {}).items():
        rpath = join(join(path, "reasons"), key)
        player = ctx.player(key, rpath)
        expect(text, str, rpath, TEXT)
        if len(text) > REASON_MAX_LENGTH:
            raise FileError(rpath, _("longer than %(n)s characters") % {"n": REASON_MAX_LENGTH})
        if text.strip():
            result[player.key] = text.strip()
    return result


def _read_challenges(raw: dict, path: str, ctx: ReadContext, limit: int) -> list[dict]:
    challenges = field_of(raw, "challenges", path, list, A_LIST, required=False, default=[])
    if len(challenges) > limit:
        raise FileError(
            join(path, "challenges"),
            _("%(n)s challenges, but a round has at most %(max)s (challenges_per_round)")
            % {"n": len(challenges), "max": limit},
        )
    result = []
    for c, challenge in enumerate(challenges):
        cpath = join(join(path, "challenges"), c)
        expect(challenge, dict, cpath, AN_OBJECT)
        imps = field_of(challenge, "imps", cpath, dict, _("an object of player ids and IMPs"))
        scores = {}
        for key, value in imps.items():
            ipath = join(join(cpath, "imps"), key)
            scores[ctx.player(key, ipath).key] = imps_of(value, ipath)
        result.append(scores)
    return result


def read(data: dict, ctx: ReadContext) -> None:
    season = ctx.season
    settings = parse_settings(season.settings)
    first = None
    if "pools" in data:
        first = _read_pools(data["pools"], "pools", ctx, settings)
    start_elo = _read_start_elo(data, ctx)
    rounds = field_of(data, "rounds", "", list, A_LIST, required=False, default=[])
    if rounds and not first:
        raise FileError("pools", _("missing: the pools of the first round"))
    parsed: list[RoundData] = []
    for i, raw in enumerate(rounds):
        path = f"rounds[{i}]"
        expect(raw, dict, path, AN_OBJECT)
        number = whole(raw, "number", path)
        if number != i + 1:
            raise FileError(
                join(path, "number"),
                _("expected %(n)s: rounds are numbered 1, 2, 3, ... in file order") % {"n": i + 1},
            )
        pools = None
        if "pools" in raw:
            pools = _read_pools(raw["pools"], join(path, "pools"), ctx, settings)
            if i == 0 and pools != first:
                raise FileError(
                    join(path, "pools"),
                    _("the first round's pools are the file's \"pools\"; leave them out here"),
                )
        parsed.append(
            RoundData(
                number=number,
                pools=first if i == 0 else pools,
                challenges=_read_challenges(raw, path, ctx, settings.challenges_per_round),
                reasons=_read_reasons(raw, path, ctx),
            )
        )
    state = ladder.state(LadderData(settings=settings, start_elo=start_elo, rounds=parsed))
    _check_members(parsed, state.pools)
    _store(ctx, parsed, state.pools, start_elo)


def _check_members(rounds: list[RoundData], pools: list[list[list[str]]]) -> None:
    """IMPs and reasons only for players in a pool of their round."""
    for i, (round_data, round_pools) in enumerate(zip(rounds, pools, strict=True)):
        members = {key for pool in round_pools for key in pool}
        path = f"rounds[{i}]"
        for c, imps in enumerate(round_data.challenges):
            for key in imps:
                if key not in members:
                    raise FileError(
                        join(join(join(join(path, "challenges"), c), "imps"), key),
                        _("%(player)s is not in a pool of round %(n)s")
                        % {"player": key, "n": round_data.number},
                    )
        for key in round_data.reasons:
            if key not in members:
                raise FileError(
                    join(join(path, "reasons"), key),
                    _("%(player)s is not in a pool of round %(n)s")
                    % {"player": key, "n": round_data.number},
                )


def _store(
    ctx: ReadContext,
    rounds: list[RoundData],
    pools: list[list[list[str]]],
    start_elo: dict[str, Decimal],
) -> None:
    """Write the rows through the import's writer (competitions.sync): in bulk, and when the
    import replaces a stored season, only what differs from it (matched by round number, pool
    number, challenge number and player)."""
    season = ctx.season
    sync = ctx.sync
    replacing = ctx.replacing
    stored_rounds = sync.rows(
        Round,
        [Round(season=season, number=r.number) for r in rounds],
        existing=Round.objects.filter(season=season, tournament=None) if replacing else None,
        key=lambda r: r.number,
        fields=[],
    )
    pool_rows = sync.rows(
        Pool,
        [
            Pool(round=round_, number=k + 1)
            for round_, round_pools in zip(stored_rounds, pools, strict=True)
            for k in range(len(round_pools))
        ],
        existing=Pool.objects.filter(round__season=season, round__tournament=None).select_related(
            "round"
        )
        if replacing
        else None,
        key=lambda p: (p.round.number, p.number),
        fields=[],
    )
    by_round_pool = {(p.round.number, p.number): p for p in pool_rows}
    sync.rows(
        PoolMember,
        [
            PoolMember(
                pool=by_round_pool[(round_.number, k + 1)],
                round=round_,
                player=ctx.players[key],
                position=position,
                reason=data.reasons.get(key, ""),
            )
            for round_, data, round_pools in zip(stored_rounds, rounds, pools, strict=True)
            for k, pool in enumerate(round_pools)
            for position, key in enumerate(pool)
        ],
        existing=PoolMember.objects.filter(
            round__season=season, round__tournament=None
        ).select_related("round", "player")
        if replacing
        else None,
        key=lambda m: (m.round.number, m.player.key),
        fields=["pool_id", "position", "reason"],
    )
    challenges = sync.rows(
        Challenge,
        [
            Challenge(round=round_, number=c + 1)
            for round_, data in zip(stored_rounds, rounds, strict=True)
            for c in range(len(data.challenges))
        ],
        existing=Challenge.objects.filter(
            round__season=season, round__tournament=None
        ).select_related("round")
        if replacing
        else None,
        key=lambda c: (c.round.number, c.number),
        fields=[],
    )
    by_round_number = {(ch.round.number, ch.number): ch for ch in challenges}
    sync.rows(
        ChallengeScore,
        [
            ChallengeScore(
                challenge=by_round_number[(round_.number, c + 1)],
                player=ctx.players[key],
                imps=value,
            )
            for round_, data in zip(stored_rounds, rounds, strict=True)
            for c, imps in enumerate(data.challenges)
            for key, value in imps.items()
        ],
        existing=ChallengeScore.objects.filter(
            challenge__round__season=season, challenge__round__tournament=None
        ).select_related("challenge__round", "player")
        if replacing
        else None,
        key=lambda s: (s.challenge.round.number, s.challenge.number, s.player.key),
        fields=["imps"],
    )
    entries = SeasonPlayer.objects.filter(season=season, player__key__in=start_elo)
    sync.rows(
        StartElo,
        [
            StartElo(entry=entry, start_elo=start_elo[entry.player.key])
            for entry in entries.select_related("player")
        ],
        existing=StartElo.objects.filter(entry__season=season).select_related("entry__player")
        if replacing
        else None,
        key=lambda row: row.entry.player.key,
        fields=["start_elo"],
    )


def json_number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def write(season: Season) -> dict:
    data = ladder_data(season)
    state = ladder.state(data)
    in_pools = {key for round_pools in state.pools for pool in round_pools for key in pool}
    start_elo = {
        key: json_number(value)
        for key, value in StartElo.objects.filter(entry__season=season)
        .order_by("entry__position", "entry_id")
        .values_list("entry__player__key", "start_elo")
    }
    rounds = []
    for i, (round_data, played, follows) in enumerate(
        zip(data.rounds, state.pools, state.follows, strict=True)
    ):
        entry: dict[str, Any] = {"number": round_data.number}
        if i > 0 and (played != follows or round_data.reasons):
            entry["pools"] = played
        if round_data.reasons:
            entry["reasons"] = dict(round_data.reasons)
        order = [key for pool in played for key in pool]
        entry["challenges"] = [
            {"imps": {key: json_number(imps[key]) for key in _in_order(imps, order)}}
            for imps in round_data.challenges
        ]
        rounds.append(entry)
    body: dict[str, Any] = {
        "players": season_players(season, Q(series_id=season.series_id, key__in=in_pools))
    }
    body["pools"] = state.pools[0] if state.pools else []
    if start_elo:
        body["start_elo"] = start_elo
    body["rounds"] = rounds
    return body


def _in_order(imps: dict, order: list[str]) -> list[str]:
    """The keys of `imps` in ladder order; any others (not in a pool) after them, by key."""
    known = set(order)
    return [k for k in order if k in imps] + sorted(k for k in imps if k not in known)
