"""Board-game manager pages: tournaments, rounds and fast entry of a table's result.

Every view gets the season from the shared dispatcher (competitions.views.season_page), which
has already checked that the user manages the series.
"""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Count, Exists, OuterRef
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from competitions import services as shared_services
from competitions.models import Season, Tournament
from competitions.selectors import series_players
from competitions.text import fold, isolated, isolated_text
from competitions.views import (
    apply_errors,
    confirm_delete,
    manage_url,
    manage_urls,
    render_season_manage,
    tournament_create_view,
    tournaments_panel,
)

from . import services
from .forms import CircuitTournamentForm, GameRenameForm, NewPlayer, TableForm
from .models import FinalTournament, Seat, Table
from .settings import parse_settings
from .tables import ManageTournamentTable


def _games(season: Season) -> list[tuple[str, int]]:
    """The season's game titles with their number of tables."""
    rows = (
        Table.objects.filter(round__season=season)
        .values_list("game")
        .annotate(n=Count("id"))
        .order_by("game")
    )
    return sorted(rows, key=lambda row: (fold(row[0]), row[0]))


def season_panel(
    request,
    season: Season,
    form: CircuitTournamentForm | None = None,
    rename_form: GameRenameForm | None = None,
):
    """The board-game part of the manager's season page: its tournaments and a new one, and
    its games (a title renamed, or two titles of one game merged)."""
    games = _games(season)
    return tournaments_panel(
        season,
        "competitions/boardgame/season_panel.html",
        ManageTournamentTable,
        form or CircuitTournamentForm(season=season),
        {"tables": Count("rounds__tables"), "final": _is_final()},
        settings=parse_settings(season.settings),
        rename_form=rename_form or GameRenameForm(games=games),
        games=games,
    )


@require_POST
def game_rename(request, season: Season):
    form = GameRenameForm(request.POST, games=_games(season))
    if form.is_valid():
        old = form.cleaned_data["title"]
        try:
            new, n = services.game_rename(season=season, title=old, new=form.cleaned_data["new"])
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(
                request,
                ngettext(
                    "%(n)s table of %(old)s now has the game %(new)s.",
                    "%(n)s tables of %(old)s now have the game %(new)s.",
                    n,
                )
                % {"n": n, "old": isolated_text(old), "new": isolated_text(new)},
            )
            return redirect(manage_url(season))
    return render_season_manage(request, season, status=400, rename_form=form)


@require_POST
def tournament_create(request, season: Season):
    return tournament_create_view(
        request,
        season,
        CircuitTournamentForm,
        lambda data: services.tournament_create(
            season=season,
            name=data["name"],
            date=data["date"],
            final=data["final"],
            namesake_ok=data["namesake_ok"],
        ),
    )


def _is_final():
    return Exists(FinalTournament.objects.filter(tournament=OuterRef("pk")))


def _tournament(season: Season, key: str) -> Tournament:
    """The season's tournament, with `final` (whether it is the season's final)."""
    tournament = get_object_or_404(
        Tournament.objects.annotate(final=_is_final()), season=season, key=key
    )
    tournament.season = season  # with its series, loaded already
    return tournament


