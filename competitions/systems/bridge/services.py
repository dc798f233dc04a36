"""Write paths of the bridge ladder: set-up, IMP entry, manual moves, the next round. One
transaction each, validated, keyword-only arguments."""

import hashlib
import json
from collections.abc import Collection, Sequence
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from competitions import services as shared_services
from competitions.edits import Edit, changed, refuse_stale
from competitions.models import Player, Round, Season, SeasonPlayer
from competitions.signals import bulk_write, results_changed

from . import ladder
from .forms import Entry
from .models import Challenge, ChallengeScore, Pool, PoolMember, StartElo
from .selectors import ladder_data, ladder_rounds
from .settings import parse_settings
from .system import round_scope

PoolLists = list[list[str]]


def _lock(season: Season) -> None:
    """The season's row lock: two set-ups or two next-round starts wait for each other."""
    Season.objects.select_for_update().filter(pk=season.pk).first()


def _changed(season: Season) -> None:
    results_changed.send(sender=Season, season_ids={season.pk})


def _players_of(season: Season, entries: Sequence[Entry]) -> list[tuple[Player, Decimal | None]]:
    """The entries' players, new ones created in the series."""
    result = []
    for entry in entries:
        player = entry.player or shared_services.player_create(
            series=season.series, name=entry.new_name, club=None, namesake_ok=False
        )
        result.append((player, entry.start_elo))
    return result


def _enter(season: Season, players: Sequence[tuple[Player, Decimal | None]]) -> None:
    """Season entries for the players, with the start Elo given for them."""
    shared_services.season_entries_ensure(season=season, players=[p for p, _elo in players])
    wanted = {p.pk: elo for p, elo in players if elo is not None}
    if wanted:
        entries = list(SeasonPlayer.objects.filter(season=season, player_id__in=wanted))
        player_of = {entry.pk: entry.player_id for entry in entries}
        stored = {s.entry_id: s for s in StartElo.objects.filter(entry__in=entries)}
        for start in stored.values():
            start.start_elo = wanted[player_of[start.entry_id]]
        bulk_update_with_history(list(stored.values()), StartElo, ["start_elo"])
        bulk_create_with_history(
            [
                StartElo(entry=entry, start_elo=wanted[entry.player_id])
                for entry in entries
                if entry.pk not in stored
            ],
            StartElo,
        )


def _create_round(
    season: Season,
    number: int,
    pools: Sequence[Sequence[Player]],
    reasons: dict[int, str] | None = None,
) -> Round:
    """A round with its pools and members, and its challenges (all empty)."""
    settings = parse_settings(season.settings)
    round_ = Round.objects.create(season=season, number=number)
    stored = bulk_create_with_history(
        [Pool(round=round_, number=k + 1) for k in range(len(pools))], Pool
    )
    reasons = reasons or {}
    bulk_create_with_history(
        [
            PoolMember(
                pool=pool,
                round=round_,
                player=player,
                position=position,
                reason=reasons.get(player.pk, ""),
            )
            for pool, members in zip(stored, pools, strict=True)
            for position, player in enumerate(members)
        ],
        PoolMember,
    )
    bulk_create_with_history(
        [Challenge(round=round_, number=c) for c in range(1, settings.challenges_per_round + 1)],
        Challenge,
    )
    return round_


def ladder_setup(*, season: Season, pools: Sequence[Sequence[Entry]]) -> Round:
    """The ladder's first round: its players in pools, top first, and their start Elo."""
    settings = parse_settings(season.settings)
    if not pools or not all(pools):
        raise ValidationError(_("List at least one player."))
    for k, pool in enumerate(pools, 1):
        if len(pool) > settings.pool_size:
            raise ValidationError(
                _("Pool %(n)s has %(count)s players; at most %(max)s.")
                % {"n": k, "count": len(pool), "max": settings.pool_size}
            )
    try:
        with transaction.atomic(), bulk_write():
            _lock(season)
            if ladder_rounds(season):
                raise ValidationError(_("The ladder of this season is set up already."))
            players = [_players_of(season, pool) for pool in pools]
            _enter(season, [entry for pool in players for entry in pool])
            round_ = _create_round(season, 1, [[p for p, _elo in pool] for pool in players])
            _changed(season)
    except IntegrityError as exc:  # another manager set it up at the same moment
        raise ValidationError(_("The ladder of this season is set up already.")) from exc
    return round_


