"""django-tables2 tables of the Othello GP public pages. Rows are dicts from stored standings;
numbers that explain themselves render their computation, and export as plain numbers."""

import django_tables2 as tables
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from competitions.columns import LocalDateColumn
from competitions.systems.othello.settings import parse_settings
from competitions.text import isolated
from rankings.tables import (
    BaseTable,
    LinesTable,
    NameColumn,
    PlayerColumn,
    RankColumn,
    deciding,
    display_points,
    local_decimal,
    name_of_row,
    shown_number,
)

from . import explain

NUMBER = {"td": {"class": "text-end text-nowrap"}, "th": {"class": "text-end"}}
# A number that phones leave out: they show the name and the points.
NUMBER_WIDE = {
    "td": {"class": "text-end text-nowrap d-none d-md-table-cell"},
    "th": {"class": "text-end d-none d-md-table-cell"},
}
HIDDEN_ON_PHONES = {
    "td": {"class": "d-none d-md-table-cell"},
    "th": {"class": "d-none d-md-table-cell"},
}


class NumberColumn(tables.Column):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", NUMBER)
        super().__init__(*args, **kwargs)


class TournamentNameColumn(tables.Column):
    """The tournament's name linking to its page, with its SM / EGP badges."""

    def render(self, value, record):
        badges = format_html(
            "{}{}",
            format_html(' <span class="badge text-bg-info">{}</span>', _("SM"))
            if record.get("sm")
            else "",
            format_html(' <span class="badge text-bg-secondary">{}</span>', _("EGP"))
            if record.get("egp")
            else "",
        )
        return format_html('<a href="{}">{}</a>{}', record["url"], isolated(value), badges)

    def value(self, value):
        return value


class TournamentListTable(BaseTable):
    """The season's tournaments with every number of their max points (the footer of the
    overview explains them): on a phone the table scrolls beside the tournament's name."""

    date = LocalDateColumn(
        verbose_name=_("Date"), kind="day_month", attrs={"td": {"class": "text-nowrap"}}
    )
    name = name_of_row(TournamentNameColumn(verbose_name=_("Tournament")))
    winner = NameColumn(verbose_name=_("Winner"), orderable=False)
    participants = NumberColumn(verbose_name=_("Players"))
    home = NumberColumn(verbose_name=_("Of the country"))
    ranking_sum = NumberColumn(verbose_name=_("Ranking sum"))
    max_points = NumberColumn(verbose_name=_("Max points"))
    x = NumberColumn(verbose_name="x")

    def render_ranking_sum(self, value):
        return display_points(value, 1)

    def value_ranking_sum(self, value):
        return shown_number(value, 1)

    def render_max_points(self, value):
        return display_points(value, 2)

    def value_max_points(self, value):
        return shown_number(value, 2)

    def render_x(self, value):
        return "–" if value is None else display_points(value, 3)

    def value_x(self, value):
        return shown_number(value, 3)


class LineColumn(tables.Column):
    """A number of a tournament's line as the page computes it (`ComputationTable.line`)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", NUMBER)
        super().__init__(*args, accessor="detail", empty_values=(), **kwargs)

    def render(self, record, table, bound_column):
        return table.line(record)[bound_column.name]


class ComputationTable(LinesTable):
    """A tournament: each participant's rating entry -> NR -> contribution -> points. Its
    records are the tournament's stored lines; `line(record)` adds what the page computes
    (the rating entry in words, NR and the contribution, the place in the series)."""

    place = RankColumn(verbose_name=_("Place"), accessor="detail__place")
    player = PlayerColumn()
    country = tables.Column(
        verbose_name=_("Country"), accessor="detail__country", attrs=HIDDEN_ON_PHONES
    )
    rating_text = LineColumn(
        verbose_name=_("Rating entry"),
        attrs={
            "td": {"class": "text-nowrap d-none d-md-table-cell"},
            "th": {"class": "d-none d-md-table-cell"},
        },
    )
    nr = LineColumn(verbose_name=_("Nordic-equivalent"))
    contribution = LineColumn(verbose_name=_("Adds to the sum"), attrs=NUMBER_WIDE)
    # Rendered for every row: a foreign player's empty points explain themselves too.
    points = deciding(LineColumn(verbose_name=_("GP points")))

    class Meta(BaseTable.Meta):
        orderable = False

    def __init__(self, data, *, tournament: dict, line, **kwargs):
        self.tournament = tournament
        self.make_line = line  # (detail, k) -> the line's numbers, k its place in the series
        self.lines: dict[int, dict] = {}
        super().__init__(data, **kwargs)

    def line(self, record) -> dict:
        if record.pk not in self.lines:
            self.lines[record.pk] = self.make_line(record.detail, record.position + 1)
        return self.lines[record.pk]

    def render_country(self, value, record):
        if record.detail["points"] is None:
            return format_html('<span class="text-body-secondary">{}</span>', value)
        return value

    def render_nr(self, record):
        return explain.nr(self.line(record), self.tournament)

    def render_points(self, record):
        return explain.points(self.line(record), self.tournament)

    def value_points(self, record):
        return record.detail["points"]

    def value_nr(self, record):
        return float(self.line(record)["nr"])

    def render_contribution(self, record):
        return local_decimal(self.line(record)["contribution"])

    def value_contribution(self, record):
        return float(self.line(record)["contribution"])


def results_html(results: list[tuple[int, str, int, bool]]) -> str:
    """A player's results in tournament order as one line: the tournament's number raised,
    then the points, bold when they count, in brackets when not ("¹51 ²(31) ³42")."""
    return format_html_join(
        " ",
        '<span class="text-nowrap" title="{}. {}"><sup class="text-body-secondary">{}</sup>{}'
        "</span>",
        (
            (
                n,
                name,
                n,
                format_html('<strong class="counted">{}</strong>', points)
                if counted
                else format_html('<span class="text-body-secondary">({})</span>', points),
            )
            for n, name, points, counted in results
        ),
    )


class SeasonStandingsTable(LinesTable):
    """The season standings with every result; counted ones bold, the others in brackets.
    For downloads the view replaces the results line by one column per tournament.
    `tournaments`: (key, name) of the season's tournaments, in their order."""

    rank = RankColumn(order_by=("position",))
    player = PlayerColumn()
    points = deciding(
        NumberColumn(
            verbose_name=_("GP points"), accessor="detail__points", order_by=("points", "position")
        )
    )
    results_list = tables.Column(
        verbose_name=_("Results"), accessor="detail__results", orderable=False
    )

    def __init__(self, data, *, tournaments: list[tuple[str, str]], best_n: int, **kwargs):
        self.names = dict(tournaments)
        self.numbers = {key: n for n, (key, _name) in enumerate(tournaments, start=1)}
        self.best_n = best_n
        # chess-othello-options.md §3.3: the date of the WOF list the WOF values are from
        self.wof_list_date = parse_settings(kwargs["season"].settings).wof_list_date
        super().__init__(data, **kwargs)

    def render_points(self, record):
        return explain.total(
            record.detail, self.names, self.best_n, wof_list_date=self.wof_list_date
        )

    def value_points(self, record):
        return record.detail["points"]

    def render_results_list(self, record):
        counted = set(record.detail["counted"])
        return results_html(
            [
                (
                    self.numbers.get(r["tournament"], 0),
                    self.names.get(r["tournament"], r["tournament"]),
                    r["points"],
                    r["tournament"] in counted,
                )
                for r in record.detail["results"]
            ]
        )


