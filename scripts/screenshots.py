"""Screenshots of the main pages in Debian's Chromium, laptop and phone sized.

Usage: python scripts/screenshots.py BASE_URL OUT_DIR [path ...]
"""

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
PAGES = [
    "/",
    "/belgian-circuit/2025/",
    "/belgian-circuit/2025/tournaments/t1/",
    "/belgian-circuit/2025/yearly/",
    "/belgian-circuit/2025/games/catan/",
]


def main() -> None:
    base, out = sys.argv[1], Path(sys.argv[2])
    paths = sys.argv[3:] or PAGES
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        for label, viewport in (
            ("laptop", {"width": 1366, "height": 900}),
            ("phone", {"width": 390, "height": 844}),
        ):
            page = browser.new_page(viewport=viewport)
            for path in paths:
                page.goto(base + path)
                name = path.strip("/").replace("/", "_") or "home"
                page.screenshot(path=str(out / f"{label}-{name}.png"), full_page=False)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
