"""Chess group tables and BGP standings (rules.md §3): load a season, run the engine, give the
tables to store.

Stored tables: one `group` table per group (its crosstable rows, with the terms of every Monrad
and Berger value), one `bgp` table per tournament (its BGP points by class), one `class` table per
BGP class (the season standings).
"""

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db.models.fields.json import KT
from django.utils.text import slugify

from competitions.models import Group, Round, RoundEntry, Season
from competitions.systems.chess import start_numbers
from competitions.systems.chess.interchange import COUNTY, DENSE
from competitions.systems.chess.models import GroupPlayer
from competitions.systems.chess.settings import group_tiebreaks, parse_settings
from competitions.systems.chess.system import TOURNAMENT_SCOPE
from competitions.systems.chess.tiebreak_codes import is_points
from rankings.engines import chess as engine
from rankings.models import StandingsRow, StandingsTable
from rankings.systems import ComputedRow, ComputedTable, Update

KIND_GROUP = "group"
KIND_BGP = "bgp"
KIND_CLASS = "class"

# The field names of interchange.md's chess-bgp standings.
GROUP_ROW_FIELDS = ("player", "place", "points", "monrad", "berger", "tiebreaks", "cells")
BGP_FIELDS = ("player", "class", "place", "points")
CLASS_FIELDS = ("player", "rank", "points")


# The rules that give a tournament's every class the same scale (the page explains them from
# the tournament's data); a class with another rule stores its own (chess-othello-options.md §2).
_TOURNAMENT_RULES = frozenset((engine.RULE_COUNTY, engine.RULE_LARGE, engine.RULE_SMALL))
_DENSE_RULES = frozenset((engine.RULE_DENSE, engine.RULE_COUNTY_DENSE))


def engine_settings(season: Season) -> engine.Settings:
    s = parse_settings(season.settings)
    return engine.Settings(
        monrad_long_from=s.monrad_long_from,
        bgp_large_over=s.bgp_large_over,
        bgp_small=s.bgp_small,
        bgp_large=s.bgp_large,
        bgp_further=s.bgp_further,
        county_winner=s.county_winner,
        county_others=s.county_others,
        tiebreaks=s.tiebreaks,
        unplayed_rounds=s.unplayed_rounds,
        final_ties=s.final_ties,
        aro_unrated=s.aro_unrated,
        county_scale=s.county_scale,
        beginners_after_class=s.beginners_after_class,
        bgp_best_n=s.bgp_best_n,
        bgp_alt_scale=s.bgp_alt_scale,
        bgp_alt_class_under=s.bgp_alt_class_under,
        bgp_alt_single_club=s.bgp_alt_single_club,
    )


@dataclass
class Member:
    player: str
    start: int
    player_class: str
    rating: int | None
    born: int | None
    beginner: bool = False
    club: int | None = None


@dataclass
class LoadedGroup:
    group: Group
    members: list[Member] = field(default_factory=list)
    rounds: dict[int, dict[str, Any]] = field(default_factory=dict)  # number -> games, WOs
    # chess-othello-options.md §1.1: the group's list (its own, its tournament's or the
    # season's), its format and the seed of its lot.
    tiebreaks: str | None = None
    group_format: str = "auto"
    seed: str | None = None

    def engine_input(self) -> engine.GroupIn:
        keys = {m.player for m in self.members}
        rounds = []
        for number in sorted(self.rounds):
            r = self.rounds[number]
            games = []
            for sides in r["games"].values():
                white, black = sides.get("white"), sides.get("black")
                # A game needs both players of the group (rows added in the admin may not).
                if white in keys and black in keys:
                    games.append(engine.Game(white, black, sides["result"]))
            walkovers = tuple(p for p in r["walkovers"] if p in keys)
            half_byes = tuple(p for p in r.get("half_byes", ()) if p in keys)
            rounds.append(
                engine.RoundIn(games=tuple(games), walkovers=walkovers, half_byes=half_byes)
            )
        return engine.GroupIn(
            players=tuple(m.player for m in self.members),
            scale=self.group.scale,
            rounds=tuple(rounds),
            classes={m.player: m.player_class for m in self.members},
            tiebreaks=self.tiebreaks,
            group_format=self.group_format,
            ratings={m.player: m.rating for m in self.members},
            tiebreak_seed=self.seed,
        )


