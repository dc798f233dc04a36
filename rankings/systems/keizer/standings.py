"""Keizer standings (rules.md §4): load a season, run the engine, give the tables.

Stored per season: one table per ranking list (kind "list", key = the round it is the list
after, 0 = the initial list) holding its lines compactly in `data` (and the season's withdrawn
players, where it has any), the current list's lines also as rows (one per player); and one
table per evening (kind "round") with its games and attendance, from which every score's
breakdown is rebuilt, exactly, on the pages. A full
recompute is a handful of queries whatever the size of the season, and stores n + K rows and
tables, not n × K.
"""

from collections import defaultdict
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db.models import Case, F, JSONField, When

from competitions.models import Round, RoundEntry, Season, SeasonPlayer
from competitions.systems.keizer.settings import parse_settings
from competitions.systems.keizer.system import SCOPE_ROUND
from rankings.engines import keizer as engine
from rankings.models import StandingsTable
from rankings.systems import ComputedRow, ComputedTable, Update

KIND_LIST = "list"
KIND_ROUND = "round"

RANKING_FIELDS = ("player", "rank", "score", "key", "value")
STANDINGS_FIELDS = ("player", "rank", "score", "value")

Status = RoundEntry.Status
LIST_OF_STATUS = {
    Status.BYE: "bye",
    Status.WALKOVER: "bye",
    Status.ABSENT: "absent",
    Status.LONG_ABSENT: "long_absent",
    Status.EXTERNAL: "external",
    Status.UNEXCUSED: "unexcused",
    Status.PRESENT: "present",
}
# What an evening lists by player besides its games (its attendance), in its stored order.
ATTENDANCE = ("bye", "absent", "external", "unexcused", "present")


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
        own_value_once=settings.own_value_once,
        own_value_fade_rounds=settings.own_value_fade_rounds,
        valuation=settings.valuation,
        fixed_point_max_passes=settings.fixed_point_max_passes,
        top_value_rounding=settings.top_value_rounding,
        value_ratio=settings.value_ratio,
        normalised_values=settings.normalised_values,
        external_by_result=settings.external_by_result,
        absent_max=settings.absent_max,
        long_absent_max=settings.long_absent_max,
        absence_halving=settings.absence_halving,
        withdrawn_credit=settings.withdrawn_credit,
        start_points=settings.start_points,
    )


FACTOR_NAMES = ("win", "draw", "loss", "bye", "absent", "external", "unexcused")
# keizer-variants.md §2: stored only for a season with variants (a season without keeps its
# stored tables as they were).
VARIANT_FACTOR_NAMES = ("long_absent", "external_win", "external_draw", "external_loss")
# The options of keizer-variants.md §2 a breakdown needs, with their defaults (rules.md §4).
VARIANT_OPTIONS = {
    "own_value_once": False,
    "own_value_fade_rounds": 0,
    "valuation": engine.PREVIOUS,
    "fixed_point_max_passes": 100,
    "top_value_rounding": engine.HALF_UP,
    "value_ratio": Fraction(3),
    "normalised_values": False,
    "external_by_result": False,
    "absent_max": 0,
    "long_absent_max": 0,
    "absence_halving": False,
    "withdrawn_credit": None,
    "start_points": engine.FADING,
}


def has_variants(settings: engine.Settings) -> bool:
    """Whether a season uses any option of keizer-variants.md beyond rules.md §4's settings."""
    return any(getattr(settings, name) != value for name, value in VARIANT_OPTIONS.items()) or any(
        getattr(settings.factors, name) != getattr(engine.Factors(), name)
        for name in VARIANT_FACTOR_NAMES
    )


def factors_data(factors: engine.Factors, variants: bool = False) -> dict[str, str]:
    """The result shares a table was computed with, exactly ("1/6")."""
    names = FACTOR_NAMES + VARIANT_FACTOR_NAMES if variants else FACTOR_NAMES
    return {name: str(getattr(factors, name)) for name in names}


def exact(value: Fraction | int) -> int | str:
    """An exact number for stored data: whole numbers as integers, others as "27/10"."""
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else str(value)


