"""Read paths of the Keizer public pages: which lists are stored, the ones a page shows, the
evenings. A page reads a fixed handful of queries whatever the season's size."""

import json
from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction

from django.db import connection
from django.db.models import CharField, Exists, IntegerField, OuterRef
from django.db.models.functions import Cast
from django.utils.formats import get_format
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from competitions.models import Season
from competitions.text import isolated
from rankings.engines import keizer as engine
from rankings.models import StandingsTable
from rankings.people import People
from rankings.tables import display_points, points_writer, rounding_gap

from . import standings

OUTCOME_LABELS = {
    engine.WIN: _("won against"),
    engine.DRAW: _("drew with"),
    engine.LOSS: _("lost to"),
    engine.FORFEIT_WIN: _("won by forfeit against"),
    engine.FORFEIT_LOSS: _("lost by forfeit to"),
    engine.BYE: _("bye"),
    engine.ABSENT: _("absent with notice"),
    engine.EXTERNAL: _("played externally"),
    engine.UNEXCUSED: _("absent without notice"),
    engine.NO_ENTRY: _("not registered"),
    engine.PENDING: _("result not in yet"),
    engine.LONG_ABSENT: _("long-term absent"),
    engine.OWN: _("own value, counted once"),
}
EXTERNAL_RESULT_LABELS = {
    "1": _("played externally and won"),
    "1/2": _("played externally and drew"),
    "0": _("played externally and lost"),
}


def shown(value: Fraction | int | float, places: int = 2, write=display_points) -> str:
    """An exact number rounded half up for display (the exact one stays in the data);
    `write`: display_points, or a page's `points_writer()` (the language looked up once)."""
    value = Fraction(value)
    return write(Decimal(value.numerator) / Decimal(value.denominator), places)


def share(value: Fraction, separator: str = ".") -> str:
    """A weight as people write it: 0.9, 1, 0 (0,9 with a `separator` ","); a fraction where
    decimals do not end (6/7)."""
    value = Fraction(value)
    if 10**4 % value.denominator == 0:
        return str(Decimal(value.numerator) / Decimal(value.denominator)).replace(".", separator)
    return str(value)


def lists_at(season: Season, positions) -> dict[int, StandingsTable]:
    """The stored lists after these rounds, by round (1 query), each with `followed`: whether
    a list after the next round is stored too (a page's "next" link, without reading that
    list: a list of 2000 players is a few hundred kB of JSON)."""
    found = StandingsTable.objects.filter(
        season=season, kind=standings.KIND_LIST, position__in=list(positions)
    ).annotate(
        followed=Exists(
            StandingsTable.objects.filter(
                season=season, kind=standings.KIND_LIST, position=OuterRef("position") + 1
            )
        )
    )
    return {t.position: t for t in found}


def last_lists(season: Season, count: int = 2) -> list[StandingsTable]:
    """The newest `count` lists, newest first (1 query)."""
    return list(
        StandingsTable.objects.filter(season=season, kind=standings.KIND_LIST).order_by(
            "-position"
        )[:count]
    )


def player_places(season: Season, key: str) -> list[dict]:
    """The player's place in every stored list that has him, in round order (1 query): after
    which round, their rank, score and value."""
    found = []
    lists = (
        StandingsTable.objects.filter(season=season, kind=standings.KIND_LIST)
        .order_by("position")
        .values_list("position", "data")
    )
    for position, data in lists:
        for index, line in enumerate(data["ranking"]):
            if line[0] == key:
                found.append(
                    {
                        "after": position,
                        "rank": index + 1,
                        "score": line[1],
                        "value": standings.number(standings.place_value(data, index)),
                    }
                )
                break
    return found


def round_tables(season: Season, numbers: Iterable[int] | None = None) -> list[StandingsTable]:
    """The season's stored evenings (or only those numbered `numbers`), in order (1 query),
    their games as objects; each with `followed`: whether the evening after it is stored."""
    found = StandingsTable.objects.filter(season=season, kind=standings.KIND_ROUND)
    if numbers is not None:
        found = found.filter(key__in=[str(n) for n in numbers])
    found = list(
        found.annotate(
            followed=Exists(
                StandingsTable.objects.filter(
                    season=season,
                    kind=standings.KIND_ROUND,
                    key=Cast(Cast(OuterRef("key"), IntegerField()) + 1, CharField()),
                )
            )
        ).order_by("position")
    )
    for table in found:
        table.data = standings.evening_data(table.data)
    return found


