"""Screenshots of the site in Debian's Chromium: every public and manager page, phone and laptop
sized, in every language, with a check that nothing overflows a phone's width.

    python scripts/screenshots.py BASE_URL OUT_DIR [--login USER:PASSWORD] [--langs en,nl,sv,nb]
        [--max-pages 120] [--readme docs/screenshot.png] [--readme-only]

It crawls the public pages from `/` (and, with --login, the manager pages from `/manage/`),
one example of each kind of address (a second player page shows nothing new), and writes
`OUT_DIR/<lang>/<width>/<page>.png` plus contact sheets `OUT_DIR/sheet-<lang>-<width>-<n>.png`
(a dozen pages each, to look at). Pages wider than the viewport, and pages that answer an error,
are listed at the end. `--readme` composes the README picture: the season overview on a phone
beside the laptop view.
"""

import argparse
import base64
import re
import sys
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from playwright.sync_api import sync_playwright

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
WIDTHS = {"phone": (390, 844), "laptop": (1366, 900)}
# An address segment after one of these names one of many alike (a tournament, a player...).
COLLECTIONS = {"tournaments", "players", "games", "rounds", "pools", "groups", "list", "tables"}
SKIP = re.compile(
    r"(logout|/admin/|/i18n/|format=|_export=|\.csv|\.json|\.zip|\.xlsx|download|/static/|/healthz"
    r"|password_reset|/export|[?&]sort=)"
)

# Buttons, links styled as buttons and form fields inside a sideways-scrolling table that end
# past the visible part of it: on a phone the person does not see them until they scroll.
# Their texts (tests/e2e/test_site.py runs the same check on four manager pages).
HIDDEN_ACTIONS = """() => {
  const hidden = [];
  for (const box of document.querySelectorAll('.table-responsive')) {
    const right = box.getBoundingClientRect().right;
    for (const el of box.querySelectorAll('button, .btn, input:not([type=hidden]), select')) {
      if (el.getBoundingClientRect().right > right + 1) hidden.push(el.textContent.trim());
    }
  }
  return hidden;
}"""


# The words of the page's buttons that the browser split over two lines ("Spa/ra"): a word
# whose letters lie on more than one line, its text range's rectangles at different heights
# (tests/e2e/test_site.py runs the same check on three pages).
BROKEN_WORDS = """() => {
  const broken = [];
  for (const button of document.querySelectorAll(".btn")) {
    const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(match[0]);
      }
    }
  }
  return broken;
}"""


def shape(path: str) -> str:
    """A page's kind: its address with ids and numbers generalised, so the crawl takes one
    example of each."""
    parts = urlsplit(path)
    segments = parts.path.split("/")
    segments = ["#" if i and segments[i - 1] in COLLECTIONS else s for i, s in enumerate(segments)]
    query = (
        "?" + "&".join(sorted(k.split("=")[0] for k in parts.query.split("&")))
        if parts.query
        else ""
    )
    return "/".join(segments) + query


def crawl(page, base: str, start: str, limit: int) -> list[str]:
    seen_shapes: set[str] = set()
    found: list[str] = []
    queue = [start]
    visited: set[str] = set()
    while queue and len(found) < limit:
        path = queue.pop(0)
        if path in visited:
            continue
        visited.add(path)
        try:
            response = page.goto(base + path)
        except Exception:  # a download, not a page
            continue
        found.append(path)
        if response is None or response.status >= 400:
            continue  # reported with its status later
        for href in page.eval_on_selector_all(
            "a[href]", "els => els.map(e => e.getAttribute('href'))"
        ):
            url = urljoin(base + path, href)
            if not url.startswith(base):
                continue
            target = url[len(base) :].split("#")[0]
            if not target.startswith("/") or SKIP.search(target):
                continue
            if start == "/manage/" and not target.startswith("/manage/"):
                continue
            if start == "/" and target.startswith("/manage/"):
                continue
            kind = shape(target)
            if kind in seen_shapes:
                continue
            seen_shapes.add(kind)
            queue.append(target)
    return found


def name_of(path: str) -> str:
    return re.sub(r"[^\w.-]+", "_", path.strip("/")) or "home"