def variant_data(settings: engine.Settings, listed: engine.ListOut, withdrawn) -> dict[str, Any]:
    """What a list of a season with variants stores besides the plain list, so that each score
    explains itself: the options, the own value's weight, how the list was found (passes and
    end, keizer-variants.md §1.5), the values it was valued with (W_k, in list order), the
    values of its places when they are not top − step × (place − 1), the withdrawn."""
    options = {}
    for name in VARIANT_OPTIONS:
        value = getattr(settings, name)
        options[name] = str(value) if isinstance(value, Fraction) else value
    data = {
        "options": options,
        "own_weight": str(listed.own_weight),
        "passes": listed.passes,
        "end": listed.end,
        "valued": [exact(listed.valued[row.player]) for row in listed.rows],
        "withdrawn": sorted(withdrawn),
    }
    if settings.normalised_values:
        data["values"] = [exact(row.value) for row in listed.rows]
    return data


def variant_settings(data: dict[str, Any]) -> engine.Settings:
    """The engine's settings of a stored list of a season with variants (`variant_data`)."""
    options = dict(data["variant"]["options"])
    for name in ("value_ratio", "withdrawn_credit"):
        if options.get(name) is not None:
            options[name] = Fraction(options[name])
    return engine.Settings(factors=factors_of(data["factors"]), **options)


def place_value(data: dict[str, Any], index: int) -> int | Fraction:
    """The value of place `index` + 1 of a stored list."""
    values = data.get("variant", {}).get("values")
    if values is not None:
        return Fraction(values[index])
    return data["top"] - data["step"] * index


def factors_of(data: dict[str, str]) -> engine.Factors:
    return engine.Factors(**{name: Fraction(value) for name, value in data.items()})


def load_rounds(
    season: Season, ids: set[int] | None = None, *, seen: set[str] | None = None
) -> list[dict[str, Any]]:
    """The season's evenings (or those with the Round pks `ids`) as plain data, in number
    order (2 queries): number, date, games (board order, with both players), and the players
    of each attendance status. `seen` collects the keys of every player with an entry."""
    rounds: dict[int, dict[str, Any]] = {}
    found = Round.objects.filter(season=season, tournament=None, group=None)
    entries = RoundEntry.objects.filter(round__season=season, round__tournament=None)
    if ids is not None:
        found = found.filter(pk__in=ids)
        entries = entries.filter(round__in=ids)
    for pk, round_number, date in found.order_by("number").values_list("pk", "number", "date"):
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
    # A game comes with its players' entries (a game without both is left out, as a game half
    # deleted): one query fewer than reading the games on their own. In no order (the lists
    # are sorted below, the games by board): where two players of an evening are marked as
    # the volunteer for its bye (nothing in the database forbids it), the greater key is it,
    # whatever order the rows come in.
    for round_id, key, status, game_id, colour, volunteer, board, game_result, manual, ext in (
        entries.order_by().values_list(
            "round_id", "player__key", "status", "game_id", "colour", "volunteer_bye",
            "game__board", "game__result", "game__manual", "keizer_external__result",
        )
    ):  # fmt: skip
        if seen is not None:
            seen.add(key)
        info = rounds.get(round_id)
        if info is None:
            continue
        if volunteer and (info["volunteer"] is None or key > info["volunteer"]):
            info["volunteer"] = key
        if status == Status.PLAYED:
            if game_id is not None:
                game = info["games"].get(game_id)
                if game is None:
                    game = info["games"][game_id] = {
                        "board": board,
                        "white": None,
                        "black": None,
                        "result": game_result,
                        "manual": manual,
                        "id": game_id,
                    }
                game[colour] = key  # one entry per game and colour (a constraint)
        elif status in LIST_OF_STATUS:
            # keizer-variants.md §5.7: `long_absent` and `external_results` only where set
            info.setdefault(LIST_OF_STATUS[status], []).append(key)
            if ext:
                info.setdefault("external_results", {})[key] = ext
    result = []
    for info in rounds.values():
        games_ = sorted(info["games"].values(), key=lambda g: (g["board"], g["id"]))
        info["games"] = [
            {k: v for k, v in g.items() if k != "id"}
            for g in games_
            if g["white"] is not None and g["black"] is not None  # a game half deleted
        ]
        for key in (*ATTENDANCE, "long_absent"):
            if key in info:
                info[key].sort()
        if "external_results" in info:
            info["external_results"] = dict(sorted(info["external_results"].items()))
        result.append(info)
    return result


