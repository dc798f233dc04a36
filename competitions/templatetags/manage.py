from django import template

from competitions.views import manage_url as _manage_url

register = template.Library()


@register.simple_tag
def manage_url(season, name: str = "", *args) -> str:
    """{% manage_url season %} is the manager's season page; {% manage_url season "round" key 1 %}
    a manager page of the season's system."""
    return _manage_url(season, name, *args)
