"""Board-game circuit standings (rules.md §1): load a season, run the engine, give the tables."""

import hashlib
import json
import math
from collections import defaultdict
from collections.abc import Iterable, Iterator
from fractions import Fraction
from sys import intern
from typing import Any

import orjson
from django.db.models import Count, Exists, OuterRef
from django.db.models.fields.json import KT
from django.utils.text import slugify

from competitions.models import Player, Season, tournament_order
from competitions.systems.boardgame.models import (
    FinalTournament,
    HistoricTotal,
    PreviousParticipants,
    Seat,
)
from competitions.systems.boardgame.settings import (
    CAP_AUTO,
    CAP_MANUAL,
    parse_settings,
    previous_label,
)
from rankings.engines import boardgame as engine
from rankings.models import StandingsRow, StandingsTable
from rankings.selectors import rows_in_chunks
from rankings.systems import ComputedRow, ComputedTable

KIND_TOURNAMENT = "tournament"
KIND_YEARLY = "yearly"
KIND_LUDO = "ludo"
KIND_GAME = "game"

# The field names of interchange.md's boardgame-circuit standings, per table.
TABLE_RESULT_FIELDS = ("player", "rank", "placement", "bonus", "fraction", "score")
STANDINGS_FIELDS = ("player", "rank", "daily", "bonus", "points")
TABLE_ROW_FIELDS = ("round", "game", *TABLE_RESULT_FIELDS)
CEREMONY_FIELDS = ("step", "player", "club")
YEARLY_FIELDS = ("player", "rank", "points", "counted")
LUDO_FIELDS = ("player", "rank", "points")
GAME_FIELDS = ("player", "rank", "points", "played", "finalist")


def _num(value: Fraction | int) -> float | int:
    if value.__class__ is int:
        return value
    # float(Fraction) without its generic numbers.Rational path: the same correctly rounded
    # true division of the two integers.
    return value.numerator / value.denominator


# A table's numbers depend only on its entered ranks (rules.md §1.1: the places follow from the
# ranks, and placement, bonus, fraction and score from the places and the table's size), and its
# results come in rank order: the JSON numbers of its results, per result, are kept per tuple
# of ranks (a circuit has few: 3 to 6 seats, a few tie patterns), as the engine keeps the exact
# ones (tests/rankings/test_boardgame_compute.py compares them with the numbers made afresh).
_SEAT_NUMBERS: dict[tuple[int, ...], list[tuple[float | int, ...]]] = {}


def _seat_numbers(table: engine.TableOut) -> list[tuple[float | int, ...]]:
    """(place, placement, bonus, fraction, score) of each of the table's results, as JSON
    numbers (_num)."""
    ranks = tuple([s.rank for s in table.results])
    found = _SEAT_NUMBERS.get(ranks)
    if found is None:
        found = [
            (_num(s.place), _num(s.placement), _num(s.bonus), _num(s.fraction), _num(s.score))
            for s in table.results
        ]
        if len(_SEAT_NUMBERS) < 10_000:
            _SEAT_NUMBERS[ranks] = found
    return found


def season_tournaments(season: Season) -> list:
    """The season's tournaments in its order, each with `final` (rules.md §1.3)."""
    final = FinalTournament.objects.filter(tournament=OuterRef("pk"))
    return list(season.tournaments.annotate(final=Exists(final)))


def _regular_participant_counts(season: Season) -> list[int]:
    rows = (
        Seat.objects.filter(round__season=season, round__tournament__circuit_final=None)
        .values("round__tournament")
        .annotate(n=Count("player", distinct=True))
        .order_by()
    )
    return [row["n"] for row in rows]


def _sibling(season: Season, back: int) -> Season | None:
    label = previous_label(season.label, back)
    if label is None:
        return None
    return Season.objects.filter(series_id=season.series_id, label=label).first()


def cap_source(season: Season) -> dict:
    """The season's cap and where it comes from (shown when a visitor opens the cap)."""
    settings = parse_settings(season.settings)
    if settings.cap_mode == CAP_MANUAL:
        return {"cap": settings.cap, "source": "manual"}
    if settings.cap_mode != CAP_AUTO:
        return {"cap": None, "source": "off"}
    previous = _sibling(season, 1)
    if previous is not None:
        counts = _regular_participant_counts(previous)
        if counts:
            return {
                "cap": engine.cap_from_participants(counts),
                "source": "previous_season",
                "season": previous.label,
                "counts": sorted(counts),
            }
    given = (
        PreviousParticipants.objects.filter(season=season)
        .values_list("previous_participants")
        .first()
    )
    if given is not None and given[0]:
        return {
            "cap": engine.cap_from_participants(given[0]),
            "source": "previous_participants",
            "counts": list(given[0]),
        }
    return {"cap": None, "source": "none"}


