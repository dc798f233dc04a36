"""What a change of the chess settings would do to the standings, before it is saved (issue 48
part 7): the season ranked twice in memory, by the stored settings and options and by the
proposed ones, with the engine the recompute uses (`load_groups`, `engine.group_scaled`,
`tournament_points`, `engine.season_bgp`). Nothing is written.

Three kinds of tables, each listing only the players whose number would change: a group's places,
a tournament's BGP points, a class's season BGP totals (a changed place moves a player's BGP
points, chess-othello-options.md §1.6; a changed scale or option of §2 moves them without any
place changing)."""

import copy
from collections import defaultdict
from dataclasses import replace

from django.utils.translation import gettext as _

from competitions.models import Season
from competitions.systems.chess.models import GroupPlayer
from competitions.systems.chess.settings import group_tiebreaks, parse_settings
from rankings.engines import chess as engine

from .standings import LoadedGroup, engine_settings, load_groups, tournament_points

PLACES, POINTS, TOTALS = "places", "points", "totals"  # the tables' keys begin so


def _moves(old: dict[str, int], new: list[tuple[str, int]], names: dict[str, str]) -> list[dict]:
    """{"name", "old", "new"} of every player whose number changes, in the new order (`new`:
    (player, number) in that order); "–" for a number a player has on one side only."""
    seen = set()
    moves = []
    for player, number in new:
        seen.add(player)
        if old.get(player) != number:
            moves.append(
                {"name": names.get(player, player), "old": old.get(player, "–"), "new": number}
            )
    for player, number in old.items():
        if player not in seen:
            moves.append({"name": names.get(player, player), "old": number, "new": "–"})
    return moves


def settings_changes(
    season: Season,
    settings: dict,
    *,
    tournament_options: dict[int, dict] | None = None,
    group_options: dict[int, dict] | None = None,
) -> list[dict]:
    """The settings page's preview (rankings.systems.Standings.preview) of the season settings
    `settings` and the proposed options of tournaments and groups (id -> options; all valid):
    per group whose places would change, per tournament whose BGP points would change, per
    class whose season totals would change, a table {"key", "what", "caption", "changes"}, in
    that order (each tournament's groups, then its BGP points; the classes last). Six queries,
    whatever the number of players."""
    tournament_options, group_options = tournament_options or {}, group_options or {}
    proposed = copy.copy(season)
    proposed.settings = settings
    before, after = engine_settings(season), engine_settings(proposed)
    chess = parse_settings(settings)
    tournaments = list(season.tournaments.all())
    names = dict(
        GroupPlayer.objects.filter(group__tournament__season=season).values_list(
            "player__key", "player__name"
        )
    )
    by_tournament: dict[int, list[LoadedGroup]] = defaultdict(list)
    for lg in load_groups(season).values():
        by_tournament[lg.group.tournament_id].append(lg)
    tables: list[dict] = []  # per tournament, its groups' tables then its points table
    old_rows: list[tuple[str, list[engine.BgpRow]]] = []
    new_rows: list[tuple[str, list[engine.BgpRow]]] = []
    for t in tournaments:
        options = tournament_options.get(t.pk, t.options)
        old_outs, new_outs = [], []
        for lg in by_tournament.get(t.pk, []):
            group = lg.group
            tiebreaks, group_format = group_tiebreaks(
                chess, options, group_options.get(group.pk, group.options)
            )
            group_in = lg.engine_input()
            old = engine.group_scaled(group_in, before)
            new = engine.group_scaled(
                replace(lg, tiebreaks=tiebreaks, group_format=group_format).engine_input(), after
            )
            # A group not played yet gives no BGP points yet (as the recompute).
            classes = group_in.classes if engine.group_finished(group_in) else {}
            old_outs.append((old, classes))
            new_outs.append((new, classes))
            moves = _moves(
                {r.player: r.place for r in old.rows},
                [(r.player, r.place) for r in sorted(new.rows, key=lambda r: (r.place, r.start))],
                names,
            )
            if moves:
                tables.append(
                    {
                        "key": f"{PLACES}/{t.key}/{group.name}",
                        "what": _("Places"),
                        "caption": [t.name, group.name],
                        "changes": moves,
                    }
                )
        groups = by_tournament.get(t.pk, [])
        old_bgp = tournament_points(t.options, groups, old_outs, before)
        new_bgp = tournament_points(options, groups, new_outs, after)
        old_rows.append((t.key, old_bgp))
        new_rows.append((t.key, new_bgp))
        moves = _moves(
            {r.player: r.points for r in old_bgp}, [(r.player, r.points) for r in new_bgp], names
        )
        if moves:
            tables.append(
                {
                    "key": f"{POINTS}/{t.key}",
                    "what": _("BGP points"),
                    "caption": [t.name],
                    "changes": moves,
                }
            )
    old_classes = engine.season_bgp(old_rows, before.bgp_best_n)
    new_classes = engine.season_bgp(new_rows, after.bgp_best_n)
    for name in {**old_classes, **new_classes}:
        moves = _moves(
            {r.player: r.points for r in old_classes.get(name, [])},
            [(r.player, r.points) for r in new_classes.get(name, [])],
            names,
        )
        if moves:
            tables.append(
                {
                    "key": f"{TOTALS}/{name}",
                    "what": _("BGP season total"),
                    "caption": [name],
                    "changes": moves,
                }
            )
    return tables
