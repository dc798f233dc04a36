"""Helpers shared by the ranking engines: competition ranks and exact rounding."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any, TypeVar

K = TypeVar("K")
T = TypeVar("T")


def competition_ranks(keys: Sequence[K]) -> list[int]:
    """rules.md General conventions: competition ranks (1, 2, 2, 4) for keys in best-first order."""
    ranks: list[int] = []
    for i, k in enumerate(keys):
        if i > 0 and k == keys[i - 1]:
            ranks.append(ranks[-1])
        else:
            ranks.append(i + 1)
    return ranks


def rank_by(
    items: Iterable[T],
    key: Callable[[T], Any],
    tie_order: Callable[[T], Any],
) -> list[tuple[int, T]]:
    """rules.md General conventions: rank items by key (bigger is better), ties share the rank."""
    # Two stable sorts: keys need not support negation, and reverse=True keeps tie_order intact.
    ordered = sorted(items, key=tie_order)
    ordered.sort(key=key, reverse=True)
    ranks = competition_ranks([key(item) for item in ordered])
    return list(zip(ranks, ordered, strict=True))


def round_half_up(x: Fraction | int) -> int:
    """rules.md §1.2: round half up, exactly (floor(x + 1/2))."""
    return math.floor(Fraction(x) + Fraction(1, 2))
