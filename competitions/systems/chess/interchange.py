"""The chess-bgp section of the competition file (interchange.md).

A tournament has groups; a group has its players (with class, birth year and, optionally, a
rating; their order is the start-number order, before round 1 only with `"start_numbers":
"organiser"`, start_numbers.py) and its rounds, each a list of games and
walkovers. A game without `result` has been paired but not played yet (the next round of a group
in progress). A player's birth year is `Player.born`: a file that gives one player two different
years is refused at the second one.

The rows are written in bulk once the whole section is read (competitions.sync); an import that
replaces a season writes only what differs (`SYNC`).
"""

from typing import Any

from django.db.models import F, Q
from django.utils.translation import gettext as _
from simple_history.utils import bulk_update_with_history

from competitions.interchange import (
    A_LIST,
    AN_OBJECT,
    SLUG_RE,
    TEXT,
    TRUE_OR_FALSE,
    FileError,
    ReadContext,
    date_of,
    expect,
    field_of,
    join,
    not_reserved,
    season_players,
    text,
    whole,
)
from competitions.models import Game, Group, Player, Round, RoundEntry, Season, Tournament
from competitions.registry import get_system
from competitions.sync import delete_with_history

from .models import RATING_MAX, GroupPlayer
from .settings import COUNTY, DENSE, GROUP_OPTIONS, OWN_FORMAT, OWN_TIEBREAKS
from .start_numbers import FILE_VALUES, START_NUMBERS, by_rating

# The round entries without a game: a walkover (a win) and a requested half-point bye.
UNPLAYED = {"walkover": RoundEntry.Status.WALKOVER, "half_bye": RoundEntry.Status.BYE}

RESULTS = [choice.value for choice in Game.Result]
SCALES = [choice.value for choice in Group.Scale]
BORN_MIN, BORN_MAX = 1900, 2100
CLASS_MAX_LENGTH = 50

# A replacing import writes only what differs (competitions.sync).
SYNC = True


