"""Marking seasons stale and sending their recompute after commit (architecture.md: signals
only enqueue). The task itself runs `rankings.services.season_recompute`."""

import logging

from django.db import connection, transaction
from django.db.models import F, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnreachable

from competitions.models import Season
from competitions.registry import find_system

from .models import StaleScope
from .services import record_recompute_error
from .tasks import recompute_season

logger = logging.getLogger(__name__)


class _EnqueueRecompute:
    """An on_commit callback that sends the recompute task with the committed data version.

    A transaction that changed many rows registers many of these. Each claims the send in the
    season row (enqueued_version := data_version, if lower): the first one sends, the others
    find the version claimed. A send that fails gives its claim back, so the reconcile sees the
    season as not enqueued."""

    def __init__(self, season_id: int) -> None:
        self.season_id = season_id
        self.__qualname__ = f"recompute of season {season_id}"  # Django logs failures by it

    def __call__(self) -> None:
        seasons = Season.objects.filter(pk=self.season_id)
        table = connection.ops.quote_name(Season._meta.db_table)
        with connection.cursor() as cursor:  # the claim and the version claimed, in one statement
            cursor.execute(
                f"UPDATE {table} SET enqueued_version = data_version "
                "WHERE id = %s AND enqueued_version < data_version RETURNING enqueued_version",
                [self.season_id],
            )
            claimed = cursor.fetchone()
        if claimed is None:
            return  # sent already (or the season is gone)
        version = claimed[0]
        try:
            recompute_season.delay(self.season_id, version)
        except BrokerUnreachable as exc:
            # The change is saved; the reconcile sends the recompute once the queue is back.
            seasons.filter(enqueued_version=version).update(enqueued_version=version - 1)
            record_recompute_error(
                self.season_id, f"The task queue could not be reached: {exc}".strip()
            )
            logger.warning(
                "season %s: recompute not sent, broker unreachable: %s", self.season_id, exc
            )
        except Exception:
            seasons.filter(enqueued_version=version).update(enqueued_version=version - 1)
            raise


def season_recompute_request(
    *, season_ids: set[int], change: tuple[type, object] | None = None, scope: str | None = None
) -> None:
    """Mark the seasons' standings stale, note what changed, and send their recompute tasks
    after commit.

    `change` is the (model, row) that changed; the season's system maps it to the part of the
    season it reaches (`SystemSpec.change_scope`). Without it (a bulk write) the whole season
    changed, unless `scope` names the part.

    Every change bumps data_version, even when a task is already scheduled in this transaction:
    a recompute run meanwhile (e.g. by an import inside the same transaction) must not make the
    later change look computed.
    """
    if not season_ids:
        return
    rows = Season.objects.filter(pk__in=season_ids).values_list("pk", "series__system")
    scopes = []
    for pk, system in rows:
        spec = find_system(system)
        found = scope
        if change is not None and spec is not None and spec.change_scope is not None:
            found = spec.change_scope(*change)
        scopes.append(StaleScope(season_id=pk, scope=(found or "*")[:200]))
    if not scopes:
        return
    affected = sorted(s.season_id for s in scopes)
    Season.objects.filter(pk__in=affected).update(
        data_version=F("data_version") + 1,
        stale_since=Coalesce("stale_since", Value(timezone.now())),
    )
    StaleScope.objects.bulk_create(scopes)
    for sid in affected:
        transaction.on_commit(_EnqueueRecompute(sid), robust=True)
