"""Result models changed: schedule a recompute of their season. Nothing else happens here."""

import threading
from collections.abc import Callable
from contextlib import contextmanager

from django.core.exceptions import ObjectDoesNotExist
from django.db.models.signals import post_delete, post_save

from competitions import models as m

from .services import season_recompute_request

_muted = threading.local()


@contextmanager
def recompute_signals_muted():
    """For bulk writers (the importer) that request the recompute themselves, once."""
    previous = getattr(_muted, "value", False)
    _muted.value = True
    try:
        yield
    finally:
        _muted.value = previous


def _seasons_of_series(series_id: int) -> set[int]:
    return set(m.Season.objects.filter(series_id=series_id).values_list("pk", flat=True))


# How each result model reaches its season(s).
SEASON_OF: dict[type, Callable[[object], set[int]]] = {
    m.Season: lambda o: {o.pk},
    m.SeasonPlayer: lambda o: {o.season_id},
    m.HistoricTotal: lambda o: {o.season_id},
    m.Tournament: lambda o: {o.season_id},
    m.Round: lambda o: {o.season_id},
    m.Table: lambda o: {o.round.season_id},
    m.Seat: lambda o: {o.round.season_id},
    m.Group: lambda o: {o.tournament.season_id},
    m.GroupPlayer: lambda o: {o.group.tournament.season_id},
    m.Placement: lambda o: {o.tournament.season_id},
    m.Game: lambda o: {o.round.season_id},
    m.Attendance: lambda o: {o.round.season_id},
    m.Pool: lambda o: {o.round.season_id},
    m.PoolMember: lambda o: {o.round.season_id},
    m.Challenge: lambda o: {o.round.season_id},
    m.ChallengeScore: lambda o: {o.challenge.round.season_id},
    # A player's club or a club's name feeds the interclub and the pages of every season.
    m.Player: lambda o: _seasons_of_series(o.series_id),
    m.Club: lambda o: _seasons_of_series(o.series_id),
    m.Series: lambda o: _seasons_of_series(o.pk),
}


def _changed(sender, instance, **kwargs) -> None:
    if getattr(_muted, "value", False) or kwargs.get("raw"):
        return
    try:
        season_ids = SEASON_OF[sender](instance)
    except ObjectDoesNotExist:
        return  # its parent is being deleted too; the parent's signal covers it
    if season_ids:
        season_recompute_request(season_ids=season_ids)


for _model in SEASON_OF:
    post_save.connect(_changed, sender=_model, dispatch_uid=f"recompute-save-{_model.__name__}")
    post_delete.connect(_changed, sender=_model, dispatch_uid=f"recompute-del-{_model.__name__}")
