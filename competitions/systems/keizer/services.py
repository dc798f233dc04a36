"""Write paths of the Keizer competition: the season's list, an evening's attendance, storing a
pairing, results. Validated, keyword-only arguments.

Each manager action is one call and one transaction. Writers of many rows change them inside
`bulk_write()` and send `results_changed` once, naming what the change reaches (an evening: the
lists from it on; the season's list: the whole season), so a whole evening's attendance,
pairing or results schedules one recompute, not one per row (architecture.md "One write per
action"). A single row (a player off the list, the season closed) is one write whose model
signal does the same.
"""

import datetime
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from competitions.edits import NOT_SHOWN, Edit, changed, refuse_stale
from competitions.models import Club, Game, Player, Round, RoundEntry, Season, SeasonPlayer
from competitions.services import player_create, row_lock
from competitions.signals import bulk_write, results_changed
from competitions.text import local_date

from .models import ExternalResult, StartPoints, Withdrawal
from .settings import PRESETS, SEED_CLUB
from .system import SCOPE_ROUND

Status = RoundEntry.Status
# What a leader records on the attendance page (rules.md §4: present, absent with notice,
# external, absent without notice).
# keizer-variants.md §5.7: long-term absent, where the season's rules score it.
ATTENDANCE = (
    Status.PRESENT,
    Status.ABSENT,
    Status.LONG_ABSENT,
    Status.EXTERNAL,
    Status.UNEXCUSED,
)
NOT_PLAYING = (Status.ABSENT, Status.LONG_ABSENT, Status.EXTERNAL, Status.UNEXCUSED)


def attendance_choices(season: Season) -> tuple[str, ...]:
    """The statuses the attendance page offers: long-term absent only where the season's rules
    name it (a preset or setting with `points_long_absent` or `long_absent_max`, §4) or an
    evening of the season has it already (a file's `long_absent`, scored with the default
    share), so a season under rules.md keeps its four buttons."""
    raw = season.settings or {}
    preset = PRESETS.get(raw.get("preset", SEED_CLUB), {})
    names = ("points_long_absent", "long_absent_max")
    if any(name in raw or name in preset for name in names):
        return ATTENDANCE
    if RoundEntry.objects.filter(round__season=season, status=Status.LONG_ABSENT).exists():
        return ATTENDANCE
    return tuple(s for s in ATTENDANCE if s != Status.LONG_ABSENT)


def withdrawn_ids(season: Season) -> set[int]:
    """Player ids of the season's withdrawn players (keizer-variants.md §2.8; 1 query)."""
    return set(
        Withdrawal.objects.filter(entry__season=season).values_list("entry__player_id", flat=True)
    )


def _changed(season: Season, round_: Round | None = None) -> None:
    """Schedule the season's recompute; a change within one evening names it (the lists from
    that evening on are updated, rankings.systems.keizer.standings.update)."""
    scope = f"{SCOPE_ROUND}{round_.pk}" if round_ is not None else None
    results_changed.send(sender=Season, season_ids={season.pk}, scope=scope)


def keizer_rounds(season: Season):
    return Round.objects.filter(season=season, tournament=None, group=None)


def check_date_order(rounds, number: int, date: datetime.date | None) -> None:
    """Evenings are in date order: evening n is on or after the dated evening before it and on
    or before the dated evening after it. Two evenings may share a date (a club may play two
    rounds in one evening); an evening without a date is not compared. `rounds`: the season's
    evenings (keizer_rounds)."""
    if date is None:
        return
    dated = rounds.exclude(date=None)
    before = dated.filter(number__lt=number, date__gt=date).order_by("-number").first()
    after = dated.filter(number__gt=number, date__lt=date).order_by("number").first()
    if before is not None:
        message = _(
            "Evening %(n)s cannot be on %(date)s, before evening %(other)s (%(other_date)s): "
            "evenings are in date order (two may share a date)."
        )
    elif after is not None:
        message = _(
            "Evening %(n)s cannot be on %(date)s, after evening %(other)s (%(other_date)s): "
            "evenings are in date order (two may share a date)."
        )
    else:
        return
    other = before or after
    raise ValidationError(
        {
            "date": message
            % {
                "n": number,
                "date": local_date(date),
                "other": other.number,
                "other_date": local_date(other.date),
            }
        }
    )


# --- the season's list --------------------------------------------------------------------------


