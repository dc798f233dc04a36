"""Othello GP standings (rules.md §2): load a season, run the engine, give the tables.

Tables stored per season: one per tournament (`data`: S, M, x, the series and every
participant's computation, so a page can explain any number without loading more; rows: the
participants in place order) and one for the season standings.
"""

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import replace
from fractions import Fraction
from typing import Any

from django.db.models.fields.json import KT

from competitions.models import Season
from competitions.systems.othello.models import Placement
from competitions.systems.othello.ratings import RatingEntry, entry_to_json, stored_entry
from competitions.systems.othello.scopes import SCOPE_PREFIX
from competitions.systems.othello.settings import (
    GPSettings,
    decimal_text,
    parse_settings,
    tournament_flags,
)
from rankings.engines import othello as engine
from rankings.selectors import in_turn, rows_in_chunks
from rankings.systems import ComputedRow, ComputedTable, RowsOf, Update

KIND_TOURNAMENT = "tournament"
KIND_STANDINGS = "standings"

# The field names of interchange.md's othello-gp standings.
TOURNAMENT_FIELDS = ("id", "participants", "ranking_sum", "max_points", "series")
POINTS_FIELDS = ("player", "place", "points")
STANDINGS_FIELDS = ("player", "rank", "points", "counted")


def _num(value: Fraction | int) -> float | int:
    """A JSON number at full precision: integers stay integers."""
    if isinstance(value, int):
        return value
    return int(value) if value.denominator == 1 else float(value)


def engine_settings(settings: GPSettings, **changes: Any) -> engine.Settings:
    coefficients = engine.Coefficients(
        nr_factor=settings.nr_factor,
        nr_offset=settings.nr_offset,
        provisional_floor=settings.provisional_floor,
        debutant_rating=settings.debutant_rating,
        rating_floor=settings.rating_floor,
        max_factor=changes.get("max_factor", settings.max_factor),
        max_base=changes.get("max_base", settings.max_base),
    )
    return engine.Settings(
        best_n=settings.best_n,
        country=settings.country,
        coefficients=coefficients,
        sm_tiebreak=settings.sm_tiebreak,
        egp_rule=settings.egp_rule,
        series_rule=settings.series_rule,
        season_tiebreaks=settings.season_tiebreaks,
        tiebreak_data=settings.tiebreak_data,
        tiebreak_seed=settings.tiebreak_seed,
    )


def _fraction(value) -> Fraction | None:
    return None if value is None else Fraction(value)


# How many placements a recompute makes into Python objects at a time (`rows_in_chunks`, in
# one round trip whatever the size): its peak memory on the bench season is 1.43-1.46 times the
# bare load's with 200, 1.49 with 500 (1.9-2.1 with 500 when the rows came from a server-side
# cursor).
CHUNK = 200

PLACEMENT_FIELDS = (
    "tournament_id",
    "player__key",
    "place",
    "country",
    "nordic",
    "ffo",
    "provisional",
    "uncertainty",
)


def load_season(season: Season) -> tuple[list, dict[int, list[tuple]]]:
    """The season's tournaments and their placements (player key, place, country, nordic,
    ffo, provisional, uncertainty), in two queries whatever their size."""
    tournaments = list(season.tournaments.all())
    rows = (
        Placement.objects.filter(tournament__season=season)
        .values_list(*PLACEMENT_FIELDS)
        .order_by("tournament_id", "place", "player__key")
    )
    by_tournament: dict[int, list[tuple]] = defaultdict(list)
    for tournament_id, *rest in rows:
        by_tournament[tournament_id].append(rest)
    return tournaments, by_tournament


def streamed_placements(season: Season, tournaments: list) -> Iterator[tuple[Any, list[tuple]]]:
    """(tournament, its placements as `load_season` gives them) of each tournament in turn,
    from one query made into rows a chunk at a time (`rows_in_chunks`): a recompute holds a
    few tournaments' rows at a time, not the season's. In the order of the tournaments' ids,
    which the placements' own column gives, instead of the season's order (dates and keys),
    which needs the tournaments joined and every placement sorted by them: each tournament
    is computed on its own, and the caller puts their results in the season's order."""
    by_id = sorted(tournaments, key=lambda t: t.pk)
    rows = rows_in_chunks(
        Placement.objects.filter(tournament__season=season)
        .values_list(*PLACEMENT_FIELDS)
        .order_by("tournament_id", "place", "player__key"),
        CHUNK,
    )
    for t, found in zip(by_id, in_turn(rows, [t.pk for t in by_id]), strict=True):
        yield t, [list(row[1:]) for row in found]


