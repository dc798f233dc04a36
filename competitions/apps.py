from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionsConfig(AppConfig):
    name = "competitions"
    verbose_name = _("Competitions")

    def ready(self) -> None:
        from . import consistency, registry, security

        registry.discover()  # each competitions/systems/<name>/system.py registers its system
        consistency.connect()
        security.connect()
