"""The keizer section of the competition file (interchange.md).

Beside interchange.md's fields a file may carry, and an export writes where they apply:
a game's `"manual": true` (a pair set by hand), a round's `"volunteer"` (the player who offered to
sit out), and games without `result` in the last round (paired, not played yet). Players'
`start_points` are written only where they were set (else they are the value of the place).
keizer-variants.md §5.7: a player's `"withdrawn": true`, a round's `long_absent` list and its
`external_results` (player id -> "1", "1/2" or "0", for players in its `external` list), each
written only where set.
"""

import math
from decimal import Decimal
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from competitions.interchange import (
    A_LIST,
    AN_OBJECT,
    TRUE_OR_FALSE,
    FileError,
    ReadContext,
    date_of,
    expect,
    field_of,
    join,
    season_entries,
    whole,
)
from competitions.models import Game, Player, Round, RoundEntry, Season, SeasonPlayer
from competitions.sync import ModelChanges

from .models import ExternalResult, StartPoints, Withdrawal

# A replacing import writes only what differs (competitions.sync).
SYNC = True

RESULTS = tuple(Game.Result.values)
START_POINTS_MAX = 10**7
LISTS = ("bye", "absent", "long_absent", "external", "unexcused")
STATUS_OF_LIST = {
    "bye": RoundEntry.Status.BYE,
    "absent": RoundEntry.Status.ABSENT,
    "long_absent": RoundEntry.Status.LONG_ABSENT,
    "external": RoundEntry.Status.EXTERNAL,
    "unexcused": RoundEntry.Status.UNEXCUSED,
}
LIST_OF_STATUS = {
    RoundEntry.Status.BYE: "bye",
    RoundEntry.Status.WALKOVER: "bye",  # not made by Keizer pages; a win without playing
    RoundEntry.Status.ABSENT: "absent",
    RoundEntry.Status.LONG_ABSENT: "long_absent",
    RoundEntry.Status.EXTERNAL: "external",
    RoundEntry.Status.UNEXCUSED: "unexcused",
}


def _start_points(value: Any, path: str) -> Decimal:
    expect(value, (int, float), path, _("a number"))
    if not math.isfinite(value) or abs(value) >= START_POINTS_MAX:
        raise FileError(path, _("expected a number below %(max)s") % {"max": START_POINTS_MAX})
    number = Decimal(str(value))
    if number.as_tuple().exponent < -4:
        raise FileError(path, _("at most 4 decimals"))
    return number


def _read_start_points(data: dict, ctx: ReadContext) -> None:
    """The start points the file sets, a row each, written where they differ from the stored
    ones (replacing: a stored row the file no longer sets goes)."""
    points: dict[str, Decimal] = {}
    for i, raw in enumerate(data["players"]):
        if "start_points" not in raw or raw["start_points"] is None:
            continue
        points[raw["id"]] = _start_points(raw["start_points"], f"players[{i}].start_points")
    entries = ctx.season.entries.select_related("player").filter(player__key__in=list(points))
    ctx.sync.rows(
        StartPoints,
        [StartPoints(entry=e, start_points=points[e.player.key]) for e in entries],
        existing=StartPoints.objects.filter(entry__season=ctx.season).select_related(
            "entry__player"
        )
        if ctx.replacing
        else None,
        key=lambda row: row.entry.player.key,
        fields=["start_points"],
        name=str(_("start points")),
    )


def _read_withdrawn(data: dict, ctx: ReadContext) -> None:
    """The players the file marks `withdrawn` (keizer-variants.md §2.8), a row each
    (replacing: a stored row the file no longer sets goes)."""
    keys = set()
    for i, raw in enumerate(data["players"]):
        path = f"players[{i}]"
        if field_of(raw, "withdrawn", path, bool, TRUE_OR_FALSE, required=False, default=False):
            keys.add(raw["id"])
    entries = ctx.season.entries.select_related("player").filter(player__key__in=list(keys))
    ctx.sync.rows(
        Withdrawal,
        [Withdrawal(entry=e) for e in entries],
        existing=Withdrawal.objects.filter(entry__season=ctx.season).select_related("entry__player")
        if ctx.replacing
        else None,
        key=lambda row: row.entry.player.key,
        fields=[],
        name=str(_("withdrawals")),
    )


EXTERNAL_RESULTS = tuple(ExternalResult.Result.values)


def _player_list(raw: dict, key: str, path: str, ctx: ReadContext) -> list[Player]:
    values = field_of(raw, key, path, list, _("a list of player ids"), required=False, default=[])
    return [ctx.player(value, join(join(path, key), i)) for i, value in enumerate(values)]


