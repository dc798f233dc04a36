"""django-tables2 tables of the board-game public pages."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from rankings.tables import BaseTable, ClubColumn, PlayerColumn, PointsColumn, RankColumn


class DailyTable(BaseTable):
    rank = RankColumn()
    player = PlayerColumn()
    club = ClubColumn()
    daily = PointsColumn(verbose_name=_("Daily total"))
    bonus = PointsColumn(verbose_name=_("Bonus"), places=0)
    points = PointsColumn(verbose_name=_("Tournament points"))


class SeatTable(BaseTable):
    rank = RankColumn(verbose_name=_("Rank"))
    player = PlayerColumn()
    placement = PointsColumn(verbose_name=_("Placement"))
    bonus = PointsColumn(verbose_name=_("Win bonus"), places=0)
    fraction = PointsColumn(verbose_name=_("Tie-break"), places=3)
    score = PointsColumn(verbose_name=_("Score"))

    class Meta(BaseTable.Meta):
        orderable = False


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
    points = PointsColumn(verbose_name=_("Points"))
    counted_names = tables.Column(
        verbose_name=_("Counted tournaments"),
        orderable=False,
        attrs={"td": {"class": "small text-body-secondary"}},
    )


class LudoTable(BaseTable):
    rank = RankColumn()
    player = PlayerColumn()
    club = ClubColumn()
    points = PointsColumn(verbose_name=_("LUDO points"))


class GameTable(BaseTable):
    rank = RankColumn()
    player = PlayerColumn()
    played = tables.Column(
        verbose_name=_("Tables"), attrs={"td": {"class": "text-end"}, "th": {"class": "text-end"}}
    )
    points = PointsColumn(verbose_name=_("Points"))
    finalist = tables.BooleanColumn(verbose_name=_("Finalist"), yesno="✔,")


class TournamentListTable(BaseTable):
    date = tables.DateColumn(verbose_name=_("Date"), format="j M Y")
    name = tables.Column(verbose_name=_("Tournament"), linkify=lambda record: record["url"])
    participants = tables.Column(
        verbose_name=_("Players"), attrs={"td": {"class": "text-end"}, "th": {"class": "text-end"}}
    )
    winners = tables.Column(verbose_name=_("Day winner"), orderable=False)


class PlayerSeasonTable(BaseTable):
    date = tables.DateColumn(verbose_name=_("Date"), format="j M Y")
    tournament = tables.Column(verbose_name=_("Tournament"), linkify=lambda record: record["url"])
    rank = RankColumn(verbose_name=_("Daily rank"))
    daily = PointsColumn(verbose_name=_("Daily total"))
    points = PointsColumn(verbose_name=_("Tournament points"))
    counted = tables.BooleanColumn(verbose_name=_("Counted"), yesno="✔,")
