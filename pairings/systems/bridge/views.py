"""The bridge ladder's next round (rules.md §5): the pools that promotion and relegation of the
last round give, leavers' places filled from below and joiners at the bottom; a preview, then the
start. The pools shown come from the stored standings when those are of the current results
(rankings), else from the engine over the season; the start computes them again under the
season's lock and refuses when they differ from those shown.
"""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from competitions.models import Season
from competitions.selectors import series_players
from competitions.systems.bridge import services
from competitions.systems.bridge.forms import NextRoundForm
from competitions.systems.bridge.models import ChallengeScore, PoolMember
from competitions.systems.bridge.selectors import ladder_rounds
from competitions.systems.bridge.settings import parse_settings
from competitions.views import apply_errors, manage_url
from rankings.systems.bridge.standings import stored_next_pools


def next_round(request, season: Season):
    rounds = ladder_rounds(season)
    if not rounds:
        return redirect(manage_url(season, "setup"))
    current = list(
        PoolMember.objects.filter(round=rounds[-1])
        .select_related("player", "pool")
        .order_by("pool__number", "position", "id")
    )
    players = series_players(season.series_id)
    settings = parse_settings(season.settings)
    entered = set(
        ChallengeScore.objects.filter(challenge__round=rounds[-1])
        .values_list("challenge__number", flat=True)
        .distinct()
    )
    unplayed = [c for c in range(1, settings.challenges_per_round + 1) if c not in entered]
    form = NextRoundForm(
        request.POST or None,
        players=players,
        current=[(m.player.key, m.player.name) for m in current],
        initial={"number": rounds[-1].number + 1},
    )
    leaving: list[str] = []
    joiners = []
    if request.method == "POST" and form.is_valid():
        leaving = form.cleaned_data["leaving"]
        joiners = form.cleaned_data["joiners"]
        if "start" in request.POST:
            try:
                started = services.next_round_start(
                    season=season,
                    number=form.cleaned_data["number"],
                    leaving=leaving,
                    joining=joiners,
                    expected=form.cleaned_data["fingerprint"],
                )
            except ValidationError as exc:
                apply_errors(form, exc)
            else:
                if started is None:
                    messages.info(
                        request,
                        _("Round %(n)s was started already; nothing changed.")
                        % {"n": form.cleaned_data["number"]},
                    )
                else:
                    messages.success(request, _("Round %(n)s started.") % {"n": started.number})
                return redirect(manage_url(season, "round", form.cleaned_data["number"]))
    new_keys = {f"new:{i}": entry for i, entry in enumerate(joiners) if entry.player is None}
    joining_keys = [
        entry.player.key if entry.player else f"new:{i}" for i, entry in enumerate(joiners)
    ]
    number, moved, pools = services.next_round_plan(
        season=season,
        leaving=leaving,
        joining=joining_keys,
        moved=stored_next_pools(season.pk, rounds[-1].number),
    )
    was = {m.player.key: m.pool.number for m in current}
    names = {p.key: p.name for p in players} | {k: e.name for k, e in new_keys.items()}
    preview = [
        {
            "number": k + 1,
            "players": [
                {
                    "name": names.get(key, key),
                    "was": was.get(key),
                    "new": key not in was,
                }
                for key in pool
            ],
        }
        for k, pool in enumerate(pools)
    ]
    if form.is_bound:  # the pools shown now are the ones a start must find
        form.data = form.data.copy()
        form.data["fingerprint"] = services.fingerprint(moved)
        form.data["number"] = str(number)
    else:
        form.initial["fingerprint"] = services.fingerprint(moved)
        form.initial["number"] = number
    return render(
        request,
        "pairings/bridge/next_round.html",
        {
            "season": season,
            "form": form,
            "number": number,
            "preview": preview,
            "players": players,
            "settings": settings,
            "last": rounds[-1].number,
            "unplayed": unplayed,
        },
        status=400 if form.is_bound and form.errors else 200,
    )
