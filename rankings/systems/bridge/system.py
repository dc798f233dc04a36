"""The bridge pool ladder (rules.md §5): its standings and public pages."""

from django.utils.translation import gettext_lazy as _

from competitions.registry import attach
from competitions.systems.bridge.system import KEY
from rankings.systems import Pages, Standings, Tab

from . import standings, views

attach(
    KEY,
    standings=Standings(
        compute=standings.compute,
        document=standings.document,
        flat_tables=standings.flat_tables,
        update=standings.update,
    ),
    pages=Pages(
        overview=views.overview,
        urls="rankings.systems.bridge.urls",
        tabs=(
            Tab("", _("Ladder")),
            Tab("elo", _("Elo ranking")),
        ),
        player_section=views.player_section,
        help_template="rankings/bridge/help.html",
    ),
)