def season_player_add(
    *,
    season: Season,
    player: Player | None = None,
    name: str = "",
    club: Club | None = None,
    start_points: Decimal | None = None,
) -> SeasonPlayer:
    """Put a player on the season's list, at the bottom of the initial list: an existing player
    of the series, or a new one by name. A late entrant gets his start points by hand."""
    with transaction.atomic():
        if player is None:
            if not name.strip():
                raise ValidationError({"name": _("Give the new player's name.")})
            player = player_create(series=season.series, name=name, club=club)
        elif player.series_id != season.series_id:
            raise ValidationError(_("That player belongs to another series."))
        if season.entries.filter(player=player).exists():
            raise ValidationError(_("%(name)s is on the list already.") % {"name": player.name})
        last = season.entries.aggregate(m=Max("position"))["m"]
        try:
            with transaction.atomic():
                entry = SeasonPlayer.objects.create(
                    season=season,
                    player=player,
                    club=player.club,
                    position=0 if last is None else last + 1,
                )
        except IntegrityError as exc:  # another manager put them on the list at that moment
            raise ValidationError(
                _("%(name)s is on the list already.") % {"name": player.name}
            ) from exc
        if start_points is not None:
            StartPoints.objects.create(entry=entry, start_points=start_points)
        return entry


def season_list_update(
    *, season: Season, rows: Sequence[tuple[SeasonPlayer, int, Decimal | None]]
) -> None:
    """The initial list in a new order and the start points set by hand (None: the value of
    the place). `rows` are in the current order, each with the place asked for it: a player
    given place 3 gets place 3, the others close up (on equal places the one moved up goes
    first, the one moved down last)."""

    def wanted(item: tuple[int, tuple[SeasonPlayer, int, Decimal | None]]):
        current, (_entry, place, _start) = item
        moved = (place > current) - (place < current)  # -1 up, 0 stays, 1 down
        return (place, moved, current)

    ordered = [row for _current, row in sorted(enumerate(rows, start=1), key=wanted)]
    stored = {s.entry_id: s for s in StartPoints.objects.filter(entry__season=season)}
    changed, new, updated, gone = [], [], [], []
    for position, (entry, _number, start_points) in enumerate(ordered):
        if entry.season_id != season.pk:
            raise ValidationError(_("That player is not on this season's list."))
        if entry.position != position:
            entry.position = position
            changed.append(entry)
        start = stored.get(entry.pk)
        if start is None and start_points is not None:
            new.append(StartPoints(entry=entry, start_points=start_points))
        elif start is not None and start_points is None:
            gone.append(start.pk)
        elif start is not None and start.start_points != start_points:
            start.start_points = start_points
            updated.append(start)
    with transaction.atomic(), bulk_write():
        bulk_update_with_history(changed, SeasonPlayer, ["position"])
        bulk_create_with_history(new, StartPoints)
        bulk_update_with_history(updated, StartPoints, ["start_points"])
        for start in StartPoints.objects.filter(pk__in=gone):
            start.delete()
        _changed(season)


def season_player_remove(*, entry: SeasonPlayer) -> None:
    """Take a player off the list: only while he has nothing in any round of the season."""
    if RoundEntry.objects.filter(
        round__season_id=entry.season_id, player_id=entry.player_id
    ).exists():
        raise ValidationError(
            _("%(name)s has entries in this season's rounds and stays on the list.")
            % {"name": entry.player.name}
        )
    entry.delete()


def season_close(*, season: Season, closed: bool) -> Season:
    """A closed season's final list gives the start points no weight (rules.md §4.1)."""
    if closed and keizer_rounds(season).filter(entries__status=Status.PRESENT).exists():
        raise ValidationError(_("Pair or delete the evening that is waiting first."))
    if closed and Game.objects.filter(round__season=season, result="").exists():
        raise ValidationError(_("Enter every result first."))
    season.closed = closed
    season.save(update_fields=["closed"])
    return season


# --- an evening: attendance -----------------------------------------------------------------------


def round_state(round_: Round) -> str:
    """'attendance' (taken, waiting for its pairing), 'paired' (results missing), 'complete',
    or 'empty' (nothing stored yet)."""
    statuses = set(round_.entries.values_list("status", flat=True))
    if not statuses:
        return "empty"
    if Status.PRESENT in statuses:
        return "attendance"
    if round_.games.filter(result="").exists():
        return "paired"
    return "complete"


