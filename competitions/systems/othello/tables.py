"""django-tables2 tables of the Othello GP manager pages."""

import django_tables2 as tables
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from competitions.columns import LocalDateColumn
from competitions.text import local_date
from competitions.views import manage_url

from .settings import tournament_flags


def flag_badges(options) -> str:
    """The tournament's federation flags as badges (SM, EGP)."""
    sm, egp = tournament_flags(options)
    labels = [label for label, on in ((_("SM"), sm), (_("EGP"), egp)) if on]
    return format_html_join(
        "", ' <span class="badge text-bg-info">{}</span>', ((label,) for label in labels)
    )


# On a phone the date moves under the tournament's name, so that its button fits the screen.
WIDE_ONLY = "d-none d-sm-table-cell"


class ManageTournamentTable(tables.Table):
    date = LocalDateColumn(
        verbose_name=_("Date"),
        default="–",
        attrs={"td": {"class": WIDE_ONLY}, "th": {"class": WIDE_ONLY}},
    )
    name = tables.Column(verbose_name=_("Tournament"))
    participants = tables.Column(
        verbose_name=_("Participants"),
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
        return format_html(
            '<a href="{}">{}</a>{}<div class="small text-body-secondary d-sm-none">{}</div>',
            manage_url(record.season, "tournament", record.key),
            value,
            flag_badges(record.options),
            local_date(record.date) if record.date else "–",
        )

    def render_enter(self, record):
        return format_html(
            '<a class="btn btn-sm btn-primary" href="{}">{}</a>',
            manage_url(record.season, "tournament", record.key),
            _("Enter standings") if not record.participants else _("Correct standings"),
        )
