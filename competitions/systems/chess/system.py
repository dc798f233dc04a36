"""Youth chess groups and BGP points (rules.md §3): its registration in the data layer.

Results can be stored (admin); files, manager pages and standings come with the system's issue.
"""

from django.utils.translation import gettext_lazy as _

from competitions.registry import BOOL, Setting, SettingsSpec, SystemSpec, register

from .models import GroupPlayer

KEY = "chess-bgp"

register(
    SystemSpec(
        key=KEY,
        name=_("Chess groups and BGP points"),
        tournament_options=SettingsSpec(
            fields=(Setting("county_championship", _("County championship"), BOOL, False),)
        ),
        result_models={GroupPlayer: lambda o: {o.group.tournament.season_id}},
        admin="competitions.systems.chess.admin",
    )
)