@dataclass(frozen=True)
class AttendanceShown:
    """What the attendance page showed: the evening's date, each player's status (by player id;
    a player paired already shows as present), the volunteer for the bye (a player id)."""

    date: datetime.date | None
    statuses: Mapping[int, str]
    volunteer: int | None


class _CreatedMeanwhile(Exception):
    """The new evening being saved was created by someone else meanwhile."""


def attendance_save(
    *,
    season: Season,
    number: int,
    date: datetime.date | None,
    statuses: Mapping[SeasonPlayer, str],
    volunteer: SeasonPlayer | None = None,
    shown: AttendanceShown | None = None,
) -> Round:
    """Store an evening's attendance (creating the evening if it is the next one).

    Before the pairing every status may change. After it the players who play or have the
    bye keep that (undo the pairing to change it); the others may still move between absent
    with notice, external and absent without notice, and a player without an entry (a late
    entrant) may get one of those.

    With `shown` (the page's form) only what the manager changed is written, and a status, the
    date or the volunteer someone else changed since the page showed it refuses the whole save
    (competitions.edits.refuse_stale); a player without an entry gets the status sent. Without
    it (a script) every status, the date and the volunteer are written where they differ."""
    for entry, status in statuses.items():
        if entry.season_id != season.pk:
            raise ValidationError(_("That player is not on this season's list."))
        if status not in ATTENDANCE:
            raise ValidationError(_("Unknown attendance %(status)s.") % {"status": status})
    withdrawn = withdrawn_ids(season)
    for entry, status in statuses.items():
        if status == Status.PRESENT and entry.player_id in withdrawn:
            raise ValidationError(
                _("%(player)s has withdrawn and is not paired any more.")
                % {"player": entry.player.name}
            )
    if volunteer is not None and statuses.get(volunteer) != Status.PRESENT:
        raise ValidationError({"volunteer": _("The volunteer for the bye must be present.")})
    try:
        return _attendance_write(season, number, date, statuses, volunteer, shown)
    except (IntegrityError, _CreatedMeanwhile):
        # Another manager opened the same evening at the same moment: compare with theirs.
        try:
            return _attendance_write(season, number, date, statuses, volunteer, shown)
        except (IntegrityError, _CreatedMeanwhile) as exc:
            raise ValidationError(
                _(
                    "Somebody else changed this round meanwhile; nothing was saved. Please "
                    "check and try again."
                )
            ) from exc


