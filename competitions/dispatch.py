"""Pages of a season that belong to its system: resolved and reversed against the system's own
URLconfs, below the shared season URL. So two systems can both have `tournaments/<id>/` without
knowing of each other, and the shared URLconf names no system."""

from collections.abc import Sequence

from django.http import Http404
from django.urls import NoReverseMatch, Resolver404, get_script_prefix, resolve, reverse
from django.urls.resolvers import ResolverMatch


def resolve_system_page(urlconfs: Sequence[str], rest: str) -> ResolverMatch:
    """The system page at `rest` (the path below the season), or 404."""
    for urlconf in urlconfs:
        try:
            return resolve("/" + rest, urlconf=urlconf)
        except Resolver404:
            continue
    raise Http404("No such page.")


def system_url(base: str, urlconfs: Sequence[str], name: str, *args, **kwargs) -> str:
    """The URL of the system page `name` below `base`, the shared season URL."""
    for urlconf in urlconfs:
        try:
            below = reverse(name, urlconf=urlconf, args=args or None, kwargs=kwargs or None)
        except NoReverseMatch:
            continue
        return base + below.removeprefix(get_script_prefix())
    raise NoReverseMatch(f"no system page {name!r} with arguments {args or kwargs}")
