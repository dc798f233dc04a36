"""The Keizer club competition (rules.md §4): its registration in the data layer.

Its results are the shared games and round entries (competitions.models.games). Results can be
stored (admin); files, manager pages, standings and pairing come with the system's issue.
"""

from django.utils.translation import gettext_lazy as _

from competitions.registry import INT, Setting, SettingsSpec, SystemSpec, register

KEY = "keizer"

register(
    SystemSpec(
        key=KEY,
        name=_("Keizer club competition"),
        settings=SettingsSpec(
            fields=(
                Setting(
                    "start_fade_rounds", _("Rounds over which start points fade"), INT, 10, 1, 100
                ),
            )
        ),
        admin="competitions.systems.keizer.admin",
    )
)
