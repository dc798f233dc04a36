"""Manager pages: competition managers enter and correct results of their own series only."""

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import services
from .boardgame import parse_settings
from .forms import (
    CircuitSettingsForm,
    ClubForm,
    PlayerForm,
    SeasonForm,
    TableForm,
    TournamentForm,
)
from .models import Player, Season, Series, Table, Tournament
from .tables import ManageTournamentTable


def _apply_errors(form, error: ValidationError) -> None:
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)


def manager_required(view):
    """Logged in and manager of the series named in the URL (or staff); else 403."""

    @login_required
    @wraps(view)
    def wrapper(request, series, *args, **kwargs):
        found = get_object_or_404(Series, slug=series)
        if not found.is_manager(request.user):
            raise PermissionDenied(_("You do not manage this series."))
        return view(request, found, *args, **kwargs)

    return wrapper


def _season(series: Series, label: str) -> Season:
    return get_object_or_404(Season.objects.select_related("series"), series=series, label=label)


@login_required
def dashboard(request):
    if request.user.is_staff:
        series_list = Series.objects.all()
    else:
        series_list = request.user.managed_series.all()
    series_list = series_list.prefetch_related("seasons").order_by("name")
    return render(request, "competitions/dashboard.html", {"series_list": series_list})


@manager_required
def season_create(request, series):
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season = services.season_create(series=series, **form.cleaned_data)
        except ValidationError as exc:
            _apply_errors(form, exc)
        else:
            messages.success(request, _("Season %(label)s created.") % {"label": season.label})
            return redirect("manage:season", series.slug, season.label)
    return render(
        request,
        "competitions/form_page.html",
        {
            "form": form,
            "series": series,
            "title": _("New season of %(series)s") % {"series": series.name},
        },
    )


def _season_page(request, season: Season, form: TournamentForm, status: int = 200):
    tournaments = season.tournaments.select_related("season__series").annotate(
        tables=Count("rounds__tables")
    )
    return render(
        request,
        "competitions/season.html",
        {
            "season": season,
            "tournament_table": ManageTournamentTable(tournaments),
            "form": form,
            "settings": parse_settings(season.settings),
        },
        status=status,
    )


@manager_required
def season_manage(request, series, season):
    return _season_page(request, _season(series, season), TournamentForm())


