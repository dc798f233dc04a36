"""Shared columns and the base table of the public pages (django-tables2); each system's tables
are in rankings/systems/<name>/tables.py. Rows are dicts from stored standings."""

import functools
import html
from decimal import ROUND_HALF_UP, Decimal

import django_tables2 as tables
from django.conf import settings
from django.core.paginator import Paginator
from django.utils.formats import get_format, number_format
from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.safestring import SafeData, SafeString
from django.utils.translation import gettext_lazy as _
from django_tables2.data import TableData, TableListData
from django_tables2.utils import Accessor, OrderBy

from competitions.text import name_order


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
    return Decimal(str(value)).quantize(quantum, rounding=ROUND_HALF_UP)


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


class PointsColumn(tables.Column):
    """Shows points rounded in the reader's language; a page's CSV/XLSX download has them as
    numbers rounded the same way (the season downloads keep the full precision). With `why`,
    the number opens its computation, the safe HTML in `record[why]`."""

    def __init__(self, *args, places: int = 2, why: str | None = None, **kwargs):
        self.places = places
        self.why = why
        kwargs.setdefault(
            "attrs", {"td": {"class": "text-end text-nowrap"}, "th": {"class": "text-end"}}
        )
        super().__init__(*args, **kwargs)

    def render(self, value, record):
        shown = display_points(value, self.places)
        return explained(shown, record.get(self.why)) if self.why else shown

    def value(self, value):
        number = rounded(value, self.places)
        return None if number is None else float(number) if self.places else int(number)


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


# The most lines a page of a public table shows, whatever ?per_page= asks.
MAX_PER_PAGE = 500


def page_size(asked, default: int) -> int:
    """A page size typed into the address bar, kept between 1 and MAX_PER_PAGE lines
    (django-tables2 takes any integer: a negative one answered 500)."""
    try:
        return min(max(1, int(asked)), MAX_PER_PAGE)
    except (TypeError, ValueError):
        return default


def sort_key(value) -> tuple:
    """Where a cell's value goes when a reader sorts its column: empty cells first, then
    numbers by value, then text as a list of people reads it ("Émile" beside "Emma", not
    after "Zoë" as code points put it), django-tables2's own grouping but for the text."""
    if isinstance(value, Promise):
        value = str(value)
    if value is None:
        return (0,)
    if isinstance(value, (int, float)) or hasattr(value, "as_integer_ratio"):
        return (1, value)
    if isinstance(value, str):
        return (2, name_order(value))
    return (3, type(value).__name__, value)


@functools.total_ordering
class _Descending:
    """A sort key that sorts the other way, for a descending column among ascending ones."""

    __slots__ = ("key",)

    def __init__(self, key):
        self.key = key

    def __eq__(self, other):
        return self.key == other.key

    def __lt__(self, other):
        return other.key < self.key


class FoldedListData(TableListData):
    """A table's rows (dicts) sorted as django-tables2 sorts them, but with text compared as a
    reader expects (sort_key) and each cell read once instead of at every comparison. One
    sort, stable: the long tables' lazy rows (the GP's) sort from their first order."""

    def order_by(self, aliases):
        orders = []
        for alias in aliases:
            bound_column = self.table.columns[OrderBy(alias).bare]
            if alias[0] != bound_column.order_by_alias[0]:
                orders += bound_column.order_by.opposite
            else:
                orders += bound_column.order_by
        if not orders:
            return
        keys = [(Accessor(order.bare), order.is_descending) for order in orders]

        def key(row):
            return tuple(
                _Descending(sort_key(accessor.resolve(row, quiet=True)))
                if descending
                else sort_key(accessor.resolve(row, quiet=True))
                for accessor, descending in keys
            )

        try:
            self.data.sort(key=key)
        except TypeError:  # cells no order exists for (lists, dicts): django-tables2's way
            super().order_by(aliases)


class BaseTable(tables.Table):
    """Base: sortable, exportable, mobile-friendly."""

    export_formats = ("csv", "xlsx")

    def __init__(self, data=None, *args, **kwargs):
        if data is not None:
            data = TableData.from_data(data)  # a queryset, a list, or a view's own TableData
            if type(data) is TableListData:  # rows in a list: sorted as a reader expects
                data = FoldedListData(data.data)
        super().__init__(data, *args, **kwargs)

    def paginate(self, paginator_class=Paginator, per_page=None, page=1, *args, **kwargs):
        per_page = page_size(per_page, self._meta.per_page) if per_page is not None else None
        return super().paginate(paginator_class, per_page, page, *args, **kwargs)

    class Meta:
        orderable = True
        attrs = {"class": "table table-sm table-striped table-hover align-middle mb-0"}
        template_name = "django_tables2/bootstrap5-responsive.html"
        empty_text = _("Nothing here yet.")


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
    club = tables.Column(verbose_name=_("Club"))

    class Meta(BaseTable.Meta):
        empty_text = _("No player matches.")