def load_groups(
    season: Season,
    *,
    group_ids: list[int] | None = None,
    tournament_ids: list[int] | None = None,
) -> dict[int, LoadedGroup]:
    """The season's groups (or these groups, or those of these tournaments) with members,
    rounds and games: four queries."""
    groups = (
        Group.objects.filter(tournament__season=season)
        .select_related("tournament")
        .order_by("tournament_id", "position", "name")
    )
    members = GroupPlayer.objects.filter(group__tournament__season=season)
    rounds = Round.objects.filter(season=season, group__isnull=False)
    entries = RoundEntry.objects.filter(round__season=season, round__group__isnull=False)
    if group_ids is not None:
        groups = groups.filter(pk__in=group_ids)
        members = members.filter(group_id__in=group_ids)
        rounds = rounds.filter(group_id__in=group_ids)
        entries = entries.filter(round__group_id__in=group_ids)
    if tournament_ids is not None:
        groups = groups.filter(tournament_id__in=tournament_ids)
        members = members.filter(group__tournament_id__in=tournament_ids)
        rounds = rounds.filter(tournament_id__in=tournament_ids)
        entries = entries.filter(round__tournament_id__in=tournament_ids)
    chess = parse_settings(season.settings)
    loaded = {}
    for g in groups:
        tiebreaks, group_format = group_tiebreaks(chess, g.tournament.options, g.options)
        loaded[g.pk] = LoadedGroup(
            group=g,
            tiebreaks=tiebreaks,
            group_format=group_format,
            seed=f"{g.tournament.draw_seed}:{g.name}",
        )
    seen: dict[int, int] = defaultdict(int)
    for group_id, key, player_class, rating, born, beginner, club in members.order_by(
        "group_id", "position", "player__key"
    ).values_list(
        "group_id", "player__key", "player_class", "rating", "player__born", "beginner",
        "player__club_id",
    ):  # fmt: skip
        seen[group_id] += 1
        loaded[group_id].members.append(
            Member(key, seen[group_id], player_class, rating, born, beginner, club)
        )
    numbers = {}
    for round_id, group_id, number in rounds.values_list("id", "group_id", "number"):
        numbers[round_id] = (group_id, number)
        loaded[group_id].rounds[number] = {
            "games": {},
            "walkovers": [],
            "half_byes": [],
            "id": round_id,
        }
    # The entries in no order (sorting them by board in the database took about a quarter of
    # the query); each round's games are put in board order and its walkovers in the order
    # they were entered below, as the engine reads them.
    boards: dict[int, tuple[int, int]] = {}
    walkovers: dict[tuple[int, int], list[tuple[int, str]]] = defaultdict(list)
    rows = entries.order_by().values_list(
        "id", "round_id", "player__key", "status", "game_id", "colour", "game__result",
        "game__board",
    )  # fmt: skip
    walkover, played = RoundEntry.Status.WALKOVER.value, RoundEntry.Status.PLAYED.value
    half_bye = RoundEntry.Status.BYE.value  # a requested half-point bye
    half_byes: dict[tuple[int, int], list[tuple[int, str]]] = defaultdict(list)
    for entry_id, round_id, key, status, game_id, colour, result, board in rows:
        group_id, number = numbers[round_id]
        if status == walkover:
            walkovers[(group_id, number)].append((entry_id, key))
        elif status == half_bye:
            half_byes[(group_id, number)].append((entry_id, key))
        elif status == played and game_id is not None:
            games = loaded[group_id].rounds[number]["games"]
            game = games.get(game_id)
            if game is None:  # the game's first entry (no dictionary made for the second)
                game = games[game_id] = {"result": result or ""}
                boards[game_id] = (board, game_id)
            game[colour] = key
    for lg in loaded.values():
        for number, r in lg.rounds.items():
            if len(r["games"]) > 1:
                r["games"] = dict(sorted(r["games"].items(), key=lambda g: boards[g[0]]))
            r["walkovers"] = [key for _id, key in sorted(walkovers.get((lg.group.pk, number), ()))]
            r["half_byes"] = [key for _id, key in sorted(half_byes.get((lg.group.pk, number), ()))]
        if not lg.rounds and start_numbers.by_rating(lg.group.options):
            # Before round 1 the start numbers are by rating, whatever order the players were
            # added in (start_numbers.py); saving round 1 stores them.
            lg.members = start_numbers.rating_sorted(
                lg.members,
                key=lambda m: m.player,
                rating=lambda m: m.rating,
                lot_seed=start_numbers.lot_seed_of(lg.group.tournament.draw_seed, lg.group.pk),
            )
            for n, m in enumerate(lg.members, start=1):
                m.start = n
    return loaded


