"""What a change of the chess settings would do to the group tables, before it is saved (issue
48 part 7): every group ranked twice in memory, by the stored settings and by the proposed ones,
with the engine the recompute uses (`load_groups`, `engine.group_scaled`). Nothing is written."""

import copy
from dataclasses import replace

from competitions.models import Season
from competitions.systems.chess.models import GroupPlayer
from competitions.systems.chess.settings import group_tiebreaks, parse_settings
from rankings.engines import chess as engine

from .standings import engine_settings, load_groups


def place_changes(
    season: Season,
    settings: dict,
    *,
    tournament_options: dict[int, dict] | None = None,
    group_options: dict[int, dict] | None = None,
) -> list[dict]:
    """Per group whose places would change with the season settings `settings` and the
    proposed options of tournaments and groups (id -> options; all valid): its tournament, name
    and the players that move, {"name", "old", "new"}, in their new order. Five queries,
    whatever the number of players."""
    tournament_options, group_options = tournament_options or {}, group_options or {}
    proposed = copy.copy(season)
    proposed.settings = settings
    before, after = engine_settings(season), engine_settings(proposed)
    chess = parse_settings(settings)
    names = dict(
        GroupPlayer.objects.filter(group__tournament__season=season).values_list(
            "player__key", "player__name"
        )
    )
    changed = []
    for lg in load_groups(season).values():
        group = lg.group
        tiebreaks, group_format = group_tiebreaks(
            chess,
            tournament_options.get(group.tournament_id, group.tournament.options),
            group_options.get(group.pk, group.options),
        )
        old = {r.player: r.place for r in engine.group_scaled(lg.engine_input(), before).rows}
        rows = engine.group_scaled(
            replace(lg, tiebreaks=tiebreaks, group_format=group_format).engine_input(), after
        ).rows
        moves = [
            {"name": names.get(r.player, r.player), "old": old[r.player], "new": r.place}
            for r in sorted(rows, key=lambda r: (r.place, r.start))
            if old[r.player] != r.place
        ]
        if moves:
            changed.append(
                {"tournament": group.tournament.name, "group": group.name, "changes": moves}
            )
    return changed