def _attendance_write(season, number, date, statuses, volunteer, shown) -> Round:
    def as_shown(key, value):
        if shown is None:
            return NOT_SHOWN
        if key == "date":
            return shown.date
        if key == "volunteer":
            return shown.volunteer
        return shown.statuses.get(key, NOT_SHOWN)

    with transaction.atomic(), bulk_write():
        rounds = keizer_rounds(season).select_for_update()
        round_ = rounds.filter(number=number).first()
        check_date_order(keizer_rounds(season), number, date)
        created = round_ is None
        if created:
            last = rounds.aggregate(m=Max("number"))["m"] or 0
            if number == last:
                # Another manager's save of this new evening committed between the two reads.
                raise _CreatedMeanwhile
            if number != last + 1:
                raise ValidationError(_("The next evening is evening %(n)s.") % {"n": last + 1})
            if last and round_state(rounds.get(number=last)) in ("attendance", "empty"):
                raise ValidationError(
                    _("Evening %(n)s is not paired yet: pair it before the next one.") % {"n": last}
                )
            round_ = Round.objects.create(season=season, number=number, date=date)
        current = {e.player_id: e for e in round_.entries.select_for_update()}
        paired = any(e.status in (Status.PLAYED, Status.BYE) for e in current.values())
        names = {entry.player_id: entry.player.name for entry in statuses}
        sent = {entry.player_id: status for entry, status in statuses.items()}
        sent_volunteer = volunteer.player_id if volunteer is not None else None
        edits = [
            Edit("date", as_shown("date", date), date),
            Edit("volunteer", as_shown("volunteer", sent_volunteer), sent_volunteer),
            *(Edit(pid, as_shown(pid, status), status) for pid, status in sent.items()),
        ]
        edits_by_key = {edit.key: edit for edit in edits}

        def stored(key):
            if key == "date":
                return date if created else round_.date
            if key == "volunteer":
                return next((pid for pid, e in current.items() if e.volunteer_bye), None)
            found = current.get(key)
            if found is None:  # no entry yet: the page showed a suggestion, still standing
                return edits_by_key[key].shown
            return Status.PRESENT if found.status not in ATTENDANCE else found.status

        def records(key):
            if key == "date":
                return Round.history.filter(id=round_.pk).select_related("history_user")[:1]
            history = RoundEntry.history.filter(round_id=round_.pk).select_related("history_user")
            if key == "volunteer":
                return history.filter(volunteer_bye=True)[:1]
            return history.filter(player_id=key)[:1]

        def label(key):
            if key == "date":
                return _("Date")
            if key == "volunteer":
                return _("Volunteer for the bye")
            return names[key]

        refuse_stale(edits, stored, label=label, records=records)
        if not created and edits_by_key["date"].changed and round_.date != date:
            round_.date = date
            round_.save(update_fields=["date"])
        volunteer_edit = edits_by_key["volunteer"]
        new, changed = [], []
        for entry, status in statuses.items():
            found = current.get(entry.player_id)
            wants_volunteer = sent_volunteer is not None and entry.player_id == sent_volunteer
            if found is None:
                if paired and status == Status.PRESENT:
                    raise ValidationError(
                        _(
                            "Evening %(n)s is paired: %(name)s can no longer be added as "
                            "present. Undo the pairing first."
                        )
                        % {"n": number, "name": entry.player.name}
                    )
                new.append(
                    RoundEntry(
                        round=round_,
                        player_id=entry.player_id,
                        status=status,
                        volunteer_bye=wants_volunteer and volunteer_edit.changed,
                    )
                )
                continue
            if not edits_by_key[entry.player_id].changed:
                status = stored(entry.player_id)  # as shown: left as it is stored
            if found.status in (Status.PLAYED, Status.BYE, Status.WALKOVER):
                if status != Status.PRESENT:
                    raise ValidationError(
                        _(
                            "%(name)s is paired in evening %(n)s. Undo the pairing first to "
                            "change who is present."
                        )
                        % {"name": entry.player.name, "n": number}
                    )
                continue
            if paired and status == Status.PRESENT:
                raise ValidationError(
                    _("Evening %(n)s is paired: undo the pairing first to add %(name)s.")
                    % {"n": number, "name": entry.player.name}
                )
            volunteer_bye = wants_volunteer if volunteer_edit.changed else found.volunteer_bye
            if found.status != status or found.volunteer_bye != volunteer_bye:
                found.status, found.volunteer_bye = status, volunteer_bye
                changed.append(found)
        bulk_create_with_history(new, RoundEntry)
        bulk_update_with_history(changed, RoundEntry, ["status", "volunteer_bye"])
        _changed(season, round_)
    return round_


def attendance_defaults(*, season: Season, number: int, copy: bool = False) -> dict[int, str]:
    """Where a new evening's attendance starts, by player id (players without a line keep the
    page's default, present). Decision (issue 46): the regulars, who played or were present at
    the last evening, start as present; the others as "no notice", what a player who sends
    nothing is (rules.md §4): an absence with notice or an external game is said for one
    evening, and was copied to the next, where a hurried "Save and pair" repeated it. `copy`:
    the last evening's choices as they were (played or bye: present), one click away."""
    previous = keizer_rounds(season).filter(number__lt=number).order_by("-number").first()
    if previous is None:
        return {}
    defaults = {}
    for player_id, status in previous.entries.values_list("player_id", "status"):
        if status not in NOT_PLAYING:
            defaults[player_id] = Status.PRESENT
        else:
            defaults[player_id] = status if copy else Status.UNEXCUSED
    return defaults


def _lock_round(round_: Round) -> bool:
    """The evening's row lock (competitions.services.row_lock): whoever removes what is written
    into the evening (unpair, delete) and whoever writes into it (its pairing, its results)
    take it first, so they run one after the other. False when the evening is gone."""
    return row_lock(round_)


def round_delete(*, round_: Round) -> None:
    """Delete the last evening, as long as no result of it is entered. Checked under the
    evening's lock: a result saved at the same moment either comes first (and the evening
    stays) or finds the evening gone."""
    try:
        with transaction.atomic(), bulk_write():
            if not _lock_round(round_):
                return  # deleted meanwhile by someone else: done
            last = keizer_rounds(round_.season).aggregate(m=Max("number"))["m"]
            if round_.number != last:
                raise ValidationError(_("Only the last evening can be deleted."))
            if round_.games.exclude(result="").exists():
                raise ValidationError(_("This evening has results; it cannot be deleted."))
            round_.delete()
            _changed(round_.season)
    except IntegrityError as exc:  # a writer without the lock added to it meanwhile
        raise ValidationError(
            _("Evening %(n)s changed meanwhile; nothing was deleted. Look at it again.")
            % {"n": round_.number}
        ) from exc