@manager_required
def season_settings(request, series, season):
    season = _season(series, season)
    form = CircuitSettingsForm(
        request.POST or None, initial=CircuitSettingsForm.initial_for(season.settings)
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.season_settings_update(season=season, settings=form.to_settings())
        except ValidationError as exc:
            _apply_errors(form, exc)
        else:
            messages.success(request, _("Settings saved; the standings are being recomputed."))
            return redirect("manage:season", series.slug, season.label)
    return render(
        request,
        "competitions/form_page.html",
        {
            "form": form,
            "season": season,
            "series": series,
            "title": _("Settings of %(season)s") % {"season": season.name},
        },
    )


@manager_required
@require_POST
def tournament_create(request, series, season):
    season = _season(series, season)
    form = TournamentForm(request.POST)
    if form.is_valid():
        try:
            tournament = services.tournament_create(season=season, **form.cleaned_data)
        except ValidationError as exc:
            _apply_errors(form, exc)
        else:
            messages.success(request, _("Tournament %(name)s created.") % {"name": tournament.name})
            return redirect("manage:tournament", series.slug, season.label, tournament.key)
    return _season_page(request, season, form, status=400)


def _tournament(season: Season, key: str) -> Tournament:
    return get_object_or_404(Tournament, season=season, key=key)


@manager_required
def tournament_manage(request, series, season, tournament):
    season = _season(series, season)
    tournament = _tournament(season, tournament)
    form = TournamentForm(
        request.POST or None,
        initial={"name": tournament.name, "date": tournament.date, "final": tournament.final},
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.tournament_update(tournament=tournament, **form.cleaned_data)
        except ValidationError as exc:
            _apply_errors(form, exc)
        else:
            messages.success(request, _("Tournament saved."))
            return redirect("manage:tournament", series.slug, season.label, tournament.key)
    limit = parse_settings(season.settings).rounds_per_tournament
    counts = dict(tournament.rounds.annotate(n=Count("tables")).values_list("number", "n"))
    rounds = [{"number": n, "tables": counts.get(n, 0)} for n in range(1, limit + 1)]
    return render(
        request,
        "competitions/tournament.html",
        {"season": season, "tournament": tournament, "form": form, "rounds": rounds},
    )


@manager_required
@require_POST
def tournament_redraw(request, series, season, tournament):
    season = _season(series, season)
    tournament = _tournament(season, tournament)
    services.tournament_redraw(tournament=tournament)
    messages.success(
        request,
        _("A new lot was drawn for the prize ceremony of %(name)s.") % {"name": tournament.name},
    )
    return redirect("tournament", series.slug, season.label, tournament.key)


def _round_page(request, series, season, tournament, number, table=None):
    season = _season(series, season)
    tournament = _tournament(season, tournament)
    try:
        round_ = services.round_of(tournament=tournament, number=number)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("manage:tournament", series.slug, season.label, tournament.key)
    players = list(Player.objects.filter(series=series).select_related("club").order_by("name"))
    initial = TableForm.initial_for(table) if table else None
    form = TableForm(request.POST or None, players=players, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            saved = services.table_save(
                round_=round_,
                game=form.cleaned_data["game"],
                seats=form.cleaned_data["seats"],
                table=table,
            )
        except ValidationError as exc:
            _apply_errors(form, exc)
        else:
            messages.success(
                request,
                _("Table %(n)s saved: %(game)s, %(players)s players.")
                % {
                    "n": saved.number,
                    "game": saved.game,
                    "players": len(form.cleaned_data["seats"]),
                },
            )
            return redirect("manage:round", series.slug, season.label, tournament.key, number)
    tables = (
        list(round_.tables.prefetch_related("seats__player").order_by("number"))
        if round_.pk
        else []
    )
    seated = {s.player_id for t in tables for s in t.seats.all()}
    games = sorted(
        set(
            Table.objects.filter(round__season__series=series)
            .values_list("game", flat=True)
            .order_by("game")
            .distinct()
        )
    )
    limit = parse_settings(season.settings).rounds_per_tournament
    return render(
        request,
        "competitions/round.html",
        {
            "season": season,
            "tournament": tournament,
            "round": round_,
            "form": form,
            "tables": tables,
            "editing": table,
            "players": players,
            "games": games,
            "unseated": [p for p in players if p.pk not in seated],
            "round_numbers": range(1, limit + 1),
        },
        status=400 if request.method == "POST" else 200,
    )


def _table(series: Series, season: str, tournament: str, number: int, pk: int) -> Table:
    return get_object_or_404(
        Table,
        pk=pk,
        round__tournament__key=tournament,
        round__tournament__season__series=series,
        round__tournament__season__label=season,
        round__number=number,
    )


@manager_required
def round_manage(request, series, season, tournament, number):
    return _round_page(request, series, season, tournament, number)


@manager_required
def table_edit(request, series, season, tournament, number, table):
    found = _table(series, season, tournament, number, table)
    return _round_page(request, series, season, tournament, number, table=found)


@manager_required
@require_POST
def table_delete(request, series, season, tournament, number, table):
    found = _table(series, season, tournament, number, table)
    services.table_delete(table=found)
    messages.success(request, _("Table %(n)s deleted.") % {"n": found.number})
    return redirect("manage:round", series.slug, season, tournament, number)


@manager_required
def players(request, series):
    player_form = PlayerForm(
        request.POST if "add_player" in request.POST else None, series=series, prefix="player"
    )
    club_form = ClubForm(request.POST if "add_club" in request.POST else None, prefix="club")
    if request.method == "POST":
        if "add_player" in request.POST and player_form.is_valid():
            player = services.player_create(series=series, **player_form.cleaned_data)
            messages.success(request, _("Player %(name)s added.") % {"name": player.name})
            target = request.POST.get("next", "")
            if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
                target = reverse("manage:players", args=[series.slug])
            return redirect(target)
        if "add_club" in request.POST and club_form.is_valid():
            club = services.club_create(series=series, **club_form.cleaned_data)
            messages.success(request, _("Club %(name)s added.") % {"name": club.name})
            return redirect("manage:players", series.slug)
    return render(
        request,
        "competitions/players.html",
        {
            "series": series,
            "player_form": player_form,
            "club_form": club_form,
            "players": series.players.select_related("club").order_by("name"),
            "clubs": series.clubs.annotate(n=Count("players")).order_by("name"),
        },
        status=400 if request.method == "POST" else 200,
    )
