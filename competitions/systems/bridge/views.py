"""Bridge ladder manager pages: set-up, IMP entry per pool (grid and CSV), manual moves. The page
that starts the next round is the pairings app's (pairings/systems/bridge/views.py): it reads the
stored standings.

Every view gets the season from the shared dispatcher (competitions.views.season_page), which
has already checked that the user manages the series.
"""

from collections import defaultdict
from decimal import Decimal

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from competitions.models import Player, Round, Season
from competitions.selectors import series_players
from competitions.text import plain_number, player_label
from competitions.views import apply_errors, manage_url, manage_urls

from . import ladder, services
from .forms import (
    ChallengeUploadForm,
    LadderSetupForm,
    PlayerLookup,
    PoolScoresForm,
    SwapForm,
)
from .models import ChallengeScore, Pool, PoolMember
from .selectors import ladder_data, ladder_rounds
from .settings import parse_settings
from .tables import ManageRoundTable

START_ELO_QUANTUM = Decimal("0.0001")  # StartElo.start_elo keeps 4 decimals


def _entered(season: Season) -> dict[int, dict[int, int]]:
    """Scores entered per round number and challenge number (one query)."""
    counts: dict[int, dict[int, int]] = defaultdict(dict)
    rows = (
        ChallengeScore.objects.filter(challenge__round__season=season)
        .values_list("challenge__round__number", "challenge__number")
        .annotate(n=Count("id"))
        .order_by()
    )
    for round_number, challenge, n in rows:
        counts[round_number][challenge] = n
    return counts


def season_panel(request, season: Season):
    """The ladder part of the manager's season page: its rounds, the next round, settings."""
    settings = parse_settings(season.settings)
    sizes = {
        number: (pools, players)
        for number, pools, players in PoolMember.objects.filter(round__season=season)
        .values_list("round__number")
        .annotate(pools=Count("pool", distinct=True), players=Count("id"))
        .values_list("round__number", "pools", "players")
        .order_by()
    }
    entered = _entered(season)
    rounds = ladder_rounds(season)
    rows = [
        {
            "number": r.number,
            "pools": sizes.get(r.number, (0, 0))[0],
            "players": sizes.get(r.number, (0, 0))[1],
            "entered": [
                (c, entered[r.number].get(c, 0))
                for c in range(1, settings.challenges_per_round + 1)
            ],
            "url": manage_url(season, "round", r.number),
        }
        for r in reversed(rounds)
    ]
    return "competitions/bridge/season_panel.html", {
        "round_table": ManageRoundTable(rows),
        "has_rounds": bool(rounds),
        "next_number": rounds[-1].number + 1 if rounds else 1,
        "settings": settings,
    }


