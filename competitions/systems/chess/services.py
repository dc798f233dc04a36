"""Write paths of the chess manager pages: one transaction each, validated, keyword-only.

A game is a `Game` with two `RoundEntry` rows (white, black); a walkover a `RoundEntry` with
status `walkover`. The database refuses a player twice in a round; these services say so first,
in words.
"""

from collections.abc import Sequence
from datetime import date

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.utils.translation import gettext as _
from simple_history.utils import bulk_update_with_history

from competitions import services as shared
from competitions.edits import Edit, changed, refuse_stale
from competitions.models import Game, Group, Player, Round, RoundEntry, Season, Tournament
from competitions.services import season_entries_ensure
from competitions.signals import bulk_write, results_changed

from . import start_numbers, tiebreak_codes, trf
from .interchange import BORN_MAX, BORN_MIN, COUNTY, RESULTS
from .models import RATING_MAX, GroupPlayer, in_two_groups
from .settings import (
    DENSE,
    GROUP_FORMAT_CHOICES,
    GROUP_OPTIONS,
    GROUP_PLAYERS_MAX,
    OWN_FORMAT,
    OWN_TIEBREAKS,
    ROUNDS_MAX,
    TOURNAMENT_OPTIONS,
    group_tiebreaks,
    parse_settings,
    tiebreak_problems,
)
from .system import change_scope


def _concurrent() -> ValidationError:
    return ValidationError(
        _(
            "Somebody else changed this round meanwhile; nothing was saved. Please check and "
            "try again."
        )
    )


# --- tournaments and groups ---------------------------------------------------------------------


def _own_options(spec, options: dict, values: dict) -> dict:
    """`options` with `values` set (an empty or false value removed), checked by `spec`: a
    wrong value raises a ValidationError naming the field, and nothing is stored."""
    options = dict(options)
    for name, value in values.items():
        value = value.strip() if isinstance(value, str) else value
        if value:
            options[name] = value
        else:
            options.pop(name, None)
    problems = spec.validate(options)
    if problems:
        raise ValidationError({name: message for name, message in problems})
    return options


def tournament_create(
    *,
    season,
    name: str,
    date: date | None,
    county: bool,
    tiebreaks: str = "",
    dense_scale: bool = False,
    namesake_ok: bool = True,
) -> Tournament:
    options = _own_options(
        TOURNAMENT_OPTIONS, {}, {COUNTY: county, OWN_TIEBREAKS: tiebreaks, DENSE: dense_scale}
    )
    with transaction.atomic():
        tournament = shared.tournament_create(
            season=season, name=name, date=date, namesake_ok=namesake_ok
        )
        if options:
            tournament.options = options
            tournament.save(update_fields=["options"])
    return tournament


def tournament_options(
    *, tournament: Tournament, county: bool, tiebreaks: str, dense_scale: bool = False
) -> dict:
    """The tournament's options with these values, checked (a wrong one raises a
    ValidationError naming the field); stores nothing (also what the preview ranks by)."""
    return _own_options(
        TOURNAMENT_OPTIONS,
        tournament.options,
        {COUNTY: county, OWN_TIEBREAKS: tiebreaks, DENSE: dense_scale},
    )


def tournament_update(
    *,
    tournament: Tournament,
    name: str,
    date: date | None,
    county: bool,
    tiebreaks: str = "",
    dense_scale: bool = False,
):
    options = tournament_options(
        tournament=tournament, county=county, tiebreaks=tiebreaks, dense_scale=dense_scale
    )
    tournament.name, tournament.date, tournament.options = name.strip(), date, options
    tournament.save()
    return tournament


def group_create(*, tournament: Tournament, name: str, scale: str) -> Group:
    name = name.strip()
    if tournament.groups.filter(name=name).exists():
        raise ValidationError(
            {"name": _("This tournament has a group %(name)s already.") % {"name": name}}
        )
    if scale not in Group.Scale.values:
        raise ValidationError({"scale": _("Unknown points scale.")})
    position = (tournament.groups.aggregate(m=Max("position"))["m"] or 0) + 1
    try:
        with transaction.atomic():
            return Group.objects.create(
                tournament=tournament, name=name, scale=scale, position=position
            )
    except IntegrityError as exc:  # another manager created it at the same moment
        raise ValidationError(
            {"name": _("This tournament has a group %(name)s already.") % {"name": name}}
        ) from exc


