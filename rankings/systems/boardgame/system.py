"""The board-game circuit (rules.md §1): its standings and public pages."""

from django.utils.translation import gettext_lazy as _

from competitions.registry import attach
from competitions.systems.boardgame.system import KEY
from rankings.systems import Pages, Standings, Tab

from . import standings, views

attach(
    KEY,
    standings=Standings(
        compute=standings.compute,
        document=standings.document,
        flat_tables=standings.flat_tables,
        carry=standings.carry,
        update=standings.update,
    ),
    pages=Pages(
        overview=views.overview,
        urls="rankings.systems.boardgame.urls",
        tabs=(
            Tab("", _("Overview")),
            Tab("yearly", _("Yearly ranking")),
            Tab("ludo", _("LUDO ranking")),
            Tab("games", _("Per game")),
        ),
        player_section=views.player_section,
        help_template="rankings/boardgame/help.html",
    ),
)