# --- the pairing and the results ----------------------------------------------------------------


def round_pairing_save(
    *,
    round_: Round,
    pairs: Sequence[tuple[Player | int, Player | int, bool]],
    bye: Player | int | None,
) -> list[Game]:
    """Store a pairing: one game per pair (board numbers in the given order), the bye. Every
    player registered as present gets exactly one of them; nothing is stored otherwise."""

    def pk(player: Player | int) -> int:
        return player if isinstance(player, int) else player.pk

    with transaction.atomic(), bulk_write():
        if not _lock_round(round_):  # waits for a delete of the evening
            raise ValidationError(
                _("Evening %(n)s was deleted meanwhile; nothing was changed.")
                % {"n": round_.number}
            )
        entries = {
            e.player_id: e for e in round_.entries.select_for_update().select_related("player")
        }
        waiting = {pid for pid, e in entries.items() if e.status == Status.PRESENT}
        if not waiting and round_.games.exists():
            raise ValidationError(_("Evening %(n)s is paired already.") % {"n": round_.number})
        covered = [pk(p) for white, black, _manual in pairs for p in (white, black)]
        if bye is not None:
            covered.append(pk(bye))
        if len(covered) != len(set(covered)) or set(covered) != waiting:
            raise ValidationError(
                _(
                    "The pairing does not match the attendance of evening %(n)s (somebody "
                    "changed it meanwhile?). Nothing was saved."
                )
                % {"n": round_.number}
            )
        games = bulk_create_with_history(
            [
                Game(round=round_, board=board, manual=manual)
                for board, (_white, _black, manual) in enumerate(pairs, start=1)
            ],
            Game,
        )
        changed = []
        for game, (white, black, _manual) in zip(games, pairs, strict=True):
            for player, colour in RoundEntry.sides(white, black):
                entry = entries[pk(player)]
                entry.status, entry.game, entry.colour = Status.PLAYED, game, colour
                changed.append(entry)
        if bye is not None:
            entry = entries[pk(bye)]
            entry.status = Status.BYE
            changed.append(entry)
        try:
            bulk_update_with_history(changed, RoundEntry, ["status", "game", "colour"])
        except IntegrityError as exc:
            raise ValidationError(
                _("The pairing could not be stored: %(error)s") % {"error": exc}
            ) from exc
        _changed(round_.season, round_)
    return games


def round_pairing_undo(*, round_: Round) -> None:
    """Take a published pairing back (to pair again), as long as no result is entered.
    Checked under the evening's lock (see `_lock_round`): a result saved at the same moment
    either comes first (and the pairing stays) or is refused."""
    with transaction.atomic(), bulk_write():
        if not _lock_round(round_):
            raise ValidationError(
                _("Evening %(n)s was deleted meanwhile; nothing was changed.")
                % {"n": round_.number}
            )
        if round_.games.exclude(result="").exists():
            raise ValidationError(
                _("Results of evening %(n)s are entered; the pairing stays.") % {"n": round_.number}
            )
        entries = list(
            round_.entries.select_for_update().filter(
                status__in=(Status.PLAYED, Status.BYE, Status.WALKOVER)
            )
        )
        for entry in entries:
            entry.status, entry.game, entry.colour = Status.PRESENT, None, ""
        bulk_update_with_history(entries, RoundEntry, ["status", "game", "colour"])
        round_.games.all().delete()
        _changed(round_.season, round_)


def unpaired_message() -> str:
    """What a results save into an evening unpaired (or deleted) since its page was opened
    says."""
    return _("This evening was unpaired meanwhile; nothing was saved. Reload the page.")


def pairing_fingerprint(games: Iterable[Game]) -> str:
    """Which pairing a results page showed (its games, by id): results sent from a page of a
    pairing taken back since, and perhaps made again (new games on the same boards), are
    refused rather than written into the boards of another pairing."""
    ids = ",".join(str(game.pk) for game in sorted(games, key=lambda g: g.pk))
    return hashlib.sha256(ids.encode()).hexdigest()[:16]


