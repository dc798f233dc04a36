"""Monrad pairing of chess group rounds (rules.md §3): the pairing and its manager page."""

from django.utils.translation import gettext_lazy as _

from competitions.registry import add_manage_urls, attach
from competitions.systems.chess.system import KEY
from pairings.systems import PairedElsewhere

from . import pairing

attach(
    KEY,
    pairing=PairedElsewhere(
        pair_next_round=pairing.pair_next_round,
        save=pairing.save,
        where=_("each group's next round is paired on the group's manager page"),
    ),
)
add_manage_urls(KEY, "pairings.systems.chess.urls")
