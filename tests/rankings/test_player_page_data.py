"""The player page reads only the keys of each stored table that the system's player section
names (`Pages.player_table_keys`): the same page as with whole tables, less data read."""

from dataclasses import replace

import pytest
from django.db import connection
from django.urls import reverse

from competitions import registry
from rankings.imports import import_competition
from rankings.selectors import player_rows
from tests.helpers import patch_spec, without_csrf

pytestmark = pytest.mark.django_db


def page(client, key: str) -> str:
    html = client.get(reverse("player", args=["belgian-circuit", key])).content.decode()
    return without_csrf(html)


def test_the_player_page_is_the_same_with_only_the_named_keys(client, circuit_file, monkeypatch):
    season = import_competition(circuit_file)
    keys = registry.get_system("boardgame-circuit").pages.player_table_keys
    assert keys, "the circuit names the keys its player section reads"
    player = season.series.players.get(key="p1")
    rows = player_rows(player=player)
    tournament_rows = [r for r in rows if r.table.kind == "tournament"]
    assert tournament_rows
    if connection.vendor == "postgresql":
        # Only the named keys (no table of the day, no ceremony) came with the lines.
        assert all(set(r.table.data) <= set(keys) for r in rows)
        assert "tables" not in tournament_rows[0].table.data
    named = [page(client, k) for k in ("p1", "p2", "p5")]

    spec = registry.get_system("boardgame-circuit")
    patch_spec(monkeypatch, "boardgame-circuit", pages=replace(spec.pages, player_table_keys=None))
    whole = [page(client, k) for k in ("p1", "p2", "p5")]
    assert named == whole
    assert "tables" in player_rows(player=player)[0].table.data or any(
        "tables" in r.table.data for r in player_rows(player=player)
    )