def rating_maker(json_of: dict[int, dict] | None = None):
    """A function from a stored rating entry to its engine Rating: one object per distinct
    entry (a player's recurs from one tournament to the next), so the engine rates it once.
    `json_of` (optional) receives each Rating's rating object of the file by the Rating's id,
    made once per entry from the stored decimals as they are (the maker keeps the Ratings,
    so their ids stay theirs)."""
    ratings: dict[tuple, engine.Rating] = {}

    def rating(nordic, ffo, provisional, uncertainty) -> engine.Rating:
        key = (nordic, ffo, provisional, uncertainty)
        found = ratings.get(key)
        if found is None:
            found = ratings[key] = engine.Rating(
                nordic=_fraction(nordic),
                ffo=_fraction(ffo),
                provisional=provisional,
                uncertainty=_fraction(uncertainty),
            )
            if json_of is not None:
                json_of[id(found)] = entry_to_json(RatingEntry(*key))
        return found

    return rating


def season_input(
    tournaments: list, placements: dict[int, list[tuple]], settings: engine.Settings
) -> engine.SeasonIn:
    """The engine's input. A rating entry that recurs (a player's, from one tournament to the
    next) is one Rating object, so the engine computes its numbers once."""
    rating = rating_maker()
    return engine.SeasonIn(
        tournaments=tuple(tournament_input(t, placements[t.pk], rating) for t in tournaments),
        settings=settings,
    )


def tournament_input(t, placements: list[tuple], rating) -> engine.TournamentIn:
    """One tournament's engine input; `rating` gives the Rating of a stored entry."""
    sm, egp = tournament_flags(t.options)
    return engine.TournamentIn(
        id=t.key,
        sm=sm,
        egp=egp,
        participants=tuple(
            engine.Participant(key, place, country, rating(nordic, ffo, provisional, uncertainty))
            for key, place, country, nordic, ffo, provisional, uncertainty in placements
        ),
    )


def coefficient_texts(settings: engine.Settings) -> dict[str, str]:
    c = settings.coefficients
    return {
        "max_factor": decimal_text(c.max_factor),
        "max_base": decimal_text(c.max_base),
        "nr_factor": decimal_text(c.nr_factor),
        "nr_offset": decimal_text(c.nr_offset),
        "provisional_floor": decimal_text(c.provisional_floor),
        "debutant_rating": decimal_text(c.debutant_rating),
        "rating_floor": decimal_text(c.rating_floor),
    }


def entry_detail(e: engine.EntryOut, rating: dict) -> dict:
    """A participant's stored line: place and points (interchange.md), country, the rating
    entry as the file gives it, and the points of the place. The computation in between (NR,
    contribution) follows from the entry and the tournament's coefficients (`line_numbers`),
    which the pages work out for the lines they show."""
    return {
        "player": e.player,
        "place": e.place,
        "points": e.points,
        "country": e.country,
        "rating": rating,
        "series_points": e.series_points,
    }


def coefficients_of(texts: dict[str, str]) -> engine.Coefficients:
    """A tournament's stored coefficients (decimal texts) back as exact numbers."""
    return engine.Coefficients(**{name: Fraction(value) for name, value in texts.items()})


def line_numbers(detail: dict, coefficients: engine.Coefficients) -> dict:
    """The computation behind a stored line, as exact decimal texts: which part of the NR
    rule applied, the FFO rating it used, NR and the contribution to the ranking sum."""
    entry = stored_entry(detail["rating"])
    rating = engine.Rating(
        nordic=_fraction(entry.nordic),
        ffo=_fraction(entry.ffo),
        provisional=entry.provisional,
        uncertainty=_fraction(entry.uncertainty),
    )
    nr, rule, part = engine.rate(rating, coefficients)
    used = engine.ffo_used(rating, coefficients)
    return {
        "rule": rule,
        "ffo_used": None if used is None else decimal_text(used),
        "nr": decimal_text(nr),
        "contribution": decimal_text(part),
    }


