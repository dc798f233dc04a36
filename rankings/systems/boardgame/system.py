"""The board-game circuit (rules.md §1): its standings and public pages."""

from django.utils.translation import gettext_lazy as _

from competitions.registry import attach, find_system
from competitions.systems.boardgame.system import KEY
from rankings.systems import Pages, Standings, Tab

from . import standings, views


def update(season, scopes):
    """standings.update, which gives what standings.compute would store. When another compute
    is registered in its place (a test's, failing or slowed down on purpose), the update cannot
    agree with it: the season computes in full."""
    spec = find_system(KEY)
    if spec is None or spec.standings.compute is not standings.compute:
        return None
    return standings.update(season, scopes)


attach(
    KEY,
    standings=Standings(
        compute=standings.compute,
        document=standings.document,
        flat_tables=standings.flat_tables,
        carry=standings.carry,
        update=update,
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
        player_table_keys=("name", "date", "seasons", "game"),
        help_template="rankings/boardgame/help.html",
    ),
)