class _Reader:
    def __init__(self, ctx: ReadContext) -> None:
        self.ctx = ctx
        self.season = ctx.season
        self.born: dict[str, tuple[int, str]] = {}  # player key -> (year, path that gave it)
        self.tournaments: list[Tournament] = []
        self.seeded: set[str] = set()  # tournaments whose file gives the draw seed
        self.groups: list[Group] = []
        self.members: list[GroupPlayer] = []
        self.placed: dict[str, str] = {}  # player key -> group name, in one tournament
        self.rounds: list[Round] = []
        self.games: list[tuple[Game, list[RoundEntry]]] = []
        self.entries: list[RoundEntry] = []

    def read(self, data: dict) -> None:
        # Tournament and player ids go into URLs (the public pages and the player page).
        for i, raw in enumerate(data.get("players", [])):
            if "/" in raw["id"]:
                raise FileError(f"players[{i}].id", _("a player id may not hold /"))
        tournaments = field_of(data, "tournaments", "", list, A_LIST, required=False, default=[])
        keys: set[str] = set()
        for i, raw in enumerate(tournaments):
            self.tournament(raw, f"tournaments[{i}]", keys)
        self.store()

    def tournament(self, raw: Any, path: str, keys: set[str]) -> None:
        expect(raw, dict, path, AN_OBJECT)
        key = text(raw, "id", path, max_length=64)
        if not SLUG_RE.match(key):
            raise FileError(
                join(path, "id"), _("a tournament id may hold only letters, digits, - and _")
            )
        not_reserved(key, join(path, "id"))
        if key in keys:
            raise FileError(join(path, "id"), _("duplicate tournament id %(id)r") % {"id": key})
        keys.add(key)
        county = field_of(raw, COUNTY, path, bool, TRUE_OR_FALSE, required=False, default=False)
        options = {COUNTY: True} if county else {}
        if field_of(raw, DENSE, path, bool, TRUE_OR_FALSE, required=False, default=False):
            options[DENSE] = True
        own = field_of(raw, OWN_TIEBREAKS, path, str, TEXT, required=False, default="").strip()
        if own:
            options[OWN_TIEBREAKS] = own
        spec = get_system(self.season.system).tournament_options
        for field, message in spec.validate(options):
            raise FileError(join(path, field), message)
        fields: dict[str, Any] = {
            "season": self.season,
            "key": key,
            "name": text(raw, "name", path),
            "date": date_of(raw, "date", path),
            "options": options,
        }
        seed = whole(raw, "draw_seed", path, required=False, minimum=0, maximum=2**63 - 1)
        if seed is not None:
            fields["draw_seed"] = seed
            self.seeded.add(key)
        tournament = Tournament(**fields)
        self.tournaments.append(tournament)
        groups = field_of(raw, "groups", path, list, A_LIST, required=False, default=[])
        names: set[str] = set()
        # rules.md §3: a player plays in one group of a tournament (player key -> group name)
        self.placed: dict[str, str] = {}
        for g, raw_group in enumerate(groups):
            self.group(raw_group, join(join(path, "groups"), g), tournament, g, names)

    def group(
        self, raw: Any, path: str, tournament: Tournament, position: int, names: set[str]
    ) -> None:
        expect(raw, dict, path, AN_OBJECT)
        name = text(raw, "name", path, max_length=100)
        if name in names:
            raise FileError(join(path, "name"), _("duplicate group name %(name)r") % {"name": name})
        names.add(name)
        scale = field_of(
            raw, "scale", path, str, TEXT, required=False, default=Group.Scale.ONE_HALF_ZERO
        )
        if scale not in SCALES:
            raise FileError(
                join(path, "scale"),
                _("unknown scale %(value)r, expected one of %(values)s")
                % {"value": scale, "values": ", ".join(SCALES)},
            )
        # chess-othello-options.md §1.1: the group's own tie-break list and format
        options = {}
        for key, option in ((OWN_TIEBREAKS, OWN_TIEBREAKS), ("format", OWN_FORMAT)):
            value = field_of(raw, key, path, str, TEXT, required=False, default="").strip()
            if value:
                options[option] = value
        # start_numbers.py: "rating" (the default) or "organiser"
        order = field_of(raw, START_NUMBERS, path, str, TEXT, required=False, default="rating")
        if order not in FILE_VALUES:
            raise FileError(
                join(path, START_NUMBERS),
                _("unknown start numbers %(value)r, expected one of %(values)s")
                % {"value": order, "values": ", ".join(FILE_VALUES)},
            )
        if FILE_VALUES[order]:
            options[START_NUMBERS] = FILE_VALUES[order]
        for field, message in GROUP_OPTIONS.validate(options):
            raise FileError(join(path, field), message)
        group = Group(
            tournament=tournament, name=name, position=position, scale=scale, options=options
        )
        self.groups.append(group)
        players = field_of(raw, "players", path, list, A_LIST, required=False, default=[])
        members: set[str] = set()
        for p, raw_player in enumerate(players):
            self.member(raw_player, join(join(path, "players"), p), group, p + 1, members)
        rounds = field_of(raw, "rounds", path, list, A_LIST, required=False, default=[])
        for r, raw_round in enumerate(rounds):
            rpath = join(join(path, "rounds"), r)
            expect(raw_round, list, rpath, _("a list of games and walkovers"))
            round_ = Round(season=self.season, tournament=tournament, group=group, number=r + 1)
            self.rounds.append(round_)
            self.round(raw_round, rpath, round_, members)

    def member(self, raw: Any, path: str, group: Group, position: int, members: set[str]) -> None:
        expect(raw, dict, path, AN_OBJECT)
        player = self.ctx.player(raw.get("player"), join(path, "player"))
        if player.key in members:
            raise FileError(
                join(path, "player"),
                _("%(player)s is listed twice in this group") % {"player": player.key},
            )
        members.add(player.key)
        other = self.placed.setdefault(player.key, group.name)
        if other != group.name:
            raise FileError(
                join(path, "player"),
                _(
                    "%(player)s already plays in group %(other)s of tournament %(tournament)s; "
                    "a player plays in one group of a tournament, not in %(group)s as well"
                )
                % {
                    "player": player.key,
                    "other": other,
                    "tournament": group.tournament.key,
                    "group": group.name,
                },
            )
        player_class = text(
            raw, "class", path, required=False, default="", max_length=CLASS_MAX_LENGTH
        )
        born = whole(raw, "born", path, required=False, minimum=BORN_MIN, maximum=BORN_MAX)
        if born is not None:
            known = self.born.get(player.key)
            if known is not None and known[0] != born:
                raise FileError(
                    join(path, "born"),
                    _("%(player)s was born in %(year)s according to %(where)s")
                    % {"player": player.key, "year": known[0], "where": known[1]},
                )
            self.born[player.key] = (born, join(path, "born"))
        rating = whole(raw, "rating", path, required=False, minimum=0, maximum=RATING_MAX)
        beginner = field_of(
            raw, "beginner", path, bool, TRUE_OR_FALSE, required=False, default=False
        )
        self.members.append(
            GroupPlayer(
                group=group,
                tournament=group.tournament,
                player=player,
                position=position,
                player_class=player_class.strip(),
                rating=rating,
                beginner=beginner,
            )
        )

    def round(self, raw: list, path: str, round_: Round, members: set[str]) -> None:
        seen: dict[str, str] = {}

        def take(value: Any, where: str) -> Player:
            player = self.ctx.player(value, where)
            if player.key not in members:
                raise FileError(
                    where,
                    _("%(player)s is not a player of this group") % {"player": player.key},
                )
            if player.key in seen:
                raise FileError(
                    where,
                    _("%(player)s already plays at %(where)s in this round")
                    % {"player": player.key, "where": seen[player.key]},
                )
            seen[player.key] = where
            return player

        board = 0
        for e, entry in enumerate(raw):
            epath = join(path, e)
            expect(entry, dict, epath, AN_OBJECT)
            for kind, status in UNPLAYED.items():
                if kind in entry:
                    extra = sorted(set(entry) - {kind})
                    if extra:
                        raise FileError(
                            join(epath, extra[0]),
                            _("a walkover has only the player who gets it")
                            if kind == "walkover"
                            else _("a half-point bye has only the player who gets it"),
                        )
                    player = take(entry[kind], join(epath, kind))
                    self.entries.append(RoundEntry(round=round_, player=player, status=status))
                    break
            else:
                status = None
            if status is not None:
                continue
            white = take(entry.get("white"), join(epath, "white"))
            black = take(entry.get("black"), join(epath, "black"))
            result = field_of(entry, "result", epath, str, TEXT, required=False, default="")
            if result not in RESULTS and not ("result" not in entry and result == ""):
                raise FileError(
                    join(epath, "result"),
                    _("unknown result %(value)r, expected one of %(values)s")
                    % {"value": result, "values": ", ".join(RESULTS)},
                )
            board += 1
            game = Game(round=round_, board=board, result=result)
            self.games.append((game, RoundEntry.played(round_, white, black)))

    def store(self) -> None:
        """Write the rows in bulk, parents first (competitions.sync): when the import replaces
        the season, only what differs from the stored rows, matched by natural keys."""
        sync, season, replacing = self.ctx.sync, self.season, self.ctx.replacing

        def stored(queryset):
            return queryset if replacing else None

        if replacing:
            # A tournament the file gives no draw seed keeps its stored one.
            seeds = dict(Tournament.objects.filter(season=season).values_list("key", "draw_seed"))
            for t in self.tournaments:
                if t.key not in self.seeded and t.key in seeds:
                    t.draw_seed = seeds[t.key]
        sync.rows(
            Tournament,
            self.tournaments,
            existing=stored(Tournament.objects.filter(season=season)),
            key=lambda t: t.key,
            fields=["name", "date", "options", "draw_seed"],
        )
        for g in self.groups:
            g.tournament = g.tournament  # the tournament's pk, now known
        sync.rows(
            Group,
            self.groups,
            existing=stored(
                Group.objects.filter(tournament__season=season).select_related("tournament")
            ),
            key=lambda g: (g.tournament.key, g.name),
            fields=["position", "scale", "options"],
        )
        for m in self.members:
            m.group, m.tournament = m.group, m.tournament
        # Matched by tournament and player (a player is in one group of a tournament, and the
        # database refuses a second one): a player the file moves to another group of the
        # same tournament is updated, not added beside his stored row.
        sync.rows(
            GroupPlayer,
            self.members,
            existing=stored(
                GroupPlayer.objects.filter(tournament__season=season).select_related(
                    "tournament", "group", "player"
                )
            ),
            key=lambda m: (m.tournament.key, m.player.key),
            fields=["group", "position", "player_class", "rating", "beginner"],
            label=lambda m: f"{m.tournament.key} {m.group.name} {m.player.key}",
        )
        for r in self.rounds:
            r.tournament, r.group = r.tournament, r.group
        sync.rows(
            Round,
            self.rounds,
            existing=stored(
                Round.objects.filter(season=season, group__isnull=False).select_related(
                    "tournament", "group"
                )
            ),
            key=lambda r: (r.tournament.key, r.group.name, r.number),
            fields=[],
        )
        games = [g for g, _e in self.games]
        for g in games:
            g.round = g.round
        sync.rows(
            Game,
            games,
            existing=stored(
                Game.objects.filter(
                    round__season=season, round__group__isnull=False
                ).select_related("round__tournament", "round__group")
            ),
            key=lambda g: (g.round.tournament.key, g.round.group.name, g.round.number, g.board),
            fields=["result"],
        )
        entries = list(self.entries)
        for game, (_g, pair) in zip(games, self.games, strict=True):
            for entry in pair:
                entry.game = game
                entries.append(entry)
        # An entry is matched whole (round, player, status, board and colour): a changed one is
        # removed and added, the removed ones first (a player and a seat are unique in a round).
        kept = None
        if replacing:
            stored_entries = RoundEntry.objects.filter(
                round__season=season, round__group__isnull=False
            ).select_related("round__tournament", "round__group", "game")
            keys = {_entry_key(e) for e in entries}
            kept, gone = [], []
            for e in stored_entries:
                (kept if _entry_key(e) in keys else gone).append(e)
            delete_with_history(RoundEntry, gone)
        sync.rows(RoundEntry, entries, existing=kept, key=_entry_key, fields=[])
        if replacing and gone:
            sync.changes[-1].removed = [" ".join(str(k) for k in _entry_key(e)) for e in gone]
        # The file's players are new instances (the shared reader matched them to the stored
        # rows by key): compare with the stored year, so that a replace of the same file, or a
        # new season of players known already, writes no year (and no history row) again.
        stored = dict(
            Player.objects.filter(
                pk__in=[self.ctx.players[key].pk for key in self.born]
            ).values_list("pk", "born")
        )
        born = []
        for key, (year, _path) in self.born.items():
            player = self.ctx.players[key]
            player.born = stored.get(player.pk)
            if player.born != year:
                player.born = year
                born.append(player)
        if born:
            bulk_update_with_history(born, Player, ["born"], batch_size=2000)


