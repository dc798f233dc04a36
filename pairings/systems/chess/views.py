"""The manager's page to pair the next round of a chess group: who is present, the proposed
pairing (recomputed on every request, never taken from the browser), and saving it."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from competitions.models import Group, Season
from competitions.systems.chess import services as chess
from competitions.systems.chess.start_numbers import by_rating as start_by_rating
from competitions.views import manage_url
from rankings.people import People

from . import pairing as service


def pair_group(request, season: Season, tournament: str, group: int):
    group = get_object_or_404(
        Group.objects.select_related("tournament"),
        pk=group,
        tournament__season=season,
        tournament__key=tournament,
    )
    # In start-number order: before round 1 by rating unless the organiser set them.
    members = chess.start_order(group)
    first = not group.rounds.exists()
    for n, m in enumerate(members, start=1):
        m.start = n if first else m.position
    keys = [m.player.key for m in members]
    data = request.POST if request.method == "POST" else request.GET
    present = (
        [k for k in keys if k in data.getlist("present")]
        if "present" in data or "chosen" in data
        else keys
    )
    group_url = manage_url(season, "group", tournament, group.pk)
    try:
        proposal = service.pair_next_round(season, group=group, present=present)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect(group_url)
    if request.method == "POST" and "save" in request.POST:
        try:
            round_ = service.save(season, proposal)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(
                request,
                _("Round %(n)s paired and saved: enter the results as they come in.")
                % {"n": round_.number},
            )
            return redirect(manage_url(season, "round", tournament, group.pk, round_.number))
    people = People(season, keys)
    start = {m.player.key: m.start for m in members}  # round 1: saving it gives these
    boards = [
        {
            "board": n,
            "white": people.name(p["white"]),
            "black": people.name(p["black"]),
            "white_start": start[p["white"]],
            "black_start": start[p["black"]],
            "rematch": p["rematch"],
        }
        for n, p in enumerate(proposal["pairs"], start=1)
    ]
    return render(
        request,
        "competitions/chess/pair.html",
        {
            "season": season,
            "tournament": group.tournament,
            "group": group,
            "members": members,
            "present": set(present),
            "proposal": proposal,
            "boards": boards,
            "walkover": people.name(proposal["bye"]) if proposal["bye"] else None,
            "rematches": any(b["rematch"] for b in boards),
            "second_walkover": "second-walkover" in proposal["relaxed"],
            "group_url": group_url,
            "start_by_rating": start_by_rating(group.options) if first else None,
        },
    )
