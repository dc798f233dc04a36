"""Today's BGP points (rules.md §3), frozen as they were before the BGP rule options
(chess-othello-options.md §2): the oracle the property test compares the default settings to."""

from bisect import bisect_left
from collections import defaultdict

from rankings.engines.common import rank_by


def bgp_points_today(place, participants, county, settings):
    if county:
        return settings.county_winner if place == 1 else settings.county_others
    scale = settings.bgp_large if participants > settings.bgp_large_over else settings.bgp_small
    return scale[place - 1] if place <= len(scale) else settings.bgp_further


def class_places_today(rows, classes):
    places = defaultdict(list)
    for row in rows:
        name = classes.get(row.player)
        if name:
            places[name].append(row.place)
    for found in places.values():
        found.sort()
    result = []
    for row in rows:
        name = classes.get(row.player)
        if not name:
            continue
        result.append((row.player, name, bisect_left(places[name], row.place) + 1))
    return result


def tournament_bgp_today(groups, *, participants, county, settings):
    """(player, class, group, place, points) rows, in today's order."""
    rows = []
    for index, (out, classes) in enumerate(groups):
        for player, name, place in class_places_today(out.rows, classes):
            points = bgp_points_today(place, participants, county, settings)
            rows.append((player, name, index, place, points))
    order = {}
    for row in rows:
        order.setdefault(row[1], len(order))
    return sorted(rows, key=lambda r: (order[r[1]], r[2], r[3]))


def season_bgp_today(tournaments):
    """class -> [(player, rank, points, counted)]."""
    counted = defaultdict(lambda: defaultdict(list))
    for tournament, rows in tournaments:
        for player, name, _g, _p, points in rows:
            counted[name][player].append((tournament, points))
    standings = {}
    for name, players in counted.items():
        totals = {p: sum(points for _t, points in items) for p, items in players.items()}
        ranked = rank_by(totals, key=lambda p: totals[p], tie_order=lambda p: p)
        standings[name] = [(p, rank, totals[p], tuple(players[p])) for rank, p in ranked]
    return standings
