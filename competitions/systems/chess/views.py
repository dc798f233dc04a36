"""Chess manager pages: tournaments, groups and their players, rounds with fast result entry,
a pairing entered by hand, walkovers and corrections. (Pairing the next round is the pairings
app's page, added to the same URLconfs.)

Every view gets the season from the shared dispatcher, which has checked that the user manages
the series.
"""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Count, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from competitions.models import Game, Group, Round, RoundEntry, Season
from competitions.registry import get_system
from competitions.selectors import series_players
from competitions.views import (
    apply_errors,
    manage_url,
    manage_urls,
    season_tournament,
    tournament_create_view,
    tournaments_panel,
)

from . import services
from .forms import (
    ChessTournamentForm,
    GameForm,
    GroupDetailsForm,
    GroupForm,
    MemberAddForm,
    MemberFields,
    ResultsForm,
    StartNumbersForm,
    TrfImportForm,
    WalkoverForm,
)
from .interchange import COUNTY, DENSE
from .models import GroupPlayer
from .settings import GROUP_PLAYERS_MAX, OWN_FORMAT, OWN_TIEBREAKS, parse_settings
from .start_numbers import by_rating, lot_seed_of, rating_sorted
from .tables import ManageTournamentTable

UNPLAYED_STATUSES = (RoundEntry.Status.WALKOVER, RoundEntry.Status.BYE)


def season_panel(request, season: Season, form: ChessTournamentForm | None = None):
    """The chess part of the manager's season page: its tournaments and a new one."""
    return tournaments_panel(
        season,
        "competitions/chess/season_panel.html",
        ManageTournamentTable,
        form or ChessTournamentForm(season=season),
        {"group_count": Count("groups", distinct=True)},
        settings=parse_settings(season.settings),
        no_class=GroupPlayer.objects.filter(
            group__tournament__season=season, player_class=""
        ).count(),
    )


@require_POST
def tournament_create(request, season: Season):
    return tournament_create_view(
        request,
        season,
        ChessTournamentForm,
        lambda data: services.tournament_create(season=season, **data),
    )


def _group(season: Season, tournament: str, group: int) -> Group:
    found = get_object_or_404(
        Group.objects.select_related("tournament"),
        pk=group,
        tournament__season=season,
        tournament__key=tournament,
    )
    found.tournament.season = season
    return found


def tournament_manage(request, season: Season, tournament: str):
    tournament = season_tournament(season, tournament)
    previewing = "preview_tournament" in request.POST
    details = ChessTournamentForm(
        request.POST if "save_tournament" in request.POST or previewing else None,
        season=season,
        tournament=tournament,
        initial={
            "name": tournament.name,
            "date": tournament.date,
            "county": bool(tournament.options.get(COUNTY)),
            "tiebreaks": tournament.options.get(OWN_TIEBREAKS, ""),
            "dense_scale": bool(tournament.options.get(DENSE)),
        },
        prefix="t",
    )
    group_form = GroupForm(request.POST if "add_group" in request.POST else None, prefix="g")
    preview = None
    if request.method == "POST":
        if previewing and details.is_valid():
            # The places the proposed list would change in the tournament's groups, ranked in
            # memory by the standings of the app above; nothing is saved.
            try:
                options = services.tournament_options(
                    tournament=tournament,
                    county=details.cleaned_data["county"],
                    tiebreaks=details.cleaned_data["tiebreaks"],
                    dense_scale=details.cleaned_data["dense_scale"],
                )
            except ValidationError as exc:
                apply_errors(details, exc)
            else:
                preview = get_system(season.system).standings.preview(
                    season, season.settings, tournament_options={tournament.pk: options}
                )
        elif "save_tournament" in request.POST and details.is_valid():
            try:
                services.tournament_update(tournament=tournament, **details.cleaned_data)
            except ValidationError as exc:
                apply_errors(details, exc)
            else:
                messages.success(request, _("Tournament saved."))
                return redirect(manage_url(season, "tournament", tournament.key))
        if "add_group" in request.POST and group_form.is_valid():
            try:
                group = services.group_create(tournament=tournament, **group_form.cleaned_data)
            except ValidationError as exc:
                apply_errors(group_form, exc)
            else:
                messages.success(request, _("Group %(name)s created.") % {"name": group.name})
                return redirect(manage_url(season, "group", tournament.key, group.pk))
    groups = tournament.groups.annotate(
        players=Count("members", distinct=True), round_count=Count("rounds", distinct=True)
    ).order_by("position", "name")
    return render(
        request,
        "competitions/chess/tournament.html",
        {
            "season": season,
            "tournament": tournament,
            "form": details,
            "group_form": group_form,
            "groups": groups,
            "preview": preview,
        },
        status=400 if request.method == "POST" and preview is None else 200,
    )