class _Round:
    """One round of the file, checked: who did what, each player once."""

    def __init__(self, raw: Any, path: str, ctx: ReadContext, *, number: int) -> None:
        expect(raw, dict, path, AN_OBJECT)
        self.path = path
        self.number = whole(raw, "number", path)
        if self.number != number:
            raise FileError(
                join(path, "number"),
                _("expected round %(n)s: rounds are numbered 1, 2, 3, ... in order")
                % {"n": number},
            )
        self.date = date_of(raw, "date", path)
        self.seen: dict[str, str] = {}
        self.games: list[tuple[Player, Player, str, bool]] = []
        games = field_of(raw, "games", path, list, A_LIST, required=False, default=[])
        for g, game in enumerate(games):
            gpath = join(join(path, "games"), g)
            expect(game, dict, gpath, AN_OBJECT)
            white = self._once(
                ctx.player(game.get("white"), join(gpath, "white")), join(gpath, "white")
            )
            black = self._once(
                ctx.player(game.get("black"), join(gpath, "black")), join(gpath, "black")
            )
            result = field_of(game, "result", gpath, str, _("a result"), required=False, default="")
            if result and result not in RESULTS:
                raise FileError(
                    join(gpath, "result"),
                    _("unknown result %(value)r; expected one of %(results)s")
                    % {"value": result, "results": ", ".join(RESULTS)},
                )
            manual = field_of(
                game, "manual", gpath, bool, TRUE_OR_FALSE, required=False, default=False
            )
            self.games.append((white, black, result, manual))
        self.lists: dict[str, list[Player]] = {}
        for key in LISTS:
            players = _player_list(raw, key, path, ctx)
            for i, player in enumerate(players):
                self._once(player, join(join(path, key), i))
            self.lists[key] = players
        self.external_results: dict[str, str] = {}
        raw_results = field_of(
            raw, "external_results", path, dict, AN_OBJECT, required=False, default={}
        )
        external = {p.key for p in self.lists["external"]}
        for key, value in raw_results.items():
            rpath = join(join(path, "external_results"), key)
            player = ctx.player(key, rpath)
            if player.key not in external:
                raise FileError(
                    rpath,
                    _("%(player)s has an external result but is not in this round's external")
                    % {"player": player.key},
                )
            if value not in EXTERNAL_RESULTS:
                raise FileError(
                    rpath,
                    _("unknown external result %(value)r; expected one of %(results)s")
                    % {"value": value, "results": ", ".join(EXTERNAL_RESULTS)},
                )
            self.external_results[player.key] = value
        paired = {p.key for w, b, _r, _m in self.games for p in (w, b)} | {
            p.key for p in self.lists["bye"]
        }
        present = _player_list(raw, "present", path, ctx)
        self.waiting: list[Player] = []
        keys = set()
        for i, player in enumerate(present):
            ppath = join(join(path, "present"), i)
            if player.key in keys:
                raise FileError(ppath, _("%(player)s is listed twice") % {"player": player.key})
            keys.add(player.key)
            if player.key in paired:
                continue
            if paired:
                raise FileError(
                    ppath,
                    _("%(player)s is present but neither plays nor has the bye in this round")
                    % {"player": player.key},
                )
            self._once(player, ppath)
            self.waiting.append(player)
        if present and paired - keys:
            missing = sorted(paired - keys)[0]
            raise FileError(
                join(path, "present"),
                _("%(player)s plays or has the bye but is not listed as present")
                % {"player": missing},
            )
        self.volunteer = None
        if "volunteer" in raw and raw["volunteer"] is not None:
            volunteer = ctx.player(raw["volunteer"], join(path, "volunteer"))
            if volunteer.key not in keys and volunteer.key not in paired:
                raise FileError(
                    join(path, "volunteer"),
                    _("the volunteer for the bye %(player)s is not present")
                    % {"player": volunteer.key},
                )
            self.volunteer = volunteer

    def _once(self, player: Player, path: str) -> Player:
        """A player does one thing in a round (the database refuses two entries too)."""
        if player.key in self.seen:
            raise FileError(
                path,
                _("%(player)s appears twice in round %(n)s (also at %(other)s)")
                % {"player": player.key, "n": self.number, "other": self.seen[player.key]},
            )
        self.seen[player.key] = path
        return player

    @property
    def empty(self) -> bool:
        return not (self.games or self.waiting or any(self.lists.values()))

    @property
    def unfinished(self) -> bool:
        return bool(self.waiting) or any(not result for _w, _b, result, _m in self.games)