SEAT_FIELDS = (
    "round__tournament_id",
    "round__number",
    "table_id",
    "table__number",
    "table__game",
    "player__key",
    "rank",
)
SEAT_ORDER = ("round__number", "table__number", "rank", "player__key")


def engine_settings(season: Season) -> engine.Settings:
    settings = parse_settings(season.settings)
    return engine.Settings(
        best_n=settings.best_n,
        interclub_counted=settings.interclub_counted,
        final_table_size=settings.final_table_size,
        final_table_sizes=dict(settings.final_table_sizes),
    )


def season_clubs(season: Season) -> dict[str, str | None]:
    """The club of the season entry; the player's current club where there is no entry."""
    clubs = dict(Player.objects.filter(series_id=season.series_id).values_list("key", "club__key"))
    clubs.update(season.entries.values_list("player__key", "club__key"))
    return clubs


def tournament_inputs(
    rows, tournaments: list
) -> Iterator[tuple[Any, engine.TournamentIn, list[int]]]:
    """(tournament, engine input, table numbers) of each tournament in turn, from seat rows
    (SEAT_FIELDS) in the tournaments' order, a table's seats one after the other (SEAT_ORDER):
    one pass, a tournament's seats held only while it is read. A tournament without rows has no
    tables; a row out of turn (the rows' order and the tournaments' disagree) is an error."""
    make_seat, make_table = engine.Seat, engine.TableIn
    rows = iter(rows)
    row = next(rows, None)
    for t in tournaments:
        tables: list[engine.TableIn] = []
        numbers: list[int] = []
        while row is not None and row[0] == t.pk:
            _t, round_number, table_id, table_number, game, _player, _rank = row
            seats = []
            while row is not None and row[2] == table_id:
                # A player's key once in memory however many tables they sat at: the season's
                # aggregates keep every tournament's players.
                seats.append(make_seat(intern(row[5]), row[6]))
                row = next(rows, None)
            if len(seats) >= 2:  # a table needs 2 players (rules.md §1): a half-entered one
                tables.append(make_table(round=round_number, game=game, seats=tuple(seats)))
                numbers.append(table_number)
        t_in = engine.TournamentIn(
            id=t.key, final=t.final, draw_seed=t.draw_seed, tables=tuple(tables)
        )
        yield t, t_in, numbers
    if row is not None:
        raise RuntimeError(f"rows of {row[0]!r} out of turn")


def load_season(
    season: Season,
    *,
    with_history: bool = True,
    only: set[int] | None = None,
    cap: dict | None = None,
) -> tuple[engine.SeasonIn, dict]:
    """The engine's input for a season, in a fixed number of queries, plus display extras
    (`only`: the tournaments of these pks only; `extras["tournaments"]` lists them all;
    `cap`: the season's cap_source when the caller has it already)."""
    every = season_tournaments(season)
    tournaments = every if only is None else [t for t in every if t.pk in only]
    seats = Seat.objects.filter(round__season=season)
    if only is not None:
        seats = seats.filter(round__tournament_id__in=only)
    rows = seats.values_list(*SEAT_FIELDS).order_by(
        *tournament_order("round__tournament"), *SEAT_ORDER
    )
    tournaments_in = []
    table_numbers: dict[str, list[int]] = {}
    for t, t_in, numbers in tournament_inputs(rows, tournaments):
        tournaments_in.append(t_in)
        table_numbers[t.key] = numbers
    prev: dict[str, Fraction] = {}
    prev2: dict[str, Fraction] = {}
    if with_history:
        prev = _yearly_of(season, 1)
        prev2 = _yearly_of(season, 2)
    season_in = engine.SeasonIn(
        tournaments=tuple(tournaments_in),
        clubs=season_clubs(season),
        cap=(cap if cap is not None else cap_source(season))["cap"],
        settings=engine_settings(season),
        yearly_prev=prev,
        yearly_prev2=prev2,
    )
    extras = {"tournaments": every, "table_numbers": table_numbers}
    return season_in, extras


