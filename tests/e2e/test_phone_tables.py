"""Every public ranking, crosstable and player page of the five systems, on a phone (390 px) in
the four languages and on a laptop (1366 px): the row's name and the columns that decide the
order are on screen (issue 46, item 5). A column is on screen when its cells lie inside the
viewport and inside every box that clips them (the table's scrolling wrapper); the name and
the rank before it stay on screen when the wrapper is scrolled sideways to its end."""

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ("en", "nl", "sv", "nb")
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}
GROUPS = ("klyve", "porsgrunn")

# The demo's pages: (path, the header of the name column, the headers of the deciding columns),
# headers as the English page writes them; {klyve}: the id of that tournament's first group.
PAGES = [
    ("/belgian-circuit/2025/tournaments/t1/", "Player", ["Tournament points"]),
    ("/belgian-circuit/2025/yearly/", "Player", ["Points"]),
    ("/belgian-circuit/2025/ludo/", "Player", ["LUDO points"]),
    ("/belgian-circuit/2025/games/azul/", "Player", ["Points"]),
    ("/belgian-circuit/players/p39/", "Tournament", ["Tournament points", "Counted"]),
    ("/telemark-bgp/2025-26/", "Tournament", ["Players"]),
    ("/telemark-bgp/2025-26/tournaments/klyve/", "Player", ["BGP"]),
    (
        "/telemark-bgp/2025-26/tournaments/klyve/groups/{klyve}/",
        "Name (class)",
        ["Points", "M1", "M2", "Berger"],
    ),
    (
        "/telemark-bgp/2025-26/tournaments/porsgrunn/groups/{porsgrunn}/",
        "Name (class)",
        ["Points", "M1", "M2", "M3", "Berger"],
    ),
    ("/telemark-bgp/2025-26/bgp/junior/", "Player", ["BGP points"]),
    ("/telemark-bgp/players/p9/", "Tournament", ["Points", "BGP"]),
    ("/swedish-othello-gp/2025/", "Player", ["GP points"]),
    ("/swedish-othello-gp/2025/standings/", "Player", ["GP points"]),
    ("/swedish-othello-gp/2025/tournaments/t1/", "Player", ["GP points"]),
    ("/swedish-othello-gp/2025/what-if/", "Player", ["Rank if", "Points if"]),
    ("/swedish-othello-gp/players/p1/", "Tournament", ["GP points", "Counted"]),
    ("/de-toren/2025-2026/", "Player", ["Score"]),
    ("/bbo-ladder/2026/rounds/3/pools/1/", "Player", ["Total IMPs"]),
    ("/bbo-ladder/2026/elo/", "Player", ["Elo"]),
]

# The table whose header row holds those headers: its number among the page's tables (not
# those inside an explanation) and the numbers of the columns.
FIND = """([name, keys]) => {
  const tables = [...document.querySelectorAll('table')].filter(t => !t.closest('.explain-body'));
  for (const [index, table] of tables.entries()) {
    const heads = [...table.querySelectorAll(':scope > thead > tr > th')]
      .map(th => th.textContent.trim().replace(/\\s+/g, ' '));
    if (heads.includes(name) && keys.every(k => heads.includes(k))) {
      return [index, heads.indexOf(name), keys.map(k => heads.indexOf(k))];
    }
  }
  return null;
}"""

# Which cells of the first rows (column numbers) are not wholly on screen, before and after the
# table's wrapper is scrolled to its right end (then the name column and the rank are asked).
OFF_SCREEN = """([index, name, keys]) => {
  const table = [...document.querySelectorAll('table')]
    .filter(t => !t.closest('.explain-body'))[index];
  const seen = el => {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) return false;
    let left = 0, right = document.documentElement.clientWidth;
    for (let a = el.parentElement; a; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') {
        const clip = a.getBoundingClientRect();
        left = Math.max(left, clip.left); right = Math.min(right, clip.right);
      }
    }
    return box.left >= left - 0.5 && box.right <= right + 0.5;
  };
  const rows = [...table.tBodies[0].rows].slice(0, 3);
  const check = columns => rows.flatMap((row, r) =>
    columns.filter(c => !seen(row.cells[c])).map(c => `row ${r + 1} column ${c + 1}`));
  const before = check([name, ...keys]);
  let wrapper = table.parentElement;
  while (wrapper && getComputedStyle(wrapper).overflowX === 'visible') {
    wrapper = wrapper.parentElement;
  }
  let after = [];
  if (wrapper && wrapper.scrollWidth > wrapper.clientWidth) {
    wrapper.scrollLeft = wrapper.scrollWidth;
    // The name and the rank before it (col-rank) stay.
    const rank = [...rows[0].cells].findIndex(c => c.classList.contains('col-rank'));
    after = check(rank >= 0 ? [rank, name] : [name]).map(cell => `${cell} scrolled`);
    wrapper.scrollLeft = 0;
  }
  return [...before, ...after];
}"""


@pytest.fixture
def demo(settings) -> list[tuple[str, str, list[str]]]:
    """The demo of the five systems; PAGES with the chess groups' ids."""
    from competitions.models import Group

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    ids = {key: Group.objects.filter(tournament__key=key).first().pk for key in GROUPS}
    return [(path.format(**ids), name, keys) for path, name, keys in PAGES]


def off_screen(page, base: str, pages, columns: dict[str, tuple]) -> dict[str, list[str]]:
    """Per page, the cells off screen; `columns`: per page the table and columns that the
    English page's headers name, found on the first visit."""
    cut = {}
    for path, name, keys in pages:
        page.goto(base + path)
        if path not in columns:
            columns[path] = page.evaluate(FIND, [name, keys])
            assert columns[path] is not None, f"{path}: no table with the headers {name}, {keys}"
        if off := page.evaluate(OFF_SCREEN, list(columns[path])):
            cut[path] = off
    return cut


def test_the_name_and_the_deciding_columns_are_on_screen_on_a_phone_and_a_laptop(
    live_server, browser, demo
):
    base = live_server.url
    columns: dict[str, tuple] = {}
    cut = {}
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    for language in LANGUAGES:  # English first: its headers name the columns
        context.add_cookies([{"name": "django_language", "value": language, "url": base}])
        found = off_screen(page, base, demo, columns)
        cut |= {f"390 {language} {path}": off for path, off in found.items()}
    context.close()

    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    cut |= {f"1366 {path}": off for path, off in off_screen(page, base, demo, columns).items()}
    # The Othello overview's tournaments: every column, the winner's too (cut at 1366 px).
    page.goto(base + "/swedish-othello-gp/2025/")
    index, name, _keys = page.evaluate(FIND, ["Tournament", ["Winner"]])
    count = page.evaluate(f"() => document.querySelectorAll('table')[{index}].rows[0].cells.length")
    others = [c for c in range(count) if c != name]
    if off := page.evaluate(OFF_SCREEN, [index, name, others]):
        cut["1366 /swedish-othello-gp/2025/ tournaments"] = off
    context.close()
    assert cut == {}, cut
