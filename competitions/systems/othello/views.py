"""Othello GP manager pages: the season's tournaments, and a tournament's final standings typed
or uploaded.

Every view gets the season from the shared dispatcher (competitions.views.season_page), which
has already checked that the user manages the series.
"""

import json

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from competitions.models import Season
from competitions.selectors import series_players
from competitions.views import (
    apply_errors,
    manage_url,
    season_tournament,
    tournament_create_view,
    tournaments_panel,
)

from . import services
from .entry import HEADER_NAMES, standings_as_text
from .finder import finder_options
from .forms import GPTournamentForm, StandingsForm, UploadForm
from .ratings import RatingEntry, describe
from .settings import decimal_text, parse_settings, tournament_flags
from .tables import ManageTournamentTable

UPLOAD_PREFIX = "csv"


def season_panel(request, season: Season, form: GPTournamentForm | None = None):
    """The GP part of the manager's season page: its tournaments and a new one."""
    settings = parse_settings(season.settings)
    return tournaments_panel(
        season,
        "competitions/othello/season_panel.html",
        ManageTournamentTable,
        form or GPTournamentForm(season=season),
        {"participants": Count("placements")},
        settings=settings,
        max_factor=decimal_text(settings.max_factor),
        max_base=decimal_text(settings.max_base),
    )


@require_POST
def tournament_create(request, season: Season):
    return tournament_create_view(
        request,
        season,
        GPTournamentForm,
        lambda data: services.tournament_create(season=season, **data),
    )


def tournament_manage(request, season: Season, tournament: str):
    """The tournament's final standings (typed or uploaded) and its details."""
    tournament = season_tournament(season, tournament)
    settings = parse_settings(season.settings)
    placements = list(tournament.placements.select_related("player").order_by("place"))
    players = series_players(season.series_id)
    kind = request.POST.get("form") if request.method == "POST" else None
    sm, egp = tournament_flags(tournament.options)
    details = GPTournamentForm(
        request.POST if kind == "details" else None,
        season=season,
        tournament=tournament,
        initial={"name": tournament.name, "date": tournament.date, "sm": sm, "egp": egp},
        prefix="details",
    )
    typed = StandingsForm(
        request.POST if kind == "typed" else None,
        players=players,
        country=settings.country,
        initial={"text": standings_as_text(placements)},
    )
    upload = UploadForm(
        request.POST if kind == "upload" else None,
        request.FILES if kind == "upload" else None,
        players=players,
        country=settings.country,
        prefix=UPLOAD_PREFIX,
    )
    if kind == "details" and details.is_valid():
        try:
            services.tournament_update(tournament=tournament, **details.cleaned_data)
        except ValidationError as exc:
            apply_errors(details, exc)
        else:
            messages.success(request, _("Tournament saved."))
            return redirect(manage_url(season, "tournament", tournament.key))
    entry = {"typed": typed, "upload": upload}.get(kind)
    if entry is not None and entry.is_valid():
        try:
            added = services.standings_save(
                tournament=tournament,
                rows=entry.rows,
                shown=typed.shown_rows() if entry is typed else None,
            )
        except ValidationError as exc:
            apply_errors(entry, exc)
        else:
            message = ngettext(
                "Final standings of %(name)s saved: %(n)s participant.",
                "Final standings of %(name)s saved: %(n)s participants.",
                len(entry.rows),
            ) % {"name": tournament.name, "n": len(entry.rows)}
            if added:
                message += " " + _("New players: %(names)s.") % {
                    "names": ", ".join(p.name for p in added)
                }
            messages.success(request, message)
            return redirect(manage_url(season, "tournament", tournament.key))
    rows = [
        {
            "place": p.place,
            "name": p.player.name,
            "key": p.player.key,
            "country": p.country,
            "rating": describe(RatingEntry.of(p)),
            "foreign": p.country != settings.country,
        }
        for p in placements
    ]
    return render(
        request,
        "competitions/othello/tournament.html",
        {
            "season": season,
            "tournament": tournament,
            "details_form": details,
            "typed_form": typed,
            "upload_form": upload,
            "active": kind or "typed",
            "placements": rows,
            "finder_options": finder_options(players, season.series_id, settings.country),
            "header_names": json.dumps(HEADER_NAMES),
            "country": settings.country,
        },
        status=400 if request.method == "POST" else 200,
    )
