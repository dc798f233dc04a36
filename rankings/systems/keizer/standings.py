"""Keizer standings (rules.md §4): load a season, run the engine, give the tables.

Stored per season: one table per ranking list (kind "list", key = the round it is the list
after, 0 = the initial list) holding its lines compactly in `data`, the current list's lines also
as rows (one per player); and one table per evening (kind "round") with its games and
attendance, from which every score's breakdown is rebuilt, exactly, on the pages. A full
recompute is a handful of queries whatever the size of the season, and stores n + K rows and
tables, not n × K.
"""

from collections import defaultdict
from fractions import Fraction
from typing import Any

from competitions.models import Game, Round, RoundEntry, Season
from competitions.systems.keizer.interchange import season_players
from competitions.systems.keizer.settings import parse_settings
from rankings.engines import keizer as engine
from rankings.systems import ComputedRow, ComputedTable

KIND_LIST = "list"
KIND_ROUND = "round"

RANKING_FIELDS = ("player", "rank", "score", "key", "value")
STANDINGS_FIELDS = ("player", "rank", "score", "value")

Status = RoundEntry.Status
LIST_OF_STATUS = {
    Status.BYE: "bye",
    Status.WALKOVER: "bye",
    Status.ABSENT: "absent",
    Status.EXTERNAL: "external",
    Status.UNEXCUSED: "unexcused",
    Status.PRESENT: "present",
}


def number(value: Fraction | int) -> int | float:
    """A JSON number at full precision: whole numbers as integers."""
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else float(value)


def engine_settings(raw: dict) -> engine.Settings:
    settings = parse_settings(raw)
    return engine.Settings(
        top_value=settings.top_value,
        step=settings.step,
        start_fade_rounds=settings.start_fade_rounds,
        factors=engine.Factors(**settings.shares),
    )


def factors_data(factors: engine.Factors) -> dict[str, str]:
    """The result shares a table was computed with, exactly ("1/6")."""
    return {
        name: str(getattr(factors, name))
        for name in ("win", "draw", "loss", "bye", "absent", "external", "unexcused")
    }


def factors_of(data: dict[str, str]) -> engine.Factors:
    return engine.Factors(**{name: Fraction(value) for name, value in data.items()})


def load_rounds(season: Season) -> list[dict[str, Any]]:
    """The season's evenings as plain data, in number order (3 queries): number, date, games
    (board order, with both players), and the players of each attendance status."""
    rounds: dict[int, dict[str, Any]] = {}
    for pk, round_number, date in (
        Round.objects.filter(season=season, tournament=None, group=None)
        .order_by("number")
        .values_list("pk", "number", "date")
    ):
        rounds[pk] = {
            "number": round_number,
            "date": date.isoformat() if date else None,
            "games": {},
            "bye": [],
            "absent": [],
            "external": [],
            "unexcused": [],
            "present": [],
            "volunteer": None,
        }
    games = Game.objects.filter(round__season=season, round__tournament=None).values_list(
        "pk", "round_id", "board", "result", "manual"
    )
    for pk, round_id, board, result, manual in games:
        if round_id in rounds:
            rounds[round_id]["games"][pk] = {
                "board": board,
                "white": None,
                "black": None,
                "result": result,
                "manual": manual,
                "id": pk,
            }
    entries = RoundEntry.objects.filter(round__season=season, round__tournament=None).values_list(
        "round_id", "player__key", "status", "game_id", "colour", "volunteer_bye"
    )
    for round_id, key, status, game_id, colour, volunteer in entries:
        info = rounds.get(round_id)
        if info is None:
            continue
        if volunteer:
            info["volunteer"] = key
        if status == Status.PLAYED:
            game = info["games"].get(game_id)
            if game is not None:
                game[colour] = key
        elif status in LIST_OF_STATUS:
            info[LIST_OF_STATUS[status]].append(key)
    result = []
    for info in rounds.values():
        games = sorted(info["games"].values(), key=lambda g: (g["board"], g["id"]))
        info["games"] = [
            {k: v for k, v in g.items() if k != "id"}
            for g in games
            if g["white"] is not None and g["black"] is not None  # a game half deleted
        ]
        for key in ("bye", "absent", "external", "unexcused", "present"):
            info[key].sort()
        result.append(info)
    return result


def round_in(data: dict[str, Any]) -> engine.RoundIn:
    """The engine's view of a stored or loaded evening."""
    return engine.RoundIn(
        number=data["number"],
        games=tuple(engine.GameIn(g["white"], g["black"], g["result"]) for g in data["games"]),
        byes=tuple(data["bye"]),
        absent=tuple(data["absent"]),
        external=tuple(data["external"]),
        unexcused=tuple(data["unexcused"]),
        present=tuple(data["present"]),
    )


