"""django-tables2 tables of the Keizer public pages. Rows are dicts from stored standings."""

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from competitions.columns import LocalDateColumn
from competitions.text import isolated
from rankings.tables import (
    BaseTable,
    PlayerColumn,
    PointsColumn,
    RankColumn,
    deciding,
    shown_number,
)

from . import explain

RIGHT = {"td": {"class": "text-end text-nowrap"}, "th": {"class": "text-end"}}
WIDE_ONLY = {
    "td": {"class": "text-end text-nowrap d-none d-md-table-cell"},
    "th": {"class": "text-end d-none d-md-table-cell"},
}


class ExplainedColumn(tables.Column):
    """A number that opens its computation (`explain`); exported as the plain number, rounded
    to `places` decimals as the page shows it."""

    def __init__(self, *args, explain, places: int = 2, **kwargs):
        self.explain = explain
        self.places = places
        kwargs.setdefault("attrs", RIGHT)
        super().__init__(*args, **kwargs)

    def render(self, record):
        return self.explain(record)

    def value(self, value):
        return shown_number(value, self.places)


def _whole(value) -> bool:
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


class StartPointsColumn(PointsColumn):
    """Start points: whole numbers as such, others with 2 decimals."""

    def render(self, value, record, table):
        if _whole(value):
            return str(int(value))
        return super().render(value, record, table)

    def value(self, value):
        return int(value) if _whole(value) else super().value(value)


class RankingTable(BaseTable):
    """A ranking list (rules.md §4.1): rank, player, score, value, games; on wider screens the
    ranking key and the start points too. Score, key and value explain themselves."""

    rank = RankColumn()
    player = PlayerColumn()
    score = deciding(ExplainedColumn(verbose_name=_("Score"), explain=explain.score))
    value = ExplainedColumn(verbose_name=_("Value"), explain=explain.value, places=0)
    games = tables.Column(verbose_name=_("Games"), attrs=RIGHT)
    key = ExplainedColumn(verbose_name=_("Ranking key"), explain=explain.key, attrs=WIDE_ONLY)
    start_points = StartPointsColumn(verbose_name=_("Start points"), attrs=WIDE_ONLY)

    class Meta(BaseTable.Meta):
        orderable = False
        attrs = {
            "class": "table table-sm table-striped table-hover align-middle mb-0 keizer-ranking"
        }


class PairedPlayerColumn(tables.Column):
    """A player of a game: name (linked), his place in the list the evening was paired from,
    and on the black side whether the pair was set by hand (the markup of the former
    `_player_cell.html`, built without a template per cell)."""

    def __init__(self, *args, side: str, **kwargs):
        self.side = side
        kwargs.setdefault("empty_values", ())
        super().__init__(*args, **kwargs)

    def render(self, record):
        side = self.side
        name, url, rank = record[f"{side}_name"], record[f"{side}_url"], record[f"{side}_rank"]
        html = format_html('<a href="{}">{}</a>', url, isolated(name)) if url else isolated(name)
        if rank:
            html = format_html('{} <span class="text-body-secondary small">({})</span>', html, rank)
        if side == "black" and record["manual"]:
            html = format_html(
                '{} <span class="badge text-bg-light border">{}</span>',
                html,
                gettext("manual pair"),
            )
        return html


class PairingTable(BaseTable):
    """An evening's games: board, white, black, result; the players' ranks in the list the
    evening was paired from."""

    board = tables.Column(verbose_name=_("Board"), attrs=RIGHT)
    white = PairedPlayerColumn(side="white", verbose_name=_("White"))
    result = tables.Column(
        verbose_name=_("Result"),
        default="",
        attrs={"td": {"class": "text-center text-nowrap"}, "th": {"class": "text-center"}},
    )
    black = PairedPlayerColumn(side="black", verbose_name=_("Black"))

    class Meta(BaseTable.Meta):
        orderable = False

    def render_result(self, value):
        return value.replace("1/2", "½")

    def value_white(self, record):
        return record["white_name"]

    def value_black(self, record):
        return record["black_name"]


class EveningListTable(BaseTable):
    number = tables.Column(
        verbose_name=_("Evening"), attrs=RIGHT, linkify=lambda record: record["url"]
    )
    date = LocalDateColumn(verbose_name=_("Date"), kind="weekday_year", default="–")
    present = tables.Column(verbose_name=_("Present"), attrs=RIGHT)
    games = tables.Column(verbose_name=_("Games"), attrs=RIGHT)
    state = tables.Column(verbose_name=_("State"), orderable=False)

    class Meta(BaseTable.Meta):
        orderable = False


class RankHistoryTable(BaseTable):
    """A player's place over the season: the same numbers as the chart."""

    after = tables.Column(verbose_name=_("After round"), attrs=RIGHT)
    rank = tables.Column(verbose_name=_("Rank"), attrs=RIGHT)
    score = PointsColumn(verbose_name=_("Score"))
    value = tables.Column(verbose_name=_("Value"), attrs=RIGHT)

    class Meta(BaseTable.Meta):
        orderable = False


class PlayerGamesTable(BaseTable):
    """Every evening of a player: the game (colour, opponent, result) or what he did instead."""

    round = tables.Column(
        verbose_name=_("Evening"), attrs=RIGHT, linkify=lambda record: record["url"]
    )
    colour = tables.Column(verbose_name=_("Colour"), default="")
    what = tables.TemplateColumn(
        template_name="rankings/keizer/_game_cell.html", verbose_name=_("Game")
    )
    result = tables.Column(
        verbose_name=_("Result"), default="", attrs={"td": {"class": "text-nowrap"}}
    )

    class Meta(BaseTable.Meta):
        orderable = False

    def render_result(self, value):
        return value.replace("1/2", "½")

    def value_what(self, record):
        what = record["label"] + (" " + record["opponent_name"] if record["opponent"] else "")
        return what + (f" ({gettext('withdrawn')})" if record.get("withdrawn") else "")