def streamed_tournaments(season: Season, tournaments: list):
    """(tournament, engine input, table numbers) of each tournament in turn, from one query
    of the season's seats made into rows a chunk at a time (`rows_in_chunks`): a recompute
    holds one tournament's seats at a time, not the season's. In the order of the
    tournaments' ids, which the rounds' own column gives, instead of the season's order
    (dates and keys), which needs the tournaments joined and every seat sorted by them: each
    tournament is computed on its own, and the caller puts what it keeps of them in the
    season's order."""
    by_id = sorted(tournaments, key=lambda t: t.pk)
    rows = rows_in_chunks(
        Seat.objects.filter(round__season=season)
        .values_list(*SEAT_FIELDS)
        .order_by("round__tournament_id", *SEAT_ORDER),
        2000,
    )
    return tournament_inputs(rows, by_id)


def stored_yearly(season: Season, *, stale_ok: bool = False) -> dict[str, Fraction] | None:
    """The exact yearly totals of a season's stored standings, when they are current (a
    recompute brings the seasons it reads up to date first, and `stale_ok` says only earlier
    seasons changed since); None when they must be computed."""
    if season.standings_version == 0:
        return None
    if season.standings_version < season.data_version and not stale_ok:
        return None
    data = (
        StandingsTable.objects.filter(season=season, kind=KIND_YEARLY)
        .values_list("data", flat=True)
        .first()
    )
    exact = data.get("exact") if isinstance(data, dict) else None
    if exact is None:
        return None  # stored by a version that did not keep them
    return {player: Fraction(value) for player, value in exact.items()}


def _yearly_of(season: Season, back: int) -> dict[str, Fraction]:
    """yearly(Y-back): read from the stored season's current standings, else computed from
    its results, else the imported totals."""
    stored = _sibling(season, back)
    if stored is not None:
        found = stored_yearly(stored)
        if found is not None:
            return found
        season_in, _extras = load_season(stored, with_history=False)
        return {row.player: row.points for row in engine.compute_season(season_in).yearly}
    label = previous_label(season.label, back)
    totals = HistoricTotal.objects.filter(season=season, label=label).values_list(
        "player__key", "points"
    )
    return {key: Fraction(repr(points)) for key, points in totals}


def carry(season: Season) -> str:
    """A digest of what later seasons read of this one: its label, its yearly totals (LUDO) and
    its regular tournaments' participant counts (the next season's cap)."""
    yearly = list(
        StandingsRow.objects.filter(season=season, table__kind=KIND_YEARLY)
        .order_by("player_id")
        .values_list("player_id", "points")
    )
    payload = json.dumps([season.label, yearly, sorted(_regular_participant_counts(season))])
    return hashlib.sha256(payload.encode()).hexdigest()


def _tournament_table(out: engine.TournamentOut, tournament, numbers: list[int]) -> dict:
    """What belongs to the tournament as a whole; its standings lines are the rows."""
    return {
        "id": out.id,
        "name": tournament.name,
        "date": tournament.date.isoformat() if tournament.date else None,
        "final": out.final,
        "participants": out.participants,
        "cap": out.cap,
        "played": max((table.round for table in out.tables), default=0),
        "tables": [
            {
                "round": table.round,
                "number": number,
                "game": table.game,
                "results": [
                    {
                        "player": s.player,
                        "rank": s.rank,
                        "place": place,
                        "placement": placement,
                        "bonus": bonus,
                        "fraction": fraction,
                        "score": score,
                    }
                    for s, (place, placement, bonus, fraction, score) in zip(
                        table.results, _seat_numbers(table), strict=True
                    )
                ],
            }
            for table, number in zip(out.tables, numbers, strict=True)
        ],
        "ceremony": [
            {"step": c.step, "club": c.club}
            if c.club is not None
            else {"step": c.step, "player": c.player}
            for c in out.ceremony
        ],
        "interclub": [
            {"club": c.club, "rank": c.rank, "score": _num(c.score), "players": list(c.players)}
            for c in out.interclub
        ],
    }


def _row(detail: dict) -> ComputedRow:
    return ComputedRow(
        player=detail["player"], rank=detail["rank"], points=detail["points"], detail=detail
    )


def game_slugs(titles: list[str]) -> dict[str, str]:
    """URL slugs of a season's game titles: ASCII, unique, never empty ("Ticket to Ride /
    Europe" -> "ticket-to-ride-europe"; a title with no Latin letters -> "game-3")."""
    slugs: dict[str, str] = {}
    taken: set[str] = set()
    for position, title in enumerate(titles, 1):
        base = slugify(title)[:80] or f"game-{position}"
        slug, n = base, 2
        while slug in taken:
            slug, n = f"{base}-{n}", n + 1
        taken.add(slug)
        slugs[title] = slug
    return slugs