def pool_scores_save(
    *,
    pool: Pool,
    rows: Sequence[Edit[tuple[int, int], Decimal | None]],
    challenges: int,
) -> int:
    """The IMPs of a pool's players per challenge: per (player id, challenge number), the IMPs
    the form showed and those sent (None: "did not play"). Only the cells the manager changed
    are written, in one transaction with one recompute of this round and the later ones. A cell
    someone else changed since the form showed it refuses the whole save
    (competitions.edits.refuse_stale). Returns the number of cells changed."""
    members = set(pool.members.values_list("player_id", flat=True))
    for edit in rows:
        player_id, number = edit.key
        if player_id not in members:
            raise ValidationError(_("A score for a player who is not in this pool."))
        if not 1 <= number <= challenges:
            raise ValidationError(
                _("A round of this season has challenges 1 to %(n)s.") % {"n": challenges}
            )
    edits = changed(rows)
    if not edits:
        return 0
    try:
        return _scores_save(pool, members, edits)
    except IntegrityError as exc:  # another manager saved the same cells at the same moment
        raise ValidationError(
            _(
                "Somebody else changed this pool meanwhile; nothing was saved. Please check "
                "and try again."
            )
        ) from exc


def _scores_save(pool: Pool, members: set[int], edits: list[Edit]) -> int:
    round_, scores = pool.round, {edit.key: edit.new for edit in edits}
    changed = 0
    with transaction.atomic(), bulk_write():
        # Every save of the pool's cells locks the pool first: a cell not stored yet has no
        # row to lock, and two saves of it wait for each other here.
        Pool.objects.select_for_update().filter(pk=pool.pk).first()
        by_number: dict[int, Challenge] | None = None  # read at the first new score only
        current = {
            (s.player_id, s.challenge.number): s
            for s in ChallengeScore.objects.filter(
                challenge__round=round_, player_id__in=members
            ).select_related("challenge")
        }
        names = dict(pool.members.values_list("player_id", "player__name"))
        refuse_stale(
            edits,
            lambda key: current[key].imps if key in current else None,
            label=lambda key: (
                _("%(player)s, challenge %(n)s") % {"player": names.get(key[0], "?"), "n": key[1]}
            ),
            records=lambda key: ChallengeScore.history.filter(
                challenge__round=round_, challenge__number=key[1], player_id=key[0]
            ).select_related("history_user")[:1],
        )
        for (player_id, number), imps in sorted(scores.items()):
            stored = current.get((player_id, number))
            if imps is None:
                if stored is not None:
                    stored.delete()
                    changed += 1
                continue
            if stored is None:
                if by_number is None:
                    by_number = {c.number: c for c in round_.challenges.all()}
                challenge = by_number.get(number)
                if challenge is None:
                    challenge = by_number[number] = Challenge.objects.create(
                        round=round_, number=number
                    )
                ChallengeScore.objects.create(challenge=challenge, player_id=player_id, imps=imps)
                changed += 1
            elif stored.imps != imps:
                stored.imps = imps
                stored.save(update_fields=["imps"])
                changed += 1
        if changed:
            # Only this round and the later ones (and the Elo ranking) need computing again.
            results_changed.send(
                sender=Season, season_ids={round_.season_id}, scope=round_scope(round_.number)
            )
    return changed


def challenge_upload(
    *, pool: Pool, number: int, rows: Sequence[tuple[Player, Decimal]], challenges: int
) -> int:
    """A challenge's result for one pool, from a file: the players listed get their IMPs, the
    pool's other players did not play it."""
    members = dict(pool.members.values_list("player_id", "player__name"))
    outside = [p.name for p, _imps in rows if p.pk not in members]
    if outside:
        raise ValidationError(
            _("Not in pool %(pool)s of this round: %(names)s.")
            % {"pool": pool.number, "names": ", ".join(outside)}
        )
    given = {p.pk: imps for p, imps in rows}
    return pool_scores_save(
        pool=pool,
        rows=[Edit.sent((player_id, number), given.get(player_id)) for player_id in members],
        challenges=challenges,
    )


def members_swap(*, first: PoolMember, second: PoolMember, reason: str) -> None:
    """A manual move (rules.md §5: "an administrator can still move players by hand, with a
    reason that is kept"): two players of different pools change places; pool sizes stay."""
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Give the reason for the move; it is kept.")})
    if first.round_id != second.round_id or first.pool_id == second.pool_id:
        raise ValidationError(_("Pick two players of different pools of the same round."))
    with transaction.atomic():
        first.pool_id, second.pool_id = second.pool_id, first.pool_id
        first.position, second.position = second.position, first.position
        first.reason = second.reason = reason
        for member in (first, second):
            member.save(update_fields=["pool", "position", "reason", "round"])


