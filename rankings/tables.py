"""Shared columns and the base table of the public pages (django-tables2); each system's tables
are in rankings/systems/<name>/tables.py. Rows are dicts from stored standings."""

import functools
import html
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import django_tables2 as tables
from django.conf import settings
from django.core.paginator import Paginator
from django.db.models.functions import Lower
from django.utils.formats import get_format, number_format
from django.utils.html import format_html
from django.utils.safestring import SafeData, SafeString
from django.utils.translation import gettext_lazy as _

from competitions.columns import NameColumn
from competitions.text import isolated

from .urls_helpers import player_urls


def escaped(value) -> str:
    """What django.utils.html.conditional_escape writes (safe HTML as it is, anything else
    escaped), without its lazy-string wrapper per call: an explanation writes a few cells per
    line, a page thousands."""
    return str(value) if isinstance(value, SafeData) else html.escape(str(value))


def rounded(value, places: int = 2) -> Decimal | None:
    """A number rounded half up for display (rules.md: display rounding only)."""
    if value is None or value == "":
        return None
    quantum = Decimal(1).scaleb(-places)
    if isinstance(value, Fraction):  # exact: its decimals to 28 digits, then rounded
        return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
            quantum, rounding=ROUND_HALF_UP
        )
    return Decimal(str(value)).quantize(quantum, rounding=ROUND_HALF_UP)


def shown_number(value, places: int = 2) -> float | int | None:
    """A number for a people's download (CSV, XLSX), rounded as the page shows it (half up,
    `places` decimals; a whole number when `places` is 0), and still a number. The JSON
    downloads keep the full precision (docs/interchange.md)."""
    number = rounded(value, places)
    return None if number is None else float(number) if places else int(number)


def rounding_gap(total, parts, places: int = 2) -> Decimal:
    """How far the shown `total` is from the sum of its shown `parts` (rules.md, Decision
    "rounding"): each number is its exact value rounded on its own, and the total is the exact
    sum rounded, so the shown parts may add up to a hundredth or two more or less. An
    explanation shows a nonzero gap as its own line, so that what a reader adds up is the total
    shown, and no shown number differs from the same number elsewhere. `parts`: numbers (shown
    with `places` decimals) or (number, its places) pairs."""
    shown = sum(
        (rounded(*p) if isinstance(p, tuple) else rounded(p, places) for p in parts),
        Decimal(0),
    )
    return rounded(total, places) - shown


ROUNDING = _("Rounding")
ROUNDING_NOTE = _(
    "Each number is rounded on its own, the total is the exact sum rounded: the line "
    "“Rounding” makes up the difference."
)


ROUNDING_IN_TEXT = _(
    "Rounding %(gap)s: each number is rounded on its own, the total is the exact sum rounded."
)


def rounding_text(gap) -> str:
    """The sentence a written-out sum ("a + b = c") adds when its shown parts do not add up to
    its shown total; empty when they do."""
    return f" {ROUNDING_IN_TEXT % {'gap': signed_gap(gap)}}" if gap else ""


def signed_gap(gap: Decimal, separator: str | None = None) -> str:
    """A rounding gap with its sign, in the page language: +0.01, −0.01 (+0,01 in Dutch)."""
    text = local_decimal(f"{abs(gap):f}", separator)
    return f"+{text}" if gap > 0 else f"\u2212{text}"


def display_points(value, places: int = 2, separator: str | None = None) -> str:
    """Rounded for display only (2 decimals for board-game points), half up, written the way
    the reader's language writes numbers (1570,40 in Dutch, Swedish and Norwegian).
    `separator`: the language's decimal separator, when the caller has looked it up."""
    if value is None or value == "":
        return "–"
    if settings.USE_THOUSAND_SEPARATOR:
        return number_format(rounded(value, places), decimal_pos=places)
    if separator is None:
        separator = decimal_separator()
    try:
        return _plain_points(value, places, separator)
    except TypeError:  # a value that cannot be a key: written without the cache
        return _plain_points.__wrapped__(value, places, separator)