def _exact(out: engine.TournamentOut, entries: dict[tuple[str, str], list]) -> dict:
    """What the season's aggregates read of a tournament, exact, as integers at one scale: its
    players' tournament points and, for a regular tournament, their sums of round scores and
    tables played per game, and a hash of each game's tables as the per-game lines list them
    (`entries`: an update compares it to tell which games a change reaches; `entries` is the
    tournament's `_game_entries`). An update reads these instead of computing the tournament
    again."""
    scores = [seat.score for table in out.tables for seat in table.results]
    scale = math.lcm(1, *{v.denominator for v in (*scores, *(r.points for r in out.standings))})
    games: dict[str, dict[str, list[int]]] = defaultdict(dict)
    if not out.final:
        for table in out.tables:
            by_player = games[table.game]
            for seat in table.results:
                score = seat.score
                entry = by_player.setdefault(seat.player, [0, 0])
                entry[0] += score.numerator * (scale // score.denominator)
                entry[1] += 1
    by_game: dict[str, list] = defaultdict(list)
    for (game, player), found in entries.items():
        by_game[game].append([player, found])
    return {
        "scale": scale,
        "points": {
            r.player: r.points.numerator * (scale // r.points.denominator) for r in out.standings
        },
        "titles": sorted({table.game for table in out.tables}),
        "games": games,
        "entries": {
            game: hashlib.blake2b(orjson.dumps(sorted(found)), digest_size=8).hexdigest()
            for game, found in by_game.items()
        },
    }


def _stored_parts(
    season: Season,
    *,
    keys: Iterable[str] | None = None,
    skip: Iterable[str] = (),
    games: set[str] | None = None,
) -> dict[str, tuple[dict | None, Any]]:
    """The stored tournaments' exact parts (`_exact`; None when stored before they were kept)
    and cap source by key: of the tournaments `keys` (every one when None) but those of
    `skip`, with the per-game sums of the games `games` only (every game when None)."""
    rows = StandingsTable.objects.filter(season=season, kind=KIND_TOURNAMENT)
    if keys is not None:
        rows = rows.filter(key__in=list(keys))
    found: dict[str, tuple[dict | None, Any]] = {}
    for key, exact, cap in rows.exclude(key__in=list(skip)).values_list(
        "key", "data__exact", "data__cap_source"
    ):
        if isinstance(exact, dict) and games is not None:
            exact = {**exact, "games": _some_games(exact.get("games"), games)}
        found[key] = (exact, cap)
    return found


def _some_games(games: dict | None, titles: set[str]) -> dict:
    return {title: sums for title, sums in (games or {}).items() if title in titles}


def _changed_games(stored: dict, exact: dict[str, dict], computed: dict) -> set[str] | None:
    """The games whose per-game ranking the changed tournaments (`computed`) can move: those
    whose sums, tables played or tables listed differ from the stored tournament's. None (every
    game) when a changed tournament has no stored exact parts with the tables' hash, or when
    the season's game titles change (the per-game tables' positions and slugs follow them)."""
    changed: set[str] = set()
    for key in computed:
        before, after = stored.get(key), exact[key]
        if not isinstance(before, dict) or "entries" not in before:
            return None
        if set(before["titles"]) != set(after["titles"]):
            return None
        same_scale = before["scale"] == after["scale"]
        for game in {*before["games"], *after["games"], *before["entries"], *after["entries"]}:
            if before["entries"].get(game) != after["entries"].get(game):
                changed.add(game)
            elif same_scale:  # integers at one scale: equal sums are equal integers
                if (before["games"].get(game) or {}) != (after["games"].get(game) or {}):
                    changed.add(game)
            elif _sums(before, game) != _sums(after, game):
                changed.add(game)
    return changed


def _sums(exact: dict, game: str) -> dict[str, tuple[Fraction, int]]:
    scale = exact["scale"]
    return {
        player: (Fraction(total, scale), played)
        for player, (total, played) in exact["games"].get(game, {}).items()
    }


def _round_spans(tables) -> dict[str, list[int]] | None:
    """Where each round's tables are in the stored list: {round: [first index, count]}, so a
    page reads a round's tables by position; None unless each round's tables are together."""
    spans: dict[str, list[int]] = {}
    last = None
    for i, table in enumerate(tables):
        key = str(table.round)
        if key != last:
            if key in spans:
                return None
            spans[key] = [i, 0]
            last = key
        spans[key][1] += 1
    return spans


def _tournament_computed(
    position: int,
    out: engine.TournamentOut,
    tournament,
    numbers: list[int],
    cap: dict,
    exact: dict,
) -> ComputedTable:
    """The stored table of a computed tournament; `exact` is its `_exact(out)`, which the
    caller keeps for the season's aggregates too."""
    # Each player's tables, by their positions in the stored list: a page explaining a daily
    # total reads those tables, not the whole day (selectors.py).
    seats: dict[str, list[int]] = defaultdict(list)
    for i, table in enumerate(out.tables):
        for s in table.results:
            seats[s.player].append(i)
    data = {**_tournament_table(out, tournament, numbers), "cap_source": cap, "exact": exact}
    spans = _round_spans(out.tables)
    if spans is not None:
        data["rounds"] = spans
    return ComputedTable(
        kind=KIND_TOURNAMENT,
        key=out.id,
        position=position,
        data=data,
        rows=[
            _row(
                {
                    "player": r.player,
                    "rank": r.rank,
                    "daily": _num(r.daily),
                    "bonus": _num(r.bonus),
                    "points": _num(r.points),
                    "at": seats.get(r.player, []),
                }
            )
            for r in out.standings
        ],
    )


def _yearly_table(out: engine.SeasonOut, why: dict) -> ComputedTable:
    return ComputedTable(
        kind=KIND_YEARLY,
        # The exact totals, which later seasons read (LUDO) without computing this one again.
        data={"exact": {r.player: str(r.points) for r in out.yearly}},
        rows=[
            _row(
                {
                    "player": r.player,
                    "rank": r.rank,
                    "points": _num(r.points),
                    "counted": list(r.counted),
                    "counted_points": [why["points"][r.player][t] for t in r.counted],
                }
            )
            for r in out.yearly
        ],
    )


def _ludo_terms(
    yearly: dict[str, Fraction], prev: dict[str, Fraction], prev2: dict[str, Fraction]
) -> dict[str, list]:
    return {
        player: [_num(prev2.get(player, 0)), _num(prev.get(player, 0)), _num(yearly.get(player, 0))]
        for player in {*yearly, *prev, *prev2}
    }


def _ludo_table(season: Season, ludo, terms: dict) -> ComputedTable:
    labels = [previous_label(season.label, 2), previous_label(season.label, 1), season.label]
    return ComputedTable(
        kind=KIND_LUDO,
        data={"seasons": labels},
        rows=[
            _row(
                {
                    "player": r.player,
                    "rank": r.rank,
                    "points": _num(r.points),
                    "terms": terms.get(r.player, [0, 0, 0]),
                }
            )
            for r in ludo
        ],
    )


def _game_tables(out: engine.SeasonOut, why: dict, only: set[str] | None = None):
    slugs = game_slugs([game.game for game in out.games])
    for position, game in enumerate(out.games):
        if only is not None and game.game not in only:
            continue
        yield ComputedTable(
            kind=KIND_GAME,
            key=slugs[game.game],
            position=position,
            data={
                "game": game.game,
                "size": game.size,
                "tie_on_last_seat": game.tie_on_last_seat,
            },
            rows=[
                _row(
                    {
                        "player": r.player,
                        "rank": r.rank,
                        "points": _num(r.points),
                        "played": r.played,
                        "finalist": r.finalist,
                        "tables": why["game_tables"][(game.game, r.player)],
                    }
                )
                for r in game.rows
            ],
        )


def compute(season: Season):
    """Every standings table of the season, one at a time (a generator: the store writes them
    in batches). Each tournament is loaded, computed and given as it comes; what the season's
    aggregates read of it (its exact points and per-game sums, its players' tables per game)
    is all that is kept, and the yearly, LUDO and per-game tables are made from that at the
    end, as an update makes them (`_aggregate_tables`)."""
    cap = cap_source(season)
    settings = engine_settings(season)
    clubs = season_clubs(season)
    prev, prev2 = _yearly_of(season, 1), _yearly_of(season, 2)
    every = season_tournaments(season)
    positions = {t.pk: position for position, t in enumerate(every)}
    exact: dict[str, dict] = {}
    game_tables: dict[tuple[str, str], list] = defaultdict(list)
    for t, t_in, numbers in streamed_tournaments(season, every):  # in the order of their ids
        t_out = engine.compute_tournament(t_in, clubs, cap["cap"], settings)
        entries = _game_entries(t_out, numbers)
        exact[t.key] = _exact(t_out, entries)
        for line, tables in entries.items():
            game_tables[line].extend(tables)
        yield _tournament_computed(positions[t.pk], t_out, t, numbers, cap, exact[t.key])
    if sorted(positions) != list(positions):
        # A per-game line lists its tables in the season's order (a stable sort: within a
        # tournament they stay in round and table order); ids in the season's order, as a
        # rule, need nothing.
        order = {t.key: position for position, t in enumerate(every)}
        for tables in game_tables.values():
            tables.sort(key=lambda entry: order[entry[0]])
    yield from _aggregate_tables(season, settings, every, exact, game_tables, prev, prev2)


def _game_entries(t_out: engine.TournamentOut, numbers: list[int]) -> dict[tuple[str, str], list]:
    """Each player's tables of each game in a computed tournament (what a per-game line
    explains), by (game, player), in the tournament's order; none for a final."""
    found: dict[tuple[str, str], list] = defaultdict(list)
    if t_out.final:
        return found  # rules.md §1.5: the final's tables do not count for the per-game ranking
    for table, number in zip(t_out.tables, numbers, strict=True):
        for seat, seat_numbers in zip(table.results, _seat_numbers(table), strict=True):
            found[(table.game, seat.player)].append(
                (t_out.id, table.round, number, seat_numbers[4])  # stored as a JSON array
            )
    return found


def _aggregate_tables(
    season: Season,
    settings: engine.Settings,
    every: list,
    exact: dict[str, dict],
    game_tables: dict,
    prev: dict[str, Fraction],
    prev2: dict[str, Fraction],
    only_games: set[str] | None = None,
) -> list[ComputedTable]:
    """The yearly, LUDO and per-game tables from each tournament's exact points and per-game
    sums (`_exact`, every tournament of `every`) and the players' tables per game; of the
    per-game tables only those of `only_games` when given."""
    # The yearly ranking from each tournament's exact points, as the integers stored.
    yearly = engine.yearly_ranking_scaled(
        [(t.key, t.final, exact[t.key]["points"], exact[t.key]["scale"]) for t in every],
        settings.best_n,
    )
    # Per game: the sums at one common scale (of the games `only_games` when given: the
    # others' tables are not made, and their rankings come out empty).
    regular = [t for t in every if not t.final]
    scale = math.lcm(1, *(exact[t.key]["scale"] for t in regular))
    sums: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for t in regular:
        factor = scale // exact[t.key]["scale"]
        for game, players in exact[t.key]["games"].items():
            if only_games is not None and game not in only_games:
                continue
            game_sums, game_counts = sums[game], counts[game]
            for player, (total, played) in players.items():
                game_sums[player] += total * factor
                game_counts[player] += played
    titles = {title for t in every for title in exact[t.key]["titles"]}
    games = engine.rank_games(titles, sums, counts, scale, settings)
    totals = {r.player: r.points for r in yearly}
    ludo = engine.ludo_ranking(totals, prev, prev2)
    out = engine.SeasonOut(
        tournaments=(), yearly=tuple(yearly), ludo=tuple(ludo), games=tuple(games)
    )
    points: dict[str, dict] = defaultdict(dict)
    for t in every:
        # n / scale: the correctly rounded quotient, as float(Fraction(n, scale)) is.
        t_scale = exact[t.key]["scale"]
        for player, n in exact[t.key]["points"].items():
            points[player][t.key] = n / t_scale
    why = {
        "points": points,
        "game_tables": game_tables,
        "ludo": _ludo_terms(totals, prev, prev2),
    }
    return [
        _yearly_table(out, why),
        _ludo_table(season, out.ludo, why["ludo"]),
        *_game_tables(out, why, only_games),
    ]


# --- incremental updates (Standings.update) ----------------------------------------------------

SCOPE_TOURNAMENT = "t:"  # competitions.systems.boardgame.system.change_scope
SCOPE_EARLIER = "earlier"


def _cap_unchanged(season: Season, cap: dict) -> bool:
    """Whether every stored tournament shows this cap and its source (the previous season's
    participant counts among them)."""
    stored = StandingsTable.objects.filter(season=season, kind=KIND_TOURNAMENT).values_list(
        "data__cap_source", flat=True
    )
    return all(found == cap for found in stored)


def update(season: Season, scopes: frozenset[str]):
    """Recompute only what the changes reach: the changed tournaments' tables and the season's
    aggregates (yearly, LUDO, per game); a change of an earlier season that leaves this
    season's cap as it is recomputes only LUDO. None (a full compute) for anything else."""
    from rankings.systems import Update

    tournaments: set[int] = set()
    earlier = False
    for scope in scopes:
        if scope == SCOPE_EARLIER:
            earlier = True
        elif scope.startswith(SCOPE_TOURNAMENT) and scope[2:].isdigit():
            tournaments.add(int(scope[2:]))
        else:
            return None
    if not tournaments and not earlier:
        return None
    stored = None
    if earlier:
        cap = cap_source(season)
        if not _cap_unchanged(season, cap):
            return None  # the cap changed: every tournament's bonus may change
    else:
        # Only this season's tournaments changed: what the cap reads (the previous season's
        # participant counts, this season's settings) is as the stored tournaments show it, or
        # the season would carry the scope "earlier" (`Standings.carry`) or be computed in full.
        # Counting the previous season's participants again took several milliseconds. The
        # changed tournaments' stored parts are read first (their cap, and what they were
        # before: which games the change reaches); the others' after, with only what the
        # aggregates need of them (`_update_tournaments`).
        keys = list(season.tournaments.filter(pk__in=tournaments).values_list("key", flat=True))
        parts = _stored_parts(season, keys=keys)
        stored = {key: exact for key, (exact, _cap) in parts.items()}
        caps = [found for _exact, found in parts.values() if isinstance(found, dict)]
        cap = caps[0] if caps else None
        if cap is None or any(found != cap for found in caps):
            cap = cap_source(season)
    if not tournaments:
        yearly = stored_yearly(season, stale_ok=True)  # a season's yearly reads no other season
        if yearly is None:
            return None
        prev, prev2 = _yearly_of(season, 1), _yearly_of(season, 2)
        ludo = engine.ludo_ranking(yearly, prev, prev2)
        return Update(tables=[_ludo_table(season, ludo, _ludo_terms(yearly, prev, prev2))])
    return _update_tournaments(season, tournaments, cap, stored)


def _update_tournaments(season: Season, changed: set[int], cap: dict, stored: dict | None = None):
    """Compute the changed tournaments; the others' exact points and per-game sums come from
    their stored tables; the yearly, LUDO and per-game tables are made anew from both.
    `stored`: the changed tournaments' stored exact parts by key, when the caller read them
    (with the cap they were computed with, which is `cap`)."""
    from rankings.systems import Update

    season_in, extras = load_season(season, only=changed, cap=cap)
    every = extras["tournaments"]
    if not changed <= {t.pk for t in every}:
        return None
    settings = season_in.settings
    computed = {
        t_in.id: engine.compute_tournament(t_in, season_in.clubs, season_in.cap, settings)
        for t_in in season_in.tournaments
    }
    if stored is None:
        stored = {key: found for key, (found, _cap) in _stored_parts(season, keys=computed).items()}
    entries = {
        key: _game_entries(t_out, extras["table_numbers"][key]) for key, t_out in computed.items()
    }
    exact = {key: _exact(t_out, entries[key]) for key, t_out in computed.items()}
    games = _changed_games(stored, exact, computed)
    # The other tournaments: their exact points, and their sums of the games the change
    # reaches only (reading every game's sums of 30 tournaments of 2000 players took as long
    # as computing the changed tournament).
    others = _stored_parts(season, skip=computed, games=games)
    for t in every:
        if t.key in exact:
            continue
        found, found_cap = others.get(t.key, (None, None))
        if not isinstance(found, dict):
            return None  # stored before the exact parts were kept: compute in full
        if found_cap != cap:
            return None  # computed with another cap: every tournament's bonus may differ
        exact[t.key] = found
    stored_games = dict(
        StandingsTable.objects.filter(season=season, kind=KIND_GAME).values_list(
            "key",
            KT("data__game"),  # text: a game called "1846" stays a name on SQLite
        )
    )
    aggregates = _aggregate_tables(
        season,
        settings,
        every,
        exact,
        _stored_game_tables(season, every, entries, stored_games, games),
        season_in.yearly_prev,
        season_in.yearly_prev2,
        games,
    )
    titles = sorted({title for t in every for title in exact[t.key]["titles"]})
    kept_games = set(game_slugs(titles).values())
    return Update(
        tables=[
            *(
                _tournament_computed(
                    position,
                    computed[t.key],
                    t,
                    extras["table_numbers"][t.key],
                    cap,
                    exact[t.key],
                )
                for position, t in enumerate(every)
                if t.key in computed
            ),
            *aggregates,
        ],
        remove=[(KIND_GAME, key) for key in set(stored_games) - kept_games],
    )


def _stored_game_tables(
    season: Season,
    every,
    computed: dict[str, dict[tuple[str, str], list]],
    games: dict[str, str],
    only: set[str] | None = None,
) -> dict:
    """Each player's tables of each game (what a per-game line explains; of the games `only`
    when given): the stored ones of unchanged tournaments, the changed tournaments' anew, in
    season order. Only the lists that hold a changed tournament's tables are put together
    again; the others are as stored (in season order already). Reads the lines' player and
    tables only, not their whole detail. `computed`: the changed tournaments' `_game_entries`
    by tournament key; `games`: the stored per-game tables' titles by key."""
    fresh: dict[tuple[str, str], list] = defaultdict(list)
    for tournament_entries in computed.values():
        for line, tables in tournament_entries.items():
            if only is None or line[0] in only:
                fresh[line].extend(tables)
    order = {t.key: i for i, t in enumerate(every)}
    found: dict[tuple[str, str], list] = defaultdict(list)
    rows = StandingsRow.objects.filter(season=season, table__kind=KIND_GAME)
    if only is not None:
        rows = rows.filter(table__key__in=[key for key, game in games.items() if game in only])
    # KT: the player's key as text on every database (SQLite's JSON extraction would give a
    # key that looks like a number, "123", back as the number).
    rows = rows.values_list("table__key", KT("detail__player"), "detail__tables")
    for key, player, entries in rows:
        line = (games[key], player)
        entries = entries or []
        if line in fresh or any(entry[0] in computed for entry in entries):
            entries = [entry for entry in entries if entry[0] not in computed]
            entries.extend(fresh.pop(line, ()))
            entries.sort(key=lambda entry: order[entry[0]])  # stable: a tournament's in turn
        found[line] = entries
    for line, entries in fresh.items():  # a game or a player new to the per-game tables
        found[line] = sorted(entries, key=lambda entry: order[entry[0]])
    return found


def _pick(row: dict, fields: tuple[str, ...]) -> dict:
    return {name: row[name] for name in fields if name in row}


def document(season: Season, tables: list) -> dict:
    """The export_standings document of interchange.md, from the stored tables (each with its
    rows' details in `row_details`)."""
    by_kind: dict[str, list] = defaultdict(list)
    for table in tables:
        by_kind[table.kind].append(table)
    yearly = by_kind[KIND_YEARLY][0].row_details if by_kind[KIND_YEARLY] else []
    ludo = by_kind[KIND_LUDO][0].row_details if by_kind[KIND_LUDO] else []
    return {
        "tournaments": [
            {
                "id": t.data["id"],
                "participants": t.data["participants"],
                "cap": t.data["cap"],
                "standings": [_pick(r, STANDINGS_FIELDS) for r in t.row_details],
                "tables": [
                    {
                        "round": tb["round"],
                        "game": tb["game"],
                        "results": [_pick(r, TABLE_RESULT_FIELDS) for r in tb["results"]],
                    }
                    for tb in t.data["tables"]
                ],
                "ceremony": [_pick(c, CEREMONY_FIELDS) for c in t.data["ceremony"]],
            }
            for t in by_kind[KIND_TOURNAMENT]
        ],
        "yearly": [_pick(r, YEARLY_FIELDS) for r in yearly],
        "ludo": [_pick(r, LUDO_FIELDS) for r in ludo],
        "games": {
            g.data["game"]: [_pick(r, GAME_FIELDS) for r in g.row_details]
            for g in by_kind[KIND_GAME]
        },
    }


def flat_tables(document: dict) -> dict[str, tuple[tuple[str, ...], list[dict]]]:
    """The document as flat tables for CSV, one per standings table, named after it, each
    with its header (the field names of interchange.md), empty or not."""
    tables: dict[str, tuple[tuple[str, ...], list[dict]]] = {
        "tournaments": (
            ("id", "participants", "cap"),
            [
                {"id": t["id"], "participants": t["participants"], "cap": t["cap"]}
                for t in document["tournaments"]
            ],
        )
    }
    for t in document["tournaments"]:
        tables[f"tournament-{t['id']}-standings"] = (STANDINGS_FIELDS, t["standings"])
        tables[f"tournament-{t['id']}-tables"] = (
            TABLE_ROW_FIELDS,
            [
                {"round": tb["round"], "game": tb["game"], **result}
                for tb in t["tables"]
                for result in tb["results"]
            ],
        )
        tables[f"tournament-{t['id']}-ceremony"] = (CEREMONY_FIELDS, t["ceremony"])
    tables["yearly"] = (YEARLY_FIELDS, document["yearly"])
    tables["ludo"] = (LUDO_FIELDS, document["ludo"])
    for game, rows in document["games"].items():
        tables[f"game-{game}"] = (GAME_FIELDS, rows)
    return tables