def tournament_manage(request, season: Season, tournament: str):
    tournament = _tournament(season, tournament)
    form = CircuitTournamentForm(
        request.POST or None,
        season=season,
        tournament=tournament,
        initial={"name": tournament.name, "date": tournament.date, "final": tournament.final},
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.tournament_update(
                tournament=tournament,
                name=form.cleaned_data["name"],
                date=form.cleaned_data["date"],
                final=form.cleaned_data["final"],
            )
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(request, _("Tournament saved."))
            return redirect(manage_url(season, "tournament", tournament.key))
    limit = parse_settings(season.settings).rounds_per_tournament
    counts = dict(tournament.rounds.annotate(n=Count("tables")).values_list("number", "n"))
    rounds = [{"number": n, "tables": counts.get(n, 0)} for n in range(1, limit + 1)]
    return render(
        request,
        "competitions/boardgame/tournament.html",
        {"season": season, "tournament": tournament, "form": form, "rounds": rounds},
        status=400 if request.method == "POST" else 200,
    )


def tournament_delete(request, season: Season, tournament: str):
    tournament = _tournament(season, tournament)
    answer = confirm_delete(
        request,
        what=_("tournament %(name)s") % {"name": tournament.name},
        obj=tournament,
        back=manage_url(season, "tournament", tournament.key),
        done=lambda: shared_services.tournament_delete(tournament=tournament),
        template_context={"season": season},
    )
    return answer or redirect(manage_url(season))


@require_POST
def tournament_redraw(request, season: Season, tournament: str):
    tournament = _tournament(season, tournament)
    shared_services.tournament_redraw(tournament=tournament)
    messages.success(
        request,
        _("A new lot was drawn for the prize ceremony of %(name)s.") % {"name": tournament.name},
    )
    return redirect(manage_url(season, "tournament", tournament.key))


def _round_page(request, season: Season, tournament: str, number: int, table=None):
    tournament = _tournament(season, tournament)
    series = season.series
    try:
        round_ = services.round_of(tournament=tournament, number=number)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect(manage_url(season, "tournament", tournament.key))
    players = series_players(series.pk, clubs=True)
    games = sorted(
        set(
            Table.objects.filter(round__season__series=series)
            .values_list("game", flat=True)
            .order_by("game")
            .distinct()
        )
    )
    initial = None
    if table is not None:
        initial = {**TableForm.initial_for(table), "loaded": services.table_fingerprint(table)}
    form = TableForm(request.POST or None, players=players, games=games, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            saved = services.table_save(
                round_=round_,
                game=form.cleaned_data["game"],
                seats=form.cleaned_data["seats"],
                table=table,
                loaded=form.cleaned_data["loaded"],
                series=series,
            )
        except ValidationError as exc:
            apply_errors(form, exc)
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
            _new_players_without_club(request, saved, form.cleaned_data["seats"])
            return redirect(manage_url(season, "round", tournament.key, number))
    tables = _entered(season, tournament, round_) if round_.pk else []
    seated = {player for t in tables for player in t["players"]}
    limit = parse_settings(season.settings).rounds_per_tournament
    return render(
        request,
        "competitions/boardgame/round.html",
        {
            "season": season,
            "tournament": tournament,
            "round": round_,
            "form": form,
            "tables": tables,
            "editing": table,
            "players": players,
            "games": games,
            "unseated": [isolated(p.name) for p in players if p.pk not in seated],
            "round_numbers": range(1, limit + 1),
        },
        status=400 if request.method == "POST" else 200,
    )


def _new_players_without_club(request, table: Table, seats) -> None:
    """A player created at a table has no club yet, and the interclub counts players by club
    (issue 46): the page says so, with a link to give each one their club."""
    typed = {fold(str(p)) for p, _rank in seats if isinstance(p, NewPlayer)}
    if not typed:
        return
    created = table.seats.filter(player__club=None).select_related("player__series")
    for player in (seat.player for seat in created):
        if fold(player.name) in typed:
            messages.warning(
                request,
                format_html(
                    _(
                        '{} is a new player without a club: <a href="{}">give them their club</a> '
                        "(the interclub counts players by club)."
                    ),
                    isolated(player.name),
                    reverse("manage:player_edit", args=[player.series.slug, player.key]),
                ),
            )


def _entered(season: Season, tournament: Tournament, round_) -> list[dict]:
    """The round's tables as the page lists them (2 queries, no model per seat: a round of
    2000 players has 450 tables): number, game, the seats as "rank. name" in rank order, the
    players' ids, and the links to correct and delete it."""
    edit = manage_urls(season, "table_edit", tournament.key, round_.number)
    delete = manage_urls(season, "table_delete", tournament.key, round_.number)
    tables = {
        pk: {
            "pk": pk,
            "number": number,
            "game": game,
            "seats": [],
            "players": [],
            "edit_url": edit(pk),
            "delete_url": delete(pk),
        }
        for pk, number, game in round_.tables.order_by("number").values_list("pk", "number", "game")
    }
    # The seats of the tables listed (a table another manager saves meanwhile is not listed:
    # its seats are not read), in the model's order: table, rank, player key.
    for table, rank, player, name in Seat.objects.filter(table__in=list(tables)).values_list(
        "table_id", "rank", "player_id", "player__name"
    ):
        tables[table]["seats"].append(format_html("{}. {}", rank, isolated(name)))
        tables[table]["players"].append(player)
    return list(tables.values())


def _table(season: Season, tournament: str, number: int, pk: int) -> Table:
    return get_object_or_404(
        Table,
        pk=pk,
        round__tournament__key=tournament,
        round__tournament__season=season,
        round__number=number,
    )


def round_manage(request, season: Season, tournament: str, number: int):
    return _round_page(request, season, tournament, number)


def _table_gone(request, season: Season, tournament: str, number: int):
    """A POST about a table another manager deleted meanwhile: said, not a 404."""
    messages.error(
        request, _("This table was deleted meanwhile; nothing was saved. Reload the round.")
    )
    return redirect(manage_url(season, "round", tournament, number))


def table_edit(request, season: Season, tournament: str, number: int, table: int):
    try:
        found = _table(season, tournament, number, table)
    except Http404:
        if request.method != "POST":
            raise
        return _table_gone(request, season, tournament, number)
    return _round_page(request, season, tournament, number, table=found)


@require_POST
def table_delete(request, season: Season, tournament: str, number: int, table: int):
    try:
        found = _table(season, tournament, number, table)
    except Http404:
        return _table_gone(request, season, tournament, number)
    services.table_delete(table=found)
    messages.success(request, _("Table %(n)s deleted.") % {"n": found.number})
    return redirect(manage_url(season, "round", tournament, number))
