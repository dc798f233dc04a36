"""Words the site's URLs use where a series slug, a season slug or a tournament id stands.

`/admin/` is the admin, so a series with the slug `admin` would never be reached at
`/<series>/`; `tournaments/new/` creates a tournament, so a tournament with the id `new` would
never get its manager page (issue 45: it answered 405 for ever). A word here is refused where
such an id is typed or read from a file (series slugs, tournament ids), and skipped where one is
made from a name (club, player and tournament ids, season slugs: `generated_key`).

One list for every level, so an id is never shadowed wherever it ends up. It is kept by hand:
tests/test_reserved_and_bidi.py walks the URLconfs (the site's and every system's) and fails
when a literal path segment beside a `<series>`, `<season>`, `<tournament>` or `<player>` is
missing here. (It is a constant rather than read from the URLconfs at run time: the public
pages' URLs belong to the layer above this one, and a new page should not make stored ids
invalid without someone deciding it.)
"""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

RESERVED_WORDS = frozenset(
    {
        # the site's first path segment, beside /<series>/ (clubsite/urls.py, STATIC_URL)
        "accounts",
        "admin",
        "favicon.ico",
        "healthz",
        "help",
        "i18n",
        "manage",
        "static",
        # beside /<series>/<season>/ and /manage/<series>/<season>/
        "players",
        "seasons",
        # beside /manage/<series>/<season>/tournaments/<tournament>/
        "new",
        # kept from the season slugs' earlier list (URLs made with it stay as they are)
        "settings",
    }
)


def is_reserved(value: str) -> bool:
    """Whether an id is one of the site's words (in any case: `Admin` is refused too, so that
    no id differs from a route by its case only)."""
    return value.casefold() in RESERVED_WORDS


def reserved_message(value: str) -> str:
    return str(
        _("%(value)r is a word the site's addresses use (%(words)s); choose another id.")
        % {"value": value, "words": ", ".join(sorted(RESERVED_WORDS))}
    )


def validate_not_reserved(value: str) -> None:
    """A model field validator (series slugs, tournament ids): the admin's forms refuse them."""
    if isinstance(value, str) and is_reserved(value):
        raise ValidationError(reserved_message(value), code="reserved")


def generated_key(base: str, taken: set[str]) -> str:
    """`base`, or `base-2`, `base-3`, ... : the first that is neither taken nor reserved."""
    key, n = base, 2
    while key in taken or is_reserved(key):
        key, n = f"{base}-{n}", n + 1
    return key
