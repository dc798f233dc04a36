"""django-tables2 tables of the board-game public pages."""

import django_tables2 as tables
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from competitions.columns import LocalDateColumn
from competitions.text import isolated
from rankings.tables import (
    BaseTable,
    ClubColumn,
    LinesTable,
    NameColumn,
    PlayerColumn,
    PointsColumn,
    RankColumn,
    YesColumn,
    deciding,
    display_points,
    explained,
    name_of_row,
)

from . import explain


def _rank():
    return RankColumn(order_by=("position",))


def _points(verbose_name, key: str = "points", **kwargs):
    """Points shown exactly as stored in the line's detail; sorted by the line's own `points`
    (the same number as a float) or the detail's key."""
    order = "points" if key == "points" else f"detail__{key}"
    return PointsColumn(
        verbose_name=verbose_name,
        accessor=f"detail__{key}",
        order_by=(order, "position"),
        **kwargs,
    )


class DailyTable(LinesTable):
    """A tournament's daily ranking; each number opens its computation. `seats(lines)`: the
    tables of those lines' players (the tournament's stored tables, read for the page's lines
    at once)."""

    rank = _rank()
    player = PlayerColumn()
    club = ClubColumn()
    points = deciding(_points(_("Tournament points"), why="points_why"))
    daily = _points(_("Daily total"), "daily", why="daily_why")
    bonus = _points(_("Bonus"), "bonus", places=0, why="bonus_why")

    class Meta(BaseTable.Meta):
        empty_text = _("No results yet.")

    def __init__(self, data, *, tournament: dict, seats, **kwargs):
        self.tournament = tournament
        self.seats = seats
        self.played: dict[str, list] | None = None
        super().__init__(data, **kwargs)

    def daily_why(self, record):
        if self.played is None:  # the tables of every line shown, in one read
            self.played = dict(self.seats([r.detail for r in self.shown()]))
        if record.detail["player"] not in self.played:
            self.played.update(self.seats([record.detail]))
        return explain.daily_total(
            self.played.get(record.detail["player"], []), record.detail["daily"]
        )

    def bonus_why(self, record):
        d = record.detail
        return explain.tournament_bonus(
            self.tournament["participants"], self.tournament["cap"], d["rank"], d["bonus"]
        )

    def points_why(self, record):
        d = record.detail
        return explain.tournament_points(d["daily"], d["bonus"], d["points"])


def seat_table(rows: list[dict]) -> SafeString:
    """A table of a round: rank, player and score; the score opens its parts (placement, win
    bonus, tie-break), so the card never needs to scroll sideways. Written directly, not as a
    django-tables2 table: a round's page shows 36 of these small fixed tables, and a table
    rendered through django-tables2 costs about as much as the three lines it holds."""
    lines = []
    for i, r in enumerate(rows):
        name = isolated(r["name"])
        player = format_html('<a href="{}">{}</a>', r["url"], name) if r.get("url") else name
        score = explained(display_points(r["score"]), r.get("score_why"))
        lines.append(
            f'<tr class="{"odd" if i % 2 else "even"}">'
            f'<td class="fw-semibold text-end">{conditional_escape(r["rank"])}</td>'
            f'<td class="text-break">{player}</td>'
            f'<td class="text-end text-nowrap">{score}</td></tr>'
        )
    return format_html(
        '<div class="table-container"><table class="table table-sm table-striped align-middle'
        ' mb-0 seat-table"><thead><tr><th class="text-end" scope="col">{}</th>'
        '<th scope="col">{}</th><th class="text-end" scope="col">{}</th></tr></thead>'
        "<tbody>{}</tbody></table></div>",
        _("Rank"),
        _("Player"),
        _("Score"),
        mark_safe("\n".join(lines)),  # noqa: S308 - every part above is escaped
    )


_STEP_CLASSES = {
    "winner": "text-bg-warning",
    "club": "text-bg-info",
    "place": "text-bg-success",
}


def ceremony_list(entries: list[dict], finished: bool) -> SafeString:
    """The prize ceremony's names in calling order, each with its step (day winner or leader,
    best club, place, by lot), linked to the player's page and with their club. Written
    directly, not through the template engine: a field of 2000 players shows 100 names, and a
    template loop of conditions costs more per name than the name itself."""
    labels = {
        "winner": _("Day winner") if finished else _("Leader"),
        "club": _("Best club"),
        "place": _("Place"),
    }
    by_lot = _("By lot")
    lines = []
    for number, entry in enumerate(entries, 1):
        step = entry["step"]
        label = isolated(entry["label"])
        name = format_html('<a href="{}">{}</a>', entry["url"], label) if entry["url"] else label
        club = (
            f' <span class="text-body-secondary small">· {isolated(entry["club"])}</span>'
            if entry["club"]
            else ""
        )
        lines.append(
            f'<li><span class="step badge {_STEP_CLASSES.get(step, "text-bg-light border")}">'
            f"{conditional_escape(labels.get(step, by_lot))}</span> "
            f"<strong>{number}.</strong> {name}{club}</li>"
        )
    return mark_safe("\n".join(lines))  # noqa: S308 - every part above is escaped


