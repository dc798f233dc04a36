from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PairingsConfig(AppConfig):
    name = "pairings"
    verbose_name = _("Pairings")

    def ready(self) -> None:
        from . import systems

        systems.discover()  # each pairings/systems/<name>/system.py attaches its pairing