def tournament_data(
    out: engine.TournamentOut,
    tournament,
    settings: engine.Settings,
    coefficients: dict[str, str] | None = None,
) -> dict:
    """What belongs to the tournament as a whole; each participant's computation is a row."""
    return {
        "id": out.id,
        "name": tournament.name,
        "date": tournament.date.isoformat() if tournament.date else None,
        "sm": out.sm,
        "egp": out.egp,
        "country": settings.country,
        "participants": out.participants,
        "country_participants": out.country_participants,
        "ranking_sum": _num(out.ranking_sum),
        "ranking_sum_text": decimal_text(out.ranking_sum),
        "max_points": _num(out.max_points),
        "max_points_text": decimal_text(out.max_points),
        "x": engine.series_factor(out.max_points, out.participants),
        "series": list(out.series),
        "series_rule": settings.series_rule,
        "coefficients": coefficients or coefficient_texts(settings),
        # Who placed where, for the season standings without the lines: the participants in
        # place order, and the positions among them of players of another country (no
        # points); everyone else received the series' points of the position.
        "order": [e.player for e in out.entries],
        "other_country": [i for i, e in enumerate(out.entries) if e.points is None],
    }


def tiebreak_values(row: engine.StandingRow, chain: tuple[str, ...]) -> list[list]:
    """The row's values of a season's tie-break chain (§3.3), as [key, exact text or None]."""
    of_key = {
        engine.SM: row.sm_points,
        engine.WOF: None if row.wof is None else decimal_text(row.wof),
        engine.WORLD: row.world,
        engine.NR: None if row.rating is None else decimal_text(row.rating),
        engine.LOT: row.lot,
    }
    return [[key, None if of_key[key] is None else str(of_key[key])] for key in chain]


def standing_detail(row: engine.StandingRow, chain: tuple[str, ...] = ()) -> dict:
    detail: dict[str, Any] = {
        "player": row.player,
        "rank": row.rank,
        "points": row.points,
        "counted": list(row.counted),
        "results": [
            {"tournament": r.tournament, "points": r.points, "counts": r.counts}
            for r in row.results
        ],
    }
    if row.sm_points is not None:
        detail["sm_points"] = row.sm_points
    if row.rating is not None:
        detail["rating"] = _num(row.rating)
        detail["rating_text"] = decimal_text(row.rating)  # the exact value, for the page
    if row.wof is not None:
        detail["wof"] = _num(row.wof)
        detail["wof_text"] = decimal_text(row.wof)
    if row.world is not None:
        detail["world"] = row.world
    if row.lot is not None:
        detail["lot"] = row.lot
    if chain:
        detail["tiebreaks"] = tiebreak_values(row, chain)
    return detail


def _tournament_tables(
    placed: Iterable[tuple[Any, list[tuple]]],
    settings: engine.Settings,
    season_order: list,
    outs: list | None = None,
) -> Iterator[ComputedTable]:
    """The tables of these tournaments, one at a time, from each one's placements ((tournament,
    placements) pairs, in any order); `outs` collects (position, what the season standings read
    of it); positions are those in `season_order`, the season's tournaments in order."""
    coefficients = coefficient_texts(settings)
    positions = {t.pk: i for i, t in enumerate(season_order)}
    # The rating objects of the file by their Rating's id, once per entry (`rating_maker`).
    json_of: dict[int, dict] = {}
    rating = rating_maker(json_of)
    memo: dict = {}
    for tournament, rows in placed:
        t_in = tournament_input(tournament, rows, rating)
        t_out = engine.compute_tournament(t_in, settings, memo)
        computed = [
            ComputedRow(e.player, e.place, e.points, entry_detail(e, json_of[id(e.rating)]))
            for e in t_out.entries
        ]
        position = positions[tournament.pk]
        if outs is not None:
            outs.append((position, _slim(t_out)))
        yield ComputedTable(
            kind=KIND_TOURNAMENT,
            key=t_out.id,
            position=position,
            data=tournament_data(t_out, tournament, settings, coefficients),
            rows=computed,
        )


