"""django-tables2 tables of the Keizer manager pages."""

import django_tables2 as tables
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from competitions.columns import LocalDateColumn, NameColumn
from competitions.text import local_date
from competitions.views import manage_url

from . import selectors

STATE_LABELS = {
    selectors.EMPTY: (_("nothing entered"), "text-bg-light border"),
    selectors.ATTENDANCE_TAKEN: (_("to be paired"), "text-bg-warning"),
    selectors.PAIRED: (_("results missing"), "text-bg-info"),
    selectors.COMPLETE: (_("complete"), "text-bg-success"),
}


# On a phone the date and the count of players present move under the evening's number, so
# that its buttons fit the screen instead of sitting past its edge.
WIDE_ONLY = "d-none d-sm-table-cell"


class EveningTable(tables.Table):
    number = tables.Column(verbose_name=_("Evening"))
    date = LocalDateColumn(
        accessor="round__date",
        verbose_name=_("Date"),
        kind="weekday",
        default="–",
        attrs={"td": {"class": WIDE_ONLY}, "th": {"class": WIDE_ONLY}},
    )
    state = tables.Column(verbose_name=_("State"), empty_values=())
    present = tables.Column(
        verbose_name=_("Present"),
        attrs={"td": {"class": f"text-end {WIDE_ONLY}"}, "th": {"class": f"text-end {WIDE_ONLY}"}},
    )
    actions = tables.Column(
        verbose_name="", empty_values=(), orderable=False, attrs={"td": {"class": "text-end"}}
    )

    class Meta:
        orderable = False
        attrs = {"class": "table table-sm table-hover align-middle mb-0"}

    def __init__(self, *args, season, **kwargs):
        super().__init__(*args, **kwargs)
        self.season = season

    def render_number(self, record):
        date = record.round.date
        present = ngettext("%(n)s player present", "%(n)s players present", record.present) % {
            "n": record.present
        }
        return format_html(
            '{}<div class="small text-body-secondary d-sm-none">{}</div>',
            record.number,
            f"{local_date(date, 'weekday')} · {present}" if date else present,
        )

    def render_state(self, record):
        label, css = STATE_LABELS[record.state]
        if record.state == selectors.PAIRED:
            label = _("%(n)s results missing") % {"n": record.missing}
        return format_html('<span class="badge {}">{}</span>', css, label)

    def render_actions(self, record):
        links = [(manage_url(self.season, "attendance", record.number), _("Attendance"), "")]
        if record.state == selectors.ATTENDANCE_TAKEN:
            links.append((manage_url(self.season, "pair", record.number), _("Pair"), "primary"))
        if record.games:
            links += [
                (manage_url(self.season, "print", record.number), _("Print"), ""),
                (
                    manage_url(self.season, "results", record.number),
                    _("Results"),
                    "primary" if record.missing else "",
                ),
            ]
        return format_html(
            '<div class="d-flex flex-wrap gap-1 justify-content-end">{}</div>',
            format_html_join(
                "",
                '<a class="btn btn-sm btn-{}" href="{}">{}</a>',
                ((css or "outline-secondary", url, label) for url, label, css in links),
            ),
        )


class PrintTable(tables.Table):
    """The pairing list on paper: board, white, black, a box for the result."""

    board = tables.Column(verbose_name=_("Board"), attrs={"td": {"class": "board"}})
    white = NameColumn(verbose_name=_("White"), accessor="white__name", default="?")
    dash = tables.Column(verbose_name="", empty_values=(), attrs={"td": {"class": "dash"}})
    black = NameColumn(verbose_name=_("Black"), accessor="black__name", default="?")
    result = tables.Column(
        verbose_name=_("Result"), default="", attrs={"td": {"class": "result-box"}}
    )

    class Meta:
        orderable = False
        attrs = {"class": "table table-bordered align-middle pairing-list"}

    def render_dash(self):
        return "–"
