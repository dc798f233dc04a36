"""django-tables2 tables of the manager pages."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _


class ManageTournamentTable(tables.Table):
    date = tables.DateColumn(verbose_name=_("Date"), format="j M Y", default="–")
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

    def _args(self, record):
        season = record.season
        return [season.series.slug, season.label, record.key]

    def render_name(self, value, record):
        final = (
            format_html(' <span class="badge text-bg-primary">{}</span>', _("final"))
            if record.final
            else ""
        )
        return format_html(
            '<a href="{}">{}</a>{}',
            reverse("manage:tournament", args=self._args(record)),
            value,
            final,
        )

    def render_enter(self, record):
        return format_html(
            '<a class="btn btn-sm btn-primary" href="{}">{}</a>',
            reverse("manage:round", args=[*self._args(record), 1]),
            _("Enter results"),
        )
