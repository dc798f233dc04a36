"""django-tables2 tables of the board-game manager pages."""

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from competitions.columns import LocalDateColumn
from competitions.views import manage_url


class ManageTournamentTable(tables.Table):
    date = LocalDateColumn(verbose_name=_("Date"), default="–")
    name = tables.Column(verbose_name=_("Tournament"))
    table_count = tables.Column(
        accessor="tables",
        verbose_name=_("Tables"),
        attrs={"td": {"class": "text-end"}, "th": {"class": "text-end"}},
    )
    enter = tables.Column(
        verbose_name="", empty_values=(), orderable=False, attrs={"td": {"class": "text-end"}}
    )

    class Meta:
        orderable = False
        attrs = {"class": "table table-sm table-hover align-middle mb-0"}
        template_name = "django_tables2/bootstrap5-responsive.html"

    def render_name(self, value, record):
        final = (
            format_html(' <span class="badge text-bg-primary">{}</span>', _("final"))
            if record.final
            else ""
        )
        return format_html(
            '<a href="{}">{}</a>{}',
            manage_url(record.season, "tournament", record.key),
            value,
            final,
        )

    def render_enter(self, record):
        return format_html(
            '<a class="btn btn-sm btn-primary" href="{}">{}</a>',
            manage_url(record.season, "round", record.key, 1),
            _("Enter results"),
        )
