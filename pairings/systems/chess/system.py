"""Monrad pairing of chess group rounds (rules.md §3): the pairing and its manager page."""

from competitions.registry import add_manage_urls, attach
from competitions.systems.chess.system import KEY
from pairings.systems import Pairing

from . import pairing

attach(KEY, pairing=Pairing(pair_next_round=pairing.pair_next_round, save=pairing.save))
add_manage_urls(KEY, "pairings.systems.chess.urls")