def group_options(*, group: Group, tiebreaks: str, group_format: str) -> dict:
    """The group's options with its own tie-break list and format set (empty: removed),
    checked; a wrong value raises a ValidationError naming the form's field. Stores nothing
    (also what the group page's preview ranks by)."""
    try:
        return _own_options(
            GROUP_OPTIONS, group.options, {OWN_TIEBREAKS: tiebreaks, OWN_FORMAT: group_format}
        )
    except ValidationError as exc:
        raise ValidationError(
            {("group_format" if k == OWN_FORMAT else k): v for k, v in exc.message_dict.items()}
        ) from None


def group_update(
    *, group: Group, name: str, scale: str, tiebreaks: str = "", group_format: str = ""
) -> Group:
    """A group's name, scale and (chess-othello-options.md §1.1) its own tie-break list and
    format; empty ones fall back to the tournament's or season's."""
    name = name.strip()
    if group.tournament.groups.filter(name=name).exclude(pk=group.pk).exists():
        raise ValidationError(
            {"name": _("This tournament has a group %(name)s already.") % {"name": name}}
        )
    options = group_options(group=group, tiebreaks=tiebreaks, group_format=group_format)
    group.name, group.scale, group.options = name, scale, options
    group.save(update_fields=["name", "scale", "options"])
    return group


# --- players of a group -------------------------------------------------------------------------


def _check_member(born: int | None, rating: int | None) -> None:
    if born is not None and not BORN_MIN <= born <= BORN_MAX:
        raise ValidationError(
            {
                "born": _("A birth year from %(min)s to %(max)s.")
                % {"min": BORN_MIN, "max": BORN_MAX}
            }
        )
    if rating is not None and not 0 <= rating <= RATING_MAX:
        raise ValidationError({"rating": _("A rating from 0 to %(max)s.") % {"max": RATING_MAX}})


def _class_before(group: Group, player: Player) -> str:
    """A returning player's class: the one of their latest group this season (issue 46: added
    by name to a new group, a player kept class "–" and got no BGP points, silently)."""
    return (
        GroupPlayer.objects.filter(
            player=player, group__tournament__season_id=group.tournament.season_id
        )
        .exclude(group=group)
        .exclude(player_class="")
        .order_by(F("group__tournament__date").desc(nulls_last=True), "-group__tournament_id")
        .values_list("player_class", flat=True)
        .first()
        or ""
    )


def member_add(
    *,
    group: Group,
    player: Player | None,
    player_class: str,
    born: int | None,
    rating: int | None,
    name: str = "",
    beginner: bool = False,
) -> GroupPlayer:
    """Add a player to a group, after the last start number; their birth year is the player's.
    `player` None: a new player of the series called `name`, added in the same transaction. A
    class or rating left blank is the one of the player's latest group this season."""
    _check_member(born, rating)
    if player is not None:
        _one_group(group, player)
    with transaction.atomic():
        if player is None:
            series = group.tournament.season.series
            player = shared.player_create(series=series, name=name, club=None)
        position = (group.members.aggregate(m=Max("position"))["m"] or 0) + 1
        player_class = player_class.strip() or _class_before(group, player)
        try:
            with transaction.atomic():
                member = GroupPlayer.objects.create(
                    group=group,
                    tournament_id=group.tournament_id,
                    player=player,
                    position=position,
                    player_class=player_class,
                    rating=rating,
                    beginner=beginner,
                )
        except IntegrityError as exc:  # another manager added them at the same moment
            _one_group(group, player)  # to this group or another of the tournament
            raise ValidationError(
                _("Somebody else changed this meanwhile; nothing was saved. Reload to see it.")
            ) from exc
        if born is not None and player.born != born:
            player.born = born
            player.save(update_fields=["born"])
        season_entries_ensure(season=group.tournament.season, players=[player])
    return member


