"""Keizer manager pages: the season's list, an evening's attendance, its printable pairing list
and its results. (Pairing the evening is the pairings app's page.)

Every view gets the season from the shared dispatcher (competitions.views.season_page), which
has already checked that the user manages the series.
"""

import datetime
from dataclasses import dataclass
from decimal import Decimal

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from competitions.models import Game, Round, RoundEntry, Season, SeasonPlayer
from competitions.text import name_order, plain_number
from competitions.views import apply_errors, manage_url

from . import selectors, services
from .forms import AddPlayerForm, AttendanceForm, ListFormSet, QuickResultForm, ResultsForm
from .models import ExternalResult
from .settings import described, parse_settings, resolved
from .tables import EveningTable, PrintTable
from .values import place_values

Status = RoundEntry.Status


def _move_in_url(season: Season) -> str | None:
    """The page moving a season in from KeizerForClubs (the rankings app's: it imports,
    recomputes and checks the standings; added with the system's manager URLconfs), if there."""
    try:
        return manage_url(season, "keizer_move_in")
    except NoReverseMatch:
        return None


def season_panel(request, season: Season):
    """The Keizer part of the manager's season page: the evenings and what to do next."""
    evenings = selectors.evenings(season)
    last = evenings[-1] if evenings else None
    waiting = last if last and last.state == selectors.ATTENDANCE_TAKEN else None
    can_open_next = not season.closed and (
        last is None or last.state in (selectors.PAIRED, selectors.COMPLETE)
    )
    return "competitions/keizer/season_panel.html", {
        "evening_table": EveningTable(list(reversed(evenings)), season=season),
        "next_number": (last.number + 1) if last else 1,
        "can_open_next": can_open_next,
        "waiting": waiting,
        "missing_results": [e for e in evenings if e.state == selectors.PAIRED],
        "list_size": season.entries.count(),
        "settings": parse_settings(season.settings),
        "rules": described(season.settings),
        "move_in_url": _move_in_url(season),
    }


# --- the season's list ------------------------------------------------------------------------


def season_list(request, season: Season):
    """Season set-up: the initial list ordered by strength, start points, late entrants, and
    closing the season."""
    entries = selectors.list_entries(season)
    by_pk = {e.pk: e for e in entries}
    action = request.POST.get("action") if request.method == "POST" else None
    # Read only when saving: the page writes its lines from the entries (_list_rows).
    formset = ListFormSet(request.POST if action == "save_list" else None, prefix="list")
    add_form = AddPlayerForm(request.POST if action == "add" else None, season=season, prefix="add")
    if action == "save_list" and formset.is_valid():
        rows = []
        for form in formset:
            entry = by_pk.get(form.cleaned_data["entry"])
            if entry is None:
                messages.error(request, _("The list changed meanwhile; please check it again."))
                return redirect(manage_url(season, "keizer_list"))
            rows.append((entry, form.cleaned_data["position"], form.cleaned_data["start_points"]))
        services.season_list_update(season=season, rows=rows)
        messages.success(request, _("The list is saved; the standings are being recomputed."))
        return redirect(manage_url(season, "keizer_list"))
    if action == "add" and add_form.is_valid():
        try:
            entry = services.season_player_add(
                season=season,
                player=add_form.cleaned_data["player"],
                name=add_form.cleaned_data["name"],
                start_points=add_form.cleaned_data["start_points"],
            )
        except ValidationError as exc:
            add_form.add_error(None, exc)
        else:
            messages.success(request, _("%(name)s is on the list.") % {"name": entry.player.name})
            return redirect(manage_url(season, "keizer_list"))
    if action == "withdraw":  # keizer-variants.md §2.8: withdrawn, or back
        entry = by_pk.get(_int(request.POST.get("entry")))
        if entry is None:
            raise Http404(_("No such player on the list."))
        withdrawn = request.POST.get("withdrawn") == "1"
        services.player_withdraw(entry=entry, withdrawn=withdrawn)
        if withdrawn:
            message = _("%(name)s has withdrawn: not paired any more.")
        else:
            message = _("%(name)s is back: paired again.")
        messages.success(request, message % {"name": entry.player.name})
        return redirect(manage_url(season, "keizer_list"))
    if action == "remove":
        entry = by_pk.get(_int(request.POST.get("entry")))
        if entry is None:
            raise Http404(_("No such player on the list."))
        try:
            services.season_player_remove(entry=entry)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(request, _("%(name)s is off the list.") % {"name": entry.player.name})
        return redirect(manage_url(season, "keizer_list"))
    if action == "close":
        try:
            services.season_close(season=season, closed=request.POST.get("closed") == "1")
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(
                request,
                _("The season is closed: its final list has no start points.")
                if season.closed
                else _("The season is open again."),
            )
        return redirect(manage_url(season, "keizer_list"))
    playing = set(
        RoundEntry.objects.filter(round__season=season).values_list("player_id", flat=True)
    )
    return render(
        request,
        "competitions/keizer/list.html",
        {
            "season": season,
            "formset": formset,
            "rows": _list_rows(
                formset,
                entries,
                _default_values(season, len(entries)),
                playing,
                services.withdrawn_ids(season),
            ),
            "add_form": add_form,
            "played": selectors.evenings(season) != [],
        },
        status=400 if request.method == "POST" else 200,
    )


