"""django-tables2 tables of the chess manager pages."""

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from competitions.columns import LocalDateColumn
from competitions.views import manage_url

from .interchange import COUNTY


class ManageTournamentTable(tables.Table):
    date = LocalDateColumn(verbose_name=_("Date"), default="–")
    name = tables.Column(verbose_name=_("Tournament"))
    group_count = tables.Column(
        verbose_name=_("Groups"), attrs={"td": {"class": "text-end"}, "th": {"class": "text-end"}}
    )

    class Meta:
        orderable = False
        attrs = {"class": "table table-sm table-hover align-middle mb-0"}
        template_name = "django_tables2/bootstrap5-responsive.html"

    def render_name(self, value, record):
        county = (
            format_html(' <span class="badge text-bg-info">{}</span>', _("Kretsmesterskap"))
            if record.options.get(COUNTY)
            else ""
        )
        return format_html(
            '<a href="{}">{}</a>{}',
            manage_url(record.season, "tournament", record.key),
            value,
            county,
        )
