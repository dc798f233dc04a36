"""django-tables2 tables of the bridge ladder's manager pages."""

import django_tables2 as tables
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

NUMBER = {"td": {"class": "text-end"}, "th": {"class": "text-end"}}


class ManageRoundTable(tables.Table):
    number = tables.Column(verbose_name=_("Round"), attrs=NUMBER)
    pools = tables.Column(verbose_name=_("Pools"), attrs=NUMBER)
    players = tables.Column(verbose_name=_("Players"), attrs=NUMBER)
    entered = tables.Column(verbose_name=_("Scores entered per challenge"), orderable=False)
    enter = tables.Column(
        verbose_name="", empty_values=(), orderable=False, attrs={"td": {"class": "text-end"}}
    )

    class Meta:
        orderable = False
        attrs = {"class": "table table-sm table-hover align-middle mb-0"}
        template_name = "tables/bootstrap5-responsive.html"

    def render_entered(self, value, record):
        return format_html_join(
            " · ",
            '<span class="text-nowrap">{}: {}/{}</span>',
            ((c, n, record["players"]) for c, n in value),
        )

    def render_enter(self, record):
        return format_html(
            '<a class="btn btn-sm btn-primary" href="{}">{}</a>', record["url"], _("Open")
        )
