from django import template

from rankings.tables import display_points

register = template.Library()


@register.filter
def points(value, places: int = 2) -> str:
    """Points rounded half up for display (full precision stays in the data)."""
    return display_points(value, int(places))
