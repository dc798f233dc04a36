from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RankingsConfig(AppConfig):
    name = "rankings"
    verbose_name = _("Rankings")

    def ready(self) -> None:
        from . import signals, systems

        systems.discover()  # each rankings/systems/<name>/system.py attaches its parts
        signals.connect()