def load_season(season: Season) -> tuple[engine.SeasonIn, list[dict[str, Any]]]:
    """The engine's input for a season (4 queries), and its evenings as plain data."""
    entries = season_players(season)
    rounds = load_rounds(season)
    season_in = engine.SeasonIn(
        players=tuple(e.player.key for e in entries),
        start_points={
            e.player.key: Fraction(e.start_points) for e in entries if e.start_points is not None
        },
        rounds=tuple(round_in(r) for r in rounds),
        settings=engine_settings(season.settings),
        closed=season.closed,
    )
    return season_in, rounds


def ranking_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    """A stored list's lines in rank order: player, rank, score, key, value, start points,
    games. (Stored compactly, one array per player: the value follows from the place.)"""
    top, step = data["top"], data["step"]
    return [
        {
            "player": player,
            "rank": i + 1,
            "score": score,
            "key": key,
            "value": top - step * i,
            "start_points": start_points,
            "games": games,
        }
        for i, (player, score, key, start_points, games) in enumerate(data["ranking"])
    ]


def compute(season: Season) -> list[ComputedTable]:
    """One table per list (0 = the initial list); the current list's lines are also rows, one
    per player, so a player's pages find the season; one table per evening."""
    season_in, rounds = load_season(season)
    out = engine.compute_season(season_in)
    factors = factors_data(season_in.settings.factors)
    counted = len(out.lists) - 1
    dates = {r["number"]: r["date"] for r in rounds}
    tables: list[ComputedTable] = []
    for listed in out.lists:
        k = listed.after
        data = {
            "after": k,
            "date": dates.get(k),
            "top": listed.top,
            "step": season_in.settings.step,
            "weight": str(listed.weight),
            "final": season_in.closed and k == counted,
            "factors": factors,
            "ranking": [
                [
                    row.player,
                    number(row.score),
                    number(row.key),
                    number(row.start_points),
                    row.games,
                ]
                for row in listed.rows
            ],
        }
        current = k == counted
        tables.append(
            ComputedTable(
                kind=KIND_LIST,
                key=str(k),
                position=k,
                data=data,
                rows=[
                    ComputedRow(
                        player=line["player"],
                        rank=line["rank"],
                        points=float(line["score"]),
                        detail=line,
                    )
                    for line in ranking_of(data)
                ]
                if current
                else [],
            )
        )
    for position, data in enumerate(rounds):
        tables.append(
            ComputedTable(
                kind=KIND_ROUND,
                key=str(data["number"]),
                position=position,
                data={**data, "counted": data["number"] <= counted},
            )
        )
    return tables


def _pick(row: dict, fields: tuple[str, ...]) -> dict:
    return {name: row[name] for name in fields}


def document(season: Season, tables: list) -> dict:
    """The export_standings document of interchange.md from the stored tables: the list after
    every round (0 = the initial list) and the standings after the last played round."""
    lists = sorted((t for t in tables if t.kind == KIND_LIST), key=lambda t: t.position)
    rankings = [ranking_of(t.data) for t in lists]
    return {
        "rounds": [
            {"number": t.position, "ranking": [_pick(r, RANKING_FIELDS) for r in ranking]}
            for t, ranking in zip(lists, rankings, strict=True)
        ],
        "standings": [_pick(r, STANDINGS_FIELDS) for r in rankings[-1]] if rankings else [],
    }


def flat_tables(document: dict) -> dict[str, tuple[tuple[str, ...], list[dict]]]:
    """The document as CSV tables: the standings, and the list after each round."""
    tables: dict[str, tuple[tuple[str, ...], list[dict]]] = {
        "standings": (STANDINGS_FIELDS, document["standings"])
    }
    for listed in document["rounds"]:
        tables[f"ranking-after-round-{listed['number']}"] = (RANKING_FIELDS, listed["ranking"])
    return tables


def breakdown_rounds(
    round_tables: list, players: set[str] | None = None
) -> dict[int, dict[str, engine.Outcome]]:
    """What everybody (or the `players`) did in each counted evening, from the stored evening
    tables."""
    found = {}
    for t in round_tables:
        if not t.data.get("counted"):
            continue
        data = t.data
        if players is not None:
            data = {
                **data,
                "games": [
                    g for g in data["games"] if g["white"] in players or g["black"] in players
                ],
                **{
                    key: [p for p in data[key] if p in players]
                    for key in ("bye", "absent", "external", "unexcused", "present")
                },
            }
        found[data["number"]] = engine.round_outcomes(round_in(data))
    return found


def breakdown(
    player: str,
    after: int,
    outcomes: dict[int, dict[str, engine.Outcome]],
    values_before: dict[str, int],
    factors: engine.Factors,
) -> list[engine.BreakdownLine]:
    """The lines of a player's score in the list after round `after` (rules.md §4.2)."""
    played = [
        (n, outcomes[n][player])
        for n in range(1, after + 1)
        if n in outcomes and player in outcomes[n]
    ]
    return engine.score_breakdown(player, played, values_before, factors)


def by_player(rows: list[dict]) -> dict[str, dict]:
    return {r["player"]: r for r in rows}


def group_rows(tables: list) -> dict[str, list]:
    grouped: dict[str, list] = defaultdict(list)
    for table in tables:
        grouped[table.kind].append(table)
    return grouped
