"""The Othello Grand Prix (rules.md §2): its standings and public pages."""

from django.utils.translation import gettext_lazy as _

from competitions.registry import attach
from competitions.systems.othello.system import KEY
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
        urls="rankings.systems.othello.urls",
        tabs=(
            Tab("", _("Overview")),
            Tab("standings", _("GP standings")),
            Tab("next", _("Your next GP")),
            Tab("whatif", _("What if")),
        ),
        player_section=views.player_section,
        help_template="rankings/othello/help.html",
    ),
)
