"""The players' "what if" for the next GP tournament: a player, a place and a field, and what
the place would earn (with its computation), the new season total (the best-n rule) and the new
rank. The engine computes it (`engine.what_if_next`): the season's tournaments with one more.
A GET form; nothing is written."""

import math
from decimal import Decimal
from fractions import Fraction
from types import SimpleNamespace

from django import forms
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competitions.selectors import series_players
from competitions.systems.othello.finder import latest_placements
from competitions.systems.othello.ratings import RatingEntry, entry_to_json
from competitions.systems.othello.settings import PARTICIPANTS_MAX, RATING_MAX, parse_settings
from competitions.text import player_label
from rankings.engines import othello as engine
from rankings.models import StandingsTable
from rankings.tables import local_decimal
from rankings.views import season_context

from . import explain
from .standings import (
    KIND_STANDINGS,
    KIND_TOURNAMENT,
    coefficients_of,
    decimal_text,
    engine_settings,
    entry_detail,
    rating_maker,
    season_outs,
    standing_detail,
    tournament_data,
)
from .views import participant_line

# The field of a season without a tournament yet.
DEFAULT_PARTICIPANTS = 10


class NextGPForm(forms.Form):
    player = forms.ChoiceField(label=gettext_lazy("Player"))
    place = forms.IntegerField(label=gettext_lazy("Place"), min_value=1, max_value=PARTICIPANTS_MAX)
    participants = forms.IntegerField(
        label=gettext_lazy("Field size"),
        min_value=1,
        max_value=PARTICIPANTS_MAX,
    )
    field = forms.DecimalField(
        label=gettext_lazy("Others' rating"),
        min_value=Decimal(0),
        max_value=Decimal(RATING_MAX),
        max_digits=7,
        decimal_places=2,
    )

    def __init__(self, *args, players: list, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "—"), *((p.key, player_label(p)) for p in players)]

    def clean(self):
        data = super().clean()
        place, n = data.get("place"), data.get("participants")
        if place is not None and n is not None and place > n:
            self.add_error(
                "place",
                _("Place %(place)s, but the field has %(n)s players (places 1 to %(n)s).")
                % {"place": place, "n": n},
            )
        return data


def _defaults(stored: list, settings) -> dict:
    """The field of the season's latest tournament with participants: its size, and the
    rating that gives its ranking sum when every player has it (900 + S / n)."""
    played = [tb for tb in stored if tb.kind == KIND_TOURNAMENT and tb.data.get("participants")]
    if not played:
        return {"participants": DEFAULT_PARTICIPANTS, "field": int(settings.debutant_rating)}
    last = max(played, key=lambda tb: tb.position)
    n = last.data["participants"]
    s = Fraction(last.data["ranking_sum_text"])
    return {
        "participants": n,
        "field": math.floor(settings.rating_floor + s / n + Fraction(1, 2)),
        "last": last.data["name"],
    }


def _player_rating(season, player) -> tuple[engine.Rating, RatingEntry, str, str | None]:
    """The player's rating entry and country at their latest tournament of the series (a
    debutant of the series' country without one), and that tournament's name."""
    latest = latest_placements(season.series_id, [player.pk]).get(player.pk)
    if latest is None:
        entry, country, where = RatingEntry(), parse_settings(season.settings).country, None
    else:
        entry, country, where = RatingEntry.of(latest), latest.country, latest.tournament.name
    rating = rating_maker()(entry.nordic, entry.ffo, entry.provisional, entry.uncertainty)
    return rating, entry, country, where


def _ranked(rows: list[tuple[str, int, int]], player: str) -> dict | None:
    found = next((r for r in rows if r[0] == player), None)
    return None if found is None else {"rank": found[1], "points": found[2]}


def next_gp(request, season):
    """What a place at the next GP would give a player of the series: every number with its
    computation. A GET form; computed on the fly, nothing is written."""
    settings = parse_settings(season.settings)
    players = series_players(season.series_id)
    # The stored tables' data, as the coefficients' what-if reads them.
    stored = list(
        StandingsTable.objects.filter(season=season, kind__in=[KIND_TOURNAMENT, KIND_STANDINGS])
    )
    defaults = _defaults(stored, settings)
    asked = request.GET.get("player", "")
    initial = {**defaults, "place": 1}
    if any(p.key == asked for p in players):
        initial["player"] = asked
    bound = "place" in request.GET
    form = NextGPForm(request.GET if bound else None, players=players, initial=initial)
    context = {
        "form": form,
        "defaults": defaults,
        "best_n": settings.best_n,
        "country": settings.country,
    }
    context = season_context(request, season, tab="next", **context)
    if not bound:
        return render(request, "rankings/othello/next_gp.html", context)
    if not form.is_valid():
        return render(request, "rankings/othello/next_gp.html", context, status=400)
    data = form.cleaned_data
    player = next(p for p in players if p.key == data["player"])
    rating, entry, country, where = _player_rating(season, player)
    gp = engine_settings(settings)
    outs = season_outs(season, gp, stored)
    t = engine.next_tournament(
        player.key, data["place"], country, rating, data["participants"], Fraction(data["field"])
    )
    got = engine.what_if_next([out for _name, out in outs], t, gp)
    context.update(
        _result(season, player, got, data, entry, where, outs, gp, settings.best_n),
    )
    return render(request, "rankings/othello/next_gp.html", context)


def _result(season, player, got, data, entry, where, outs, gp, best_n) -> dict:
    """The numbers of the page, each with its explanation (rankings.systems.othello.explain)."""
    out = got.tournament
    name = _("Next GP")
    tournament = tournament_data(out, SimpleNamespace(name=name, date=None), gp)
    mine = next(e for e in out.entries if e.player == player.key)
    line = participant_line(
        {**entry_detail(mine, entry_to_json(entry)), "name": player.name},
        data["place"],
        coefficients_of(tournament["coefficients"]),
    )
    field_nr = Fraction(data["field"])
    field_part = engine.contribution(field_nr, gp.coefficients)
    others = data["participants"] - 1
    after = next((r for r in got.after if r.player == player.key), None)
    names = {o.id: tournament_name for tournament_name, o in outs}
    names[engine.NEXT] = _("Next GP (place %(place)s)") % {"place": data["place"]}
    return {
        "player": player,
        "where": where,
        "line": line,
        "tournament": tournament,
        "nr": explain.nr(line, tournament),
        "points": explain.points(line, tournament),
        "others": others,
        "field_nr": local_decimal(decimal_text(field_nr)),
        "field_part": local_decimal(decimal_text(field_part)),
        "field_sum": local_decimal(decimal_text(field_part * others)),
        "floor": local_decimal(decimal_text(gp.coefficients.rating_floor)),
        "x": explain.x_text(tournament["x"]),
        "series": explain.series_text(tournament["series"]),
        "before": _ranked(got.before, player.key),
        "before_players": len(got.before),
        "after": None if after is None else {"rank": after.rank, "points": after.points},
        "after_players": len(got.after),
        "total": None if after is None else explain.total(standing_detail(after), names, best_n),
        "counts": after is not None and engine.NEXT in after.counted,
    }