@dataclass(frozen=True)
class ListRow:
    """One line of the list form, as the template writes it: the values typed or stored (as
    text, never localised: a number field refuses "12,5"), their errors, the place's value."""

    prefix: str  # of its fields' names: "list-0"
    entry: SeasonPlayer
    position: str
    start_points: str
    default: int
    removable: bool
    withdrawn: bool
    position_errors: list
    start_points_errors: list


def _list_rows(
    formset, entries: list[SeasonPlayer], defaults: list[int], playing: set, withdrawn: set
) -> list:
    """The list's lines, in stored order. Straight from the entries: building 2000 forms and
    rendering 4000 widgets took most of the page's time. After a rejected save, each line shows
    what was typed for that player (matched by entry, not by line: the list may have changed
    meanwhile), with its errors."""
    typed = {str(form["entry"].value()): form for form in formset} if formset.is_bound else {}
    rows = []
    for i, entry in enumerate(entries):
        form = typed.get(str(entry.pk))
        if form is None:
            position, start_points, errors = str(i + 1), plain_number(entry.start_points), {}
        else:
            position = form["position"].value() or ""
            start_points = form["start_points"].value() or ""
            errors = form.errors
        rows.append(
            ListRow(
                prefix=f"{formset.prefix}-{i}",
                entry=entry,
                position=position,
                start_points=start_points,
                default=defaults[i],
                removable=entry.player_id not in playing,
                withdrawn=entry.player_id in withdrawn,
                position_errors=errors.get("position", []),
                start_points_errors=errors.get("start_points", []),
            )
        )
    return rows


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _default_values(season: Season, n: int) -> list:
    """The value of each place of the initial list: the start points of those without their
    own (rules.md §4.1, keizer-variants.md §1.2), by the engine's own formula (`values`)."""
    settings = parse_settings(season.settings)
    found = place_values(
        n,
        top_value=settings.top_value,
        step=settings.step,
        ratio=settings.value_ratio,
        normalised_values=settings.normalised_values,
        rounding=settings.top_value_rounding,
    )
    return [v if isinstance(v, int) else Decimal(v.numerator) / v.denominator for v in found]


# --- an evening ---------------------------------------------------------------------------------


def _round(season: Season, number: int) -> Round:
    round_ = get_object_or_404(Round, season=season, tournament=None, group=None, number=number)
    round_.season = season
    return round_


def _next_date(season: Season, number: int) -> datetime.date | None:
    """A new evening's date suggested: a week after the last evening's, clubs meet weekly."""
    last = (
        Round.objects.filter(season=season, tournament=None, group=None, number__lt=number)
        .exclude(date=None)
        .order_by("-number")
        .values_list("date", flat=True)
        .first()
    )
    return last + datetime.timedelta(weeks=1) if last else None


