"""The Keizer club competition (rules.md §4): its standings and public pages."""

from django.utils.translation import gettext_lazy as _

from competitions.registry import attach
from competitions.systems.keizer.system import KEY
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
        urls="rankings.systems.keizer.urls",
        tabs=(
            Tab("", _("Ranking list")),
            Tab("rounds", _("Evenings")),
        ),
        player_section=views.player_section,
        help_template="rankings/keizer/help.html",
    ),
)
