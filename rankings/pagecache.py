"""Public pages served from Django's cache framework (architecture.md, "The page cache").

`public_page` wraps the public views of a series (the season pages of every system, reached
through `rankings.views.season_detail` and `season_page`, the player pages, the season
downloads): a system's views are cached without knowing it.

- The key: the code's release (`release`), the language, the full path with its query, and
  what the page shows of the database, read in one query of the series' seasons: for a
  season's page, that season's versions (`data_version`, bumped by every change of its data,
  names and settings included; `standings_version` and `standings_computed_at`, moved by its
  recompute; `stale_since`) and the other seasons' labels (the season menu); for a page of the
  series (a player's page, the player index), every season's versions. A recompute therefore
  changes the key of exactly the pages of its season (and of the series' player pages, which
  show every season); the pages of other seasons keep their entries. An old entry is never
  read again and expires after `PAGE_CACHE_SECONDS`.
- Who: anonymous visitors without pending messages. A logged-in user (a manager, whose
  header and season pages differ) always gets the page rendered for them, and no ETag.
- The CSRF token of the language form differs per visitor: an entry stores the page cut at
  the token, and each response gets the visitor's own. The ETag names the entry's key and
  the visitor's CSRF secret, so a browser holding a page with an old token gets it anew.
- `ETag`, `Last-Modified` (when the entry was rendered, at least a second after the page's
  entry before) and `Cache-Control: private,
  no-cache` (a browser asks again each time and gets a 304 while nothing changed). A request
  whose `If-None-Match` names the current ETag gets its 304 without the entry being read.

The cache is Redis when `CACHE_URL` is set, else each process's local memory (settings.py).
An unreachable cache costs the page a render, not an error.
"""

import hashlib
import logging
import re
import time
from functools import cache, wraps
from pathlib import Path

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import caches
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language

from competitions.models import Season

logger = logging.getLogger(__name__)

CACHE_ALIAS = "pages"
# The hidden input `{% csrf_token %}` writes; its value is the visitor's masked token.
CSRF_INPUT = re.compile(rb'name="csrfmiddlewaretoken" value="([A-Za-z0-9]{32,})"')
# Headers of a view's response that an entry keeps (the middleware adds the others anew).
KEPT_HEADERS = ("Content-Type", "Content-Disposition", "Content-Language")


@cache
def release() -> str:
    """A digest of the code, templates and translations this process runs: an entry written
    by another release of the site (a template changed) is never served. The same in every
    worker of a release, so the workers share entries in Redis and agree on ETags."""
    root = Path(settings.BASE_DIR)
    hasher = hashlib.blake2b(digest_size=8)
    folders = ("clubsite", "competitions", "rankings", "pairings", "templates", "locale")
    suffixes = {".py", ".html", ".txt", ".mo"}
    for folder in folders:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in suffixes and path.is_file():
                hasher.update(str(path.relative_to(root)).encode())
                hasher.update(path.read_bytes())
    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    if manifest.is_file():  # production: the static files' hashed names
        hasher.update(manifest.read_bytes())
    return hasher.hexdigest()


def _stamp(value) -> str:
    return value.isoformat() if value is not None else ""


def _versions(season: Season) -> tuple:
    return (
        season.pk,
        season.data_version,
        season.standings_version,
        _stamp(season.standings_computed_at),
        _stamp(season.stale_since),
    )


def page_state(request, series: str, season: str | None) -> tuple | None:
    """What the page shows of the database, in one query, or None when the series (or the
    season) does not exist (the view answers its 404). The series' seasons found are left on
    the request (`public_seasons`) for the view, which then does not read them again."""
    seasons = list(
        Season.objects.filter(series__slug=series).select_related("series").order_by("-label")
    )
    if not seasons:
        return None
    request.public_seasons = seasons
    if season is None:
        return tuple(_versions(s) + (s.label, s.slug) for s in seasons)
    own = next((s for s in seasons if s.slug == season), None)
    if own is None:
        return None
    return (_versions(own), tuple((s.pk, s.label, s.slug) for s in seasons))


def cacheable(request) -> bool:
    """Whether this request may get a shared page: a GET of an anonymous visitor with no
    message waiting to be shown (a logged-in user's pages are theirs)."""
    if not settings.PAGE_CACHE_SECONDS or request.method not in ("GET", "HEAD"):
        return False
    if request.user.is_authenticated:
        return False
    return len(get_messages(request)) == 0