# --- the next round -----------------------------------------------------------------------------


def fingerprint(pools: PoolLists) -> str:
    """A short digest of pools, to tell whether what a manager saw is still what would be made."""
    return hashlib.sha256(json.dumps(pools).encode()).hexdigest()[:16]


def next_round_plan(
    *,
    season: Season,
    leaving: Collection[str] = (),
    joining: Sequence[str] = (),
    moved: PoolLists | None = None,
) -> tuple[int, PoolLists, PoolLists]:
    """The next round's number, the pools that promotion and relegation give, and those pools
    with the leavers' places filled from below and the joiners at the bottom (player keys).

    `moved`: the pools the moves of the last round give, when the caller has them (the page
    that shows them reads them from the stored standings when those are of the current
    results); else the engine computes them over the whole season. Starting the round computes
    them with the engine, and refuses to start when they differ from those shown
    (`next_round_start`'s `expected`)."""
    if moved is not None:
        last = (
            Round.objects.filter(season=season, tournament=None)
            .order_by("-number")
            .values_list("number", flat=True)
            .first()
        )
        if last is None:
            raise ValidationError(_("Set up the ladder first."))
        pool_size = parse_settings(season.settings).pool_size
    else:
        data = ladder_data(season)
        if not data.rounds:
            raise ValidationError(_("Set up the ladder first."))
        moved = ladder.state(data).next_pools
        last, pool_size = data.rounds[-1].number, data.settings.pool_size
    pools = ladder.reshape(moved, leaving=leaving, joining=joining, pool_size=pool_size)
    return last + 1, moved, pools


def _reasons(
    moved: PoolLists, pools: PoolLists, leavers: list[str], joiners: set[str]
) -> dict[str, str]:
    """Why a player is not where promotion and relegation put him: joiner, or filling a
    leaver's place."""
    where = {key: k for k, pool in enumerate(moved) for key in pool}
    reasons = {}
    for k, pool in enumerate(pools):
        for key in pool:
            if key in joiners:
                reasons[key] = _("Joined the ladder.")
            elif where.get(key) != k:
                reasons[key] = _("Moved up a pool to fill the place of %(names)s, who left.") % {
                    "names": ", ".join(leavers)
                }
    return reasons


def next_round_start(
    *,
    season: Season,
    number: int,
    leaving: Collection[str] = (),
    joining: Sequence[Entry] = (),
    expected: str = "",
) -> Round | None:
    """Start round `number` with the pools the moves of the round before give (rules.md §5),
    leavers' places filled from below and joiners at the bottom.

    Idempotent: when round `number` exists already (pressed twice, or two managers at once)
    nothing changes and None is returned. Two starts at once wait for each other on the
    season's row lock; the database's "one round number per season" backs that up. With
    `expected` (the fingerprint of the moves a manager was shown) the start is refused when the
    results changed meanwhile."""
    try:
        with transaction.atomic(), bulk_write():
            _lock(season)
            rounds = ladder_rounds(season)
            if not rounds:
                raise ValidationError(_("Set up the ladder first."))
            if rounds[-1].number >= number:
                return None
            if number != rounds[-1].number + 1:
                raise ValidationError(
                    _("The next round is round %(n)s.") % {"n": rounds[-1].number + 1}
                )
            joiners = _players_of(season, joining)
            keys = [p.key for p, _elo in joiners]
            _number, moved, pools = next_round_plan(season=season, leaving=leaving, joining=keys)
            if expected and fingerprint(moved) != expected:
                raise ValidationError(
                    _(
                        "The results changed since these pools were shown. Check the new "
                        "pools and start the round again."
                    )
                )
            if not pools:
                raise ValidationError(_("Nobody is left on the ladder."))
            _enter(season, joiners)
            players = {
                p.key: p
                for p in Player.objects.filter(
                    series_id=season.series_id, key__in=[k for pool in pools for k in pool]
                )
            }
            names = dict(
                Player.objects.filter(series_id=season.series_id, key__in=leaving).values_list(
                    "key", "name"
                )
            )
            reasons = _reasons(moved, pools, [names.get(k, k) for k in leaving], set(keys))
            round_ = _create_round(
                season,
                number,
                [[players[k] for k in pool] for pool in pools],
                {players[k].pk: text for k, text in reasons.items()},
            )
            _changed(season)
    except IntegrityError:
        # Round `number` was created by a start that did not wait for the lock: it stands.
        if Round.objects.filter(season=season, tournament=None, number=number).exists():
            return None
        raise
    return round_
