"""django-tables2 tables of the chess public pages. Numbers show as chess writes them (2½);
downloads keep them exact."""

from fractions import Fraction

import django_tables2 as tables
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from competitions.columns import LocalDateColumn
from competitions.text import isolated
from rankings.tables import (
    BaseTable,
    LinesTable,
    NameColumn,
    PlayerColumn,
    RankColumn,
    deciding,
    name_of_row,
)
from rankings.urls_helpers import season_url

GLYPHS = {Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾"}
FLOAT_GLYPHS = {0.0: "", 0.5: "½", 0.25: "¼", 0.75: "¾"}
END = {"td": {"class": "text-end text-nowrap"}, "th": {"class": "text-end"}}


def chess_number(value) -> str:
    """2.5 -> 2½, 0.25 -> ¼, 7 -> 7; anything else as a decimal (never rounded away)."""
    if value is None or value == "":
        return "–"
    if type(value) is int:
        return str(value)
    if type(value) is float and value >= 0:  # quarters are exact in binary
        whole = int(value)
        glyph = FLOAT_GLYPHS.get(value - whole)
        if glyph is not None:
            return f"{whole or ''}{glyph}" if glyph else str(whole)
    exact = Fraction(str(value))
    whole, part = divmod(exact, 1)
    if part == 0:
        return str(whole)
    if part in GLYPHS:
        return f"{whole or ''}{GLYPHS[part]}"
    return str(float(exact))


def explained(shown: str, body) -> str:
    """rules.md "every number explains itself": the number opens its computation."""
    if not body:
        return shown
    return format_html(
        '<details class="explain"><summary>{}</summary><div class="explain-body">{}</div>'
        "</details>",
        shown,
        body,
    )


class ExplainedColumn(tables.Column):
    """A number that opens its terms (`record[<name>_explain]`); exports the exact number."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", END)
        super().__init__(*args, **kwargs)

    def render(self, value, record, bound_column):
        return explained(chess_number(value), record.get(f"{bound_column.name}_explain"))

    def value(self, value):
        return value


class CellColumn(tables.Column):
    """A crosstable cell (`+H5`, `WO`, empty)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("orderable", False)
        kwargs.setdefault("default", "")
        kwargs.setdefault(
            "attrs", {"td": {"class": "cell text-center text-nowrap"}, "th": {"class": "round"}}
        )
        super().__init__(*args, **kwargs)


class NameClassColumn(PlayerColumn):
    """ "Navn (klasse)": the name linking to the player page, the class after it."""

    def render(self, value, record, table):
        name = super().render(value, record, table)
        if record.get("class"):
            return format_html(
                '{} <span class="text-body-secondary">({})</span>', name, record["class"]
            )
        return name

    def value(self, value, record):
        return f"{value} ({record['class']})" if record.get("class") else value


class CrosstableTable(BaseTable):
    """The federation's columns: Pl, Navn (klasse), Poeng, the quality columns, Født, one
    column per round; the numbers that decide the places before the rounds, so that a phone
    shows them beside the name. The points, quality and round columns are added per group
    (`extra_columns`: they come after the declared ones)."""

    place = RankColumn(verbose_name=_("Pl"))
    name = NameClassColumn(verbose_name=_("Name (class)"))

    class Meta(BaseTable.Meta):
        orderable = False
        attrs = {
            "class": "table table-sm table-bordered table-striped align-middle mb-0 crosstable"
        }


def crosstable(
    rows: list[dict], rounds: int, columns: int, codes: list[tuple[str, str]] | None = None
) -> CrosstableTable:
    """The crosstable; with `codes` (a group ranked by a list other than today's,
    chess-othello-options.md §1: (code, what it is)) one column per code, headed by its
    acronym with its meaning as tooltip, instead of the Monrad and Berger columns. The numbers
    that decide the places come before the birth year and the rounds (a phone shows them)."""
    extra = [("points", deciding(ExplainedColumn(verbose_name=_("Points"))))]
    if codes:
        extra += [
            (
                f"tb{k}",
                deciding(
                    ExplainedColumn(
                        verbose_name=code,
                        default=None,
                        attrs={**END, "th": {**END["th"], "title": meaning}},
                    )
                ),
            )
            for k, (code, meaning) in enumerate(codes, start=1)
        ]
        return CrosstableTable(rows, extra_columns=extra + later(rounds))
    extra += [
        (f"m{k}", deciding(ExplainedColumn(verbose_name=_("M%(n)s") % {"n": k})))
        for k in range(1, columns + 1)
    ]
    extra.append(("berger", deciding(ExplainedColumn(verbose_name=_("Berger")))))
    return CrosstableTable(rows, extra_columns=extra + later(rounds))


def later(rounds: int) -> list[tuple[str, tables.Column]]:
    """The crosstable's columns after the deciding numbers: the birth year, one per round."""
    born = ("born", tables.Column(verbose_name=_("Born"), default="", attrs=END))
    return [born, *((f"r{n}", CellColumn(verbose_name=str(n))) for n in range(1, rounds + 1))]


class BgpTable(BaseTable):
    place = RankColumn(verbose_name=_("Pl"))
    player = PlayerColumn()
    points = deciding(ExplainedColumn(verbose_name=_("BGP")))
    group = NameColumn(verbose_name=_("Group"), linkify=lambda record: record["group_url"])
    group_place = tables.Column(verbose_name=_("Place in group"), attrs=END)

    class Meta(BaseTable.Meta):
        orderable = False


class ClassTable(LinesTable):
    """A class's BGP standings: its stored lines, the counted tournaments (`names`: key ->
    name) linking to their pages."""

    rank = RankColumn()
    player = PlayerColumn()
    club = NameColumn(
        verbose_name=_("Club"),
        attrs={
            "td": {"class": "d-none d-md-table-cell"},
            "th": {"class": "d-none d-md-table-cell"},
        },
    )
    points = deciding(ExplainedColumn(verbose_name=_("BGP points"), accessor="detail__points"))
    counted = tables.Column(
        verbose_name=_("Tournaments"),
        accessor="detail__counted",
        empty_values=(None, "", []),
        attrs={"td": {"class": "small"}},
    )

    class Meta:  # not BaseTable's: the plain "table" look it always had
        orderable = False

    def __init__(self, data, *, season, names: dict[str, str], **kwargs):
        self.names = names
        self.season = season
        super().__init__(data, season=season, **kwargs)

    def parts(self, record) -> list[tuple[str, str, object]]:
        """(tournament key, name, points) of each counted tournament."""
        return [
            (c["tournament"], self.names.get(c["tournament"], c["tournament"]), c["points"])
            for c in record.detail["counted"]
        ]

    def render_points(self, record):
        parts = self.parts(record)
        sums = format_html(
            "{} = {}", " + ".join(str(p) for _k, _n, p in parts), record.detail["points"]
        )
        dropped = record.detail.get("dropped")
        if dropped:
            # chess-othello-options.md §2.3: the season's best N results counted
            sums = format_html(
                "{}<br>{}",
                sums,
                ngettext(
                    "The best result counted; not counted: %(results)s.",
                    "The best %(n)s results counted; not counted: %(results)s.",
                    len(parts),
                )
                % {
                    "n": len(parts),
                    "results": ", ".join(
                        f"{self.names.get(d['tournament'], d['tournament'])} {d['points']}"
                        for d in dropped
                    ),
                },
            )
        return explained(chess_number(record.detail["points"]), sums)

    def value_points(self, value):
        return value

    def render_counted(self, record):
        return format_html_join(
            " · ",
            '<a href="{}">{}</a> {}',
            (
                (season_url(self.season, "tournament", key), isolated(name), points)
                for key, name, points in self.parts(record)
            ),
        )

    def value_counted(self, record):
        return ", ".join(f"{name} {points}" for _k, name, points in self.parts(record))


class TournamentListTable(BaseTable):
    date = LocalDateColumn(verbose_name=_("Date"))
    name = name_of_row(
        NameColumn(verbose_name=_("Tournament"), linkify=lambda record: record["url"])
    )
    participants = tables.Column(verbose_name=_("Players"), attrs=END)
    groups = tables.Column(verbose_name=_("Groups"), attrs=END)

    def render_name(self, value, record):
        if record["county"]:
            return format_html(
                '{} <span class="badge text-bg-info">{}</span>',
                isolated(value),
                _("Kretsmesterskap"),
            )
        return isolated(value)

    class Meta(BaseTable.Meta):
        orderable = False


class PlayerSeasonTable(BaseTable):
    """A player's tournaments of a season: the place, points and BGP points beside the
    tournament, the group and the date after them (a phone)."""

    tournament = name_of_row(NameColumn(verbose_name=_("Tournament")))
    place = RankColumn(verbose_name=_("Pl"))
    points = deciding(ExplainedColumn(verbose_name=_("Points")))
    bgp = deciding(ExplainedColumn(verbose_name=_("BGP")))
    group = NameColumn(verbose_name=_("Group"), linkify=lambda record: record["url"])
    date = LocalDateColumn(verbose_name=_("Date"))

    class Meta(BaseTable.Meta):
        orderable = False