def _one_group(group: Group, player: Player) -> None:
    """rules.md §3: a player plays in one group of a tournament (BGP points once)."""
    other = (
        GroupPlayer.objects.filter(tournament_id=group.tournament_id, player=player)
        .select_related("group", "tournament", "player")
        .first()
    )
    if other is None:
        return
    if other.group_id == group.pk:
        raise ValidationError(_("%(name)s is in this group already.") % {"name": player.name})
    raise ValidationError(in_two_groups(other, group))


def member_update(
    *,
    member: GroupPlayer,
    player_class: str,
    born: int | None,
    rating: int | None,
    beginner: bool = False,
) -> GroupPlayer:
    _check_member(born, rating)
    with transaction.atomic():
        member.player_class, member.rating = player_class.strip(), rating
        member.beginner = beginner
        member.save(update_fields=["player_class", "rating", "beginner"])
        if member.player.born != born:
            member.player.born = born
            member.player.save(update_fields=["born"])
    return member


def member_remove(*, member: GroupPlayer) -> None:
    if RoundEntry.objects.filter(round__group=member.group, player=member.player).exists():
        raise ValidationError(
            _("%(name)s has results in this group; remove those first.")
            % {"name": member.player.name}
        )
    with transaction.atomic():
        member.delete()
        if not member.group.rounds.exists():  # the organiser's order closed up: 1, 2, 3, ...
            _number(list(member.group.members.order_by("position", "player__key")))


def rating_order(group: Group) -> list[GroupPlayer]:
    """rules.md §3 Decision: the group's players in start-number order by rating, the unrated
    last, equals by lot (the tournament's stored lot)."""
    return start_numbers.rating_sorted(
        list(group.members.select_related("player")),
        key=lambda m: m.player.key,
        rating=lambda m: m.rating,
        lot_seed=start_numbers.lot_seed_of(group.tournament.draw_seed, group.pk),
    )


def start_order(group: Group) -> list[GroupPlayer]:
    """The group's players in start-number order (start_numbers.py): before round 1 by rating
    (`rating_order`) unless the organiser set them; as stored once the group has a round."""
    if start_numbers.by_rating(group.options) and not group.rounds.exists():
        return rating_order(group)
    return list(group.members.select_related("player").order_by("position", "player__key"))


def start_number_of(member: GroupPlayer) -> int:
    """The start number a page shows for a player of the group (`start_order`)."""
    if member.group.rounds.exists():
        return member.position
    return next(n for n, m in enumerate(start_order(member.group), start=1) if m.pk == member.pk)


def _number(members: Sequence[GroupPlayer]) -> None:
    """Give these players the start numbers 1, 2, ... in this order."""
    for position, member in enumerate(members, start=1):
        if member.position != position:
            member.position = position
            member.save(update_fields=["position"])


def start_numbers_fix(*, group: Group) -> list[GroupPlayer]:
    """Round 1 is being stored (inside its transaction, before the round): the players get the
    start numbers it is paired by (`start_order`): by rating, or the organiser's order closed
    up to 1, 2, 3, ... Start numbers name players in the crosstable's history and the TRF
    file, so they are fixed from then on."""
    shared.row_lock(group)  # one after the other with a change of the start numbers
    members = start_order(group)
    _number(members)
    return members


def start_numbers_set(
    *,
    group: Group,
    choice: str,
    numbers: dict[int, int] | None = None,
    shown: Sequence[int] = (),
) -> None:
    """The group's start numbers by rating or as the organiser sets them (start_numbers.py),
    only before round 1. `numbers`, as the organiser: the number typed for each player (by
    GroupPlayer id) of the list the page showed in its order (`shown`, ids); the players are
    ordered by them, a changed number before an unchanged equal one (typing 1 for number 4
    moves that player to the top), and numbered 1, 2, 3, ... A list changed meanwhile by
    someone else refuses it all."""
    stale = _("Somebody else changed this meanwhile; nothing was saved. Reload to see it.")
    with transaction.atomic():
        if not shared.row_lock(group):  # a round 1 stored meanwhile waits for it, or comes first
            raise ValidationError(stale)
        if group.rounds.exists():
            raise ValidationError(_("Start numbers are fixed once the group has a round."))
        options = _own_options(GROUP_OPTIONS, group.options, {start_numbers.START_NUMBERS: choice})
        if options != group.options:
            group.options = options
            group.save(update_fields=["options"])
        if choice != start_numbers.BY_ORGANISER or not numbers:
            return
        members = list(group.members.select_related("player").order_by("position", "player__key"))
        if [m.pk for m in members] != list(shown):
            raise ValidationError(stale)
        shown_number = {m.pk: n for n, m in enumerate(members, start=1)}

        def wanted(m: GroupPlayer) -> tuple[int, bool, int]:
            typed = numbers.get(m.pk, shown_number[m.pk])
            return typed, typed == shown_number[m.pk], shown_number[m.pk]

        _number(sorted(members, key=wanted))


