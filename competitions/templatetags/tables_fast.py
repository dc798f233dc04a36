"""The body of a django-tables2 table in one pass of Python (templates/tables/*.html).

django-tables2's own template renders each cell through the template engine: four lookups, an
`{% if %}` and a fresh attribute dictionary per cell, which on a page of 100 lines × 8 columns
costs more than the cells themselves. This tag writes the same markup (the row's attributes, each
cell's `<td>` attributes, the cell localized as the column asks, escaped unless safe) and works
out a column's `<td>` attributes once per table unless they depend on the record.

A cell is made as django-tables2's `BoundRow.get_cell` makes it, without its per-cell work of
looking at the render function's signature and at the record as a possible model: for a dict
record holding the column's accessor as a key (the public pages' rows), the value is that key's
value, the column's default when it is empty, else what the render function gives with the
arguments it names (worked out once per column). Anything else (a model record, a missing key,
a linked column, a render function asking for more) goes through `get_cell` itself; a test
compares both ways on every table of the public pages."""

from django import template
from django.utils.formats import localize
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django_tables2.columns.linkcolumn import BaseLinkColumn
from django_tables2.columns.manytomanycolumn import ManyToManyColumn
from django_tables2.utils import signature

register = template.Library()


def _depends_on_record(table, column) -> bool:
    attrs = {**dict(table.attrs), **dict(column.column.attrs)}
    td = attrs.get("td", attrs.get("cell", {}))
    return any(callable(value) for value in dict(td).values())


def _cell_html(column, cell) -> str:
    if column.localize is True:
        cell = localize(cell, use_l10n=True)
    elif column.localize is False:
        cell = localize(cell, use_l10n=False)
    return conditional_escape(cell)


# What BoundRow passes a render function that names them (`_optional_cell_arguments`).
_CELL_ARGUMENTS = frozenset({"value", "record", "column", "bound_column", "bound_row", "table"})


def cell_maker(table, column):
    """`make(row)`: the cell of `column` in `row`, as `row.get_cell(column.name)` gives it."""
    render = column.render
    names, catch_all = signature(render)
    if (
        column.link
        or isinstance(column.column, BaseLinkColumn | ManyToManyColumn)
        or (not catch_all and not _CELL_ARGUMENTS.issuperset(names))
    ):
        return lambda row: row.get_cell(column.name)
    key, default, empty = str(column.accessor), column.default, column.column.empty_values
    wanted = _CELL_ARGUMENTS if catch_all else frozenset(names)

    def make(row):
        record = row.record
        if not isinstance(record, dict) or key not in record:
            return row.get_cell(column.name)
        value = record[key]
        if value in empty:
            return default
        arguments = {
            "value": value,
            "record": record,
            "column": column.column,
            "bound_column": column,
            "bound_row": row,
            "table": table,
        }
        return render(**{name: arguments[name] for name in wanted})

    return make


@register.simple_tag
def table_body(table):
    columns = list(table.columns)
    fixed = {
        column.name: column.attrs["td"].as_html()
        for column in columns
        if not _depends_on_record(table, column)
    }
    makers = {column.name: cell_maker(table, column) for column in columns}
    out = []
    for row in table.paginated_rows:
        out.append(f"<tr {row.attrs.as_html()}>")
        for column in columns:
            cell = makers[column.name](row)
            attrs = fixed.get(column.name)
            if attrs is None:  # td attributes computed from this record, as row.items() does
                column.current_value = cell
                column.current_record = row.record
                attrs = column.attrs["td"].as_html()
            out.append(f"<td {attrs}>{_cell_html(column, cell)}</td>")
        out.append("</tr>\n")
    if not out and table.empty_text:
        return format_html('<tr><td colspan="{}">{}</td></tr>', len(columns), table.empty_text)
    return mark_safe("".join(out))  # noqa: S308 - every part escaped or built by django-tables2