def quarters(value: int) -> int | float:
    """A value in quarter points (engine.UNIT) as a JSON number: whole numbers as integers,
    others as floats (quarters are exact in binary)."""
    return value // engine.UNIT if value % engine.UNIT == 0 else value / engine.UNIT


# The JSON numbers of the quarter values a crosstable holds (points, Monrad and Berger sums: at
# most a few hundred quarters), made once; any other value is converted as it comes.
_QUARTER_VALUES = {value: quarters(value) for value in range(4096)}


def _quarters_of(values) -> list[int | float]:
    try:
        return [_QUARTER_VALUES[v] for v in values]
    except KeyError:
        return [quarters(v) for v in values]


def tiebreak_value(code: str, value: int | None) -> int | float | None:
    """A tie-break value as a JSON number: points exact (from quarters), counts, ratings and DE
    tiers as they are; None for a DE player who was not tied."""
    if value is None or not is_points(code):
        return value
    return quarters(value)


def _terms(code: str, items) -> list[list]:
    """The explain view's BH/SB items: round, v, s (JSON numbers), category ("" when played),
    dummy, cut ("", "low", "high")."""
    return [
        [it.round, quarters(it.v), quarters(it.s), it.category, it.dummy, it.cut] for it in items
    ]


def _group_row(row: engine.ScaledRow, member: Member, codes: tuple[str, ...]) -> ComputedRow:
    """A crosstable row. Per round, in parallel lists: what it was (`kinds`), the opponent
    (`opponents`), the Monrad term (`terms`: the opponent's final points, 0 without a real
    game) and its cut (`cuts`); a page derives the round points and Berger terms from them."""
    q = quarters
    points = q(row.points)
    detail = {
        "player": row.player,
        "place": row.place,
        "points": points,
        "monrad": _quarters_of(row.monrad),
        "berger": q(row.berger),
        "tiebreaks": [
            {"code": code, "value": tiebreak_value(code, v)}
            for code, v in zip(codes, row.tiebreaks, strict=True)
        ],
        "cells": list(row.cells),
        "start": row.start,
        "class": member.player_class,
        "born": member.born,
        "rating": member.rating,
        "kinds": [r[0] for r in row.results],
        "opponents": [r[2] for r in row.results],
        "terms": _quarters_of(row.values),
        "cuts": list(row.cuts),
    }
    if row.tiebreak_terms:
        detail["tiebreak_terms"] = {
            code: _terms(code, items)
            for code, items in zip(codes, row.tiebreak_terms, strict=True)
            if items is not None
        }
    return ComputedRow(player=row.player, rank=row.place, points=points, detail=detail)


def class_slugs(names: list[str]) -> dict[str, str]:
    """URL slugs of the season's BGP classes: ASCII, unique, never empty ("Knøtt" -> "knott")."""
    slugs: dict[str, str] = {}
    taken: set[str] = set()
    for position, name in enumerate(names, 1):
        base = slugify(name.replace("ø", "o").replace("Ø", "O"))[:80] or f"class-{position}"
        slug, n = base, 2
        while slug in taken:
            slug, n = f"{base}-{n}", n + 1
        taken.add(slug)
        slugs[name] = slug
    return slugs


def tournament_points(
    options: dict, groups: list[LoadedGroup], outs: list, settings: engine.Settings
) -> list[engine.BgpRow]:
    """A tournament's BGP rows (rules.md §3, chess-othello-options.md §2) from its tournament
    options and its groups ranked (`outs`: per group its ranked table and its players' classes,
    empty for a group not finished): what the recompute stores and the settings preview
    compares."""
    everyone = [m for lg in groups for m in lg.members]
    return engine.tournament_bgp(
        outs,
        participants=len({m.player for m in everyone}),
        county=bool(options.get(COUNTY, False)),
        settings=settings,
        dense=bool(options.get(DENSE, False)),
        beginners=frozenset(m.player for m in everyone if m.beginner),
        # chess-othello-options.md §2.2 and §2.4: class sizes over all groups, finished or not
        classes={m.player: m.player_class for m in everyone},
        clubs={m.player: m.club for m in everyone},
    )


