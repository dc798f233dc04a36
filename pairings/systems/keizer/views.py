"""The pair-round page of a Keizer evening (rules.md §4.3): a preview, manual pairs, re-pair,
publish. The preview is a GET (manual pairs ride in the query string as player ids, `?m=12-34`)
and stores nothing; publishing posts the same manual pairs, pairs again and stores the result.
"""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from competitions.models import Player, Round, Season
from competitions.views import manage_url
from pairings.engines import keizer as pairer
from rankings.people import People

from . import pairing as service
from .passed_over import passed_over_lines

BREAK_LABELS = {
    pairer.BREAKS_MEETINGS: lambda n: _("they have met %(n)s times already") % {"n": n},
    pairer.BREAKS_REMATCH: lambda n: _("they met in round %(n)s, too recently") % {"n": n},
    pairer.BREAKS_COLOURS: lambda n: _("a colour limit is broken"),
}


def _relaxed_label(item: str) -> str:
    if item == pairer.RELAXED_BYE:
        return _(
            "the bye rule (the bye went to a player who had one in recent rounds, or not to "
            "the volunteer)"
        )
    if item == pairer.RELAXED_COLOURS:
        return _("the colour limits (colours by preference only)")
    if item.startswith("rematch-gap:"):
        return _("the rematch gap, down to %(n)s rounds") % {"n": item.split(":", 1)[1]}
    return item


def _manual_from(request, season: Season) -> tuple[list[tuple[Player, Player]], list[str]]:
    """The manual pairs of the query string or form (`m=<white id>-<black id>`)."""
    raw = request.POST.getlist("m") if request.method == "POST" else request.GET.getlist("m")
    ids, pairs, errors = set(), [], []
    parsed = []
    for item in raw:
        first, _sep, second = item.partition("-")
        if not (first.isdigit() and second.isdigit()):
            errors.append(_("A manual pair %(pair)r is not two player ids.") % {"pair": item[:40]})
            continue
        parsed.append((int(first), int(second)))
        ids.update((int(first), int(second)))
    players = Player.objects.filter(series_id=season.series_id, pk__in=ids).in_bulk()
    for first, second in parsed:
        if first in players and second in players:
            pairs.append((players[first], players[second]))
        else:
            errors.append(_("A player of a manual pair is not in this series."))
    return pairs, errors


def _query(pairs: list[tuple[Player, Player]]) -> str:
    return urlencode([("m", f"{a.pk}-{b.pk}") for a, b in pairs])


def pair(request, season: Season, number: int):
    round_ = Round.objects.filter(season=season, tournament=None, group=None, number=number).first()
    if round_ is None:
        raise Http404(_("No such evening."))
    manual, errors = _manual_from(request, season)
    base = manage_url(season, "pair", number)
    if round_.games.exists():
        messages.info(request, _("Evening %(n)s is paired.") % {"n": number})
        return redirect(manage_url(season, "print", number))
    if "add" in request.GET:
        first, second = request.GET.get("a", ""), request.GET.get("b", "")
        players = Player.objects.filter(
            series_id=season.series_id, pk__in=[int(x) for x in (first, second) if x.isdigit()]
        ).in_bulk()
        if (
            first.isdigit()
            and second.isdigit()
            and first != second
            and int(first) in players
            and int(second) in players
        ):
            manual.append((players[int(first)], players[int(second)]))
            return redirect(f"{base}?{_query(manual)}")
        errors.append(_("Choose two different present players for a manual pair."))
    keys = [(a.key, b.key) for a, b in manual]
    try:
        proposal = service.propose(season, manual=keys, number=number)
    except ValidationError as exc:
        proposal = None
        errors.extend(exc.messages)
    if (
        request.method == "POST"
        and proposal is not None
        and proposal.pairing is not None
        and not errors
    ):
        try:
            service.save(season, proposal.as_json())
        except ValidationError as exc:
            errors.extend(exc.messages)
        else:
            messages.success(
                request,
                _("Evening %(n)s is paired: %(games)s games.")
                % {"n": number, "games": len(proposal.pairing.pairs)},
            )
            return redirect(manage_url(season, "print", number))
    context = {"season": season, "number": number, "errors": errors, "proposal": proposal}
    if proposal is not None:
        context.update(_preview(season, proposal, manual))
    context["manual_query"] = _query(manual)
    context["manual_values"] = [f"{a.pk}-{b.pk}" for a, b in manual]
    context["manual_url"] = base
    return render(
        request,
        "pairings/keizer/pair.html",
        context,
        status=400 if request.method == "POST" else 200,
    )


def _preview(season: Season, proposal: service.Proposal, manual) -> dict:
    """What the page shows of a proposed pairing: boards with the places of the players, what
    a manual pair breaks and why a pair is not the nearest one, the bye, the relaxations, and
    the present players for manual pairs (3 queries)."""
    people = People(season, proposal.present)
    ranks = proposal.ranks
    pairing = proposal.pairing
    meetings: dict[tuple[str, str], list[int]] = {}
    for game in proposal.history.games:
        meetings.setdefault(tuple(sorted((game.white, game.black))), []).append(game.round)
    rows = []
    if pairing is not None:
        board_of = {
            key: board
            for board, p in enumerate(pairing.pairs, start=1)
            for key in (p.white, p.black)
        }
        for board, p in enumerate(pairing.pairs, start=1):
            met = meetings.get(tuple(sorted((p.white, p.black))), [])
            notes = []
            for broken in p.breaks:
                if broken == pairer.BREAKS_MEETINGS:
                    notes.append(BREAK_LABELS[broken](len(met)))
                elif broken == pairer.BREAKS_REMATCH:
                    notes.append(BREAK_LABELS[broken](max(met)))
                else:
                    notes.append(BREAK_LABELS[broken](0))
            rows.append(
                {
                    "board": board,
                    "white": people.name(p.white),
                    "white_rank": ranks.get(p.white),
                    "black": people.name(p.black),
                    "black_rank": ranks.get(p.black),
                    "manual": p.manual,
                    "notes": notes,
                    "met": met,
                    "passed_over": passed_over_lines(
                        p, name=people.name, ranks=ranks, board_of=board_of
                    ),
                }
            )
    remove_links = []
    for i, (a, b) in enumerate(manual):
        rest = manual[:i] + manual[i + 1 :]
        remove_links.append(
            {"label": f"{a.name} – {b.name}", "url": "?" + _query(rest) if rest else "?"}
        )
    present = [
        {"key": k, "name": people.name(k), "rank": ranks.get(k), "pk": None}
        for k in proposal.present
    ]
    ids = dict(
        Player.objects.filter(series_id=season.series_id, key__in=proposal.present).values_list(
            "key", "pk"
        )
    )
    for item in present:
        item["pk"] = ids.get(item["key"])
    return {
        "rows": rows,
        "bye": people.name(pairing.bye) if pairing and pairing.bye else None,
        "bye_rank": ranks.get(pairing.bye) if pairing and pairing.bye else None,
        "volunteer": people.name(proposal.volunteer) if proposal.volunteer else None,
        "volunteer_passed_over": bool(pairing and pairing.volunteer_passed_over),
        "relaxed": [_relaxed_label(r) for r in pairing.relaxed] if pairing else [],
        "unpaired": [people.name(k) for k in proposal.unpaired],
        "present": present,
        "manual_pairs": remove_links,
        "json": pairing.as_json() if pairing else None,
    }