@functools.lru_cache(maxsize=8192)
def _plain_points(value, places: int, separator: str) -> str:
    """What number_format writes without grouping, without its per-call work: the rounded
    digits with the language's decimal separator. Kept per value: a long page writes
    thousands of numbers, most of them again and again (100.00, 4.00, ...). Values equal as
    keys (1 and 1.0) write the same text."""
    number = rounded(value, places)
    text = f"{abs(number) if number.is_zero() else number:f}"  # no "-0"
    return text if separator == "." else text.replace(".", separator)


def decimal_separator() -> str:
    """The page language's decimal separator: "," in Dutch, Swedish and Norwegian."""
    return get_format("DECIMAL_SEPARATOR")


def local_decimal(text: str, separator: str | None = None) -> str:
    """A number written with a decimal point ("0.781282", "−12.7") as the page's language
    writes it ("0,781282"), so that an explanation's numbers match its tables'. Only for text
    that is a number (a name with a point in it is not one)."""
    return text.replace(".", decimal_separator() if separator is None else separator)


def points_writer():
    """display_points with the reader's decimal separator looked up once: an explanation
    writes several numbers, and each lookup asks for the active language again."""
    if settings.USE_THOUSAND_SEPARATOR:
        return display_points
    separator = decimal_separator()

    def write(value, places: int = 2) -> str:
        return display_points(value, places, separator)

    return write


def explained(shown, why) -> str:
    """A number that opens its computation (the shared "explain" markup)."""
    if not why:
        return shown
    return SafeString(
        f'<details class="explain"><summary>{escaped(shown)}</summary>'
        f'<div class="explain-body">{escaped(why)}</div></details>'
    )


# Every public table on a phone (static/css/clubsite.css, "Tables on a phone"): a table wider
# than the screen scrolls sideways in its wrapper while its name column ("col-name") stays at
# the left edge; the columns that decide the order ("col-key") come right after the name in
# the table's definition, so a phone shows them without scrolling. Nothing is hidden.
NAME_CELL = "col-name"
KEY_CELL = "col-key"
# The rank before the name stays too, the name beside it (the CSS gives the rank a fixed width).
RANK_CELL = "col-rank"


def marked(column: tables.Column, css: str) -> tables.Column:
    """The column with `css` added to the class of its header and data cells (a copy of its
    attrs: the attrs dicts are shared constants of the tables modules)."""
    attrs = dict(column.attrs)
    for part in ("th", "td"):
        cell = dict(attrs.get(part, {}))
        cell["class"] = " ".join(filter(None, (cell.get("class", ""), css)))
        attrs[part] = cell
    column.attrs = attrs
    return column


def deciding(column: tables.Column) -> tables.Column:
    """A column that decides the order of the table (points, tie-breaks): kept in sight."""
    return marked(column, KEY_CELL)


def name_of_row(column: tables.Column) -> tables.Column:
    """The column that names the row (a player, a tournament): stays while scrolling."""
    return marked(column, NAME_CELL)


class PointsColumn(tables.Column):
    """Shows points rounded in the reader's language; a page's CSV/XLSX download has them as
    numbers rounded the same way (the season downloads keep the full precision). With `why`,
    the number opens its computation: the safe HTML the table's method of that name gives for
    the record."""

    def __init__(self, *args, places: int = 2, why: str | None = None, **kwargs):
        self.places = places
        self.why = why
        kwargs.setdefault(
            "attrs", {"td": {"class": "text-end text-nowrap"}, "th": {"class": "text-end"}}
        )
        super().__init__(*args, **kwargs)

    def render(self, value, record, table):
        shown = display_points(value, self.places)
        return explained(shown, getattr(table, self.why)(record)) if self.why else shown

    def value(self, value):
        return shown_number(value, self.places)


class RankColumn(tables.Column):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("verbose_name", "#")
        kwargs.setdefault(
            "attrs", {"td": {"class": "text-end fw-semibold"}, "th": {"class": "text-end"}}
        )
        super().__init__(*args, **kwargs)
        marked(self, RANK_CELL)