def _check_date_order(rounds: list[_Round]) -> None:
    """Evenings are in date order; two may share a date, one without a date is not compared
    (as the attendance page, competitions.systems.keizer.services.check_date_order)."""
    last: _Round | None = None
    for found in rounds:
        if found.date is None:
            continue
        if last is not None and found.date < last.date:
            raise FileError(
                join(found.path, "date"),
                _(
                    "evening %(n)s is dated %(date)s, before evening %(other)s (%(other_date)s): "
                    "evenings are in date order (two may share a date)"
                )
                % {
                    "n": found.number,
                    "date": found.date.isoformat(),
                    "other": last.number,
                    "other_date": last.date.isoformat(),
                },
            )
        last = found


def read(data: dict, ctx: ReadContext) -> None:
    season = ctx.season
    _read_start_points(data, ctx)
    _read_withdrawn(data, ctx)
    raw_rounds = field_of(data, "rounds", "", list, A_LIST, required=False, default=[])
    rounds = [_Round(raw, f"rounds[{i}]", ctx, number=i + 1) for i, raw in enumerate(raw_rounds)]
    _check_date_order(rounds)
    for found in rounds[:-1]:
        if found.empty:
            raise FileError(
                found.path, _("an evening without games or attendance can only be the last one")
            )
        if found.waiting:
            raise FileError(
                join(found.path, "present"),
                _("only the last round may wait for its pairing (present, no games)"),
            )
        for g, (_w, _b, result, _m) in enumerate(found.games):
            if not result:
                raise FileError(
                    join(join(join(found.path, "games"), g), "result"),
                    _("missing; only the last round may have games without a result"),
                )
    closed = field_of(data, "closed", "", bool, TRUE_OR_FALSE, required=False, default=False)
    if closed and rounds and rounds[-1].unfinished:
        raise FileError("closed", _("a season cannot be closed while its last round is unfinished"))
    if season.closed != closed:
        season.closed = closed
        season.save(update_fields=["closed"])
        if ctx.replacing:
            ctx.sync.changes.append(ModelChanges(name=str(_("season")), changed=[str(_("closed"))]))
    _store_rounds(rounds, ctx)


def _store_rounds(rounds: list[_Round], ctx: ReadContext) -> None:
    """The evenings, their games and round entries: created in bulk, or, replacing a stored
    season, matched by evening number (a game by its board, an entry by its player) and
    written where they differ (competitions.sync)."""
    season = ctx.season
    replacing = ctx.replacing
    made = [Round(season=season, number=found.number, date=found.date) for found in rounds]
    ctx.sync.rows(
        Round,
        made,
        existing=Round.objects.filter(season=season, tournament=None, group=None)
        if replacing
        else None,
        key=lambda r: r.number,
        fields=["date"],
    )
    games: list[Game] = []
    planned: list[tuple[Game, Player, Player]] = []
    entries: list[RoundEntry] = []
    for round_, found in zip(made, rounds, strict=True):
        for board, (white, black, result, manual) in enumerate(found.games, start=1):
            game = Game(round=round_, board=board, result=result, manual=manual)
            games.append(game)
            planned.append((game, white, black))
        volunteer = found.volunteer.key if found.volunteer else None
        for key, players in found.lists.items():
            entries.extend(
                RoundEntry(
                    round=round_,
                    player=p,
                    status=STATUS_OF_LIST[key],
                    volunteer_bye=p.key == volunteer,
                )
                for p in players
            )
        entries.extend(
            RoundEntry(
                round=round_,
                player=p,
                status=RoundEntry.Status.PRESENT,
                volunteer_bye=p.key == volunteer,
            )
            for p in found.waiting
        )
    ctx.sync.rows(
        Game,
        games,
        existing=Game.objects.filter(round__season=season, round__tournament=None)
        .select_related("round")
        .order_by()
        if replacing
        else None,
        key=lambda g: (g.round.number, g.board),
        fields=["result", "manual"],
    )
    for game, white, black in planned:
        entries.extend(RoundEntry.played(game.round, white, black, game))
    existing = None
    if replacing:
        existing = list(
            RoundEntry.objects.filter(round__season=season, round__tournament=None)
            .select_related("round", "player")
            .order_by()
        )
        # A player per colour of a game (a constraint checked at each statement): the stored
        # entries whose game or colour changes, or that go, leave their game first.
        wanted = {(e.round.number, e.player.key): (e.game_id, e.colour) for e in entries}
        leaving = [
            e.pk
            for e in existing
            if e.game_id is not None
            and wanted.get((e.round.number, e.player.key)) != (e.game_id, e.colour)
        ]
        if leaving:
            RoundEntry.objects.filter(pk__in=leaving).update(
                status=RoundEntry.Status.ABSENT, game=None, colour=""
            )
    ctx.sync.rows(
        RoundEntry,
        entries,
        existing=existing,
        key=lambda e: (e.round.number, e.player.key),
        fields=["status", "game_id", "colour", "volunteer_bye"],
    )
    _store_external_results(rounds, ctx)


