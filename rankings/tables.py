"""Shared columns and the base table of the public pages (django-tables2); each system's tables
are in rankings/systems/<name>/tables.py. Rows are dicts from stored standings."""

from decimal import ROUND_HALF_UP, Decimal

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _


def display_points(value, places: int = 2) -> str:
    """Rounded for display only (rules.md: 2 decimals for board-game points), half up."""
    if value is None or value == "":
        return "–"
    quantum = Decimal(1).scaleb(-places)
    return str(Decimal(str(value)).quantize(quantum, rounding=ROUND_HALF_UP))


class PointsColumn(tables.Column):
    """Shows points rounded; exports them at full precision."""

    def __init__(self, *args, places: int = 2, **kwargs):
        self.places = places
        kwargs.setdefault(
            "attrs", {"td": {"class": "text-end text-nowrap"}, "th": {"class": "text-end"}}
        )
        super().__init__(*args, **kwargs)

    def render(self, value):
        return display_points(value, self.places)

    def value(self, value):
        return value


class RankColumn(tables.Column):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("verbose_name", "#")
        kwargs.setdefault(
            "attrs", {"td": {"class": "text-end fw-semibold"}, "th": {"class": "text-end"}}
        )
        super().__init__(*args, **kwargs)


class PlayerColumn(tables.Column):
    """The player's name linking to the player page; `row["url"]` is filled by the view."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("verbose_name", _("Player"))
        kwargs.setdefault("order_by", ("name",))
        super().__init__(*args, accessor="name", **kwargs)

    def render(self, value, record):
        if record.get("url"):
            return format_html('<a href="{}">{}</a>', record["url"], value)
        return value

    def value(self, value):
        return value


class ClubColumn(tables.Column):
    """The club: hidden on phones, where the name and the points matter most."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("verbose_name", _("Club"))
        hidden_on_phones = {"class": "d-none d-md-table-cell"}
        kwargs.setdefault("attrs", {"td": hidden_on_phones, "th": hidden_on_phones})
        super().__init__(*args, **kwargs)


class BaseTable(tables.Table):
    """Base: sortable, exportable, mobile-friendly."""

    export_formats = ("csv", "xlsx")

    class Meta:
        orderable = True
        attrs = {"class": "table table-sm table-striped table-hover align-middle mb-0"}
        template_name = "django_tables2/bootstrap5-responsive.html"