def compute(season: Season) -> Iterator[ComputedTable]:
    """The season's tables, one at a time: each tournament's as soon as it is computed (its
    placements read as they come, `streamed_placements`), then the season standings from
    them in the season's order."""
    settings = engine_settings(parse_settings(season.settings))
    tournaments = list(season.tournaments.all())
    outs: list[tuple[int, engine.TournamentOut]] = []
    yield from _tournament_tables(
        streamed_placements(season, tournaments), settings, tournaments, outs=outs
    )
    yield standings_table([out for _position, out in sorted(outs, key=lambda o: o[0])], settings)


def _slim(out: engine.TournamentOut) -> engine.TournamentOut:
    """What the season standings read of a tournament: players, points, NR, flags."""
    return engine.TournamentOut(
        id=out.id,
        participants=out.participants,
        country_participants=out.country_participants,
        ranking_sum=out.ranking_sum,
        max_points=out.max_points,
        series=(),
        entries=tuple(engine.Played(e.player, e.points, e.nr) for e in out.entries),
        sm=out.sm,
        egp=out.egp,
    )


def standings_table(outs: list[engine.TournamentOut], settings: engine.Settings) -> ComputedTable:
    rows = RowsOf(
        engine.season_standings(outs, settings),
        lambda row: ComputedRow(
            player=row.player,
            rank=row.rank,
            points=row.points,
            detail=standing_detail(row, settings.season_tiebreaks),
        ),
    )
    return ComputedTable(
        kind=KIND_STANDINGS,
        # `lines`: how many rows, so a page reads one page of them without counting
        data={
            "best_n": settings.best_n,
            "sm_tiebreak": settings.sm_tiebreak,
            "lines": len(rows),
            **standings_options(settings),
        },
        rows=rows,
    )


def standings_options(settings: engine.Settings) -> dict:
    """What the season standings' data keeps of chess-othello-options.md §3, where not the
    default: the series reading and the tie-break chain (the keys in force)."""
    options: dict[str, Any] = {}
    if settings.series_rule != engine.CHAINED:
        options["series_rule"] = settings.series_rule
    if settings.season_tiebreaks:
        options["tiebreaks"] = list(settings.tiebreaks)
    return options


def _pick(row: dict, fields: tuple[str, ...]) -> dict:
    return {name: row[name] for name in fields if name in row}


def document(season: Season, tables: list) -> dict:
    """The export_standings document of interchange.md, from the stored tables (each with its
    rows' details in `row_details`)."""
    by_kind: dict[str, list] = defaultdict(list)
    for table in tables:
        by_kind[table.kind].append(table)
    standings = by_kind[KIND_STANDINGS][0].row_details if by_kind[KIND_STANDINGS] else []
    return {
        "tournaments": [
            {
                **_pick(t.data, TOURNAMENT_FIELDS),
                "points": [_pick(r, POINTS_FIELDS) for r in t.row_details],
            }
            for t in by_kind[KIND_TOURNAMENT]
        ],
        "standings": [_pick(r, STANDINGS_FIELDS) for r in standings],
    }


def flat_tables(document: dict) -> dict[str, tuple[tuple[str, ...], list[dict]]]:
    """The document as flat tables for CSV, one per standings table, each with its header."""
    tables: dict[str, tuple[tuple[str, ...], list[dict]]] = {
        "tournaments": (
            TOURNAMENT_FIELDS,
            [_pick(t, TOURNAMENT_FIELDS) for t in document["tournaments"]],
        )
    }
    for t in document["tournaments"]:
        tables[f"tournament-{t['id']}-points"] = (POINTS_FIELDS, t["points"])
    tables["standings"] = (STANDINGS_FIELDS, document["standings"])
    return tables


# --- an incremental update: what one change reaches ----------------------------------------------