# --- rounds, games and walkovers ----------------------------------------------------------------


def round_create(*, group: Group) -> Round:
    """The group's next round, empty: for a pairing entered by hand. Round 1 fixes the start
    numbers first (`start_numbers_fix`), as a paired round 1 does."""
    last = group.rounds.aggregate(m=Max("number"))["m"] or 0
    try:
        with transaction.atomic():
            if last == 0:
                start_numbers_fix(group=group)
            return Round.objects.create(
                season=group.tournament.season,
                tournament=group.tournament,
                group=group,
                number=last + 1,
            )
    except IntegrityError as exc:
        raise _concurrent() from exc


def round_delete(*, round_: Round) -> None:
    """Delete the group's last round with its games, under the round's lock (row_lock): a game
    added or results saved at the same moment come first (and go with it) or find it gone."""
    try:
        with transaction.atomic():
            if not shared.row_lock(round_):
                return  # deleted meanwhile by someone else: done
            if round_.group.rounds.filter(number__gt=round_.number).exists():
                raise ValidationError(_("Only the last round can be deleted."))
            round_.delete()
    except IntegrityError as exc:  # a writer without the lock added to it meanwhile
        raise _concurrent() from exc


def _round_gone(round_: Round) -> ValidationError:
    return ValidationError(
        _("Round %(n)s was deleted meanwhile; nothing was saved.") % {"n": round_.number}
    )


def _members(round_: Round, players: Sequence[Player]) -> None:
    known = set(round_.group.members.filter(player__in=players).values_list("player_id", flat=True))
    for player in players:
        if player.pk not in known:
            raise ValidationError(
                _("%(name)s is not a player of this group.") % {"name": player.name}
            )


def _free(round_: Round, players: Sequence[Player]) -> None:
    busy = (
        RoundEntry.objects.filter(round=round_, player__in=players).select_related("player").first()
    )
    if busy is not None:
        raise ValidationError(
            _("%(name)s already has a game or a WO in this round.") % {"name": busy.player.name}
        )


def game_add(*, round_: Round, white: Player, black: Player, result: str = "") -> Game:
    if white.pk == black.pk:
        raise ValidationError(_("A player cannot play against themselves."))
    if result and result not in RESULTS:
        raise ValidationError({"result": _("Unknown result.")})
    _members(round_, [white, black])
    _free(round_, [white, black])
    try:
        with transaction.atomic():
            if not shared.row_lock(round_):  # waits for a delete of the round
                raise _round_gone(round_)
            board = (round_.games.aggregate(m=Max("board"))["m"] or 0) + 1
            game = Game.objects.create(round=round_, board=board, result=result)
            for entry in RoundEntry.played(round_, white, black, game):
                entry.save()
    except IntegrityError as exc:
        raise _concurrent() from exc
    return game


def walkover_add(*, round_: Round, player: Player) -> RoundEntry:
    return _unplayed_add(round_, player, RoundEntry.Status.WALKOVER)


def half_bye_add(*, round_: Round, player: Player) -> RoundEntry:
    """A requested half-point bye (chess-othello-options.md §1.2): the player scores a draw
    without playing; a round entry with status `bye`."""
    return _unplayed_add(round_, player, RoundEntry.Status.BYE)


def _unplayed_add(round_: Round, player: Player, status: str) -> RoundEntry:
    _members(round_, [player])
    _free(round_, [player])
    try:
        with transaction.atomic():
            if not shared.row_lock(round_):  # waits for a delete of the round
                raise _round_gone(round_)
            return RoundEntry.objects.create(round=round_, player=player, status=status)
    except IntegrityError as exc:
        raise _concurrent() from exc


def game_delete(*, game: Game) -> None:
    game.delete()


