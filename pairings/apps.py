from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PairingsConfig(AppConfig):
    name = "pairings"
    verbose_name = _("Pairings")
