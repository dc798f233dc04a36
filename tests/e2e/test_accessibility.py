"""Accessibility as axe-core (bundled by axe-playwright-python) judges it in Chromium: no serious
or critical violation (contrast, names of links and fields, ...) on any public or manager page of
the five systems. The crawl follows the pages' own links and visits one page of each shape (the
same path with other numbers or keys), so every kind of page is looked at once, on a laptop
(1366 px) and on a phone (390 px: the same page narrowed, not loaded again): the public pages in
English, the manager pages in Dutch (issue 46: every public and manager page; the manager pages'
phone pass costs about a minute and a half)."""

import re
from urllib.parse import urljoin, urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError

from rankings.imports import import_competition
from tests.bridge_files import big_ladder
from tests.chess_files import chess_file
from tests.e2e.session import log_in
from tests.keizer_data import small_file
from tests.othello_files import gp_file

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEVERE = ("serious", "critical")
LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
MAX_PAGES = 120
# Not pages: downloads, the admin (Django's own), signing out, language switching.
SKIP = re.compile(r"\.(json|csv|zip|xlsx|trf|txt|ics)$|download|/admin/|logout|/i18n/")


def shape(path: str) -> str:
    """A path with its numbers and keys blanked: the kind of page it is."""
    parts = [p for p in path.split("/") if p]
    return "/".join(
        re.sub(r"\d", "0", p) if i < 2 else re.sub(r"[^/]*\d[^/]*", "N", p)
        for i, p in enumerate(parts)
    )


def audit(
    page, base: str, starts: list[str], within: tuple[str, ...], viewports=(LAPTOP,)
) -> dict[str, list[str]]:
    """The severe violations of one page of each shape, at each of the viewports (the last
    is the page's own: the next page opens at its size)."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    found: dict[str, list[str]] = {}
    seen_shapes: set[str] = set()
    queue = list(starts)
    visited = 0
    while queue and visited < MAX_PAGES:
        path = queue.pop(0)
        if shape(path) in seen_shapes:
            continue
        seen_shapes.add(shape(path))
        try:
            response = page.goto(base + path)
        except PlaywrightError:  # a download (a file behind a plain link): not a page
            continue
        if response is None or response.status != 200:
            continue
        visited += 1
        for viewport in viewports:
            if len(viewports) > 1:
                page.set_viewport_size(viewport)
            for violation in axe.run(page).response["violations"]:
                if violation["impact"] in SEVERE:
                    targets = [str(node["target"]) for node in violation["nodes"][:3]]
                    found.setdefault(f"{violation['id']} ({violation['impact']})", []).append(
                        f"{path} at {viewport['width']} px: {', '.join(targets)}"
                    )
        hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
        for href in hrefs:
            parts = urlsplit(urljoin(path, href))
            if parts.netloc or SKIP.search(parts.path) or "_export" in parts.query:
                continue
            if parts.path.startswith(within) and shape(parts.path) not in seen_shapes:
                queue.append(parts.path)
    assert visited >= 10, f"only {visited} pages visited"
    return found


@pytest.fixture
def five_systems(circuit_file, django_user_model):
    seasons = [
        import_competition(circuit_file),
        import_competition(small_file()),
        import_competition(chess_file()),
        import_competition(gp_file()),
        import_competition(big_ladder(4, 3)),
    ]
    user = django_user_model.objects.create_user("leader", password="pw-leader-1")
    for season in seasons:
        season.series.managers.add(user)
    return seasons


def test_public_pages_have_no_serious_accessibility_violation(live_server, browser, five_systems):
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    found = audit(page, live_server.url, ["/", "/help/"], ("/",), viewports=(PHONE, LAPTOP))
    context.close()
    assert found == {}, found


def test_manager_pages_have_no_serious_accessibility_violation(live_server, browser, five_systems):
    context = browser.new_context(viewport=LAPTOP)
    context.add_cookies([{"name": "django_language", "value": "nl", "url": live_server.url}])
    page = context.new_page()
    log_in(page, live_server.url, "leader", "pw-leader-1")
    found = audit(page, live_server.url, ["/manage/"], ("/manage/",), viewports=(PHONE, LAPTOP))
    context.close()
    assert found == {}, found