def sheet(browser, images: list[Path], out: Path, columns: int) -> None:
    """A contact sheet of screenshots with their names, drawn by Chromium itself."""
    cells = "".join(
        f'<figure><img src="data:image/png;base64,{base64.b64encode(p.read_bytes()).decode()}">'
        f"<figcaption>{p.stem}</figcaption></figure>"
        for p in images
    )
    html = (
        "<style>body{margin:0;font:12px sans-serif;background:#ddd;display:grid;"
        f"grid-template-columns:repeat({columns},1fr);gap:6px;padding:6px}}"
        "figure{margin:0;background:#fff}img{width:100%;display:block}"
        "figcaption{padding:2px 4px}</style>" + cells
    )
    page = browser.new_page(viewport={"width": 1600, "height": 900})
    page.set_content(html)
    page.wait_for_load_state("load")
    page.screenshot(path=str(out), full_page=True)
    page.close()


def readme(browser, base: str, path: str, out: Path) -> None:
    """The README picture: the page on a phone beside the laptop view."""
    shots = []
    for width, height in ((390, 780), (1366, 780)):
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(base + path)
        shots.append(base64.b64encode(page.screenshot()).decode())
        page.close()
    html = (
        "<style>body{margin:0;background:#e9ecef;display:flex;gap:24px;padding:24px;"
        "align-items:flex-start}img{box-shadow:0 2px 12px #0004;border-radius:8px}</style>"
        f'<img src="data:image/png;base64,{shots[0]}" width="312">'
        f'<img src="data:image/png;base64,{shots[1]}" width="1093">'
    )
    page = browser.new_page(viewport={"width": 1477, "height": 672})
    page.set_content(html)
    page.wait_for_load_state("load")
    page.screenshot(path=str(out), full_page=True)
    page.close()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("out", type=Path)
    parser.add_argument("--login", help="USER:PASSWORD of a manager: also the /manage/ pages")
    parser.add_argument("--langs", default="en,nl,sv,nb")
    parser.add_argument("--widths", default=",".join(WIDTHS), help="phone,laptop")
    parser.add_argument("--max-pages", type=int, default=120)
    parser.add_argument("--readme", type=Path, help="write the README picture here")
    parser.add_argument("--readme-page", default="/belgian-circuit/2025/")
    parser.add_argument(
        "--readme-only", action="store_true", help="only the README picture, no crawl"
    )
    args = parser.parse_args()
    base = args.base.rstrip("/")
    problems: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        if args.readme_only:
            readme(browser, base, args.readme_page, args.readme or Path("docs/screenshot.png"))
            browser.close()
            return 0
        context = browser.new_context()
        page = context.new_page()
        paths = crawl(page, base, "/", args.max_pages)
        if args.login:
            user, password = args.login.split(":", 1)
            page.goto(base + "/accounts/login/")
            page.fill("input[name=username]", user)
            page.fill("input[name=password]", password)
            page.click("button[type=submit], input[type=submit]")
            paths += crawl(page, base, "/manage/", args.max_pages)
        print(f"{len(paths)} pages", flush=True)
        for lang in args.langs.split(","):
            context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
            for label in args.widths.split(","):
                width, height = WIDTHS[label]
                folder = args.out / lang / label
                folder.mkdir(parents=True, exist_ok=True)
                page.set_viewport_size({"width": width, "height": height})
                images = []
                for path in paths:
                    try:
                        response = page.goto(base + path)
                    except Exception as exc:
                        problems.append(f"{lang} {label} {path}: {exc}".splitlines()[0])
                        continue
                    status = response.status if response else 0
                    if status >= 400:
                        problems.append(f"{lang} {label} {path}: HTTP {status}")
                        continue
                    overflow = page.evaluate(
                        "document.documentElement.scrollWidth - window.innerWidth"
                    )
                    if overflow > 1:
                        problems.append(
                            f"{lang} {label} {path}: {overflow}px wider than the screen"
                        )
                    hidden = page.evaluate(HIDDEN_ACTIONS)
                    if hidden:
                        problems.append(
                            f"{lang} {label} {path}: {len(hidden)} button(s) or field(s) past"
                            f" the right edge until a table is scrolled sideways"
                            f" ({', '.join(sorted(set(hidden))[:3])})"
                        )
                    broken = page.evaluate(BROKEN_WORDS)
                    if broken:
                        problems.append(
                            f"{lang} {label} {path}: a button splits a word over two lines"
                            f" ({', '.join(sorted(set(broken))[:3])})"
                        )
                    target = folder / f"{name_of(path)}.png"
                    page.screenshot(path=str(target))
                    images.append(target)
                for n in range(0, len(images), 12):
                    sheet(
                        browser,
                        images[n : n + 12],
                        args.out / f"sheet-{lang}-{label}-{n // 12 + 1:02d}.png",
                        columns=6 if label == "phone" else 3,
                    )
        if args.readme:
            readme(browser, base, args.readme_page, args.readme)
        browser.close()
    for line in problems:
        print(line)
    print(f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