def _tournament_tables(
    t, t_position: int, groups: list[LoadedGroup], group_position: int, settings: engine.Settings
) -> tuple[list[ComputedTable], list[engine.BgpRow]]:
    """A tournament's group tables and its BGP table (with the BGP rows the season sums)."""
    tables: list[ComputedTable] = []
    outs = []
    waiting: list[str] = []  # the groups whose BGP points are still to come
    groups_data = []
    date = t.date.isoformat() if t.date else None
    for lg in groups:
        group_in = lg.engine_input()
        out = engine.group_scaled(group_in, settings)
        # A group not played yet gives no BGP points yet (its classes left out).
        finished = engine.group_finished(group_in)
        outs.append((out, group_in.classes if finished else {}))
        if not finished:
            waiting.append(lg.group.name)
        members = {m.player: m for m in lg.members}
        data = {
            "id": lg.group.pk,
            "tournament": t.key,
            "tournament_name": t.name,
            "date": date,
            "name": lg.group.name,
            "scale": lg.group.scale,
            "rounds": out.rounds,
            "columns": 3 if out.rounds >= settings.monrad_long_from else 2,
            "players": len(lg.members),
            # chess-othello-options.md §1: the list the group was ranked by
            "codes": list(out.codes),
            "tiebreak_list": lg.tiebreaks,
            "unplayed_rounds": settings.unplayed_rounds,
            "round_robin": out.round_robin,
            "final_ties": settings.final_ties,
            # start_numbers.py: by rating, or as the organiser set them (the page says which)
            "start_numbers": "rating" if start_numbers.by_rating(lg.group.options) else "organiser",
        }
        groups_data.append({k: data[k] for k in ("id", "name", "scale", "rounds", "players")})
        tables.append(
            ComputedTable(
                kind=KIND_GROUP,
                key=str(lg.group.pk),
                position=group_position,
                data=data,
                rows=[_group_row(r, members[r.player], out.codes) for r in out.rows],
            )
        )
        group_position += 1
    participants = len({m.player for lg in groups for m in lg.members})
    county = bool(t.options.get(COUNTY, False))
    dense = bool(t.options.get(DENSE, False))
    bgp = tournament_points(t.options, groups, outs, settings)
    places = {(index, r.player): r.place for index, (out, _c) in enumerate(outs) for r in out.rows}
    # The rows are by class: where each class's rows start, so a page reads only its own;
    # and, when a §2 option gave it another scale than the tournament's, the class's scale.
    class_rows: list[dict] = []
    default = _TOURNAMENT_RULES
    for position, r in enumerate(bgp):
        if not class_rows or class_rows[-1]["name"] != r.player_class:
            class_rows.append({"name": r.player_class, "start": position, "rows": 0})
            if r.rule not in default:
                class_rows[-1]["rule"] = r.rule
                class_rows[-1]["scale"] = list(
                    settings.bgp_large if r.rule in _DENSE_RULES else settings.bgp_alt_scale
                )
        class_rows[-1]["rows"] += 1
    tables.append(
        ComputedTable(
            kind=KIND_BGP,
            key=t.key,
            position=t_position,
            data={
                "id": t.key,
                "name": t.name,
                "date": date,
                "county": county,
                "waiting": waiting,
                "participants": participants,
                "large_scale": participants > settings.bgp_large_over,
                "scale": list(engine.bgp_scale(participants, settings)),
                "further": settings.bgp_further,
                "county_winner": settings.county_winner,
                "county_others": settings.county_others,
                **({"dense": True} if dense else {}),
                **(
                    {"alt_class_under": settings.bgp_alt_class_under}
                    if settings.bgp_alt_scale
                    else {}
                ),
                "groups": groups_data,
                "classes": class_rows,
            },
            rows=[
                ComputedRow(
                    player=r.player,
                    rank=r.place,
                    points=r.points,
                    detail={
                        "player": r.player,
                        "class": r.player_class,
                        "place": r.place,
                        "points": r.points,
                        "group": groups_data[r.group]["name"],
                        "group_id": groups_data[r.group]["id"],
                        "group_place": places[(r.group, r.player)],
                        # §2.2: a beginner placed after his class's other players
                        **({"after": r.after} if r.after else {}),
                    },
                )
                for r in bgp
            ],
        )
    )
    return tables, bgp