def group_page(group: Group) -> str:
    """The manager's page of a group, where its own tie-breaks and format are changed (the
    admin links to it: SystemSpec.group_page)."""
    return manage_url(group.tournament.season, "group", group.tournament.key, group.pk)


def group_manage(request, season: Season, tournament: str, group: int):
    group = _group(season, tournament, group)
    players = series_players(season.series_id, clubs=True)
    add = MemberAddForm(
        request.POST if "add_player" in request.POST else None, players=players, prefix="m"
    )
    previewing = "preview_group" in request.POST
    details = GroupDetailsForm(
        request.POST if "save_group" in request.POST or previewing else None,
        initial={
            "name": group.name,
            "scale": group.scale,
            "tiebreaks": group.options.get(OWN_TIEBREAKS, ""),
            "group_format": group.options.get(OWN_FORMAT, ""),
        },
        prefix="g",
    )
    trf_form = TrfImportForm(
        request.POST if "import_trf" in request.POST else None,
        request.FILES if "import_trf" in request.POST else None,
        prefix="trf",
    )
    preview = None
    if request.method == "POST":
        if "import_trf" in request.POST and trf_form.is_valid():
            try:
                count, note = services.group_import_trf(
                    group=group, text=trf_form.cleaned_data["file"]
                )
            except ValidationError as exc:
                apply_errors(trf_form, exc)
                group.refresh_from_db(fields=["options"])  # nothing was stored
            else:
                messages.success(
                    request,
                    _("%(n)s players and their results imported. Add their classes.")
                    % {"n": count},
                )
                if note:
                    messages.info(request, note)
                return redirect(manage_url(season, "group", group.tournament.key, group.pk))
        if previewing and details.is_valid():
            # The places the proposed list and format would change, ranked in memory by the
            # standings of the app above; nothing is saved.
            try:
                options = services.group_options(
                    group=group,
                    tiebreaks=details.cleaned_data["tiebreaks"],
                    group_format=details.cleaned_data["group_format"],
                )
            except ValidationError as exc:
                apply_errors(details, exc)
            else:
                system = get_system(season.system)
                preview = system.standings.preview(
                    season, season.settings, group_options={group.pk: options}
                )
        if "save_group" in request.POST and details.is_valid():
            try:
                services.group_update(group=group, **details.cleaned_data)
            except ValidationError as exc:
                apply_errors(details, exc)
            else:
                messages.success(request, _("Group saved."))
                return redirect(manage_url(season, "group", group.tournament.key, group.pk))
        if "add_player" in request.POST and add.is_valid():
            data = add.cleaned_data
            try:
                member = services.member_add(
                    group=group,
                    player=data["player_obj"],
                    name=data.get("name", ""),
                    player_class=data["player_class"],
                    born=data["born"],
                    rating=data["rating"],
                    beginner=data["beginner"],
                )
            except ValidationError as exc:
                apply_errors(add, exc)
            else:
                messages.success(
                    request,
                    _("%(name)s added with start number %(n)s.")
                    % {"name": member.player.name, "n": services.start_number_of(member)},
                )
                return redirect(
                    manage_url(season, "group", group.tournament.key, group.pk) + "#add"
                )
    members = list(
        group.members.select_related("player", "player__club").order_by("position", "player__key")
    )
    rounds = list(
        group.rounds.annotate(
            game_count=Count("games", distinct=True),
            open_count=Count("games", filter=Q(games__result=""), distinct=True),
        ).order_by("number")
    )
    # The start numbers (start_numbers.py): before round 1 by rating unless the organiser set
    # them, what round 1 will give; once a round is stored, as stored.
    start_by_rating = by_rating(group.options)
    if not rounds and start_by_rating:
        members = rating_sorted(
            members,
            key=lambda m: m.player.key,
            rating=lambda m: m.rating,
            lot_seed=lot_seed_of(group.tournament.draw_seed, group.pk),
        )
    for n, m in enumerate(members, start=1):
        m.start = m.position if rounds else n
    in_group = {m.player_id for m in members}
    edit = manage_urls(season, "member", group.tournament.key, group.pk)
    remove = manage_urls(season, "member_remove", group.tournament.key, group.pk)
    for m in members:
        m.edit_url, m.remove_url = edit(m.pk), remove(m.pk)
    classes = sorted(
        set(
            GroupPlayer.objects.filter(group__tournament__season__series=season.series)
            .exclude(player_class="")
            .values_list("player_class", flat=True)
        )
    )
    return render(
        request,
        "competitions/chess/group.html",
        {
            "season": season,
            "tournament": group.tournament,
            "group": group,
            "members": members,
            "rounds": rounds,
            "next_round": (rounds[-1].number if rounds else 0) + 1,
            "open_rounds": [r.number for r in rounds if r.open_count],
            "add_form": add,
            "form": details,
            "trf_form": trf_form,
            "preview": preview,
            "players": [p for p in players if p.pk not in in_group],
            "classes": classes,
            "no_class": sum(1 for m in members if not m.player_class),
            "start_by_rating": start_by_rating,
            # the order as stored, which the organiser's number boxes change
            "shown": ",".join(
                str(m.pk) for m in sorted(members, key=lambda m: (m.position, m.player.key))
            ),
        },
        status=400 if request.method == "POST" and preview is None else 200,
    )


