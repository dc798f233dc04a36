"""The bridge pool ladder (rules.md §5): its registration in the data layer.

Results can be stored (admin); files, manager pages and standings come with the system's issue.
"""

from django.utils.translation import gettext_lazy as _

from competitions.registry import INT, Setting, SettingsSpec, SystemSpec, register

from .models import Challenge, ChallengeScore, Pool, PoolMember

KEY = "bridge-ladder"

register(
    SystemSpec(
        key=KEY,
        name=_("Bridge pool ladder"),
        settings=SettingsSpec(
            fields=(
                Setting("pool_size", _("Players per pool"), INT, 5, 2, 20),
                Setting("challenges_per_round", _("Challenges per round"), INT, 3, 1, 20),
                Setting("start_elo", _("Start Elo"), INT, 1250, 0, 5000),
                Setting("k", _("K-factor"), INT, 25, 1, 200),
            )
        ),
        result_models={
            Pool: lambda o: {o.round.season_id},
            PoolMember: lambda o: {o.round.season_id},
            Challenge: lambda o: {o.round.season_id},
            ChallengeScore: lambda o: {o.challenge.round.season_id},
        },
        admin="competitions.systems.bridge.admin",
    )
)