class ResultColumn(tables.Column):
    """A player's result at one tournament of the standings matrix (tournament ids may hold
    any character, so the column reads the line's results itself instead of an accessor
    path)."""

    def __init__(self, key: str, **kwargs):
        self.key = key
        kwargs.setdefault("attrs", NUMBER)
        super().__init__(accessor="detail", empty_values=(), orderable=False, **kwargs)

    def result(self, detail: dict):
        points = next((r["points"] for r in detail["results"] if r["tournament"] == self.key), None)
        return None if points is None else (points, self.key in detail["counted"])

    def render(self, record):
        result = self.result(record.detail)
        if result is None:
            return ""
        points, counted = result
        if counted:
            return format_html('<strong class="counted">{}</strong>', points)
        return format_html('<span class="text-body-secondary">({})</span>', points)

    def value(self, record):
        result = self.result(record.detail)
        return "" if result is None else result[0]


class CountedColumn(ResultColumn):
    """Beside a tournament's column of a download: "yes" where that result counts."""

    def value(self, record):
        result = self.result(record.detail)
        return str(_("yes")) if result and result[1] else ""


class PlayerResultsTable(BaseTable):
    """A player's tournaments of a season: place, GP points and whether they count beside the
    tournament, the country and the date after them (a phone)."""

    tournament = name_of_row(
        NameColumn(verbose_name=_("Tournament"), linkify=lambda record: record["url"])
    )
    place = NumberColumn(verbose_name=_("Place"))
    points = deciding(NumberColumn(verbose_name=_("GP points"), empty_values=()))
    counted = deciding(tables.BooleanColumn(verbose_name=_("Counted"), yesno="✔,"))
    country = tables.Column(verbose_name=_("Country"), attrs=HIDDEN_ON_PHONES)
    date = LocalDateColumn(verbose_name=_("Date"))

    class Meta(BaseTable.Meta):
        orderable = False

    def render_points(self, record):
        return explain.result(
            record,
            record["data"],
            record["entries"],
            record["player"],
            whole=record["url"] if record.get("whole") else None,
        )

    def value_points(self, record):
        return record["points"]


class WhatIfTournamentTable(BaseTable):
    name = name_of_row(TournamentNameColumn(verbose_name=_("Tournament")))
    participants = NumberColumn(verbose_name=_("Players"), attrs=NUMBER_WIDE)
    stored_max = NumberColumn(verbose_name=_("Max points now"), attrs=NUMBER_WIDE)
    stored_series = tables.Column(verbose_name=_("Series now"), orderable=False)
    max_points = NumberColumn(verbose_name=_("Max points if"), attrs=NUMBER_WIDE)
    x = NumberColumn(verbose_name=_("x if"), attrs=NUMBER_WIDE)
    series = tables.Column(verbose_name=_("Series if"), orderable=False)

    class Meta(BaseTable.Meta):
        orderable = False

    def render_stored_max(self, value):
        return display_points(value, 2)

    def value_stored_max(self, value):
        return shown_number(value, 2)

    def render_max_points(self, value):
        return display_points(value, 2)

    def value_max_points(self, value):
        return shown_number(value, 2)

    def render_x(self, value):
        return "–" if value is None else display_points(value, 3)

    def value_x(self, value):
        return shown_number(value, 3)


class WhatIfStandingsTable(BaseTable):
    player = PlayerColumn()
    rank = deciding(NumberColumn(verbose_name=_("Rank if")))
    points = deciding(NumberColumn(verbose_name=_("Points if")))
    change = NumberColumn(verbose_name=_("Places"), orderable=False)
    stored_rank = NumberColumn(verbose_name=_("Rank now"))
    stored_points = NumberColumn(verbose_name=_("Points now"))

    class Meta(BaseTable.Meta):
        orderable = False

    def render_change(self, value):
        if value is None or value == "":
            return "–"
        if value > 0:
            return format_html('<span class="text-success">↑ {}</span>', value)
        if value < 0:
            return format_html('<span class="text-danger">↓ {}</span>', -value)
        return "="
