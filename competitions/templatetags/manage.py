from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString

from competitions.registry import find_system
from competitions.text import isolated, local_date, player_label
from competitions.views import manage_url as _manage_url

register = template.Library()
# {{ value|local_date:"date_time" }}: a date as the reader's language writes it
# (competitions.text.DATE_FORMATS)
register.filter("local_date", local_date, expects_localtime=True)
# {{ player.name|bdi }}: a name isolated from the text around it (competitions.text.isolated)
register.filter("bdi", isolated, is_safe=True)


@register.simple_tag
def manage_url(season, name: str = "", *args) -> str:
    """{% manage_url season %} is the manager's season page; {% manage_url season "round" key 1 %}
    a manager page of the season's system."""
    return _manage_url(season, name, *args)


@register.simple_tag
def public_url(season, name: str = "", *args) -> str:
    """{% public_url season %} is the season's public page; {% public_url season "tournament" key %}
    a public page of the season's system. The public pages are the app above's: their URLs come
    with them, from the spec's `pages` (rankings.systems.Pages.url). "" when the system has no
    public pages."""
    spec = find_system(season.system)
    pages = spec.pages if spec is not None else None
    return pages.url(season, name, *args) if pages is not None else ""


@register.simple_tag
def player_options(players, clubs: bool = True) -> SafeString:
    """The `<option>`s of a page's player suggestions (a `<datalist>`): `player_label`, and the
    club's name beside it unless `clubs` is false. Written in one pass: a series of 2000
    players makes 2000 of them, which the template engine renders several times slower."""
    return SafeString(
        "".join(
            f'<option value="{escape(player_label(p))}">'
            f"{escape(p.club.name) if clubs and p.club_id else ''}</option>"
            for p in players
        )
    )
