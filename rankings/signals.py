"""Result data changed: mark the season(s) stale and schedule their recompute. Nothing else.

The shared models are mapped here; each system's result models come from its spec
(`SystemSpec.result_models`). A system registered later (a test's dummy system) calls
`connect_model` for a result model of its own.
"""

from collections.abc import Callable, Iterable

from django.core.exceptions import ObjectDoesNotExist
from django.db.models.signals import post_delete, post_save

from competitions import models as m
from competitions.registry import all_systems
from competitions.signals import in_bulk_write, results_changed

from .models import StaleScope
from .scheduling import season_recompute_request
from .services import later_seasons


def _seasons_of_series(series_id: int) -> set[int]:
    return set(m.Season.objects.filter(series_id=series_id).values_list("pk", flat=True))


# How each shared model reaches its season(s).
SHARED_SEASON_OF: dict[type, Callable[[object], Iterable[int]]] = {
    m.Season: lambda o: {o.pk},
    m.SeasonPlayer: lambda o: {o.season_id},
    m.Tournament: lambda o: {o.season_id},
    m.Group: lambda o: {o.tournament.season_id},
    m.Round: lambda o: {o.season_id},
    m.Game: lambda o: {o.round.season_id},
    m.RoundEntry: lambda o: {o.round.season_id},
    # A player's or a club's name and club feed the pages and tables of every season.
    m.Player: lambda o: _seasons_of_series(o.series_id),
    m.Club: lambda o: _seasons_of_series(o.series_id),
    m.Series: lambda o: _seasons_of_series(o.pk),
}


def season_of(model: type) -> Callable[[object], Iterable[int]] | None:
    found = SHARED_SEASON_OF.get(model)
    if found is not None:
        return found
    for spec in all_systems():
        found = spec.result_models.get(model)
        if found is not None:
            return found
    return None


def _changed(sender, instance, **kwargs) -> None:
    if in_bulk_write() or kwargs.get("raw"):
        return
    seasons = season_of(sender)
    if seasons is None:
        return
    try:
        season_ids = set(seasons(instance))
    except ObjectDoesNotExist:
        return  # its parent is being deleted too; the parent's signal covers it
    if season_ids:
        season_recompute_request(season_ids=season_ids, change=(sender, instance))


def _season_changed(sender, instance, **kwargs) -> None:
    """A season's own row (its label, its settings) changed, or the season is gone: the
    seasons after it that read it may read something else now."""
    if kwargs.get("signal") is post_delete:
        # Its rows' delete signals, sent before this one, noted changes of it.
        StaleScope.objects.filter(season_id=instance.pk).delete()
    if in_bulk_write() or kwargs.get("raw"):
        return
    later = later_seasons(series_id=instance.series_id, label=instance.label)
    if later:
        season_recompute_request(season_ids=set(later), scope="earlier")


def _results_changed(sender, season_ids, scope=None, **kwargs) -> None:
    season_recompute_request(season_ids=set(season_ids), scope=scope)


def connect_model(model: type) -> None:
    """Listen to one model's saves and deletes. Per model, not for every model: a model with no
    delete listener is deleted in bulk (the stored standings, replaced at every recompute)."""
    name = f"{model._meta.app_label}.{model.__name__}"
    post_save.connect(_changed, sender=model, dispatch_uid=f"rankings-save-{name}")
    post_delete.connect(_changed, sender=model, dispatch_uid=f"rankings-delete-{name}")


def connect() -> None:
    for model in SHARED_SEASON_OF:
        connect_model(model)
    post_save.connect(_season_changed, sender=m.Season, dispatch_uid="rankings-season-save")
    post_delete.connect(_season_changed, sender=m.Season, dispatch_uid="rankings-season-delete")
    for spec in all_systems():
        for model in spec.result_models:
            connect_model(model)
    results_changed.connect(_results_changed, dispatch_uid="rankings-results-changed")
