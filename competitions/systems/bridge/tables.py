"""django-tables2 tables of the bridge ladder's manager pages."""

import django_tables2 as tables
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

# On a phone the pools and players move under the round's number, so that its button fits the
# screen.
WIDE_NUMBER = {
    "td": {"class": "text-end d-none d-sm-table-cell"},
    "th": {"class": "text-end d-none d-sm-table-cell"},
}


class ManageRoundTable(tables.Table):
    number = tables.Column(verbose_name=_("Round"))
    pools = tables.Column(verbose_name=_("Pools"), attrs=WIDE_NUMBER)
    players = tables.Column(verbose_name=_("Players"), attrs=WIDE_NUMBER)
    entered = tables.Column(verbose_name=_("Scores entered per challenge"), orderable=False)
    enter = tables.Column(
        verbose_name="", empty_values=(), orderable=False, attrs={"td": {"class": "text-end"}}
    )

    class Meta:
        orderable = False
        attrs = {"class": "table table-sm table-hover align-middle mb-0"}

    def render_number(self, value, record):
        return format_html(
            '{}<div class="small text-body-secondary d-sm-none">{} · {}</div>',
            value,
            ngettext("%(n)s pool", "%(n)s pools", record["pools"]) % {"n": record["pools"]},
            ngettext("%(n)s player", "%(n)s players", record["players"]) % {"n": record["players"]},
        )

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
