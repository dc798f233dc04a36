"""A chess group's start numbers (rules.md §3, issue 46): by rating, the default, or as the
organiser set them (a seeded list, say): the group's option `start_numbers` (Group.options).

By rating, the start numbers before round 1 follow the players' ratings, the unrated last and
equals by the tournament's stored lot, whatever order they were added in; saving round 1 gives
them. As set by the organiser, they are the manager's order of the group's players
(`GroupPlayer.position`), which round 1 pairs by and keeps. Once a round is stored they are
fixed either way. Pure: no database."""

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from django.utils.translation import gettext_lazy

START_NUMBERS = "start_numbers"
BY_RATING, BY_ORGANISER = "", "organiser"
# The words of the pages (a choice's label) and of the competition file (interchange.md).
CHOICES = (
    (BY_RATING, gettext_lazy("by rating")),
    (BY_ORGANISER, gettext_lazy("as set by the organiser")),
)
FILE_VALUES = {"rating": BY_RATING, "organiser": BY_ORGANISER}

T = TypeVar("T")


def by_rating(options: dict) -> bool:
    """Whether a group with these options numbers its players by rating (the default; a value
    the pages and files would refuse, e.g. typed into the admin's raw options, counts as it)."""
    return options.get(START_NUMBERS) != BY_ORGANISER


def rating_sorted(
    items: Sequence[T],
    *,
    key: Callable[[T], str],
    rating: Callable[[T], int | None],
    lot_seed: str,
) -> list[T]:
    """rules.md §3 Decision: the players in start-number order by rating, the unrated last,
    equals by lot: the player keys shuffled with `lot_seed` (the tournament's stored lot and
    the group, `lot_seed_of`)."""
    keys = sorted(key(item) for item in items)
    random.Random(lot_seed).shuffle(keys)
    lot = {k: i for i, k in enumerate(keys)}
    return sorted(
        items, key=lambda item: (rating(item) is None, -(rating(item) or 0), lot[key(item)])
    )


def lot_seed_of(draw_seed: int, group_id: int) -> str:
    return f"{draw_seed}:{group_id}"