# A page explains the lines it shows (up to a club's list whole, 100); with more players (a
# download of the whole list) the evenings are read whole.
PICK_UP_TO = 200


def evenings_of(
    season: Season, players: Iterable[str], numbers: Iterable[int] | None = None
) -> list[StandingsTable]:
    """The season's stored evenings (or those numbered `numbers`) in order (1 query), each
    played one with only the games and attendance of `players` (`standings.only_players`),
    what a page needs to explain the lines it shows; an evening not played yet whole (a page
    shows its state). On PostgreSQL they are picked out in the database: an evening of 2000
    players is about 1000 games, and a page of a list shows 25 lines."""
    wanted = set(players)
    if len(wanted) > PICK_UP_TO:
        return round_tables(season, numbers)
    if connection.vendor != "postgresql":
        found = round_tables(season, numbers)
        for table in found:
            if table.data.get("counted"):
                table.data = standings.only_players(table.data, wanted)
        return found
    # Games are stored as arrays (standings.GAME_FIELDS; objects in tables stored before):
    # white and black by index or by name. `IN (SELECT unnest(...))` is a hashed lookup.
    keys = "(SELECT unnest(%s::text[]))"
    white = "CASE WHEN jsonb_typeof(g) = 'array' THEN g ->> 1 ELSE g ->> 'white' END"
    black = "CASE WHEN jsonb_typeof(g) = 'array' THEN g ->> 2 ELSE g ->> 'black' END"
    parts = [
        "'games', coalesce((SELECT jsonb_agg(g ORDER BY o) FROM "
        "jsonb_array_elements(t.data -> 'games') WITH ORDINALITY AS x(g, o) "
        f"WHERE {white} IN {keys} OR {black} IN {keys}), '[]'::jsonb)"
    ] + [
        f"'{name}', coalesce((SELECT jsonb_agg(p ORDER BY o) FROM "
        f"jsonb_array_elements_text(t.data -> '{name}') WITH ORDINALITY AS x(p, o) "
        f"WHERE p IN {keys}), '[]'::jsonb)"
        for name in standings.ATTENDANCE
    ]
    table = connection.ops.quote_name(StandingsTable._meta.db_table)
    sql = (
        "SELECT t.id, t.key, t.position, CASE WHEN t.data -> 'counted' = 'true'::jsonb "
        f"THEN t.data || jsonb_build_object({', '.join(parts)}) ELSE t.data END::text "
        f"FROM {table} t WHERE t.season_id = %s AND t.kind = %s"
    )
    listed = sorted(wanted)
    params: list = [listed] * (len(parts) + 1) + [season.pk, standings.KIND_ROUND]
    if numbers is not None:
        sql += " AND t.key = ANY(%s)"
        params.append([str(n) for n in numbers])
    with connection.cursor() as cursor:
        cursor.execute(sql + " ORDER BY t.position", params)
        found = cursor.fetchall()
    return [
        StandingsTable(
            id=pk,
            season=season,
            kind=standings.KIND_ROUND,
            key=key,
            position=position,
            data=standings.evening_data(json.loads(data)),
        )
        for pk, key, position, data in found
    ]


def opponents(evenings: list[StandingsTable], players: set[str]) -> set[str]:
    """The keys of everybody who played one of `players` in these evenings."""
    found = set()
    for evening in evenings:
        for g in evening.data["games"]:
            if g["white"] in players:
                found.add(g["black"])
            if g["black"] in players:
                found.add(g["white"])
    return found


def explained_rows(
    listed: StandingsTable,
    before: StandingsTable | None,
    evenings: list[StandingsTable],
    people: People,
    only: set[str] | None = None,
) -> list[dict]:
    """The lines of a list (or of the players `only`), each with the breakdown of its score
    ("every number explains itself"): per round the result, the value it is a share of in the
    list after the previous round, the factor and the points; and the fading start points."""
    rows = [
        line for line in standings.ranking_of(listed.data) if only is None or line["player"] in only
    ]
    return explain_rows(rows, listed, before, evenings, people)


