"""The bridge pool ladder (rules.md §5): the page that starts the next round, with the pools
that promotion and relegation give."""

from competitions.registry import add_manage_urls
from competitions.systems.bridge.system import KEY

add_manage_urls(KEY, "pairings.systems.bridge.urls")
