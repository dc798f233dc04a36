"""django-tables2 tables of the board-game manager pages."""

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from competitions.tables import NUMBER
from competitions.tables import ManageTournamentTable as SeasonTournaments
from competitions.views import manage_url


class ManageTournamentTable(SeasonTournaments):
    table_count = tables.Column(accessor="tables", verbose_name=_("Tables"), attrs=NUMBER)
    enter = tables.Column(
        verbose_name="", empty_values=(), orderable=False, attrs={"td": {"class": "text-end"}}
    )

    class Meta(SeasonTournaments.Meta):
        pass

    def badges(self, record) -> str:
        if not record.final:
            return ""
        return format_html(' <span class="badge text-bg-primary">{}</span>', _("final"))

    def render_enter(self, record):
        return format_html(
            '<a class="btn btn-sm btn-primary" href="{}">{}</a>',
            manage_url(record.season, "round", record.key, 1),
            _("Enter results"),
        )