# A stored evening keeps its games as arrays in this order (compact: a season's evenings are
# written at every full recompute), `evening_data` gives them back as objects.
GAME_FIELDS = ("board", "white", "black", "result", "manual")


def stored_evening(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "games": [[g[name] for name in GAME_FIELDS] for g in data["games"]]}


def evening_data(data: dict[str, Any]) -> dict[str, Any]:
    """A stored evening with its games as objects (board, white, black, result, manual)."""
    games = data["games"]
    if games and isinstance(games[0], list):
        return {**data, "games": [dict(zip(GAME_FIELDS, g, strict=True)) for g in games]}
    return data


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
        # keizer-variants.md §1.3, §2.5: in an evening's data once the attendance has them
        long_absent=tuple(data.get("long_absent", ())),
        external_results=tuple(sorted(data.get("external_results", {}).items())),
    )


def season_list(season: Season, seen: set[str]) -> list[tuple[str, Decimal | None, bool]]:
    """(key, start points, withdrawn) of the season's list in order (1 query), as
    `season_players` gives it: the entries, then (by key) the players of `seen` (with a round
    entry) not on it."""
    entries = [
        (key, points, withdrawal is not None)
        for key, points, withdrawal in SeasonPlayer.objects.filter(season=season)
        .order_by("position", "id")
        .values_list("player__key", "keizer_start__start_points", "keizer_withdrawal__id")
    ]
    known = {key for key, _points, _withdrawn in entries}
    return entries + [(key, None, False) for key in sorted(seen - known)]


def season_input(
    season: Season, listed: list[tuple[str, Decimal | None, bool]], rounds: list[dict[str, Any]]
) -> engine.SeasonIn:
    return engine.SeasonIn(
        players=tuple(key for key, _points, _withdrawn in listed),
        start_points={key: Fraction(points) for key, points, _w in listed if points is not None},
        withdrawn=frozenset(key for key, _points, withdrawn in listed if withdrawn),
        rounds=tuple(round_in(r) for r in rounds),
        settings=engine_settings(season.settings),
        closed=season.closed,
    )


def load_season(season: Season) -> tuple[engine.SeasonIn, list[dict[str, Any]]]:
    """The engine's input for a season (4 queries), and its evenings as plain data."""
    seen: set[str] = set()
    rounds = load_rounds(season, seen=seen)
    return season_input(season, season_list(season, seen), rounds), rounds


def ranking_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    """A stored list's lines in rank order: player, rank, score, key, value, start points,
    games. (Stored compactly, one array per player: the value follows from the place.)"""
    values = data.get("variant", {}).get("values")
    top, step = data["top"], data["step"]
    return [
        {
            "player": player,
            "rank": i + 1,
            "score": score,
            "key": key,
            "value": top - step * i if values is None else number(Fraction(values[i])),
            "start_points": start_points,
            "games": games,
        }
        for i, (player, score, key, start_points, games) in enumerate(data["ranking"])
    ]