def walkover_delete(*, entry: RoundEntry) -> None:
    entry.delete()


def results_save(*, round_: Round, rows: Sequence[Edit[int, str]]) -> int:
    """Set results of a round's games: per game id, the result the form showed and the one sent
    back ("" for none yet). Only the games the manager changed are written, in one transaction
    with one recompute of the round's tournament. A game someone else changed since the form
    showed it refuses the whole save (competitions.edits.refuse_stale). Returns how many
    changed."""
    for edit in rows:
        if edit.new and edit.new not in RESULTS:
            raise ValidationError(_("Unknown result %(value)s.") % {"value": edit.new})
    edits = changed(rows)
    wanted = {edit.key: edit.new for edit in edits}
    if not wanted:
        return 0
    with transaction.atomic(), bulk_write():
        if not shared.row_lock(round_):  # waits for a delete of the round
            raise _round_gone(round_)
        games = list(round_.games.select_for_update().filter(pk__in=list(wanted)))
        if len(games) != len(wanted):  # a game was deleted meanwhile
            raise _concurrent()
        boards = {game.pk: game.board for game in games}
        refuse_stale(
            edits,
            {game.pk: game.result for game in games},
            label=lambda pk: _("Board %(n)s") % {"n": boards[pk]},
            records=lambda pk: Game.history.filter(id=pk).select_related("history_user")[:1],
        )
        written = [game for game in games if game.result != wanted[game.pk]]
        for game in written:
            game.result = wanted[game.pk]
        if written:
            bulk_update_with_history(written, Game, ["result"])
            results_changed.send(
                sender=Season,
                season_ids={round_.season_id},
                scope=change_scope(Round, round_),
            )
    return len(written)


def pairing_save(
    *,
    group: Group,
    number: int,
    pairs: Sequence[tuple[Player, Player]],
    walkover: Player | None,
) -> Round:
    """Store a pairing as round `number` of the group: its games without results and the WO.
    Round 1 fixes the start numbers first (`start_numbers_fix`: the order it was paired in)."""
    last = group.rounds.aggregate(m=Max("number"))["m"] or 0
    if number != last + 1:
        raise ValidationError(
            _("Round %(n)s has been stored meanwhile; look at the group again.") % {"n": number}
        )
    try:
        with transaction.atomic():
            if number == 1:  # the start numbers round 1 was paired by
                start_numbers_fix(group=group)
            round_ = Round.objects.create(
                season=group.tournament.season,
                tournament=group.tournament,
                group=group,
                number=number,
            )
            for board, (white, black) in enumerate(pairs, start=1):
                game = Game.objects.create(round=round_, board=board)
                for entry in RoundEntry.played(round_, white, black, game):
                    entry.save()
            if walkover is not None:
                RoundEntry.objects.create(
                    round=round_, player=walkover, status=RoundEntry.Status.WALKOVER
                )
    except IntegrityError as exc:
        raise _concurrent() from exc
    return round_


# --- a group played elsewhere, from its TRF16 file ------------------------------------------------

TRF_RESULTS = {
    # (white's code, black's code) -> the game's result
    (trf.WIN, trf.LOSS): "1-0",
    (trf.LOSS, trf.WIN): "0-1",
    (trf.DRAW, trf.DRAW): "1/2-1/2",
    (trf.FORFEIT_WIN, trf.FORFEIT_LOSS): "+-",
    (trf.FORFEIT_LOSS, trf.FORFEIT_WIN): "-+",
    (trf.NOT_YET, trf.NOT_YET): "",
}
TRF_WALKOVER = {trf.PAIRING_BYE, trf.FULL_BYE, trf.FORFEIT_WIN}
TRF_NOTHING = {trf.ABSENT, trf.NOT_YET, trf.FORFEIT_LOSS, "0"}


def _trf_code(code: str) -> str:
    return trf.UNRATED.get(code, code)


