"""Browser tests: Debian's Chromium driven by Playwright against pytest-django's live server."""

import os
from pathlib import Path

import pytest

from tests.conftest import skip_or_fail

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        skip_or_fail(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - playwright is a test dependency
        skip_or_fail("playwright is not installed")
    # Playwright runs an event loop in this thread; the ORM calls of the test are still sync.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    """A page of a fresh browser context. Every browser test also checks that the site's
    Content Security Policy blocked nothing and no script failed on the pages it visited."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    problems: list[str] = []
    page.on(
        "console",
        lambda message: (
            problems.append(message.text)
            if message.type == "error" and "Content Security Policy" in message.text
            else None
        ),
    )
    page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    yield page
    context.close()
    assert problems == [], problems
