"""django-tables2 tables of the chess manager pages."""

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from competitions.tables import NUMBER
from competitions.tables import ManageTournamentTable as SeasonTournaments

from .interchange import COUNTY


class ManageTournamentTable(SeasonTournaments):
    group_count = tables.Column(verbose_name=_("Groups"), attrs=NUMBER)

    class Meta(SeasonTournaments.Meta):
        pass

    def badges(self, record) -> str:
        if not record.options.get(COUNTY):
            return ""
        return format_html(' <span class="badge text-bg-info">{}</span>', _("Kretsmesterskap"))