def tables_of(
    season_in: engine.SeasonIn,
    out: engine.SeasonOut,
    rounds: list[dict[str, Any]],
    *,
    lists: range | None = None,
    evenings: set[int] | None = None,
) -> Iterator[ComputedTable]:
    """The stored tables of a computed season, one at a time (the store writes them in
    batches): the lists after the rounds `lists` (default all), the current one with its
    rows, and the evenings numbered `evenings` (default all)."""
    variants = has_variants(season_in.settings)
    factors = factors_data(season_in.settings.factors, variants)
    withdrawn = (
        season_in.withdrawn if season_in.settings.withdrawn_credit is not None else frozenset()
    )
    counted = len(out.lists) - 1
    dates = {r["number"]: r["date"] for r in rounds}
    step = season_in.settings.step
    final = season_in.closed
    starts = {player: number(points) for player, points in out.start_points.items()}
    for k in lists if lists is not None else range(counted + 1):
        listed = out.lists[k]
        data = {
            "after": k,
            "date": dates.get(k),
            "top": exact(listed.top),
            "step": step,
            "weight": str(listed.weight),
            "final": final and k == counted,
            "factors": factors,
            "ranking": [
                [row.player, number(row.score), number(row.key), starts[row.player], row.games]
                for row in listed.rows
            ],
        }
        if variants:
            data["variant"] = variant_data(season_in.settings, listed, withdrawn)
        if season_in.withdrawn:
            # keizer-variants.md §2.8: who has withdrawn (on the list or not), for the pages;
            # only where somebody has (a season without keeps its stored lists as they were)
            data["withdrawn"] = sorted(season_in.withdrawn)
        yield (
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
                if k == counted
                else [],
            )
        )
    for position, data in enumerate(rounds):
        if evenings is None or data["number"] in evenings:
            yield ComputedTable(
                kind=KIND_ROUND,
                key=str(data["number"]),
                position=position,
                data={**stored_evening(data), "counted": data["number"] <= counted},
            )


def compute(season: Season) -> Iterator[ComputedTable]:
    """One table per list (0 = the initial list); the current list's lines are also rows, one
    per player, so a player's pages find the season; one table per evening."""
    season_in, rounds = load_season(season)
    return tables_of(season_in, engine.compute_season(season_in), rounds)


def _pick(row: dict, fields: tuple[str, ...]) -> dict:
    return {name: row[name] for name in fields}


def document(season: Season, tables: list) -> dict:
    """The export_standings document of interchange.md from the stored tables: the list after
    every round (0 = the initial list) and the standings after the last played round."""
    lists = sorted((t for t in tables if t.kind == KIND_LIST), key=lambda t: t.position)
    rankings = [ranking_of(t.data) for t in lists]
    return {
        "rounds": [
            {
                "number": t.position,
                "ranking": [_pick(r, RANKING_FIELDS) for r in ranking],
                **_passes(t.data),
            }
            for t, ranking in zip(lists, rankings, strict=True)
        ],
        "standings": [_pick(r, STANDINGS_FIELDS) for r in rankings[-1]] if rankings else [],
    }


def _passes(data: dict) -> dict:
    """keizer-variants.md §5.7: with `current` valuation, how the list was found."""
    variant = data.get("variant")
    if variant is None or variant["options"]["valuation"] != engine.CURRENT:
        return {}
    return {"passes": variant["passes"], "end": variant["end"]}


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
        data = t.data if players is None else only_players(t.data, players)
        found[data["number"]] = engine.round_outcomes(round_in(data))
    return found


def only_players(data: dict[str, Any], players: set[str]) -> dict[str, Any]:
    """An evening (games as objects) with only the games and attendance of `players`, in
    their order."""
    return {
        **data,
        "games": [g for g in data["games"] if g["white"] in players or g["black"] in players],
        **{key: [p for p in data[key] if p in players] for key in ATTENDANCE},
        **(
            {"long_absent": [p for p in data["long_absent"] if p in players]}
            if "long_absent" in data
            else {}
        ),
        **(
            {
                "external_results": {
                    p: r for p, r in data["external_results"].items() if p in players
                }
            }
            if "external_results" in data
            else {}
        ),
    }


def breakdown(
    player: str,
    after: int,
    outcomes: dict[int, dict[str, engine.Outcome]],
    values_before: dict[str, Any],
    factors: engine.Factors,
    variant: dict[str, Any] | None = None,
) -> list[engine.BreakdownLine]:
    """The lines of a player's score in the list after round `after` (rules.md §4.2); with
    `variant` (`Variant` of a stored list of a season with variants), those of
    keizer-variants.md §1.3–1.4, valued with the values the list was valued with."""
    played = [
        (n, outcomes[n][player])
        for n in range(1, after + 1)
        if n in outcomes and player in outcomes[n]
    ]
    if variant is None:
        return engine.score_breakdown(player, played, values_before, factors)
    return engine.score_breakdown(
        player,
        played,
        variant["valued"],
        settings=variant["settings"],
        withdrawn=variant["withdrawn"],
        own=variant["own_weight"],
    )


