"""Every table of the site renders through templates/django_tables2/clubsite.html (or its base
clubsite-unwrapped.html), which writes a data cell's class as its column defines it
(`attrs={"td": {"class": ...}}`) instead of asking django-tables2 for the cell's computed
attributes. That loses nothing only while every column gives its cells a fixed class and nothing
else, and no table sets cell attributes for all its columns: checked here for every table class
of the three apps."""

import importlib
import pkgutil

import django_tables2 as tables
import pytest
from django.conf import settings
from django.test import RequestFactory

SITE_TEMPLATE = "django_tables2/clubsite.html"
UNWRAPPED = "django_tables2/clubsite-unwrapped.html"  # its rows, without the scrolling box


def _every_table_class() -> list[type[tables.Table]]:
    for app in ("competitions", "rankings", "pairings"):
        package = importlib.import_module(app)
        for info in pkgutil.walk_packages(package.__path__, f"{app}."):
            if ".migrations" in info.name or ".management" in info.name:
                continue
            importlib.import_module(info.name)
    found, todo = [], [tables.Table]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            todo.append(sub)
            if sub.__module__.split(".")[0] in ("competitions", "rankings", "pairings"):
                found.append(sub)
    return found


TABLES = _every_table_class()


def test_the_walk_finds_the_site_tables():
    names = {cls.__name__ for cls in TABLES}
    assert {"DailyTable", "BaseTable", "PlayerIndexTable"} <= names
    assert len(TABLES) > 30


@pytest.mark.parametrize("table", TABLES, ids=lambda cls: f"{cls.__module__}.{cls.__name__}")
def test_every_column_gives_its_cells_a_fixed_class_only(table):
    assert table._meta.template_name in (SITE_TEMPLATE, UNWRAPPED)
    assert not {"td", "cell"} & set(table._meta.attrs or {}), "cell attributes for every column"
    for name, column in table.base_columns.items():
        assert column.localize is None, f"{name}: localised (the template writes cells as they are)"
        attrs = column.attrs or {}
        assert "cell" not in attrs, f"{name}: 'cell' attributes are not written"
        td = attrs.get("td", {})
        assert set(td) <= {"class"}, f"{name}: td attributes other than a class: {sorted(td)}"
        assert isinstance(td.get("class", ""), str), f"{name}: a computed class"


def test_the_site_template_is_the_default_and_writes_the_column_class():
    assert settings.DJANGO_TABLES2_TEMPLATE == SITE_TEMPLATE

    class Sample(tables.Table):
        name = tables.Column(attrs={"td": {"class": "col-name text-end"}})
        plain = tables.Column()

    table = Sample([{"name": "<b>Zoë</b>", "plain": 3}])
    html = table.as_html(RequestFactory().get("/"))
    assert '<td class="col-name text-end">&lt;b&gt;Zoë&lt;/b&gt;</td><td class="">3</td>' in html
