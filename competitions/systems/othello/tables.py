"""django-tables2 tables of the Othello GP manager pages."""

import django_tables2 as tables
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from competitions.columns import LocalDateColumn
from competitions.tables import NUMBER
from competitions.tables import ManageTournamentTable as SeasonTournaments
from competitions.text import isolated, local_date
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


class ManageTournamentTable(SeasonTournaments):
    date = LocalDateColumn(
        verbose_name=_("Date"),
        default="–",
        attrs={"td": {"class": WIDE_ONLY}, "th": {"class": WIDE_ONLY}},
    )
    participants = tables.Column(verbose_name=_("Participants"), attrs=NUMBER)
    enter = tables.Column(
        verbose_name="", empty_values=(), orderable=False, attrs={"td": {"class": "text-end"}}
    )

    class Meta(SeasonTournaments.Meta):
        pass

    def render_name(self, value, record):
        return format_html(
            '<a href="{}">{}</a>{}<div class="small text-body-secondary d-sm-none">{}</div>',
            manage_url(record.season, "tournament", record.key),
            isolated(value),
            flag_badges(record.options),
            local_date(record.date) if record.date else "–",
        )

    def render_enter(self, record):
        return format_html(
            '<a class="btn btn-sm btn-primary" href="{}">{}</a>',
            manage_url(record.season, "tournament", record.key),
            _("Enter standings") if not record.participants else _("Correct standings"),
        )
