"""The Othello Grand Prix (rules.md §2): its registration in the data layer.

Results can be stored (admin); files, manager pages and standings come with the system's issue.
"""

from django.utils.translation import gettext_lazy as _

from competitions.registry import INT, TEXT, Setting, SettingsSpec, SystemSpec, register

from .models import Placement

KEY = "othello-gp"

register(
    SystemSpec(
        key=KEY,
        name=_("Othello Grand Prix"),
        settings=SettingsSpec(
            fields=(
                Setting("best_n", _("Best tournaments counted"), INT, 5, 1, 100),
                Setting("country", _("Country whose players score"), TEXT, "SE", max_length=2),
            )
        ),
        result_models={Placement: lambda o: {o.tournament.season_id}},
        admin="competitions.systems.othello.admin",
    )
)