def _class_table(position: int, slug: str, name: str, rows: list[engine.ClassRow]):
    return ComputedTable(
        kind=KIND_CLASS,
        key=slug,
        position=position,
        data={"name": name, "players": len(rows)},
        rows=[
            ComputedRow(
                player=r.player,
                rank=r.rank,
                points=r.points,
                detail={
                    "player": r.player,
                    "rank": r.rank,
                    "points": r.points,
                    "counted": [{"tournament": t, "points": p} for t, p in r.counted],
                    # chess-othello-options.md §2.3: the results best N left out
                    **(
                        {"dropped": [{"tournament": t, "points": p} for t, p in r.dropped]}
                        if r.dropped
                        else {}
                    ),
                },
            )
            for r in rows
        ],
    )


def compute(season: Season) -> Iterator[ComputedTable]:
    """Every table of the season, a tournament at a time (a generator: the store writes them
    in batches)."""
    settings = engine_settings(season)
    tournaments = list(season.tournaments.all())
    loaded = load_groups(season)
    by_tournament: dict[int, list[LoadedGroup]] = defaultdict(list)
    for lg in loaded.values():
        by_tournament[lg.group.tournament_id].append(lg)
    del loaded
    season_rows: list[tuple[str, list[engine.BgpRow]]] = []
    group_position = 0
    for t_position, t in enumerate(tournaments):
        groups = by_tournament.pop(t.pk, [])
        tables, bgp = _tournament_tables(t, t_position, groups, group_position, settings)
        group_position += len(groups)
        season_rows.append((t.key, bgp))
        del groups
        yield from tables
    standings = engine.season_bgp(season_rows, settings.bgp_best_n)
    slugs = class_slugs(list(standings))
    for position, (name, rows) in enumerate(standings.items()):
        yield _class_table(position, slugs[name], name, rows)


# --- incremental update (rankings.systems.Standings.update) ---------------------------------