def _store_external_results(rounds: list[_Round], ctx: ReadContext) -> None:
    """keizer-variants.md §2.5: the results of external games, a row per round entry."""
    wanted = {
        (found.number, key): value
        for found in rounds
        for key, value in found.external_results.items()
    }
    entries = []
    if wanted:
        entries = list(
            RoundEntry.objects.filter(
                round__season=ctx.season,
                round__tournament=None,
                round__group=None,
                status=RoundEntry.Status.EXTERNAL,
            ).select_related("round", "player")
        )
    ctx.sync.rows(
        ExternalResult,
        [
            ExternalResult(entry=e, result=wanted[(e.round.number, e.player.key)])
            for e in entries
            if (e.round.number, e.player.key) in wanted
        ],
        existing=ExternalResult.objects.filter(entry__round__season=ctx.season).select_related(
            "entry__round", "entry__player"
        )
        if ctx.replacing
        else None,
        key=lambda row: (row.entry.round.number, row.entry.player.key),
        fields=["result"],
        name=str(_("external results")),
    )


def season_players(season: Season) -> list[SeasonPlayer]:
    """The season's entries in list order, and after them (by key) anyone with a round entry but
    no season entry (e.g. added in the admin), as unsaved entries without start points."""
    entries, others = season_entries(season, Q(round_entries__round__season=season))
    last = entries[-1].position if entries else 0
    return entries + [
        SeasonPlayer(season=season, player=p, position=last + i + 1, club=p.club)
        for i, p in enumerate(others)
    ]


def _json_number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def write(season: Season) -> dict:
    entries = season_players(season)
    starts = dict(
        StartPoints.objects.filter(entry__season=season).values_list(
            "entry__player__key", "start_points"
        )
    )
    withdrawn = set(
        Withdrawal.objects.filter(entry__season=season).values_list("entry__player__key", flat=True)
    )
    order = {e.player.key: i for i, e in enumerate(entries)}
    rounds: dict[int, dict[str, Any]] = {}
    for round_ in season.rounds.filter(tournament=None, group=None).order_by("number"):
        rounds[round_.pk] = {
            "number": round_.number,
            "date": round_.date.isoformat() if round_.date else None,
            "games": {},
            "lists": {key: [] for key in LISTS},
            "present": [],
            "volunteer": None,
            "external_results": {},
        }
    found = (
        RoundEntry.objects.filter(round__season=season, round__tournament=None, round__group=None)
        .select_related("game")
        .values_list(
            "round_id", "player__key", "status", "game_id", "game__board", "game__result",
            "game__manual", "colour", "volunteer_bye", "keizer_external__result",
        )
    )  # fmt: skip
    for round_id, key, status, game_id, board, result, manual, colour, volunteer, ext in found:
        info = rounds[round_id]
        if ext:
            info["external_results"][key] = ext
        if volunteer:
            info["volunteer"] = key
        if status == RoundEntry.Status.PLAYED:
            game = info["games"].setdefault(game_id, {"board": board, "id": game_id})
            game[colour] = key
            game["result"], game["manual"] = result, manual
            info["present"].append(key)
        elif status == RoundEntry.Status.PRESENT:
            info["present"].append(key)
        else:
            listed = LIST_OF_STATUS[status]
            info["lists"][listed].append(key)
            if listed == "bye":
                info["present"].append(key)

    def by_list(keys: list[str]) -> list[str]:
        return sorted(keys, key=lambda k: (order.get(k, len(order)), k))

    out_rounds = []
    for info in rounds.values():
        games = []
        for game in sorted(info["games"].values(), key=lambda g: (g["board"], g["id"])):
            item = {"white": game.get("white"), "black": game.get("black")}
            if game["result"]:
                item["result"] = game["result"]
            if game["manual"]:
                item["manual"] = True
            games.append(item)
        out = {"number": info["number"], "date": info["date"], "games": games}
        out.update(
            {
                key: by_list(keys)
                for key, keys in info["lists"].items()
                if keys or key != "long_absent"  # written only where set
            }
        )
        if info["external_results"]:
            out["external_results"] = {
                k: info["external_results"][k] for k in by_list(list(info["external_results"]))
            }
        out["present"] = by_list(info["present"])
        if info["volunteer"]:
            out["volunteer"] = info["volunteer"]
        out_rounds.append(out)
    return {
        "players": [e.player for e in entries],
        "player_fields": {
            key: {
                **({"start_points": _json_number(starts[key])} if key in starts else {}),
                **({"withdrawn": True} if key in withdrawn else {}),
            }
            for key in set(starts) | withdrawn
        },
        "rounds": out_rounds,
        "closed": season.closed,
    }
