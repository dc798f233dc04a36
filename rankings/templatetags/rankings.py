from django import template

from competitions.text import isolated, local_date
from rankings.tables import display_points, local_decimal
from rankings.urls_helpers import season_url as _season_url

register = template.Library()
# {{ value|local_date:"long" }} on the public pages too
register.filter("local_date", local_date, expects_localtime=True)
# {{ player.name|bdi }}: a name isolated from the text around it (competitions.text.isolated)
register.filter("bdi", isolated, is_safe=True)


@register.filter
def points(value, places: int = 2) -> str:
    """Points rounded half up for display (full precision stays in the data)."""
    return display_points(value, int(places))


@register.filter
def decimal(value) -> str:
    """An exact decimal text ("0.004", "11222.344") in the page language's separator."""
    return "–" if value is None else local_decimal(str(value))


@register.simple_tag
def season_url(season, name: str = "", *args) -> str:
    """{% season_url season %} is the season overview; {% season_url season "tournament" key %}
    a page of the season's system."""
    return _season_url(season, name, *args)