def update(season: Season, scopes: frozenset[str]) -> Update | None:
    """Recompute only the tournaments that changed: their group tables and BGP table, and the
    class tables whose sums moved (from the stored BGP rows of the other tournaments). None (a
    full compute) when the shape of the season changed: a tournament or group added, removed
    or reordered, or the classes of the season changed."""
    ids = set()
    for scope in scopes:
        if not scope.startswith(TOURNAMENT_SCOPE) or not scope[2:].isdigit():
            return None
        ids.add(int(scope[2:]))
    tournaments = list(season.tournaments.all())
    order = [t.pk for t in tournaments]
    if not ids <= set(order):
        return None
    stored = list(
        StandingsTable.objects.filter(season=season, kind__in=[KIND_GROUP, KIND_BGP, KIND_CLASS])
        .order_by("kind", "position")
        .values_list("kind", "key", "position", "data")
    )
    bgp_position = {key: position for kind, key, position, _d in stored if kind == KIND_BGP}
    if list(bgp_position) != [t.key for t in tournaments] or list(bgp_position.values()) != list(
        range(len(tournaments))
    ):
        return None
    group_tables = [
        (key, position, data) for kind, key, position, data in stored if kind == KIND_GROUP
    ]
    settings = engine_settings(season)
    loaded = load_groups(season, tournament_ids=sorted(ids))
    by_tournament: dict[int, list[LoadedGroup]] = defaultdict(list)
    for lg in loaded.values():
        by_tournament[lg.group.tournament_id].append(lg)
    tables: list[ComputedTable] = []
    new_rows: dict[str, list[engine.BgpRow]] = {}
    for t_position, t in enumerate(tournaments):
        if t.pk not in ids:
            continue
        groups = by_tournament.get(t.pk, [])
        mine = [
            (key, position) for key, position, data in group_tables if data["tournament"] == t.key
        ]
        if [str(lg.group.pk) for lg in groups] != [key for key, _p in mine]:
            return None  # groups added, removed or reordered: positions move
        first = mine[0][1] if mine else None
        if mine and [p for _k, p in mine] != list(range(first, first + len(mine))):
            return None
        made, bgp = _tournament_tables(t, t_position, groups, first or 0, settings)
        tables.extend(made)
        new_rows[t.key] = bgp
    # The season's BGP rows: the stored ones of the other tournaments, the new ones of these.
    old_rows: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
    for key, player, player_class, points in (
        StandingsRow.objects.filter(table__season=season, table__kind=KIND_BGP)
        .order_by("table__position", "position")
        # KT: text on every database (SQLite's JSON extraction gives "123" back as 123)
        .values_list("table__key", KT("detail__player"), KT("detail__class"), "points")
    ):
        old_rows[key].append((player, player_class, int(points)))
    season_rows = []
    touched: set[str] = set()
    for t in tournaments:
        if t.key in new_rows:
            rows = new_rows[t.key]
            # The classes whose rows of this tournament changed (a player's points, or who
            # is in the class): only their season standings can move.
            by_class: dict[str, list] = defaultdict(list)
            for r in rows:
                by_class[r.player_class].append((r.player, r.points))
            before: dict[str, list] = defaultdict(list)
            for player, player_class, points in old_rows.get(t.key, []):
                before[player_class].append((player, points))
            touched.update(c for c in {*by_class, *before} if by_class[c] != before[c])
        else:
            rows = [
                engine.BgpRow(player=p, player_class=c, group=0, place=0, points=pt)
                for p, c, pt in old_rows.get(t.key, [])
            ]
        season_rows.append((t.key, rows))
    standings = engine.season_bgp(season_rows, settings.bgp_best_n)
    names = list(standings)
    stored_classes = [data["name"] for kind, _k, _p, data in stored if kind == KIND_CLASS]
    if names != stored_classes:
        return None  # a class appeared or went: positions and slugs move
    slugs = class_slugs(names)
    for position, (name, rows) in enumerate(standings.items()):
        if name in touched:
            tables.append(_class_table(position, slugs[name], name, rows))
    return Update(tables=tables)


def _pick(row: dict, fields: tuple[str, ...]) -> dict:
    return {name: row[name] for name in fields if name in row}


def document(season: Season, tables: list) -> dict:
    """The export_standings document of interchange.md, from the stored tables (each with its
    rows' details in `row_details`)."""
    groups: dict[str, list] = defaultdict(list)
    bgp, classes = [], []
    for table in tables:
        if table.kind == KIND_GROUP:
            groups[table.data["tournament"]].append(table)
        elif table.kind == KIND_BGP:
            bgp.append(table)
        elif table.kind == KIND_CLASS:
            classes.append(table)
    return {
        "tournaments": [
            {
                "id": t.key,
                "groups": [
                    {
                        "name": g.data["name"],
                        "rows": [_pick(r, GROUP_ROW_FIELDS) for r in g.row_details],
                    }
                    for g in groups[t.key]
                ],
                "bgp": [_pick(r, BGP_FIELDS) for r in t.row_details],
            }
            for t in bgp
        ],
        "classes": {
            c.data["name"]: [_pick(r, CLASS_FIELDS) for r in c.row_details] for c in classes
        },
    }


def _flat_group_row(row: dict) -> dict:
    """A group row for a flat table: its tie-breaks as `code=value` words ("BH/C1=8.5")."""
    if "tiebreaks" not in row:
        return row
    words = [f"{t['code']}={'-' if t['value'] is None else t['value']}" for t in row["tiebreaks"]]
    return {**row, "tiebreaks": words}


def flat_tables(document: dict) -> dict[str, tuple[tuple[str, ...], list[dict]]]:
    """The document as flat tables for CSV, one per standings table, named after it."""
    tables: dict[str, tuple[tuple[str, ...], list[dict]]] = {}
    for t in document["tournaments"]:
        for g in t["groups"]:
            rows = [_flat_group_row(r) for r in g["rows"]]
            tables[f"tournament-{t['id']}-{g['name']}"] = (GROUP_ROW_FIELDS, rows)
        tables[f"tournament-{t['id']}-bgp"] = (BGP_FIELDS, t["bgp"])
    for name, rows in document["classes"].items():
        tables[f"class-{name}"] = (CLASS_FIELDS, rows)
    return tables