def attendance(request, season: Season, number: int):
    """An evening's attendance: one click per player, defaults from the last evening."""
    round_ = Round.objects.filter(season=season, tournament=None, group=None, number=number).first()
    if round_ is None:
        evenings = selectors.evenings(season)
        next_number = evenings[-1].number + 1 if evenings else 1
        if number != next_number:
            raise Http404(_("No such evening."))
    current = {}
    if round_ is not None:
        current = {e.player_id: e for e in round_.entries.all()}
    # keizer-variants.md §2.8: a withdrawn player is not paired any more (no line here).
    withdrawn = services.withdrawn_ids(season) - set(current)
    entries = sorted(
        (e for e in selectors.list_entries(season) if e.player_id not in withdrawn),
        key=lambda e: (name_order(e.player.name), e.pk),
    )
    offered = services.attendance_choices(season)
    if any(e.status == Status.LONG_ABSENT for e in current.values()):
        offered = services.ATTENDANCE
    locked = {
        pid
        for pid, e in current.items()
        if e.status in (Status.PLAYED, Status.BYE, Status.WALKOVER)
    }
    copy = request.GET.get("from") == "last"
    defaults = services.attendance_defaults(season=season, number=number, copy=copy)
    initial = {"date": round_.date if round_ else _next_date(season, number)}
    volunteer = None
    for entry in entries:
        found = current.get(entry.player_id)
        if found is not None:
            status = Status.PRESENT if entry.player_id in locked else found.status
            if found.volunteer_bye:
                volunteer = entry.player_id
        else:
            status = defaults.get(entry.player_id, Status.PRESENT)
        initial[f"p{entry.player_id}"] = status
    initial["volunteer"] = volunteer
    form = AttendanceForm(
        request.POST or None, initial=initial, entries=entries, locked=locked, statuses=offered
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.attendance_save(
                season=season,
                number=number,
                date=form.cleaned_data["date"],
                statuses=form.statuses(),
                volunteer=form.volunteer_entry(),
                shown=form.shown(),
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Attendance of evening %(n)s saved.") % {"n": number})
            if "pair" in request.POST and not locked:
                return redirect(manage_url(season, "pair", number))
            return redirect(manage_url(season))
    return render(
        request,
        "competitions/keizer/attendance.html",
        {
            "season": season,
            "number": number,
            "round": round_,
            "form": form,
            "paired": bool(locked),
            "fresh": round_ is None and number > 1,
            "copied": copy,
            "long_absent": Status.LONG_ABSENT in offered,
        },
        status=400 if request.method == "POST" else 200,
    )


def results(request, season: Season, number: int):
    """Result entry, keyboard-fast: board, result, Enter; below it every board at once."""
    round_ = Round.objects.filter(season=season, tournament=None, group=None, number=number).first()
    if round_ is None:
        if request.method == "POST":  # the evening was deleted since the page was opened
            messages.error(request, services.unpaired_message())
            return redirect(manage_url(season))
        raise Http404(_("No such evening."))
    round_.season = season
    boards = selectors.boards(round_)
    games = {b.game.board: b.game for b in boards}
    pairing = services.pairing_fingerprint(b.game for b in boards)
    sent = request.POST.get("pairing")
    if request.method == "POST" and (
        # The page showed another pairing (taken back since, perhaps made again), or, a post
        # without the pairing, boards the evening no longer has.
        (sent is not None and sent != pairing) or (sent is None and not games)
    ):
        messages.error(request, services.unpaired_message())
        return redirect(manage_url(season, "results", number))
    quick = QuickResultForm(
        request.POST if "quick" in request.POST else None,
        games=games,
        initial={"board": next((b for b, g in sorted(games.items()) if not g.result), None)},
    )
    grid = ResultsForm(
        request.POST if "all" in request.POST else None, games=[b.game for b in boards]
    )
    if request.method == "POST":
        if quick.is_bound and quick.is_valid():
            game = games[quick.cleaned_data["board"]]
            try:
                services.game_result_set(
                    game=game, result=quick.cleaned_data["result"], shown=quick.shown_result()
                )
            except ValidationError as exc:
                gone = _refused(request, season, round_, quick, exc)
                if gone is not None:
                    return gone
            else:
                messages.success(
                    request,
                    _("Board %(n)s: %(result)s.")
                    % {"n": game.board, "result": game.result or _("no result")},
                )
                return redirect(manage_url(season, "results", number))
        if grid.is_bound and grid.is_valid():
            try:
                services.results_save(round_=round_, rows=grid.edits())
            except ValidationError as exc:
                gone = _refused(request, season, round_, grid, exc)
                if gone is not None:
                    return gone
            else:
                messages.success(request, _("Results of evening %(n)s saved.") % {"n": number})
                return redirect(manage_url(season, "results", number))
    lists = selectors.round_lists(round_)
    # keizer-variants.md §2.5: the results of the external games, where the rules score them.
    external = lists.get(Status.EXTERNAL, [])
    stored_external = services.external_results(round_) if external else {}
    by_result = bool(external) and (
        resolved(season.settings or {}).get("external_by_result") or bool(stored_external)
    )
    if request.method == "POST" and "external" in request.POST and by_result:
        try:
            services.external_results_save(
                round_=round_,
                results={
                    e.player_id: request.POST.get(f"ext{e.player_id}", "")
                    for e in external
                    if f"ext{e.player_id}" in request.POST
                },
            )
        except ValidationError as exc:
            for message in exc.messages:
                messages.error(request, message)
        else:
            messages.success(request, _("External results of evening %(n)s saved.") % {"n": number})
        return redirect(manage_url(season, "results", number))
    rows = [(b, grid[f"board{b.game.board}"]) for b in boards]
    return render(
        request,
        "competitions/keizer/results.html",
        {
            "season": season,
            "round": round_,
            "quick": quick,
            "grid": grid,
            "rows": rows,
            "missing": sum(1 for b in boards if not b.game.result),
            "pairing": pairing,
            "lists": lists,
            "external_rows": [(e, stored_external.get(e.player_id, "")) for e in external]
            if by_result
            else [],
            "external_choices": [("", _("no result"))] + list(ExternalResult.Result.choices),
        },
        status=400 if request.method == "POST" else 200,
    )


def _refused(request, season: Season, round_: Round, form, exc: ValidationError):
    """A refused results save (quick entry or grid). The evening still paired: its results
    page shows the refusal with what was typed (None: the caller renders it). Unpaired or
    deleted meanwhile: the manager is sent back with the message (`_back_to`)."""
    if Game.objects.filter(round_id=round_.pk).exists():
        apply_errors(form, exc)
        return None
    messages.error(request, " ".join(exc.messages))
    return _back_to(season, round_)


def _back_to(season: Season, round_: Round):
    """After a refused results save: the evening's results page, or the season's page when the
    evening was deleted meanwhile (its results page is gone)."""
    if Round.objects.filter(pk=round_.pk).exists():
        return redirect(manage_url(season, "results", round_.number))
    return redirect(manage_url(season))


def print_round(request, season: Season, number: int):
    """The pairing list to print: A4, large type, board numbers."""
    round_ = _round(season, number)
    boards = selectors.boards(round_)
    lists = selectors.round_lists(round_)
    return render(
        request,
        "competitions/keizer/print.html",
        {
            "season": season,
            "round": round_,
            "table": PrintTable(
                [
                    {
                        "board": b.game.board,
                        "white": b.white,
                        "black": b.black,
                        "result": b.game.get_result_display() if b.game.result else "",
                    }
                    for b in boards
                ]
            ),
            "bye": [e.player for e in lists.get(Status.BYE, [])],
            "absent": [e.player for e in lists.get(Status.ABSENT, [])],
            "long_absent": [e.player for e in lists.get(Status.LONG_ABSENT, [])],
            "external": [e.player for e in lists.get(Status.EXTERNAL, [])],
            "unexcused": [e.player for e in lists.get(Status.UNEXCUSED, [])],
        },
    )


def _deleted_meanwhile(request, season: Season, number: int):
    """A POST about an evening that is gone (another manager deleted it): said, not a 404."""
    messages.error(
        request, _("Evening %(n)s was deleted meanwhile; nothing was changed.") % {"n": number}
    )
    return redirect(manage_url(season))


@require_POST
def round_delete(request, season: Season, number: int):
    round_ = Round.objects.filter(season=season, tournament=None, group=None, number=number).first()
    if round_ is None:
        return _deleted_meanwhile(request, season, number)
    round_.season = season
    try:
        services.round_delete(round_=round_)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Evening %(n)s deleted.") % {"n": number})
    return redirect(manage_url(season))


@require_POST
def unpair(request, season: Season, number: int):
    round_ = Round.objects.filter(season=season, tournament=None, group=None, number=number).first()
    if round_ is None:
        return _deleted_meanwhile(request, season, number)
    round_.season = season
    try:
        services.round_pairing_undo(round_=round_)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect(manage_url(season, "results", number))
    messages.success(request, _("The pairing of evening %(n)s is taken back.") % {"n": number})
    return redirect(manage_url(season, "pair", number))
