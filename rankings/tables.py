"""django-tables2 tables of the public standings pages. Rows are dicts from stored standings."""

from decimal import ROUND_HALF_UP, Decimal

import django_tables2 as tables
from django.urls import reverse
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


class StandingsTable(tables.Table):
    """Base: sortable, exportable, mobile-friendly."""

    export_formats = ("csv", "xlsx")

    class Meta:
        orderable = True
        attrs = {"class": "table table-sm table-striped table-hover align-middle mb-0"}
        template_name = "django_tables2/bootstrap5-responsive.html"


class DailyTable(StandingsTable):
    rank = RankColumn()
    player = PlayerColumn()
    club = ClubColumn()
    daily = PointsColumn(verbose_name=_("Daily total"))
    bonus = PointsColumn(verbose_name=_("Bonus"), places=0)
    points = PointsColumn(verbose_name=_("Tournament points"))


class SeatTable(StandingsTable):
    rank = RankColumn(verbose_name=_("Rank"))
    player = PlayerColumn()
    placement = PointsColumn(verbose_name=_("Placement"))
    bonus = PointsColumn(verbose_name=_("Win bonus"), places=0)
    fraction = PointsColumn(verbose_name=_("Tie-break"), places=3)
    score = PointsColumn(verbose_name=_("Score"))

    class Meta(StandingsTable.Meta):
        orderable = False


class InterclubTable(StandingsTable):
    rank = RankColumn()
    club_name = tables.Column(verbose_name=_("Club"))
    score = PointsColumn(verbose_name=_("Interclub score"))
    counted = tables.Column(verbose_name=_("Counted players"), orderable=False)

    class Meta(StandingsTable.Meta):
        orderable = False


class YearlyTable(StandingsTable):
    rank = RankColumn()
    player = PlayerColumn()
    club = ClubColumn()
    points = PointsColumn(verbose_name=_("Points"))
    counted_names = tables.Column(
        verbose_name=_("Counted tournaments"),
        orderable=False,
        attrs={"td": {"class": "small text-body-secondary"}},
    )


class LudoTable(StandingsTable):
    rank = RankColumn()
    player = PlayerColumn()
    club = ClubColumn()
    points = PointsColumn(verbose_name=_("LUDO points"))


class GameTable(StandingsTable):
    rank = RankColumn()
    player = PlayerColumn()
    played = tables.Column(
        verbose_name=_("Tables"), attrs={"td": {"class": "text-end"}, "th": {"class": "text-end"}}
    )
    points = PointsColumn(verbose_name=_("Points"))
    finalist = tables.BooleanColumn(verbose_name=_("Finalist"), yesno="✔,")


class TournamentListTable(StandingsTable):
    date = tables.DateColumn(verbose_name=_("Date"), format="j M Y")
    name = tables.Column(verbose_name=_("Tournament"), linkify=lambda record: record["url"])
    participants = tables.Column(
        verbose_name=_("Players"), attrs={"td": {"class": "text-end"}, "th": {"class": "text-end"}}
    )
    winners = tables.Column(verbose_name=_("Day winner"), orderable=False)


class PlayerSeasonTable(StandingsTable):
    date = tables.DateColumn(verbose_name=_("Date"), format="j M Y")
    tournament = tables.Column(verbose_name=_("Tournament"), linkify=lambda record: record["url"])
    rank = RankColumn(verbose_name=_("Daily rank"))
    daily = PointsColumn(verbose_name=_("Daily total"))
    points = PointsColumn(verbose_name=_("Tournament points"))
    counted = tables.BooleanColumn(verbose_name=_("Counted"), yesno="✔,")


def player_url(series_slug: str, key: str) -> str:
    return reverse("player", args=[series_slug, key])