def _previous_season_lines(season: Season) -> str:
    """The set-up list pre-filled from the series' previous season: its next pools, each
    player with his last rating (a continuing ladder keeps its order and its Elo)."""
    previous = (
        Season.objects.filter(series=season.series, label__lt=season.label)
        .order_by("-label")
        .first()
    )
    if previous is None:
        return ""
    data = ladder_data(previous)
    if not data.rounds:
        return ""
    state = ladder.state(data)
    names = {p.key: p for p in Player.objects.filter(series=season.series)}
    blocks = []
    for pool in state.next_pools:
        lines = []
        for key in pool:
            elo = state.elo[key].quantize(START_ELO_QUANTUM)
            lines.append(f"{player_label(names[key])} | {plain_number(elo)}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def ladder_setup(request, season: Season):
    if ladder_rounds(season):
        messages.info(request, _("The ladder of this season is set up already."))
        return redirect(manage_url(season))
    settings = parse_settings(season.settings)
    players = series_players(season.series_id)
    form = LadderSetupForm(
        request.POST or None,
        players=players,
        pool_size=settings.pool_size,
        initial={"players": _previous_season_lines(season)},
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.ladder_setup(season=season, pools=form.cleaned_data["pools"])
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(
                request,
                _("The ladder is set up: %(n)s pools in round 1.")
                % {"n": len(form.cleaned_data["pools"])},
            )
            return redirect(manage_url(season, "round", 1))
    return render(
        request,
        "competitions/bridge/setup.html",
        {"season": season, "form": form, "players": players, "settings": settings},
        status=400 if request.method == "POST" else 200,
    )


def _round(season: Season, number: int) -> Round:
    round_ = get_object_or_404(Round, season=season, tournament=None, number=number)
    round_.season = season  # with its series, loaded already
    return round_


def _members(round_: Round) -> list[PoolMember]:
    return list(
        PoolMember.objects.filter(round=round_)
        .select_related("player", "pool")
        .order_by("pool__number", "position", "id")
    )


def round_manage(request, season: Season, number: int, swap_form: SwapForm | None = None):
    round_ = _round(season, number)
    settings = parse_settings(season.settings)
    members = _members(round_)
    rounds = ladder_rounds(season)
    latest = rounds[-1].number == number
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for pool_id, challenge in ChallengeScore.objects.filter(
        challenge__round=round_, player__pool_entries__pool__round=round_
    ).values_list("player__pool_entries__pool_id", "challenge__number"):
        counts[(pool_id, challenge)] += 1
    pools: dict[int, dict] = {}
    pool_url = manage_urls(season, "pool", number)  # no reverse() per pool
    # Headings and counts translated once here: a blocktranslate per pool and challenge in the
    # template took a sixth of the page at 400 pools.
    heading, entered = _("Pool %(n)s"), _("C%(c)s %(n)s/%(of)s")
    for member in members:
        pool = pools.get(member.pool_id)
        if pool is None:  # the pool's first member
            pool = pools[member.pool_id] = {
                "pool": member.pool,
                "heading": heading % {"n": member.pool.number},
                "name": settings.pool_name(member.pool.number),
                "members": [],
                "url": pool_url(member.pool.number),
            }
        pool["members"].append(member)
    for pool in pools.values():
        pool["entered"] = [
            entered % {"c": c, "n": counts[(pool["pool"].pk, c)], "of": len(pool["members"])}
            for c in range(1, settings.challenges_per_round + 1)
        ]
    if latest and swap_form is None:
        swap_form = SwapForm(members=members)
    return render(
        request,
        "competitions/bridge/round.html",
        {
            "season": season,
            "round": round_,
            "pools": list(pools.values()),
            "rounds": rounds,
            "latest": latest,
            "swap_form": swap_form,
            "moved": [m for m in members if m.reason],
        },
        status=400 if swap_form is not None and swap_form.is_bound else 200,
    )


def _pool(season: Season, number: int, pool: int) -> Pool:
    round_ = _round(season, number)
    found = get_object_or_404(Pool, round=round_, number=pool)
    found.round = round_
    return found


def _scores_form(pool: Pool, settings, data=None) -> PoolScoresForm:
    """The pool's IMP grid with the stored scores as its initial values."""
    members = list(pool.members.select_related("player").order_by("position", "id"))
    scores = {
        (s.player_id, s.challenge.number): s.imps
        for s in ChallengeScore.objects.filter(
            challenge__round=pool.round, player_id__in=[m.player_id for m in members]
        ).select_related("challenge")
    }
    return PoolScoresForm(
        data,
        members=members,
        challenges=settings.challenges_per_round,
        initial=PoolScoresForm.initial_for(members, scores),
    )


def _grid_page(request, season: Season, pool: Pool, form=None, upload=None, status=200):
    settings = parse_settings(season.settings)
    if form is None:
        form = _scores_form(pool, settings)
    if upload is None:
        upload = ChallengeUploadForm(
            challenges=settings.challenges_per_round, lookup=PlayerLookup([])
        )
    pool_count = pool.round.pools.count()
    return render(
        request,
        "competitions/bridge/pool.html",
        {
            "season": season,
            "round": pool.round,
            "pool": pool,
            "pool_name": settings.pool_name(pool.number),
            "form": form,
            "upload": upload,
            "challenges": range(1, settings.challenges_per_round + 1),
            "pool_numbers": range(1, pool_count + 1),
            "next_pool": pool.number + 1 if pool.number < pool_count else None,
        },
        status=status,
    )


def pool_scores(request, season: Season, number: int, pool: int):
    found = _pool(season, number, pool)
    if request.method != "POST":
        return _grid_page(request, season, found)
    settings = parse_settings(season.settings)
    form = _scores_form(found, settings, request.POST)
    if form.is_valid():
        try:
            changed = services.pool_scores_save(
                pool=found,
                rows=form.cleaned_data["scores"],
                challenges=settings.challenges_per_round,
            )
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(
                request,
                ngettext(
                    "Pool %(pool)s saved (%(n)s score changed).",
                    "Pool %(pool)s saved (%(n)s scores changed).",
                    changed,
                )
                % {"pool": found.number, "n": changed},
            )
            if "next" in request.POST and found.round.pools.filter(number=pool + 1).exists():
                return redirect(manage_url(season, "pool", number, pool + 1))
            if "next" in request.POST:
                return redirect(manage_url(season, "round", number))
            return redirect(manage_url(season, "pool", number, pool))
    return _grid_page(request, season, found, form=form, status=400)


@require_POST
def challenge_upload(request, season: Season, number: int, pool: int):
    found = _pool(season, number, pool)
    settings = parse_settings(season.settings)
    upload = ChallengeUploadForm(
        request.POST,
        request.FILES,
        challenges=settings.challenges_per_round,
        lookup=PlayerLookup(series_players(season.series_id)),
    )
    if upload.is_valid():
        try:
            changed = services.challenge_upload(
                pool=found,
                number=upload.cleaned_data["challenge"],
                rows=upload.cleaned_data["file"],
                challenges=settings.challenges_per_round,
            )
        except ValidationError as exc:
            apply_errors(upload, exc)
        else:
            messages.success(
                request,
                ngettext(
                    "Challenge %(c)s of pool %(pool)s read from the file: %(n)s score changed.",
                    "Challenge %(c)s of pool %(pool)s read from the file: %(n)s scores changed.",
                    changed,
                )
                % {"c": upload.cleaned_data["challenge"], "pool": found.number, "n": changed},
            )
            return redirect(manage_url(season, "pool", number, pool))
    return _grid_page(request, season, found, upload=upload, status=400)


@require_POST
def members_swap(request, season: Season, number: int):
    round_ = _round(season, number)
    if ladder_rounds(season)[-1].number != number:
        raise Http404(_("Players are moved by hand in the latest round only."))
    form = SwapForm(request.POST, members=_members(round_))
    if form.is_valid():
        try:
            services.members_swap(
                first=form.cleaned_data["first_member"],
                second=form.cleaned_data["second_member"],
                reason=form.cleaned_data["reason"],
            )
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            first, second = form.cleaned_data["first_member"], form.cleaned_data["second_member"]
            messages.success(
                request,
                _("%(a)s and %(b)s changed places.")
                % {"a": first.player.name, "b": second.player.name},
            )
            return redirect(manage_url(season, "round", number))
    return round_manage(request, season, number, swap_form=form)