def member_edit(request, season: Season, tournament: str, group: int, member: int):
    group = _group(season, tournament, group)
    found = get_object_or_404(GroupPlayer.objects.select_related("player"), pk=member, group=group)
    form = MemberFields(
        request.POST or None,
        initial={
            "player_class": found.player_class,
            "born": found.player.born,
            "rating": found.rating,
            "beginner": found.beginner,
        },
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.member_update(member=found, **form.cleaned_data)
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(request, _("%(name)s saved.") % {"name": found.player.name})
            return redirect(manage_url(season, "group", group.tournament.key, group.pk))
    return render(
        request,
        "competitions/chess/member.html",
        {
            "season": season,
            "tournament": group.tournament,
            "group": group,
            "member": found,
            "start": services.start_number_of(found),
            "form": form,
        },
        status=400 if request.method == "POST" else 200,
    )


@require_POST
def member_remove(request, season: Season, tournament: str, group: int, member: int):
    group = _group(season, tournament, group)
    found = get_object_or_404(GroupPlayer.objects.select_related("player"), pk=member, group=group)
    try:
        services.member_remove(member=found)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(
            request, _("%(name)s removed from the group.") % {"name": found.player.name}
        )
    return redirect(manage_url(season, "group", group.tournament.key, group.pk))


@require_POST
def start_numbers(request, season: Season, tournament: str, group: int):
    """Start numbers by rating or as the organiser sets them, and the organiser's numbers."""
    group = _group(season, tournament, group)
    members = list(group.members.select_related("player").order_by("position", "player__key"))
    form = StartNumbersForm(request.POST, members=members)
    url = manage_url(season, "group", group.tournament.key, group.pk)
    if not form.is_valid():
        messages.error(
            request,
            _("Start numbers are whole numbers from 1 to %(max)s; nothing was saved.")
            % {"max": GROUP_PLAYERS_MAX},
        )
        return redirect(url + "#start-numbers")
    data = form.cleaned_data
    try:
        services.start_numbers_set(
            group=group,
            choice=data["start_numbers"],
            numbers=data["numbers"],
            shown=data["shown"],
        )
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Start numbers saved."))
    return redirect(url + "#start-numbers")


@require_POST
def round_create(request, season: Season, tournament: str, group: int):
    group = _group(season, tournament, group)
    try:
        round_ = services.round_create(group=group)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect(manage_url(season, "group", group.tournament.key, group.pk))
    messages.success(request, _("Round %(n)s created: enter its games.") % {"n": round_.number})
    return redirect(manage_url(season, "round", group.tournament.key, group.pk, round_.number))


def _round(group: Group, number: int) -> Round:
    round_ = get_object_or_404(Round, group=group, number=number)
    round_.group = group
    return round_


def _round_gone(request, season: Season, group: Group, number: int):
    """A POST about a round another manager deleted meanwhile: said, not a 404."""
    messages.error(
        request, _("Round %(n)s was deleted meanwhile; nothing was saved.") % {"n": number}
    )
    return redirect(manage_url(season, "group", group.tournament.key, group.pk))


def round_manage(request, season: Season, tournament: str, group: int, number: int):
    group = _group(season, tournament, group)
    try:
        round_ = _round(group, number)
    except Http404:
        if request.method != "POST":
            raise
        return _round_gone(request, season, group, number)
    url = manage_url(season, "round", group.tournament.key, group.pk, number)
    games = list(round_.games.order_by("board", "id").prefetch_related("entries__player"))
    entries = list(round_.entries.select_related("player"))
    members = [
        m.player for m in group.members.select_related("player").order_by("position", "player__key")
    ]
    busy = {e.player_id for e in entries}
    free = [p for p in members if p.pk not in busy]
    results = ResultsForm(request.POST if "save_results" in request.POST else None, games=games)
    game_form = GameForm(
        request.POST if "add_game" in request.POST else None, members=free, prefix="game"
    )
    wo_form = WalkoverForm(
        request.POST if {"add_walkover", "add_half_bye"} & set(request.POST) else None,
        members=free,
        prefix="wo",
    )
    if request.method == "POST":
        try:
            if "save_results" in request.POST and results.is_valid():
                changed = services.results_save(round_=round_, rows=results.cleaned_data["results"])
                messages.success(request, _("Results saved (%(n)s changed).") % {"n": changed})
                return redirect(url)
            if "add_game" in request.POST and game_form.is_valid():
                data = game_form.cleaned_data
                if not data["white"] or not data["black"]:
                    raise ValidationError(_("Pick white and black."))
                services.game_add(
                    round_=round_,
                    white=game_form.players[data["white"]],
                    black=game_form.players[data["black"]],
                    result=data["result"],
                )
                messages.success(request, _("Game added."))
                return redirect(url + "#add")
            if "add_walkover" in request.POST and wo_form.is_valid():
                if not wo_form.cleaned_data["player"]:
                    raise ValidationError(_("Pick the player who gets the WO."))
                services.walkover_add(
                    round_=round_, player=wo_form.players[wo_form.cleaned_data["player"]]
                )
                messages.success(request, _("WO added."))
                return redirect(url + "#add")
            if "add_half_bye" in request.POST and wo_form.is_valid():
                if not wo_form.cleaned_data["player"]:
                    raise ValidationError(_("Pick the player who gets the half-point bye."))
                services.half_bye_add(
                    round_=round_, player=wo_form.players[wo_form.cleaned_data["player"]]
                )
                messages.success(request, _("Half-point bye added."))
                return redirect(url + "#add")
        except ValidationError as exc:
            target = (
                game_form
                if "add_game" in request.POST
                else wo_form
                if {"add_walkover", "add_half_bye"} & set(request.POST)
                else results
            )
            apply_errors(target, exc)
    entries_by_game: dict[int, dict] = {}
    for entry in entries:
        if entry.game_id:
            entries_by_game.setdefault(entry.game_id, {})[entry.colour] = entry.player
    boards = [
        {
            "game": game,
            "white": entries_by_game.get(game.pk, {}).get(RoundEntry.Colour.WHITE),
            "black": entries_by_game.get(game.pk, {}).get(RoundEntry.Colour.BLACK),
            "field": results[f"result_{game.pk}"],
        }
        for game in games
    ]
    # walkovers and half-point byes: the round's entries without a game
    walkovers = [e for e in entries if e.status in UNPLAYED_STATUSES]
    numbers = list(group.rounds.order_by("number").values_list("number", flat=True))
    return render(
        request,
        "competitions/chess/round.html",
        {
            "season": season,
            "tournament": group.tournament,
            "group": group,
            "round": round_,
            "boards": boards,
            "walkovers": walkovers,
            "free": free,
            "results": results,
            "game_form": game_form,
            "wo_form": wo_form,
            "round_numbers": numbers,
            "is_last": numbers and numbers[-1] == round_.number,
        },
        status=400 if request.method == "POST" else 200,
    )


@require_POST
def game_delete(request, season: Season, tournament: str, group: int, number: int, game: int):
    group = _group(season, tournament, group)
    round_ = _round(group, number)
    found = get_object_or_404(Game, pk=game, round=round_)
    services.game_delete(game=found)
    messages.success(request, _("Game on board %(n)s deleted.") % {"n": found.board})
    return redirect(manage_url(season, "round", group.tournament.key, group.pk, number))


@require_POST
def walkover_delete(request, season: Season, tournament: str, group: int, number: int, entry: int):
    group = _group(season, tournament, group)
    round_ = _round(group, number)
    found = get_object_or_404(RoundEntry, pk=entry, round=round_, status__in=UNPLAYED_STATUSES)
    services.walkover_delete(entry=found)
    messages.success(
        request,
        _("Half-point bye deleted.") if found.status == RoundEntry.Status.BYE else _("WO deleted."),
    )
    return redirect(manage_url(season, "round", group.tournament.key, group.pk, number))


@require_POST
def round_delete(request, season: Season, tournament: str, group: int, number: int):
    group = _group(season, tournament, group)
    try:
        round_ = _round(group, number)
    except Http404:
        return _round_gone(request, season, group, number)
    try:
        services.round_delete(round_=round_)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect(manage_url(season, "round", group.tournament.key, group.pk, number))
    messages.success(request, _("Round %(n)s deleted.") % {"n": number})
    return redirect(manage_url(season, "group", group.tournament.key, group.pk))