def _entry_key(e: RoundEntry) -> tuple:
    return (
        e.round.tournament.key,
        e.round.group.name,
        e.round.number,
        e.player_id,
        e.status,
        e.game.board if e.game is not None else None,
        e.colour,
    )


def read(data: dict, ctx: ReadContext) -> None:
    _Reader(ctx).read(data)


def write(season: Season) -> dict:
    members: dict[int, list[dict]] = {}
    for gp in (
        GroupPlayer.objects.filter(group__tournament__season=season)
        .select_related("player")
        .order_by("group_id", "position", "player__key")
    ):
        row: dict[str, Any] = {"player": gp.player.key, "class": gp.player_class}
        if gp.player.born is not None:
            row["born"] = gp.player.born
        if gp.rating is not None:
            row["rating"] = gp.rating
        if gp.beginner:
            row["beginner"] = True
        members.setdefault(gp.group_id, []).append(row)
    rounds: dict[int, dict[int, list[dict]]] = {}
    for r in Round.objects.filter(season=season, group__isnull=False).order_by(
        "group_id", "number"
    ):
        rounds.setdefault(r.group_id, {})[r.number] = []
    games: dict[int, dict] = {}
    entries = (
        RoundEntry.objects.filter(round__season=season, round__group__isnull=False)
        .select_related("player", "game", "round")
        .order_by(
            "round__group_id",
            "round__number",
            # walkovers (no game) after the games on every database
            F("game__board").asc(nulls_last=True),
            F("game_id").asc(nulls_last=True),
            "colour",
            "id",
        )
    )
    for entry in entries:
        listing = rounds[entry.round.group_id][entry.round.number]
        if entry.status == RoundEntry.Status.WALKOVER:
            listing.append({"walkover": entry.player.key})
        elif entry.status == RoundEntry.Status.BYE:
            listing.append({"half_bye": entry.player.key})
        elif entry.status == RoundEntry.Status.PLAYED:
            game = games.get(entry.game_id)
            if game is None:
                game = games[entry.game_id] = {}
                listing.append(game)
            game[entry.colour] = entry.player.key
            if entry.game.result:
                game["result"] = entry.game.result
    tournaments = []
    for t in season.tournaments.prefetch_related("groups"):
        groups = []
        for g in sorted(t.groups.all(), key=lambda g: (g.position, g.name)):
            own = {
                key: g.options[option]
                for key, option in ((OWN_TIEBREAKS, OWN_TIEBREAKS), ("format", OWN_FORMAT))
                if g.options.get(option)
            }
            if not by_rating(g.options):
                own[START_NUMBERS] = "organiser"
            groups.append(
                {
                    "name": g.name,
                    "scale": g.scale,
                    **own,
                    "players": members.get(g.pk, []),
                    "rounds": [
                        [_game(e) for e in listing]
                        for _n, listing in sorted(rounds.get(g.pk, {}).items())
                    ],
                }
            )
        tournaments.append(
            {
                "id": t.key,
                "name": t.name,
                "date": t.date.isoformat() if t.date else None,
                COUNTY: bool(t.options.get(COUNTY, False)),
                **({DENSE: True} if t.options.get(DENSE) else {}),
                **(
                    {OWN_TIEBREAKS: t.options[OWN_TIEBREAKS]}
                    if t.options.get(OWN_TIEBREAKS)
                    else {}
                ),
                "draw_seed": t.draw_seed,
                "groups": groups,
            }
        )
    return {
        "players": season_players(season, Q(group_entries__group__tournament__season=season)),
        "tournaments": tournaments,
    }


def _game(entry: dict) -> dict:
    if "walkover" in entry or "half_bye" in entry:
        return entry
    game = {"white": entry.get("white"), "black": entry.get("black")}
    if "result" in entry:
        game["result"] = entry["result"]
    return game
