"""What a reader adds up on the page is the total on the page (issue 46, item 8; rules.md,
Decision "rounding"): every shown number is its exact value rounded, ranks follow the exact
values, and an explanation whose shown parts miss the shown total shows the difference as a
line "Rounding". Properties over generated exact numbers, then the pages of each system."""

import re
from decimal import Decimal
from fractions import Fraction

import pytest
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rankings.imports import import_competition
from rankings.systems.boardgame import explain
from rankings.tables import rounded, rounding_gap
from rankings.urls_helpers import season_url

# Exact board-game points: the thirds, sixths and sevenths that tables of 3 to 7 make.
points = st.builds(
    lambda whole, num, den: Fraction(whole) + Fraction(num, den),
    st.integers(0, 400),
    st.integers(0, 419),
    st.sampled_from([1, 2, 3, 4, 5, 6, 7, 12, 60, 420]),
)

LAST_CELL = re.compile(r"<td>([−+]?[\d.]+)</td></tr>")


def number(text: str) -> Decimal:
    return Decimal(text.replace("\u2212", "-"))


def shown_sum(html: str) -> Decimal:
    """The sum of a breakdown's last column as shown (parts and the rounding line)."""
    return sum((number(cell) for cell in LAST_CELL.findall(html)), Decimal(0))


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(points, min_size=1, max_size=8))
def test_the_gap_makes_the_shown_parts_add_up_to_the_shown_total(parts):
    total = sum(parts, Fraction(0))
    gap = rounding_gap(total, parts)
    assert sum(rounded(p) for p in parts) + gap == rounded(total)
    assert abs(gap) <= Decimal("0.005") * len(parts)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(points, min_size=1, max_size=6))
def test_a_yearly_breakdown_adds_up_to_its_total(counted):
    total = sum(counted, Fraction(0))
    detail = {
        "counted": [f"t{n}" for n in range(len(counted))],
        "counted_points": [float(p) for p in counted],  # as stored
        "points": float(total),
    }
    with translation.override("en"):
        html = explain.yearly(detail, {}, 5)
    shown_total = number(re.search(r"sum = ([\d.]+)", html).group(1))
    assert shown_sum(html) == shown_total


def test_the_issue_s_yearly_breakdown_shows_its_rounding():
    # 288.97 + 177.83 + 240.17 + 343.50 + 322.17 = 1372.64 as shown; the exact sum is 1372.63.
    counted = [Fraction(8669, 30), Fraction(1067, 6), Fraction(1441, 6), Fraction(687, 2)]
    counted.append(Fraction(1933, 6))
    detail = {
        "counted": ["t1", "t2", "t3", "t4", "t5"],
        "counted_points": [float(p) for p in counted],
        "points": float(sum(counted)),
    }
    with translation.override("en"):
        html = explain.yearly(detail, {}, 5)
    assert "sum = 1372.63" in html
    assert "<td>Rounding</td><td>−0.01</td>" in html
    assert shown_sum(html) == Decimal("1372.63")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(points, points, points)
def test_a_ludo_breakdown_adds_its_shares_up_to_its_total(y2, y1, y):
    ludo = y2 / 3 + 2 * y1 / 3 + y
    detail = {"terms": [float(y2), float(y1), float(y)], "points": float(ludo)}
    with translation.override("en"):
        html = explain.ludo(detail, ["2023", "2024", "2025"])
    assert shown_sum(html) == number(re.search(r"LUDO = ([\d.]+)", html).group(1))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(3, 7), st.integers(1, 7)), min_size=1, max_size=3))
def test_a_daily_total_and_its_seat_scores_add_up(seats):
    tables = []
    for n, (players, place) in enumerate(seats, start=1):
        place = min(place, players)
        placement = Fraction(100 * (players - place), players - 1)
        bonus = 1 if place == 1 else 0
        fraction = placement / (50 * players)
        result = {
            "place": place,
            "placement": float(placement),
            "bonus": bonus,
            "fraction": float(fraction),
            "score": float(placement + bonus + fraction),
            "exact": placement + bonus + fraction,
        }
        tables.append((n, 1, "Catan", result))
        with translation.override("en"):
            seat = explain.seat_score(result, players)
        assert shown_sum(seat) == number(re.search(r"Score = ([\d.]+)", seat).group(1))
    daily = sum((t[3]["exact"] for t in tables), Fraction(0))
    with translation.override("en"):
        html = explain.daily_total(tables, float(daily))
    assert shown_sum(html) == number(re.search(r"Daily total = ([\d.]+)", html).group(1))


@pytest.mark.django_db
def test_keizer_scores_show_their_rounding(client):
    from tests.keizer_data import generated_file

    season = import_competition(generated_file(players=14, rounds=8, seed=46))
    html = client.get(season_url(season), {"per_page": 100}).content.decode()
    checked = 0
    for table in re.findall(r"<table class=\"table table-sm mb-1\">.*?</table>", html, re.S):
        if "<tfoot>" not in table:
            continue
        cells = re.findall(r'<td class="text-end">([−+]?[\d.]+)</td></tr>', table)
        score = re.search(r'<tfoot>.*?<th class="text-end">([\d.]+)</th>', table, re.S).group(1)
        assert sum((number(c) for c in cells), Decimal(0)) == number(score), table
        checked += 1
    assert checked >= 10


def signed_number(text: str) -> int:
    return int(text.replace("\u2212", "-"))


@pytest.mark.django_db
def test_bridge_elo_explanations_add_up(client):
    from tests.bridge_files import big_ladder

    season = import_competition(big_ladder(4, 3, series="sums", seed=46))
    sums = rounded_ones = rows = 0
    for pool in range(1, 5):
        html = client.get(season_url(season, "pool", 3, pool)).content.decode()
        # The pool's Elo: the start of the round, the changes, the end (and the rounding).
        for start, changes, end, gap in re.findall(
            r"(\d+) at the start of the round, changes ([^:]*): (\d+)(?: Rounding ([^:]+):)?", html
        ):
            parts = [signed_number(c) for c in changes.split()] + [int(start)]
            assert sum(parts) + (signed_number(gap) if gap else 0) == int(end)
            sums += 1
            rounded_ones += bool(gap)
        # A challenge's Elo before, change and Elo after, each rounded.
        for before, change, gap, after in re.findall(
            r"Elo (\d+) ([−+]?\d+), rounding ([−+]\d+): (\d+)", html
        ):
            assert int(before) + signed_number(change) + signed_number(gap) == int(after)
            rows += 1
    assert sums >= 15 and rounded_ones >= 1 and rows >= 1
