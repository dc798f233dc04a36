"""Bridge ladder public pages: they render, show the stored numbers, explain every Elo change,
display any name safely, and their query counts do not grow with the ladder."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from rankings.imports import import_competition
from rankings.urls_helpers import season_url
from tests.bridge_files import CLUB, big_ladder, ladder_file
from tests.helpers import count_queries

pytestmark = pytest.mark.django_db

OTHERS = ["a1", "a2", "a3", "a4", "a5"]
FIRST = {"djchili74": 9.5, "Tolie": 4, "HanLaporte": 0.3, "Rudolf101": -3, "Coolerb": -10}
SECOND = {"HanLaporte": 12, "djchili74": 2, "Tolie": -1.5, "Rudolf101": -4, "Coolerb": -8}


@pytest.fixture
def ladder():
    return import_competition(
        ladder_file(
            pools=[OTHERS, CLUB],
            rounds=[
                {"number": 1, "challenges": [{"imps": FIRST}, {"imps": SECOND}, {"imps": {}}]},
                {"number": 2, "challenges": [{"imps": {"a1": 3}}]},
            ],
            settings={"pool_names": ["As de Pique", "Roi de Cœur"]},
        )
    )


def page_urls(season):
    return [
        season_url(season),
        season_url(season, "round", 1),
        season_url(season, "pool", 1, 2),
        season_url(season, "elo"),
        reverse("player", args=[season.series.slug, CLUB[2]]),
    ]


def html(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_every_page_renders(client, ladder):
    for url in [reverse("help"), *page_urls(ladder)]:
        html(client, url)
    for fmt in ("json", "zip"):
        assert (
            client.get(reverse("standings_download", args=["bbo", "2026", fmt])).status_code == 200
        )


def test_the_ladder_shows_every_pool_with_its_provisional_moves(client, ladder):
    page = html(client, season_url(ladder))
    assert "Round 2 is under way." in page
    assert "Pool 2</a>" in page and "Roi de Cœur" in page
    assert page.count("▲") >= 2 and page.count("▼") >= 2
    closed = html(client, season_url(ladder, "round", 1))
    assert "Round 1 is over: the marks are the moves into the next round." in closed


def test_an_elo_change_opens_its_duels_with_k_and_the_sum(client, ladder):
    page = html(client, season_url(ladder, "pool", 1, 2))
    # Challenge 2: HanLaporte (1250) against 1300, 1275, 1225, 1200 expects 2.000, wins all 4.
    body = re.search(
        r'<details class="explain"><summary>\+50</summary>(.*?)</details>',
        page.split('id="challenge-2"')[1],
        re.S,
    ).group(1)
    assert "djchili74" in body and "1300" in body and "1275" in body and "1200" in body
    assert "0.429" in body  # E against 1300: 1 / (1 + 10^(50/400))
    assert "K = 25; change = K × (score − expected) = 25 × (4 − 2.000) = +50.00" in body
    # Challenge 1 is the club's example: +50, +25, 0, −25, −50.
    first = page.split('id="challenge-1"')[1].split('id="challenge-2"')[0]
    shown = re.findall(r"<summary>([^<]*)</summary>", first)
    assert shown == ["+50", "+25", "0", "\u221225", "\u221250"]
    assert "not played yet" in page.split('id="challenge-3"')[1]
    # Elo before challenge 2 is the club's example after challenge 1.
    second = page.split('id="challenge-2"')[1].split('id="challenge-3"')[0]
    rows = [r for r in re.findall(r"<tr[^>]*>(.*?)</tr>", second, re.S) if "<a href" in r]
    befores = [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)[2] for row in rows[:5]]
    assert befores == ["1300", "1275", "1250", "1225", "1200"]


def test_totals_and_ratings_explain_themselves(client, ladder):
    page = html(client, season_url(ladder, "pool", 1, 2))
    assert "0.3 + 12 = 12.3" in page  # HanLaporte's total IMPs
    assert "1250 at the start of the round, changes 0 +50: 1300" in page


def test_the_player_page_has_the_elo_chart_and_the_same_numbers_in_a_table(client, ladder):
    page = html(client, reverse("player", args=["bbo", "HanLaporte"]))
    assert 'data-chart="bridge-elo-' in page
    data = re.search(r'<script id="bridge-elo-\d+" type="application/json">(.*?)</script>', page)
    # Start, R1 C1, R1 C2 (C3 unplayed by the pool); R2 C1 in pool 1, which he missed.
    assert '"labels": ["Start", "R1 C1", "R1 C2", "R2 C1"]' in data.group(1)
    assert '"data": [1250, 1250, 1300, 1283]' in data.group(1)
    assert ">1283</td>" in page  # the table holds the chart's numbers
    assert "vendor/chartjs/chart.umd.min.js" in page and "js/charts.js" in page
    assert "Pools, round by round" in page


def test_unknown_rounds_and_pools_are_404(client, ladder):
    assert client.get(season_url(ladder, "round", 9)).status_code == 404
    assert client.get(season_url(ladder, "pool", 1, 9)).status_code == 404
    assert client.get(season_url(ladder, "pool", 9, 1)).status_code == 404


def test_the_round_downloads_as_csv(client, ladder):
    response = client.get(season_url(ladder, "round", 1), {"_export": "csv"})
    lines = response.content.decode().splitlines()
    assert lines[0] == "Pool,#,Player,IMPs,Elo,Move"
    assert lines[6].startswith("2,1,HanLaporte,12.3,1300,up")  # Elo as the page shows it


NAMES = [
    "<script>alert(1)</script>",
    "a/b=c&d",
    "Νίκος Παπαδόπουλος",
    "张伟",
    "X" * 200,
]


def test_any_stored_name_displays_safely(client):
    keys = [f"n{i}" for i in range(len(NAMES))]
    data = ladder_file(
        pools=[keys],
        rounds=[{"number": 1, "challenges": [{"imps": {k: i for i, k in enumerate(keys)}}]}],
        settings={"pool_names": ["<b>Roi</b> & Dame"]},
    )
    data["players"] = [{"id": k, "name": n} for k, n in zip(keys, NAMES, strict=True)]
    season = import_competition(data)
    urls = [
        season_url(season),
        season_url(season, "pool", 1, 1),
        season_url(season, "elo"),
        reverse("player", args=["bbo", "n0"]),
    ]
    for url in urls:
        page = html(client, url)
        assert "<script>alert(1)</script>" not in page
        assert "<b>Roi</b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html(client, season_url(season))


def test_a_ladder_not_set_up_yet_says_so(client):
    season = import_competition(ladder_file())
    assert "The ladder has not started yet." in html(client, season_url(season))
    html(client, season_url(season, "elo"))


def test_our_templates_have_no_inline_script_or_event_handler():
    root = Path(settings.BASE_DIR) / "templates"
    for path in [*root.glob("rankings/bridge/*.html"), *root.glob("competitions/bridge/*.html")]:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), path
        assert not re.search(r"\son[a-z]+=", text), path


# --- query counts -------------------------------------------------------------------------------


# The page cache's key (rankings.pagecache): the series' seasons with their versions; the view
# finds its season and the season switcher's list among them.
SEASON = "the series' seasons with their series (the cache key, the season, the switcher)"
PLAYERS = "names and clubs of the players shown, and their clubs of this season"
ROUNDS = "the round numbers"
EXPECTED_QUERIES = {
    "ladder": [SEASON, ROUNDS, "the round's table", "its rows", PLAYERS],
    "round": [SEASON, ROUNDS, "the round's table", "its rows", PLAYERS],
    "pool": [SEASON, "the round's table", "its rows", PLAYERS],
    "elo": [
        SEASON,
        "how many lines the Elo table has",
        "a page of its lines, in the order asked, with their names",
    ],
    "player": [
        "the series' seasons with their versions (the page cache's key)",
        "the player with series and club",
        "all the player's rows with their tables",
        "the opponents' names and clubs of this season",
    ],
}


def test_page_query_counts_do_not_grow_with_the_ladder(client):
    small = import_competition(big_ladder(2, 2, series="small"))
    large = import_competition(big_ladder(15, 3, series="large"))
    small_counts = [count_queries(client, url) for url in urls_of(small)]
    large_counts = [count_queries(client, url) for url in urls_of(large)]
    assert small_counts == large_counts == [len(q) for q in EXPECTED_QUERIES.values()]


def urls_of(season):
    return [
        season_url(season),
        season_url(season, "round", 1),
        season_url(season, "pool", 1, 2),
        season_url(season, "elo"),
        reverse("player", args=[season.series.slug, "q0"]),
    ]