def _key(request, state: tuple) -> str:
    text = repr((release(), get_language(), request.get_full_path(), state))
    return "page:" + hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def _etag(key: str, request) -> str:
    """The entry's key and the visitor's CSRF secret (get_token has set it)."""
    secret = request.META.get("CSRF_COOKIE", "")
    digest = hashlib.blake2b(f"{key}:{secret}".encode(), digest_size=12).hexdigest()
    return f'"{digest}"'


def _entry(response) -> dict | None:
    """What a cache entry keeps of a rendered page: its body cut at the CSRF token and its
    headers (the caller adds when it was rendered). None for a response that is not the same
    for everyone (a redirect, an error, a cookie set, a stream, a page its view marked)."""
    if (
        response.status_code != 200
        or response.streaming
        or response.cookies
        or not isinstance(response, HttpResponse)
        or response.has_header("Cache-Control")
    ):
        return None
    content = response.content
    # Only a page has the form's token: a download's bytes are kept as they are.
    html = response.get("Content-Type", "").startswith("text/html")
    token = CSRF_INPUT.search(content) if html else None
    parts = content.split(token.group(1)) if token else [content]
    headers = {h: response[h] for h in KEPT_HEADERS if response.has_header(h)}
    return {"parts": parts, "headers": headers}


def _response(request, entry: dict) -> HttpResponse:
    parts = entry["parts"]
    content = get_token(request).encode().join(parts) if len(parts) > 1 else parts[0]
    response = HttpResponse(content)
    for header, value in entry["headers"].items():
        response[header] = value
    return response


def _finish(response, etag: str, modified: float):
    response["ETag"] = etag
    response["Last-Modified"] = http_date(modified)
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response


def _modified(pages, request, now: float) -> int:
    """When a new entry of this page was rendered, in whole seconds (HTTP dates have no
    fractions), and always at least a second after the page's previous entry: a change within
    the second of the previous render still makes `If-Modified-Since` of that render fail."""
    named = repr((get_language(), request.get_full_path())).encode()
    page = "page-modified:" + hashlib.blake2b(named, digest_size=16).hexdigest()
    before = _cache_call("read", lambda: pages.get(page)) or 0
    modified = max(int(now), before + 1)
    _cache_call("write", lambda: pages.set(page, modified, settings.PAGE_CACHE_SECONDS))
    return modified


def _cache_call(what: str, call, default=None):
    """A cache operation; an unreachable cache is logged and the page rendered instead."""
    try:
        return call()
    except Exception as exc:  # Redis down or refusing: the page still answers
        logger.warning("page cache %s failed: %s", what, exc)
        return default


def public_page(view):
    """Serve the view's pages to anonymous visitors from the cache (see the module's
    docstring). The view takes `series` and, for a season's page, `season` (slugs)."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not cacheable(request):
            return view(request, *args, **kwargs)
        state = page_state(request, kwargs["series"], kwargs.get("season"))
        if state is None:
            return view(request, *args, **kwargs)
        key = _key(request, state)
        get_token(request)  # the visitor's CSRF secret, which the ETag names
        etag = _etag(key, request)
        if request.META.get("HTTP_IF_NONE_MATCH"):
            headers = _finish(HttpResponse(), etag, time.time())
            del headers["Last-Modified"]  # not known without the entry; the ETag decides
            answer = get_conditional_response(request, etag=etag, response=headers)
            if answer is not headers:
                return answer
        pages = caches[CACHE_ALIAS]
        entry = _cache_call("read", lambda: pages.get(key))
        if entry is not None:
            response = _finish(_response(request, entry), etag, entry["modified"])
        else:
            started = time.time()
            response = view(request, *args, **kwargs)
            entry = _entry(response)
            if entry is None:
                return response
            entry["modified"] = _modified(pages, request, started)
            _cache_call("write", lambda: pages.set(key, entry, settings.PAGE_CACHE_SECONDS))
            response = _finish(response, etag, entry["modified"])
        return get_conditional_response(
            request, etag=etag, last_modified=entry["modified"], response=response
        )

    return wrapper


def season_from_request(request, series: str, season: str) -> Season | None:
    """The season `public_page` read for this request, if it did."""
    for found in getattr(request, "public_seasons", ()):
        if found.slug == season and found.series.slug == series:
            return found
    return None