def explain_rows(
    rows: list[dict],
    listed: StandingsTable,
    before: StandingsTable | None,
    evenings: list[StandingsTable],
    people: People,
) -> list[dict]:
    """Fill in these lines of the list `listed` (`standings.ranking_of`), in place: name, club,
    link, and the breakdown of the score. Only the lines a page shows need it (a page of a list
    of 2000 players shows 100)."""
    if not rows:
        return rows
    after = listed.data["after"]
    factors = standings.factors_of(listed.data["factors"])
    variant = standings.variant_of(listed.data)
    values_before = (
        {line[0]: before.data["top"] - before.data["step"] * i
         for i, line in enumerate(before.data["ranking"])}
        if before is not None and variant is None
        else {}
    )  # fmt: skip
    wanted = {row["player"] for row in rows}
    outcomes = standings.breakdown_rounds(evenings, wanted)
    weight = Fraction(listed.data["weight"])
    weight_shown = share(weight, get_format("DECIMAL_SEPARATOR"))  # as the page's other numbers
    describe = _Lines(people)
    write = describe.write
    for row in rows:
        start = Fraction(row["start_points"]).limit_denominator(10**4)
        lines = standings.breakdown(row["player"], after, outcomes, values_before, factors, variant)
        score = Fraction(row["score"])
        row.update(
            people.decorate(row),
            # What the shown parts of the score and of the key miss of the shown totals.
            score_gap=rounding_gap(score, [item.points for item in lines]),
            key_gap=rounding_gap(row["key"], [score, weight * start]),
            after=after,
            before=after - 1,
            weight=weight_shown,
            start_part=shown(weight * start, write=write),
            start_shown=str(start) if start.denominator == 1 else shown(start, write=write),
            lines=[describe(item) for item in lines],
            top=listed.data["top"],
            step=listed.data["step"],
            variant=variant,
        )
    return rows


class _Lines:
    """Breakdown lines for display; labels, names and links are made once per page, not once
    per line (a list of 60 players after 35 rounds has 2,100 lines)."""

    def __init__(self, people: People) -> None:
        self.people = people
        self.labels = {kind: str(label) for kind, label in OUTCOME_LABELS.items()}
        self.external = {result: str(label) for result, label in EXTERNAL_RESULT_LABELS.items()}
        self.own = str(_("own"))
        self.links: dict[str, SafeString] = {}
        self.write = points_writer()

    def link(self, key: str) -> SafeString:
        if key not in self.links:
            self.links[key] = format_html(
                '<a href="{}">{}</a>',
                self.people.url(key),
                isolated(self.people.name(key)),
            )
        return self.links[key]

    def __call__(self, line: engine.BreakdownLine) -> dict:
        opponent = line.outcome.opponent
        if line.value is None:
            value = "–"
        else:
            value = str(line.value) if isinstance(line.value, int) else shown(line.value)
            if isinstance(line.value, Fraction) and line.value.denominator == 1:
                value = str(line.value.numerator)
            if line.valued == "own":
                value = f"{value} ({self.own})"
        label = self.labels.get(line.outcome.kind, line.outcome.kind)
        if line.outcome.kind == engine.EXTERNAL and line.outcome.result:
            label = self.external.get(line.outcome.result, label)
        return {
            "round": line.round or "",
            "label": label,
            "opponent": opponent,
            "opponent_link": self.link(opponent) if opponent else "",
            "value": value,
            "factor": str(line.factor),
            "points": shown(line.points, write=self.write),
            "note": term_note(line.term) if line.term is not None else "",
        }


def term_note(term: engine.Term) -> str:
    """What a cap, a halving or a withdrawn opponent did to a result (keizer-variants.md
    §2.6–2.8), in a short sentence; "" when none applied."""
    notes = []
    if term.withdrawn:
        notes.append(
            _("the opponent withdrew: %(factor)s of the own value") % {"factor": term.factor}
        )
    if term.capped:
        notes.append(
            _("absence %(n)s of this kind, over the limit: scores nothing") % {"n": term.nth}
        )
    if term.halving > 1:
        notes.append(
            _("absence %(n)s this season: the share %(factor)s halved to %(share)s")
            % {"n": term.halving, "factor": term.factor, "share": term.share}
        )
    return "; ".join(str(n) for n in notes)