def _trf_within_bounds(parsed: trf.TrfGroup) -> None:
    """A group's rounds and players within the bounds of the chess settings, naming the line
    that goes beyond (a file's "XXR 20000" would create 20,000 rounds)."""
    if len(parsed.players) > GROUP_PLAYERS_MAX:
        raise ValidationError(
            _("TRF line %(n)s: more than %(max)s players; a group has at most %(max)s.")
            % {"n": parsed.players[GROUP_PLAYERS_MAX].line, "max": GROUP_PLAYERS_MAX}
        )
    longest = max(parsed.players, key=lambda p: len(p.games))
    if len(longest.games) > ROUNDS_MAX or parsed.rounds > ROUNDS_MAX:
        line = longest.line if len(longest.games) > ROUNDS_MAX else parsed.rounds_line
        raise ValidationError(
            _("TRF line %(n)s: %(rounds)s rounds; a group has at most %(max)s.")
            % {"n": line, "rounds": parsed.rounds, "max": ROUNDS_MAX}
        )


def _trf_tiebreaks(group: Group, parsed: trf.TrfGroup) -> tuple[str | None, str]:
    """The group's own list from the file's 202 or 212 record: (the list to store, or None to
    keep the group's; a note for the manager). A list the group uses already is not stored
    again; one that cannot be held is named with its line and passed over."""
    line, record = parsed.tiebreaks_record
    if not record:
        return None, ""
    tokens = list(parsed.tiebreaks)
    if record == trf.STANDINGS_ORDER:
        if not tokens or tokens[0].upper() != trf.POINTS:
            return None, _(
                "TRF line %(n)s: the standings are not ordered by points first, which a group "
                "cannot hold; the tie-break list was not taken."
            ) % {"n": line}
        tokens = tokens[1:]
    text = " ".join(tokens)
    # A list written from a macro is read back as the macro (the file has its codes).
    text = next((m for m, c in tiebreak_codes.MACROS.items() if " ".join(c) == text), text)
    problems = tiebreak_problems(text)
    if problems:
        return None, _("TRF line %(n)s: the tie-break list was not taken. %(problems)s") % {
            "n": line,
            "problems": " ".join(problems),
        }
    season = parse_settings(group.tournament.season.settings)
    current, _format = group_tiebreaks(season, group.tournament.options, group.options)
    rounds, long_from = parsed.rounds, season.monrad_long_from
    if tiebreak_codes.expand(current, rounds, long_from) == tiebreak_codes.expand(
        text, rounds, long_from
    ):
        return None, _("Tie-breaks from the file: %(codes)s (the group's list already).") % {
            "codes": text
        }
    return text, _("Tie-breaks from the file: %(codes)s.") % {"codes": text}


def _trf_format(group: Group, parsed: trf.TrfGroup) -> tuple[str | None, str]:
    """The group's own format from the file's 192 record (TRF-2026, the encoded type of
    tournament): (the format to store, or None to keep the group's; a note for the manager). A
    format the group uses already is not stored again; a type a group cannot be (a team
    event, a knockout, ...) is named with its line and passed over."""
    line, code = parsed.type_record
    if not line:
        return None, ""
    found = trf.format_of(code)
    if found is None:
        return None, _(
            "TRF line %(n)s: the type of tournament %(code)s is not a group's format; the "
            "format was not taken."
        ) % {"n": line, "code": code[:40]}
    label = dict(GROUP_FORMAT_CHOICES)[found]
    season = parse_settings(group.tournament.season.settings)
    _tiebreaks, current = group_tiebreaks(season, group.tournament.options, group.options)
    if current == found:
        return None, _("Group format from the file: %(format)s (the group's already).") % {
            "format": label
        }
    return found, _("Group format from the file: %(format)s.") % {"format": label}


