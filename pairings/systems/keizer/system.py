"""The Keizer club competition (rules.md §4.3): its pairing and the pair-round page."""

from competitions.registry import add_manage_urls, attach
from competitions.systems.keizer.system import KEY
from pairings.systems import SeasonPairing

from . import pairing

attach(KEY, pairing=SeasonPairing(pair_next_round=pairing.pair_next_round, save=pairing.save))
add_manage_urls(KEY, "pairings.systems.keizer.urls")
