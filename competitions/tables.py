"""django-tables2 tables shared by the systems' manager pages."""

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from competitions.columns import LocalDateColumn
from competitions.text import isolated
from competitions.views import manage_url


class ManageTournamentTable(tables.Table):
    """A season's tournaments on the manager's season page: the date and the name, linked to
    the tournament's page, with the system's badges (`badges`); a system adds its own columns
    after these (with `class Meta(ManageTournamentTable.Meta)`: django-tables2 passes
    its options on only to a Meta that extends this one)."""

    date = LocalDateColumn(verbose_name=_("Date"), default="–")
    name = tables.Column(verbose_name=_("Tournament"))

    class Meta:
        orderable = False
        attrs = {"class": "table table-sm table-hover align-middle mb-0"}

    def badges(self, record) -> str:
        """HTML after the tournament's name (a system's flags of the tournament)."""
        return ""

    def render_name(self, value, record):
        return format_html(
            '<a href="{}">{}</a>{}',
            manage_url(record.season, "tournament", record.key),
            isolated(value),
            self.badges(record),
        )


# The numbers of a tournament's row, right-aligned.
NUMBER = {"td": {"class": "text-end"}, "th": {"class": "text-end"}}
