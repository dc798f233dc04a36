"""The rankings app's manager action: bring a season's standings up to date now (when the task
queue is down, say). The manager's season page shows the button (its URL comes with the spec's
`standings`, `Standings.recompute_url`)."""

import logging

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from competitions.views import manage_url, manager_required, season_of

from .services import season_recompute as recompute

logger = logging.getLogger(__name__)


@manager_required
@require_POST
def season_recompute(request, series, season):
    season = season_of(series, season)
    try:
        recompute(season_id=season.pk)
    except Exception as exc:  # noqa: BLE001  (told to the manager, and logged)
        logger.exception("manual recompute of season %s failed", season.pk)
        messages.error(
            request,
            _("The standings could not be recomputed: %(error)s") % {"error": exc},
        )
    else:
        messages.success(request, _("The standings were recomputed."))
    return redirect(manage_url(season))
