"""Today's chess group table (rules.md §3), frozen as it was before the configurable tie-break
list (chess-othello-options.md §1): the oracle the property tests compare the default list to."""

from rankings.engines.chess import (
    _REAL,
    _SIGNS,
    DRAWN,
    FORFEIT_LOSS,
    FORFEIT_WIN,
    NOT_PLAYED,
    WALKOVER,
    WHITE,  # noqa: F401
    WIN,
    GroupIn,
    ScaledGroup,
    ScaledRow,
    Settings,
    _scaled_results,
)
from rankings.engines.common import rank_by


def group_scaled_today(group: GroupIn, settings: Settings | None = None) -> ScaledGroup:
    """rules.md §3: the group table in quarter points (see `group_table`, which gives the same
    table in Fractions)."""
    settings = settings or Settings()
    players = group.players
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice in the group")
    results = _scaled_results(group)
    rounds = len(group.rounds)
    points = [sum(item[1] for item in mine) for mine in results]
    final = dict(zip(players, points, strict=True))  # a player's final points by key
    cuts_made = 2 if rounds >= settings.monrad_long_from else 1
    columns = 3 if rounds >= settings.monrad_long_from else 2
    built = []
    for i, mine in enumerate(results):
        values = []
        berger = 0
        for kind, _p, o, _c in mine:
            if kind in _REAL:
                value = final[o]
                values.append(value)
                if kind == WIN:
                    berger += value
                elif kind == DRAWN:
                    berger += value // 2  # points are even in quarters
            else:
                values.append(0)
        # The lowest values are cut; among equal values the earliest round is named (same sum).
        cuts = [0] * rounds
        lowest = sorted(range(rounds), key=values.__getitem__)[:cuts_made]  # a stable sort
        for k, r in enumerate(lowest):
            cuts[r] = cuts_made - k
        # Column c sums the values not cut, and those cut at level c or below: the total less
        # the values cut above c, which are the first cuts_made - c of the lowest. Column 0
        # leaves out every value cut; each next column adds back the one cut at its level.
        column_sum = sum(values)
        for r in lowest:
            column_sum -= values[r]
        sums = [column_sum]
        for c in range(1, columns):
            k = cuts_made - c
            if 0 <= k < len(lowest):
                column_sum += values[lowest[k]]
            sums.append(column_sum)
        monrad = tuple(sums)
        built.append((points[i], monrad, berger, values, cuts))
    keys = [(pts, *monrad, berger) for pts, monrad, berger, _v, _c in built]

    ranked = rank_by(
        range(len(players)),
        key=keys.__getitem__,
        tie_order=lambda i: i,
    )
    places = {players[i]: place for place, i in ranked}
    rows = []
    for place, i in ranked:
        pts, monrad, berger, values, cuts = built[i]
        cells = []
        for kind, _p, opponent, colour in results[i]:
            if kind in (WALKOVER, FORFEIT_WIN):
                cells.append("WO")
            elif kind == FORFEIT_LOSS:
                cells.append("-WO")
            elif kind == NOT_PLAYED:
                cells.append("")
            else:
                cells.append(f"{_SIGNS[kind]}{colour}{places[opponent]}")
        rows.append(
            ScaledRow(
                player=players[i],
                start=i + 1,
                place=place,
                points=pts,
                monrad=monrad,
                berger=berger,
                cells=tuple(cells),
                results=tuple(results[i]),
                values=tuple(values),
                cuts=tuple(cuts),
            )
        )
    return ScaledGroup(rows=tuple(rows), rounds=rounds, scale=group.scale)