class PlayerColumn(tables.Column):
    """The player's name linking to the player page: the table's `url_of(record)` where it has
    one (a stored line's, a player of the index), or a dict row's `url` filled by the view."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("verbose_name", _("Player"))
        kwargs.setdefault("order_by", ("name",))
        super().__init__(*args, accessor="name", **kwargs)
        name_of_row(self)

    def render(self, value, record, table):
        url = table.url_of(record) if hasattr(table, "url_of") else record.get("url")
        if url:
            return format_html('<a href="{}">{}</a>', url, isolated(value))
        return isolated(value)

    def value(self, value):
        return value


class ClubColumn(NameColumn):
    """The club: hidden on phones, where the name and the points matter most."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("verbose_name", _("Club"))
        hidden_on_phones = {"class": "d-none d-md-table-cell"}
        kwargs.setdefault("attrs", {"td": hidden_on_phones, "th": hidden_on_phones})
        super().__init__(*args, **kwargs)


# The most lines a page of a public table shows, whatever ?per_page= asks.
MAX_PER_PAGE = 500


def page_size(asked, default: int) -> int:
    """A page size typed into the address bar, kept between 1 and MAX_PER_PAGE lines
    (django-tables2 takes any integer: a negative one answered 500)."""
    try:
        return min(max(1, int(asked)), MAX_PER_PAGE)
    except (TypeError, ValueError):
        return default


class BaseTable(tables.Table):
    """Base: sortable, exportable, mobile-friendly."""

    # XLSX first: it holds every text as typed; the CSV quotes a formula's start (exports.py).
    export_formats = ("xlsx", "csv")

    def paginate(self, paginator_class=Paginator, per_page=None, page=1, *args, **kwargs):
        per_page = page_size(per_page, self._meta.per_page) if per_page is not None else None
        return super().paginate(paginator_class, per_page, page, *args, **kwargs)

    class Meta:
        orderable = True
        attrs = {"class": "table table-sm table-striped table-hover align-middle mb-0"}
        empty_text = _("Nothing here yet.")


class LinesTable(BaseTable):
    """A table of a stored standings table's lines (`rankings.selectors.lines_of`): its
    records are `StandingsRow`s, its columns read a line's fields (`rank`, the annotated
    `name` and `club`) or keys of its detail (accessor "detail__daily"). django-tables2 orders
    them in the database by a column (?sort=; each column orders ties by `position`, so that
    pages neither repeat nor skip a line) and reads only the page shown. Names and clubs sort
    regardless of case ("adam" beside "Adam", not after "Zoë"); accents as the database's
    collation puts them."""

    def __init__(self, data, *, season, **kwargs):
        self.player_url = player_urls(season.series.slug)
        super().__init__(data, **kwargs)

    def url_of(self, record) -> str:
        return self.player_url(record.player_key)

    @staticmethod
    def _by_text(queryset, field: str, is_descending: bool):
        text = Lower(field)
        return queryset.order_by(text.desc() if is_descending else text.asc(), "position"), True

    def order_player(self, queryset, is_descending):
        return self._by_text(queryset, "name", is_descending)

    def order_club(self, queryset, is_descending):
        return self._by_text(queryset, "club", is_descending)

    def shown(self) -> list:
        """The records of the page shown: the page's queryset, read once (the table renders
        the same records)."""
        return list(self.paginated_rows.data)


class YesColumn(tables.BooleanColumn):
    """✔ on the page; "yes" (in the reader's language) or empty in a download."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("yesno", "✔,")
        super().__init__(*args, **kwargs)

    def value(self, record, value, bound_column=None):
        return str(_("yes")) if value else ""


class PlayerIndexTable(BaseTable):
    """The players of a series, for finding oneself."""

    player = PlayerColumn(order_by=("order",))  # competitions.selectors.players_found
    club = NameColumn(verbose_name=_("Club"))

    def __init__(self, rows, *, url_of_key, **kwargs):
        super().__init__(rows, **kwargs)
        self.url_of_key = url_of_key

    def url_of(self, record) -> str:
        """The player's page, made only for the rows a page shows."""
        return self.url_of_key(record["key"])

    class Meta(BaseTable.Meta):
        empty_text = _("No player matches.")
