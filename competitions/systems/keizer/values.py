"""The value of each place of a Keizer list (rules.md §4.1, keizer-variants.md §1.2), pure: the
one formula that the engine (rankings.engines.keizer) ranks by and that the manager's list page
shows as the start points of those without their own."""

from fractions import Fraction
from math import floor

HALF_EVEN = "half-even"


def automatic_top(n: int, *, step: int, ratio, rounding: str) -> int:
    """rules.md §4.1: T = round_half_up(3 · (n − 1) / 2), about three times the bottom value;
    with a step s the same ratio gives 3 · s · (n − 1) / 2. keizer-variants.md §1.2: the ratio
    r (3) is a setting, T = R(s · (n − 1) · r / (r − 1)) rounded half up or half to even."""
    r = Fraction(ratio)
    exact = step * max(n - 1, 0) * r / (r - 1)
    return round(exact) if rounding == HALF_EVEN else floor(exact + Fraction(1, 2))


def normalised(n: int, ratio) -> list:
    """keizer-variants.md §1.2: from r down to 1 in equal steps δ, rounded half to even to d
    decimals, d the fewest (0..9) with δ > 10^−d (1 if none). One player: r (a Decision)."""
    r = Fraction(ratio)
    if n == 0:
        return []
    if n == 1:
        return [r]
    delta = (r - 1) / (n - 1)
    d = next((d for d in range(10) if delta > Fraction(1, 10**d)), 1)
    scale = 10**d
    found: list = []
    for i in range(n):
        v = Fraction(round(scale * (r - i * delta)), scale)
        found.append(v.numerator if v.denominator == 1 else v)
    return found


def place_values(
    n: int, *, top_value: int | None, step: int, ratio, normalised_values: bool, rounding: str
) -> list:
    """rules.md §4.1: the value of each place 1..n on a list of n players, V(i) = T − s·(i − 1),
    T set by hand or `automatic_top` (keizer-variants.md §1.2: or the normalised scale)."""
    if normalised_values:
        return normalised(n, ratio)
    top = top_value or automatic_top(n, step=step, ratio=ratio, rounding=rounding)
    return [top - step * i for i in range(n)]
