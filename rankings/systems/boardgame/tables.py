"""django-tables2 tables of the board-game public pages."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from rankings.tables import (
    BaseTable,
    ClubColumn,
    PlayerColumn,
    PointsColumn,
    RankColumn,
    YesColumn,
)


class DailyTable(BaseTable):
    rank = RankColumn()
    player = PlayerColumn()
    club = ClubColumn()
    daily = PointsColumn(verbose_name=_("Daily total"), why="daily_why")
    bonus = PointsColumn(verbose_name=_("Bonus"), places=0, why="bonus_why")
    points = PointsColumn(verbose_name=_("Tournament points"), why="points_why")

    class Meta(BaseTable.Meta):
        empty_text = _("No results yet.")


class SeatTable(BaseTable):
    """A table of a round: rank, player and score; the score opens its parts (placement, win
    bonus, tie-break), so the card never needs to scroll sideways."""

    rank = RankColumn(verbose_name=_("Rank"))
    player = PlayerColumn(attrs={"td": {"class": "text-break"}})
    score = PointsColumn(verbose_name=_("Score"), why="score_why")

    class Meta(BaseTable.Meta):
        orderable = False
        attrs = {"class": "table table-sm table-striped align-middle mb-0 seat-table"}
        template_name = "tables/bootstrap5.html"


class InterclubTable(BaseTable):
    rank = RankColumn()
    club_name = tables.Column(verbose_name=_("Club"))
    score = PointsColumn(verbose_name=_("Interclub score"))
    counted = tables.Column(verbose_name=_("Counted players"), orderable=False)

    class Meta(BaseTable.Meta):
        orderable = False


class YearlyTable(BaseTable):
    rank = RankColumn()
    player = PlayerColumn()
    club = ClubColumn()
    points = PointsColumn(verbose_name=_("Points"), why="points_why")
    counted_names = tables.Column(
        verbose_name=_("Counted tournaments"),
        orderable=False,
        attrs={"td": {"class": "small text-body-secondary"}},
    )

    class Meta(BaseTable.Meta):
        empty_text = _("No results yet.")


class LudoTable(BaseTable):
    rank = RankColumn()
    player = PlayerColumn()
    club = ClubColumn()
    points = PointsColumn(verbose_name=_("LUDO points"), why="points_why")

    class Meta(BaseTable.Meta):
        empty_text = _("No results yet.")


class GameTable(BaseTable):
    rank = RankColumn()
    player = PlayerColumn()
    played = tables.Column(
        verbose_name=_("Tables"), attrs={"td": {"class": "text-end"}, "th": {"class": "text-end"}}
    )
    points = PointsColumn(verbose_name=_("Points"), why="points_why")
    finalist = YesColumn(verbose_name=_("Finalist"))

    class Meta(BaseTable.Meta):
        empty_text = _("No results yet.")


class TournamentListTable(BaseTable):
    date = tables.DateColumn(verbose_name=_("Date"), short=True)
    name = tables.Column(verbose_name=_("Tournament"), linkify=lambda record: record["url"])
    # Hidden on a phone, so the day winners keep their room (the tournament page has the count).
    participants = tables.Column(
        verbose_name=_("Players"),
        attrs={
            "td": {"class": "text-end d-none d-sm-table-cell"},
            "th": {"class": "text-end d-none d-sm-table-cell"},
        },
    )
    winners = tables.Column(verbose_name=_("Day winner"), orderable=False, empty_values=())

    class Meta(BaseTable.Meta):
        empty_text = _("No tournaments yet.")

    def render_winners(self, record):
        return record["winners_html"]


class PlayerSeasonTable(BaseTable):
    date = tables.DateColumn(verbose_name=_("Date"), short=True)
    tournament = tables.Column(verbose_name=_("Tournament"), linkify=lambda record: record["url"])
    rank = RankColumn(verbose_name=_("Daily rank"))
    daily = PointsColumn(verbose_name=_("Daily total"))
    points = PointsColumn(verbose_name=_("Tournament points"))
    counted = YesColumn(verbose_name=_("Counted"))

    class Meta(BaseTable.Meta):
        pass
