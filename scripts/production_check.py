"""The site as the production image serves it: static files built under production settings, then
public pages of every system requested with DEBUG off. Exits non-zero on the first failure.

    DATABASE_URL=<a throwaway database> python scripts/production_check.py

Runs with DJANGO_ENV=production, a fresh SECRET_KEY, no broker (tasks run in process) and
STATIC_ROOT in a temporary folder; it migrates the database DATABASE_URL names (SQLite in a
temporary folder when unset) and loads the demo competitions into it (with their demo logins:
never point it at a real site's database). Then, through Django's test client and the whole
middleware stack (WhiteNoise included): the home and help pages, and each demo series' page, its
last season's page and its players' page must answer 200, and so must every static file those pages
link. The manifest storage answers 500 for a page whose static file it did not build, which is
what this catches.
"""

import os
import re
import secrets
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
HOST = "clubsite.example.org"
MAX_PAGES = 150
# Not pages: downloads, the admin, the language switch, the manager's side, ordering variants.
SKIP = re.compile(
    r"(logout|login|/admin/|/i18n/|/manage/|/accounts/|format=|_export=|\.csv|\.json|\.zip"
    r"|\.xlsx|\.trf|download|/static/|/healthz|/standings\.|[?&]sort=)"
)
# An address segment after one of these names one of many alike (a tournament, a player...).
COLLECTIONS = {"tournaments", "players", "games", "rounds", "pools", "groups", "list", "tables"}


def shape(url: str) -> str:
    """A page's kind: its address with ids generalised, so the crawl takes one of each."""
    parts = urlsplit(url)
    segments = parts.path.split("/")
    segments = ["#" if i and segments[i - 1] in COLLECTIONS else s for i, s in enumerate(segments)]
    segments = [re.sub(r"\d+", "#", s) for s in segments]
    return "/".join(segments) + ("?" + parts.query.split("=")[0] if parts.query else "")


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="clubsite-production-") as work:
        return check(Path(work))


def check(work: Path) -> int:
    os.environ.update(
        DJANGO_ENV="production",
        DJANGO_SETTINGS_MODULE="clubsite.settings",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=HOST,
        STATIC_ROOT=str(work / "static"),
    )
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{work / 'db.sqlite3'}")
    for name in ("DEBUG", "CELERY_BROKER_URL"):
        os.environ.pop(name, None)
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    from competitions.models import Series
    from competitions.registry import all_systems

    assert settings.PRODUCTION and not settings.DEBUG, "not production settings"
    call_command("collectstatic", interactive=False, verbosity=1)
    call_command("migrate", interactive=False, verbosity=0)
    call_command("load_demo", force=True, verbosity=0)

    # The home and help pages, and each demo series' last season: each must answer 200.
    required = [reverse("home"), reverse("help")]
    for demo in (spec.demo for spec in all_systems() if spec.demo is not None):
        series = Series.objects.get(slug=demo.slug)
        season = series.seasons.get(label=demo.last_season)
        required += [
            reverse("season", args=[series.slug, season.slug]),
            reverse("players", args=[series.slug]),
        ]
    # As the TLS proxy forwards a request: the site's host, and the header that tells Django the
    # client came over HTTPS (SECURE_PROXY_SSL_HEADER; without it every page redirects).
    client = Client(HTTP_HOST=HOST, HTTP_X_FORWARDED_PROTO="https", raise_request_exception=False)
    failures: list[str] = []
    statics: set[str] = set()
    # From those, one example of each kind of public page their links reach (a player page, a
    # tournament, a round...), so that every page's scripts (the charts') are asked for too.
    queue, seen, shapes, pages = list(required), set(), set(), 0
    while queue and pages < MAX_PAGES:
        url = queue.pop(0)
        if url in seen or (url not in required and shape(url) in shapes):
            continue
        seen.add(url)
        shapes.add(shape(url))
        response = client.get(url)
        pages += 1
        print(f"{response.status_code} {url}")
        if response.status_code in (301, 302) and url not in required:
            queue.append(response["Location"])
            continue
        if response.status_code != 200:
            failures.append(url)
            continue
        html = response.content.decode()
        statics.update(re.findall(r'(?:src|href)="(/static/[^"]+)"', html))
        queue += [
            link
            for link in re.findall(r'href="(/[^"]*)"', html)
            if not SKIP.search(link) and link not in seen
        ]
    for url in sorted(statics):
        response = client.get(url)
        # WhiteNoise answers with the file itself; read it so that the file is closed.
        b"".join(response.streaming_content) if response.streaming else response.content
        print(f"{response.status_code} {url}")
        if response.status_code != 200:
            failures.append(url)
    systems = {spec.key for spec in all_systems() if spec.demo is not None}
    print(
        f"{pages} pages of {len(systems)} systems and {len(statics)} static files "
        f"under production settings: {len(failures)} failed"
    )
    if len(systems) < 5 or not statics:
        print("expected the five systems' demos and some static files", file=sys.stderr)
        return 1
    if failures:
        print("failed: " + ", ".join(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