def _stored_lines(table_ids: list[int]) -> dict[int, list[tuple[str, int | None]]]:
    """Stored tournament tables' (player, points) in place order, by table, from their lines
    (points None: a player of another country)."""
    from rankings.models import StandingsRow

    lines: dict[int, list[tuple[str, int | None]]] = defaultdict(list)
    for table_id, player, points in (
        StandingsRow.objects.filter(table_id__in=table_ids)
        .order_by("table_id", "position")
        .values_list("table_id", "player__key", "points")
    ):
        lines[table_id].append((player, None if points is None else int(points)))
    return lines


def _stored_points(tables: list) -> dict[int, list[tuple[str, int | None]]]:
    """Stored tournament tables' (player, points) in place order, by table pk: from each
    table's data (its participants in place order and its series: no line read), or from the
    lines of a table stored before its data kept the order."""
    found: dict[int, list[tuple[str, int | None]]] = {}
    older = []
    for tb in tables:
        order, series = tb.data.get("order"), tb.data.get("series")
        other = tb.data.get("other_country")
        if not (isinstance(order, list) and isinstance(series, list) and isinstance(other, list)):
            older.append(tb.pk)  # stored before the data kept the order (or edited by hand)
            continue
        if len(order) != len(series):
            older.append(tb.pk)
            continue
        other = set(other)
        found[tb.pk] = [
            (player, None if i in other else series[i]) for i, player in enumerate(order)
        ]
    if older:
        found.update(_stored_lines(older))
    return found


def _stored_out(
    key: str,
    sm: bool,
    egp: bool,
    lines: list[tuple[str, int | None]],
    nr: dict[str, Fraction] | None = None,
) -> engine.TournamentOut:
    """What the season standings read of a stored tournament table: its players and points
    (None: a player of another country), and (`nr`, for the SM tie-break) each player's last
    NR of the season. Nothing else of it is read."""
    zero = Fraction(0)
    nr = nr or {}
    return engine.TournamentOut(
        id=key,
        participants=len(lines),
        country_participants=0,
        ranking_sum=zero,
        max_points=zero,
        series=(),
        entries=tuple(
            engine.Played(player, points, nr.get(player, zero)) for player, points in lines
        ),
        sm=sm,
        egp=egp,
    )


def update(season: Season, scopes: frozenset[str]) -> Update | None:
    """Recompute the tournaments that changed, then the season standings from them and the
    stored lines of every other tournament. None (a full compute) when a change is not one
    tournament's placements, when the tournaments themselves changed (one added, removed or
    moved), or with the SM tie-break (it reads every participant's rating)."""
    from rankings.models import StandingsTable

    changed: set[int] = set()
    for scope in scopes:
        if not scope.startswith(SCOPE_PREFIX) or not scope[len(SCOPE_PREFIX) :].isdigit():
            return None
        changed.add(int(scope[len(SCOPE_PREFIX) :]))
    settings = engine_settings(parse_settings(season.settings))
    if engine.NR in settings.tiebreaks:
        return None
    tournaments = list(season.tournaments.all())
    stored = {
        tb.key: tb
        for tb in StandingsTable.objects.filter(season=season, kind=KIND_TOURNAMENT).only(
            "pk", "key", "position", "data"
        )
    }
    if {key: tb.position for key, tb in stored.items()} != {
        t.key: position for position, t in enumerate(tournaments)
    }:
        return None
    if not changed <= {t.pk for t in tournaments}:
        return None
    # The changed tournaments, computed as a full compute computes them.
    placements: dict[int, list[tuple]] = defaultdict(list)
    for tournament_id, key, *rest in (
        Placement.objects.filter(tournament_id__in=changed)
        .values_list(*PLACEMENT_FIELDS)
        .order_by("tournament_id", "place", "player__key")
    ):
        placements[tournament_id].append((key, *rest))
    recomputed = [t for t in tournaments if t.pk in changed]
    tables = list(
        _tournament_tables([(t, placements[t.pk]) for t in recomputed], settings, tournaments)
    )
    fresh = {table.key: table for table in tables}
    # Every other tournament as stored: its players and points.
    lines = _stored_points([tb for key, tb in stored.items() if key not in fresh])
    outs = []
    for t in tournaments:
        sm, egp = tournament_flags(t.options)
        table = fresh.get(t.key)
        if table is not None:
            got = [(r.player, r.points) for r in table.rows]
        else:
            got = lines[stored[t.key].pk]
        outs.append(_stored_out(t.key, sm, egp, got))
    return Update(tables=[*tables, standings_table(outs, settings)])