class InterclubTable(BaseTable):
    rank = RankColumn()
    club_name = name_of_row(NameColumn(verbose_name=_("Club")))
    score = deciding(PointsColumn(verbose_name=_("Interclub score")))
    counted = tables.Column(verbose_name=_("Counted players"), orderable=False)

    class Meta(BaseTable.Meta):
        orderable = False


class YearlyTable(LinesTable):
    """The yearly ranking: `names` of the tournaments (key -> name) for the counted ones and
    the points' computation (without them, the points explain nothing: the overview's top)."""

    rank = _rank()
    player = PlayerColumn()
    club = ClubColumn()
    points = deciding(_points(_("Points"), why="points_why"))
    counted_names = tables.Column(
        verbose_name=_("Counted tournaments"),
        accessor="detail__counted",
        orderable=False,
        attrs={"td": {"class": "small text-body-secondary"}},
    )

    class Meta(BaseTable.Meta):
        empty_text = _("No results yet.")

    def __init__(self, data, *, names: dict[str, str] | None = None, best_n: int = 0, **kwargs):
        self.names, self.best_n = names, best_n
        super().__init__(data, **kwargs)

    def render_counted_names(self, value):
        if not self.names:
            return ""
        return format_html_join(", ", "{}", ((isolated(self.names.get(k, k)),) for k in value))

    def value_counted_names(self, value):
        return ", ".join(self.names.get(k, k) for k in value) if self.names else ""

    def points_why(self, record):
        return explain.yearly(record.detail, self.names, self.best_n) if self.names else ""


class LudoTable(LinesTable):
    """The LUDO ranking; `labels`: the three seasons it weighs."""

    rank = _rank()
    player = PlayerColumn()
    club = ClubColumn()
    points = deciding(_points(_("LUDO points"), why="points_why"))

    class Meta(BaseTable.Meta):
        empty_text = _("No results yet.")

    def __init__(self, data, *, labels: list, **kwargs):
        self.labels = labels
        super().__init__(data, **kwargs)

    def points_why(self, record):
        return explain.ludo(record.detail, self.labels)


class GameTable(LinesTable):
    """A game's ranking; `names` of the tournaments (key -> name) for the points' computation."""

    rank = _rank()
    player = PlayerColumn()
    points = deciding(_points(_("Points"), why="points_why"))
    played = tables.Column(
        verbose_name=_("Tables"),
        accessor="detail__played",
        order_by=("detail__played", "position"),
        attrs={"td": {"class": "text-end"}, "th": {"class": "text-end"}},
    )
    finalist = YesColumn(
        verbose_name=_("Finalist"),
        accessor="detail__finalist",
        order_by=("detail__finalist", "position"),
    )

    class Meta(BaseTable.Meta):
        empty_text = _("No results yet.")

    def __init__(self, data, *, names: dict[str, str], **kwargs):
        self.names = names
        super().__init__(data, **kwargs)

    def points_why(self, record):
        return explain.per_game(record.detail, self.names)


class TournamentListTable(BaseTable):
    date = LocalDateColumn(verbose_name=_("Date"))
    name = name_of_row(
        NameColumn(verbose_name=_("Tournament"), linkify=lambda record: record["url"])
    )
    winners = tables.Column(verbose_name=_("Day winner"), orderable=False, empty_values=())
    participants = tables.Column(
        verbose_name=_("Players"), attrs={"td": {"class": "text-end"}, "th": {"class": "text-end"}}
    )

    class Meta(BaseTable.Meta):
        empty_text = _("No tournaments yet.")

    def render_winners(self, record):
        return record["winners_html"]


class PlayerSeasonTable(BaseTable):
    """A player's tournaments of a season: the tournament points and whether they count for the
    yearly ranking first, the day's rank and total after them, the date last (a phone)."""

    tournament = name_of_row(
        NameColumn(verbose_name=_("Tournament"), linkify=lambda record: record["url"])
    )
    points = deciding(PointsColumn(verbose_name=_("Tournament points")))
    counted = deciding(YesColumn(verbose_name=_("Counted")))
    rank = RankColumn(verbose_name=_("Daily rank"))
    daily = PointsColumn(verbose_name=_("Daily total"))
    date = LocalDateColumn(verbose_name=_("Date"))

    class Meta(BaseTable.Meta):
        pass
