"""The Keizer club competition (rules.md §4): its standings and public pages."""

from django.utils.translation import gettext_lazy as _

from competitions.registry import add_manage_urls, attach
from competitions.systems.keizer.kfc import is_kfc
from competitions.systems.keizer.system import KEY
from rankings.systems import ForeignFile, Pages, Standings, Tab

from . import kfc, standings, views

attach(
    KEY,
    standings=Standings(
        compute=standings.compute,
        document=standings.document,
        flat_tables=standings.flat_tables,
        update=standings.update,
        foreign_file=ForeignFile(recognises=is_kfc, run=kfc.import_kfc),
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
add_manage_urls(KEY, "rankings.systems.keizer.urls_manage")