def variant_of(data: dict[str, Any]) -> dict[str, Any] | None:
    """What a stored list of a season with variants needs to explain its scores: the engine's
    settings, the values it was valued with by player, the withdrawn, the own value's weight,
    how it was found. None for a season without variants."""
    stored = data.get("variant")
    if stored is None:
        return None
    return {
        **stored,
        "settings": variant_settings(data),
        "valued": {
            line[0]: Fraction(value)
            for line, value in zip(data["ranking"], stored["valued"], strict=True)
        },
        "withdrawn": frozenset(stored["withdrawn"]),
        "own_weight": Fraction(stored["own_weight"]),
    }


def by_player(rows: list[dict]) -> dict[str, dict]:
    return {r["player"]: r for r in rows}


def group_rows(tables: list) -> dict[str, list]:
    grouped: dict[str, list] = defaultdict(list)
    for table in tables:
        grouped[table.kind].append(table)
    return grouped


# --- one change: recompute from the evening it changed ------------------------------------------


def update(season: Season, scopes: frozenset[str]) -> Update | None:
    """The stored tables the changed evenings reach (rules.md §4.2: the list after round k
    reads rounds 1..k only): the evenings changed, the lists from the first of them on (and
    the current list, and the evenings whose counted state moved), computed from the stored
    evenings and the changed ones loaded afresh. None (compute in full) for anything else."""
    ids = set()
    for scope in scopes:
        if not scope.startswith(SCOPE_ROUND) or not scope[len(SCOPE_ROUND) :].isdigit():
            return None
        ids.add(int(scope[len(SCOPE_ROUND) :]))
    if not ids:
        return None
    fresh = {r["number"]: r for r in load_rounds(season, ids)}
    if len(fresh) != len(ids):
        return None  # an evening gone (or not this season's): in full
    # The stored evenings' data and the stored lists' positions (1 query; not the lists' data).
    evenings: dict[int, dict[str, Any]] = {}
    lists = []
    for kind, position, data in (
        StandingsTable.objects.filter(season=season, kind__in=(KIND_LIST, KIND_ROUND))
        .annotate(
            evening=Case(
                When(kind=KIND_ROUND, then=F("data")), default=None, output_field=JSONField()
            )
        )
        .values_list("kind", "position", "evening")
    ):
        if kind == KIND_ROUND:
            evenings[data["number"]] = evening_data(data)
        else:
            lists.append(position)
    if not lists:
        return None
    changed = set(fresh)
    last_stored = max(evenings, default=0)
    if any(n not in evenings and n <= last_stored for n in changed):
        return None  # a new evening between stored ones: the positions move
    rounds = []
    for n in sorted(set(evenings) | set(fresh)):
        if n in fresh:
            rounds.append(fresh[n])
        elif n in evenings:
            rounds.append({k: v for k, v in evenings[n].items() if k != "counted"})
    # Evenings that were changed and are gone (deleted) were caught above.
    season_in = season_input(season, season_list(season, _unlisted(season)), rounds)
    out = engine.compute_season(season_in)
    old_count, new_count = max(lists), len(out.lists) - 1
    start = min(min(changed), old_count, new_count)
    moved = set(range(min(old_count, new_count) + 1, max(old_count, new_count) + 1))
    return Update(
        tables=list(
            tables_of(
                season_in,
                out,
                rounds,
                lists=range(start, new_count + 1),
                evenings=(changed | moved) & {r["number"] for r in rounds},
            )
        ),
        remove=[(KIND_LIST, str(k)) for k in lists if k > new_count],
    )


def _unlisted(season: Season) -> set[str]:
    """Keys of the players with a round entry in the season but not on its list (1 query)."""
    return set(
        RoundEntry.objects.filter(round__season=season)
        .exclude(player__in=SeasonPlayer.objects.filter(season=season).values("player_id"))
        .values_list("player__key", flat=True)
        .distinct()
    )