def group_import_trf(*, group: Group, text: str) -> tuple[int, str]:
    """Fill an empty group from a TRF16 file (rules.md §3 "results can also be entered for
    pairings made elsewhere"): its players in start-rank order (matched by name in the series, or
    added), ratings, birth years, every round's games and walkovers, and the tie-break list of
    its 202 (or 212) record and the format of its 192 record as the group's own. Returns the
    number of players and a note on the tie-break list and the format ("" without either). A
    half-point bye (H) is stored as one. Refuses what §3 cannot hold and results the two
    players' lines disagree on, naming the line; stores nothing then. A tie-break list or a
    format that cannot be held is passed over, and the note says so."""
    if group.members.exists() or group.rounds.exists():
        raise ValidationError(_("A TRF file can only fill a group without players and rounds."))
    try:
        parsed = trf.parse(text)
    except trf.TrfError as exc:
        raise ValidationError(
            _("TRF line %(n)s: %(message)s") % {"n": exc.line, "message": exc.message}
        ) from exc
    if not parsed.players:
        raise ValidationError(_("The file has no player lines (001)."))
    _trf_within_bounds(parsed)
    tiebreaks, note = _trf_tiebreaks(group, parsed)
    group_format, format_note = _trf_format(group, parsed)
    note = " ".join(n for n in (note, format_note) if n)
    series = group.tournament.season.series
    by_name: dict[str, list[Player]] = {}
    for player in Player.objects.filter(series=series):
        by_name.setdefault(player.name.casefold(), []).append(player)
    starts = {p.start: p for p in parsed.players}
    with transaction.atomic():
        # The file's start ranks are the group's start numbers: as the organiser set them
        # (start_numbers.py). A refused import leaves `group.options` so in memory only.
        group.options = {**group.options, start_numbers.START_NUMBERS: start_numbers.BY_ORGANISER}
        group.save(update_fields=["options"])
        players: dict[int, Player] = {}
        for entry in parsed.players:
            if not entry.name:
                raise ValidationError(_("Start rank %(n)s has no name.") % {"n": entry.start})
            found = by_name.get(entry.name.casefold(), [])
            if len(found) > 1:
                raise ValidationError(
                    _("Several players of the series are called %(name)s; add this group by hand.")
                    % {"name": entry.name}
                )
            player = (
                found[0]
                if found
                else shared.player_create(
                    series=series, name=entry.name, club=None, namesake_ok=False
                )
            )
            if entry.born and player.born and player.born != entry.born:
                raise ValidationError(
                    _("%(name)s: born %(file)s in the file, %(stored)s in the series.")
                    % {"name": entry.name, "file": entry.born, "stored": player.born}
                )
            players[entry.start] = player
            member_add(
                group=group,
                player=player,
                player_class="",
                born=entry.born,
                rating=entry.rating if entry.rating and entry.rating <= RATING_MAX else None,
            )
        for number in range(1, parsed.rounds + 1):
            round_ = round_create(group=group)
            for entry in parsed.players:
                game = (
                    entry.games[number - 1]
                    if number <= len(entry.games)
                    else trf.TrfGame(0, "-", trf.ABSENT)
                )
                code = _trf_code(game.result)
                where = _("start rank %(n)s, round %(r)s") % {"n": entry.start, "r": number}
                if game.opponent == 0:
                    if code in TRF_WALKOVER:
                        walkover_add(round_=round_, player=players[entry.start])
                    elif code == trf.HALF_BYE:
                        half_bye_add(round_=round_, player=players[entry.start])
                    elif code not in TRF_NOTHING:
                        raise ValidationError(
                            _(
                                "%(where)s: a result %(code)s has no place in a group (wins, "
                                "draws, losses, forfeits, WO and half-point byes only)."
                            )
                            % {"where": where, "code": code}
                        )
                    continue
                other = starts.get(game.opponent)
                if other is None:
                    raise ValidationError(
                        _("%(where)s: no player with start rank %(n)s.")
                        % {"where": where, "n": game.opponent}
                    )
                back = other.games[number - 1] if number <= len(other.games) else None
                if (
                    back is None
                    or back.opponent != entry.start
                    or {game.colour, back.colour} != {"w", "b"}
                ):
                    raise ValidationError(
                        _("%(where)s: the opponent's line does not name this game.")
                        % {"where": where}
                    )
                if game.colour != "w":
                    continue  # stored from white's line
                result = TRF_RESULTS.get((code, _trf_code(back.result)))
                if result is None:
                    raise ValidationError(
                        _("%(where)s: the two lines disagree on the result.") % {"where": where}
                    )
                game_add(
                    round_=round_,
                    white=players[entry.start],
                    black=players[other.start],
                    result=result,
                )
        own = {OWN_TIEBREAKS: tiebreaks, OWN_FORMAT: group_format}
        own = {name: value for name, value in own.items() if value is not None}
        if own:
            group.options = _own_options(GROUP_OPTIONS, group.options, own)
            group.save(update_fields=["options"])
    return len(parsed.players), note