def results_save(*, round_: Round, rows: Sequence[Edit[Game, str]]) -> list[Game]:
    """Enter or correct results of one evening: per board, the result the form showed and the
    one sent back ("" takes a result back). Only the boards the manager changed are written, in
    one transaction, with one recompute of the lists from this evening on. A board someone else
    changed since the form showed it refuses the whole save (competitions.edits.refuse_stale).
    Returns the games written (the given games get their new result too)."""
    for edit in rows:
        if edit.new and edit.new not in Game.Result.values:
            raise ValidationError(
                {"result": _("Unknown result %(result)s.") % {"result": edit.new}}
            )
    wanted = {edit.key.pk: edit for edit in changed(rows)}
    if not wanted:
        return []
    with transaction.atomic(), bulk_write():
        evening = _lock_round(round_)  # waits for an unpair or a delete of the evening
        games = list(round_.games.select_for_update().filter(pk__in=list(wanted)))
        if not evening or len(games) != len(wanted):  # unpaired or deleted meanwhile
            raise ValidationError(unpaired_message())
        boards = {game.pk: game.board for game in games}
        refuse_stale(
            [Edit(game.pk, wanted[game.pk].shown, wanted[game.pk].new) for game in games],
            {game.pk: game.result for game in games},
            label=lambda pk: _("Board %(n)s") % {"n": boards[pk]},
            records=lambda pk: Game.history.filter(id=pk).select_related("history_user")[:1],
        )
        written = [game for game in games if game.result != wanted[game.pk].new]
        for game in written:
            game.result = wanted[game.pk].key.result = wanted[game.pk].new
        if written:
            bulk_update_with_history(written, Game, ["result"])
            _changed(round_.season, round_)
    return written


def game_result_set(*, game: Game, result: str, shown: str = NOT_SHOWN) -> Game:
    """Enter or correct one game's result; "" takes it back. The quick entry passes the result
    its page showed for the board (`shown`): when someone else changed it since, nothing is
    saved (results_save). Without it (a script) the result is written whatever is stored."""
    results_save(round_=game.round, rows=[Edit(game, shown, result)])
    return game


def external_results(round_: Round) -> dict[int, str]:
    """keizer-variants.md §2.5: the results of an evening's external games, by player id."""
    return dict(
        ExternalResult.objects.filter(entry__round=round_).values_list("entry__player_id", "result")
    )


def external_results_save(*, round_: Round, results: Mapping[int, str]) -> None:
    """Set the results of an evening's external games (keizer-variants.md §2.5), by player id:
    "1", "1/2" or "0", or "" for none. One transaction; only players external that evening."""
    choices = set(ExternalResult.Result.values)
    with transaction.atomic():
        if not _lock_round(round_):
            raise ValidationError(unpaired_message())
        entries = {
            e.player_id: e
            for e in round_.entries.filter(status=Status.EXTERNAL).select_related("player")
        }
        stored = {
            row.entry.player_id: row
            for row in ExternalResult.objects.filter(entry__round=round_).select_related("entry")
        }
        changed_any = False
        for player_id, result in results.items():
            entry = entries.get(player_id)
            if entry is None:
                raise ValidationError(_("That player does not play externally this evening."))
            if result and result not in choices:
                raise ValidationError(
                    _("Unknown external result %(value)s for %(player)s.")
                    % {"value": result, "player": entry.player.name}
                )
            row = stored.get(player_id)
            if not result:
                if row is not None:
                    row.delete()
                    changed_any = True
            elif row is None:
                ExternalResult.objects.create(entry=entry, result=result)
                changed_any = True
            elif row.result != result:
                row.result = result
                row.save(update_fields=["result"])
                changed_any = True
        if changed_any:
            _changed(round_.season, round_)


def player_withdraw(*, entry: SeasonPlayer, withdrawn: bool) -> None:
    """Mark a player of the list as withdrawn, or back (keizer-variants.md §2.8): he is not
    paired any more; with `withdrawn_credit` on he is on no list and games against him are
    credited, retroactively, so the whole season is recomputed."""
    with transaction.atomic():
        row = Withdrawal.objects.filter(entry=entry).first()
        if withdrawn and row is None:
            Withdrawal.objects.create(entry=entry)
        elif not withdrawn and row is not None:
            row.delete()
        else:
            return
        _changed(entry.season)