# --- the what-if page: other max-points coefficients over the stored season ----------------------


def whatif_outs(
    season: Season, settings: engine.Settings, stored: list | None = None
) -> list[tuple[str, Any]] | None:
    """[(tournament name, engine output)] of the season with the max-points coefficients of
    `settings` (a and b of M = a · S + b), from the stored tables: the ranking sum S, who placed
    where and who is of the country do not depend on a and b, so only each series and the
    season standings are computed afresh (a full compute also rates every participant).

    None when the stored tables may not be those of the current data and settings (results
    entered since, other rating coefficients, country, best-n or tie-break options, tournaments
    added or moved): the caller computes the season in full then. `stored`: the season's
    tournament and standings tables, when the caller has read them already."""
    from rankings.models import StandingsRow, StandingsTable

    if season.stale or season.standings_version == 0:
        return None
    if stored is None:
        stored = list(
            StandingsTable.objects.filter(season=season, kind__in=[KIND_TOURNAMENT, KIND_STANDINGS])
        )
    stored = sorted(stored, key=lambda tb: tb.position)
    standings = [tb for tb in stored if tb.kind == KIND_STANDINGS]
    stored = [tb for tb in stored if tb.kind == KIND_TOURNAMENT]
    tournaments = list(season.tournaments.all())
    if [tb.key for tb in stored] != [t.key for t in tournaments] or len(standings) != 1:
        return None
    if (standings[0].data.get("best_n"), standings[0].data.get("sm_tiebreak")) != (
        settings.best_n,
        settings.sm_tiebreak,
    ):
        return None
    kept = standings[0].data
    if {k: kept[k] for k in ("series_rule", "tiebreaks") if k in kept} != standings_options(
        settings
    ):
        return None
    rating_texts = {
        name: text
        for name, text in coefficient_texts(settings).items()
        if name not in ("max_factor", "max_base")
    }
    for tb in stored:
        kept = tb.data.get("coefficients", {})
        if tb.data.get("country") != settings.country or any(
            kept.get(name) != text for name, text in rating_texts.items()
        ):
            return None
    lines = _stored_points(stored)
    last_nr: dict[str, Fraction] = {}
    if engine.NR in settings.tiebreaks:
        last_nr = {
            player: Fraction(text)
            for player, text in StandingsRow.objects.filter(table=standings[0]).values_list(
                # KT: the exact decimal text on every database (SQLite's JSON extraction
                # would give "1183.164" back as a float)
                "player__key",
                KT("detail__rating_text"),
            )
            if text is not None
        }
    c = settings.coefficients
    found = []
    for tb, t in zip(stored, tournaments, strict=True):
        sm, egp = tournament_flags(t.options)
        got = lines[tb.pk]
        s = Fraction(tb.data["ranking_sum_text"])
        m = engine.max_points(s, c)
        series = engine.series(m, len(got), settings.series_rule)
        # The place's points of the new series, to whoever received points (of the country).
        out = _stored_out(
            t.key,
            sm,
            egp,
            [
                (player, None if points is None else g)
                for (player, points), g in zip(got, series, strict=True)
            ],
            nr=last_nr,
        )
        found.append((t.name, replace(out, ranking_sum=s, max_points=m, series=tuple(series))))
    return found


def season_outs(
    season: Season, settings: engine.Settings, stored: list | None = None
) -> list[tuple[str, Any]]:
    """[(tournament name, engine output)] of the season with `settings`: from the stored
    tables (`whatif_outs`) when they are those of the current data, else computed in full."""
    outs = whatif_outs(season, settings, stored)
    if outs is None:
        tournaments, placements = load_season(season)
        computed = engine.compute_tournaments(season_input(tournaments, placements, settings))
        outs = [(t.name, t_out) for t, t_out in zip(tournaments, computed, strict=True)]
    return outs
