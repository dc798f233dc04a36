"""Chess groups and BGP points (rules.md §3): standings and public pages."""

from django.utils.translation import gettext_lazy as _

from competitions.registry import attach
from competitions.systems.chess.system import KEY
from rankings.systems import Pages, Standings, Tab

from . import preview, standings, views

attach(
    KEY,
    standings=Standings(
        compute=standings.compute,
        document=standings.document,
        flat_tables=standings.flat_tables,
        update=standings.update,
        preview=preview.settings_changes,
    ),
    pages=Pages(
        overview=views.overview,
        urls="rankings.systems.chess.urls",
        tabs=(Tab("", _("Tournaments")), Tab("classes", _("BGP standings"))),
        player_section=views.player_section,
        help_template="rankings/chess/help.html",
    ),
)
