"""Manager pages shared by every system: managers change their own series only.

A season's system-specific pages (result entry, attendance, pools, ...) are the system's own
views, reached through `season_page`, which checks the manager and resolves the rest of the path
against the system's `manage_urls`.
"""

import json
import logging
from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from . import merging, services
from .dispatch import resolve_system_page, system_url
from .forms import ClubForm, PlayerForm, SeasonForm, settings_form_for
from .links import key_urls
from .models import Season, Series, Tournament
from .registry import get_system
from .selectors import players_found

logger = logging.getLogger(__name__)


def apply_errors(form, error: ValidationError) -> None:
    """Show a service's ValidationError on the form, by field where it names one."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)


def manager_required(view):
    """Logged in and manager of the series named in the URL (Series.is_manager); else 403."""

    @login_required
    @wraps(view)
    def wrapper(request, series, *args, **kwargs):
        found = get_object_or_404(Series, slug=series)
        if not found.is_manager(request.user):
            raise PermissionDenied(_("You do not manage this series."))
        return view(request, found, *args, **kwargs)

    return wrapper


def season_of(series: Series, slug: str) -> Season:
    return get_object_or_404(Season.objects.select_related("series"), series=series, slug=slug)


def manage_url(season: Season, name: str = "", *args, **kwargs) -> str:
    """The manager's season page, or the system's manager page `name` of the season."""
    base = reverse("manage:season", args=[season.series.slug, season.slug])
    if not name:
        return base
    return system_url(base, get_system(season.system).manage_urls, name, *args, **kwargs)


def manage_urls(season: Season, name: str, *args) -> Callable[[int], str]:
    """pk -> manage_url(season, name, *args, pk), without a reverse() per row (a round of
    2000 players lists 450 tables, each with two links)."""
    marker = 987654321
    head, tail = manage_url(season, name, *args, marker).rsplit(str(marker), 1)
    return lambda pk: f"{head}{int(pk)}{tail}"


def season_tournament(season: Season, key: str) -> Tournament:
    """A tournament of the season by its key (404 otherwise), its season the one given (with
    its series, loaded already)."""
    tournament = get_object_or_404(Tournament, season=season, key=key)
    tournament.season = season
    return tournament


def tournaments_panel(season: Season, template: str, table, form, count: dict, **extra):
    """A season panel of the shared layout (`competitions/_season_panel.html`): the season's
    tournaments in `table` with the annotations `count` (e.g. a tournament's tables), and
    `form` for a new one."""
    tournaments = season.tournaments.select_related("season__series").annotate(**count)
    return template, {"tournament_table": table(tournaments), "form": form, **extra}


def tournament_create_view(request, season: Season, form_class, create: Callable):
    """The POST of a panel's new-tournament form: `create(form.cleaned_data)` stores it (one
    service call), then the tournament's page; a refused form shows the panel again. The data
    has `namesake_ok`: whether the manager confirmed a tournament of the same name and date."""
    form = form_class(request.POST, season=season)
    if form.is_valid():
        try:
            tournament = create({**form.cleaned_data, "namesake_ok": form.confirmed})
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(request, _("Tournament %(name)s created.") % {"name": tournament.name})
            return redirect(manage_url(season, "tournament", tournament.key))
    return render_season_manage(request, season, status=400, form=form)


@login_required
def dashboard(request):
    if request.user.has_perm("competitions.manage_all_series"):
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
            apply_errors(form, exc)
        else:
            messages.success(request, _("Season %(label)s created.") % {"label": season.label})
            return redirect(manage_url(season))
    return render(
        request,
        "competitions/form_page.html",
        {
            "form": form,
            "series": series,
            "title": _("New season of %(series)s") % {"series": series.name},
        },
        status=400 if request.method == "POST" else 200,
    )


def render_season_manage(request, season: Season, *, status: int = 200, **panel_kwargs):
    """The manager's season page: the shared part and the system's panel (`manage_panel`).
    A system view that refuses a form posted from the panel renders it again through this."""
    spec = get_system(season.system)
    panel = spec.panel()
    template, context = panel(request, season, **panel_kwargs) if panel else (None, {})
    # The standings are the app above's: the URL of its "Recompute now" comes with them.
    recompute_url = spec.standings.recompute_url(season) if spec.available else None
    return render(
        request,
        "competitions/season.html",
        {
            "season": season,
            "spec": spec,
            "recompute_url": recompute_url,
            "panel_template": template,
            **context,
        },
        status=status,
    )


@manager_required
def season_manage(request, series, season):
    return render_season_manage(request, season_of(series, season))


# The settings a settings form was opened with, sent back with it (architecture.md "One write
# per action": what the form showed).
SHOWN_SETTINGS = "shown_settings"


def shown_settings(request) -> dict | None:
    """The stored settings the posted settings form was opened with; None when the post does
    not say (a client without the page's hidden field: its settings are stored whole)."""
    try:
        shown = json.loads(request.POST.get(SHOWN_SETTINGS, ""))
    except ValueError:
        return None
    return shown if isinstance(shown, dict) else None


@manager_required
def season_settings(request, series, season):
    season = season_of(series, season)
    system = get_system(season.system)
    spec = system.settings
    form_class = settings_form_for(spec)
    form = form_class(request.POST or None, initial=form_class.initial_for(season.settings))
    # A form shown again (refused, previewed) keeps what it was first opened with.
    shown = shown_settings(request) if request.method == "POST" else None
    shown_text = json.dumps(season.settings if shown is None else shown, sort_keys=True)

    def label(name: str) -> str:
        field = form.fields.get(name)
        setting = spec.field(name)
        return str(
            field.label if field is not None and field.label else getattr(setting, "label", name)
        )

    # "Preview": what the proposed settings would change, computed in memory by the
    # standings of the app above (its `preview`); nothing is saved.
    preview_of = system.standings.preview if system.available else None
    preview = None
    # The settings sent, when valid.
    proposed = form.to_settings() if request.method == "POST" and form.is_valid() else None
    # Valid settings probably not meant for this season's players (the spec's `warnings`):
    # those stored, or those sent; shown, never refused.
    if proposed is not None:
        warnings = spec.warn(season, proposed)
    else:
        warnings = spec.warn(season, season.settings) if request.method != "POST" else []
    if request.method == "POST" and "preview" in request.POST and preview_of:
        if proposed is not None:
            preview = preview_of(season, proposed)
    elif proposed is not None:
        try:
            services.season_settings_update(
                season=season, settings=proposed, shown=shown, label=label
            )
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(request, _("Settings saved; the standings are being recomputed."))
            for warning in warnings:
                messages.warning(request, warning)
            return redirect(manage_url(season))
    return render(
        request,
        spec.template or "competitions/form_page.html",
        {
            "form": form,
            "season": season,
            "series": series,
            "title": _("Settings of %(season)s") % {"season": season.name},
            "can_preview": preview_of is not None,
            "preview": preview,
            "shown_settings": shown_text,
            "warnings": warnings,
        },
        status=400 if request.method == "POST" and preview is None else 200,
    )


@manager_required
def season_page(request, series, season, rest):
    """A manager page of the season's system (its `manage_urls`)."""
    season = season_of(series, season)
    match = resolve_system_page(get_system(season.system).manage_urls, rest)
    return match.func(request, season, *match.args, **match.kwargs)


@manager_required
def players(request, series):
    player_form = PlayerForm(
        request.POST if "add_player" in request.POST else None, series=series, prefix="player"
    )
    club_form = ClubForm(request.POST if "add_club" in request.POST else None, prefix="club")
    if request.method == "POST":
        if "add_player" in request.POST and player_form.is_valid():
            try:
                player = services.player_create(
                    series=series,
                    name=player_form.cleaned_data["name"],
                    club=player_form.cleaned_data["club"],
                    # The form showed the namesakes it found and the manager confirmed.
                    namesake_ok=player_form.confirmed,
                )
            except ValidationError as exc:
                apply_errors(player_form, exc)
            else:
                messages.success(request, _("Player %(name)s added.") % {"name": player.name})
                target = request.POST.get("next", "")
                if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
                    target = reverse("manage:players", args=[series.slug])
                return redirect(target)
        if "add_club" in request.POST and club_form.is_valid():
            try:
                club = services.club_create(series=series, **club_form.cleaned_data)
            except ValidationError as exc:
                apply_errors(club_form, exc)
            else:
                messages.success(request, _("Club %(name)s added.") % {"name": club.name})
                return redirect("manage:players", series.slug)
    return render(
        request,
        "competitions/players.html",
        {
            "series": series,
            "player_form": player_form,
            "club_form": club_form,
            **_player_page(request, series),
        },
        status=400 if request.method == "POST" else 200,
    )


# Players listed on a page of the manager's players and clubs page (a federation has 2000).
PLAYERS_PER_PAGE = 100


def _player_page(request, series: Series) -> dict:
    """One page of the series' players (`selectors.players_found`, as the public players page
    finds them), each with the links of its line (its manager page and its public page), made
    without a reverse() per player. One query whatever the page."""
    query = request.GET.get("q", "")[:100]
    found = players_found(series, query)
    page = Paginator(found, PLAYERS_PER_PAGE).get_page(request.GET.get("page"))
    edit, public = key_urls("manage:player_edit", series.slug), key_urls("player", series.slug)
    return {
        "query": query,
        "count": len(found),
        "page": page,
        "page_range": page.paginator.get_elided_page_range(page.number),
        "players": [
            {"name": p.name, "club": p.club, "edit_url": edit(p.key), "page_url": public(p.key)}
            for p in page
        ],
    }


@manager_required
def season_edit(request, series, season):
    """Rename the season, or go on to delete it."""
    season = season_of(series, season)
    form = SeasonForm(request.POST or None, initial={"label": season.label, "name": season.name})
    if request.method == "POST" and form.is_valid():
        try:
            services.season_update(season=season, **form.cleaned_data)
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(request, _("Season saved."))
            return redirect(manage_url(season))
    return render(
        request,
        "competitions/season_edit.html",
        {
            "form": form,
            "season": season,
            "series": series,
            "title": _("Season %(label)s") % {"label": season.label},
        },
        status=400 if request.method == "POST" else 200,
    )


def confirm_delete(request, *, what: str, obj, back: str, done, template_context: dict):
    """The confirmation page of a deletion, naming what goes with it; POST deletes. `what`
    names the thing as it reads inside a sentence ("season 2025/26": "Delete season 2025/26?");
    a sentence that starts with it (the message after the deletion, or the question in a
    language that puts the thing first) is capitalised as a whole."""
    if request.method == "POST":
        try:
            done()
        except ValidationError as exc:
            for message in exc.messages:
                messages.error(request, message)
            return redirect(back)
        messages.success(request, capfirst(_("%(what)s deleted.") % {"what": what}))
        return None
    try:
        consequences, blocked = services.deletion_summary(obj), ""
    except services.CannotDelete as exc:
        consequences, blocked = [], " ".join(exc.messages)
    return render(
        request,
        "competitions/confirm_delete.html",
        {
            "what": what,
            "heading": capfirst(_("Delete %(what)s?") % {"what": what}),
            "consequences": consequences,
            "blocked": blocked,
            "back": back,
            **template_context,
        },
    )


@manager_required
def season_delete(request, series, season):
    season = season_of(series, season)
    answer = confirm_delete(
        request,
        what=_("season %(label)s") % {"label": season.label},
        obj=season,
        back=manage_url(season),
        done=lambda: services.season_delete(season=season),
        template_context={"season": season, "series": series},
    )
    return answer or redirect("manage:dashboard")


def _player(series: Series, key: str):
    return get_object_or_404(series.players.select_related("club"), key=key)


@manager_required
def player_edit(request, series, player):
    player = _player(series, player)
    form = PlayerForm(
        request.POST or None,
        series=series,
        player=player,
        initial={"name": player.name, "club": player.club},
        prefix="player",
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.player_update(player=player, **form.cleaned_data)
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(request, _("Player %(name)s saved.") % {"name": player.name})
            return redirect("manage:players", series.slug)
    return render(
        request,
        "competitions/player_edit.html",
        {"form": form, "series": series, "player": player, "title": player.name},
        status=400 if request.method == "POST" else 200,
    )


@manager_required
def player_delete(request, series, player):
    player = _player(series, player)
    back = reverse("manage:player_edit", args=[series.slug, player.key])
    answer = confirm_delete(
        request,
        what=_("player %(name)s") % {"name": player.name},
        obj=player,
        back=back,
        done=lambda: services.player_delete(player=player),
        template_context={"series": series, "player": player},
    )
    return answer or redirect("manage:players", series.slug)


# Players a search on the merge page lists (the manager narrows it down by name or club).
MERGE_CANDIDATES = 50


@manager_required
def player_merge(request, series, player):
    """Merge the player (a duplicate) into another player of the series: find the kept one,
    see what would move (by season and kind) and what stops it, then merge (one service call);
    staff can undo it in the admin."""
    duplicate = _player(series, player)
    back = reverse("manage:player_edit", args=[series.slug, duplicate.key])
    into = request.POST.get("into") or request.GET.get("into")
    if not into:
        query = request.GET.get("q", "")[:100]
        found = [p for p in players_found(series, query) if p.key != duplicate.key] if query else []
        return render(
            request,
            "competitions/player_merge.html",
            {
                "series": series,
                "player": duplicate,
                "back": back,
                "query": query,
                "candidates": found[:MERGE_CANDIDATES],
                "more": max(0, len(found) - MERGE_CANDIDATES),
                "title": _("Merge %(name)s into another player") % {"name": duplicate.name},
            },
        )
    kept = _player(series, into)
    if request.method == "POST":
        try:
            merging.player_merge(duplicate=duplicate, kept=kept, user=request.user)
        except ValidationError as exc:
            for message in exc.messages:
                messages.error(request, message)
        else:
            messages.success(
                request,
                _(
                    "%(duplicate)s merged into %(kept)s; the standings are recomputed. Staff "
                    "can undo the merge in the admin."
                )
                % {"duplicate": duplicate.name, "kept": kept.name},
            )
            return redirect("manage:player_edit", series.slug, kept.key)
    return render(
        request,
        "competitions/player_merge.html",
        {
            "series": series,
            "player": duplicate,
            "kept": kept,
            "back": back,
            "preview": merging.player_merge_preview(duplicate=duplicate, kept=kept),
            "title": _("Merge %(name)s into %(kept)s?")
            % {"name": duplicate.name, "kept": kept.name},
        },
        status=400 if request.method == "POST" else 200,
    )
