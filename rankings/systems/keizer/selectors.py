"""Read paths of the Keizer public pages: which lists are stored, the rows of the ones a page
shows, the evenings. A page reads a fixed handful of queries whatever the season's size."""

from collections import defaultdict
from decimal import Decimal
from fractions import Fraction

from django.utils.translation import gettext_lazy as _

from competitions.models import Season
from rankings.engines import keizer as engine
from rankings.models import StandingsRow, StandingsTable
from rankings.people import People
from rankings.tables import display_points
from rankings.urls_helpers import player_url

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
}


def shown(value: Fraction | int | float, places: int = 2) -> str:
    """An exact number rounded half up for display (the exact one stays in the data)."""
    value = Fraction(value)
    return display_points(Decimal(value.numerator) / Decimal(value.denominator), places)


def share(value: Fraction) -> str:
    """A weight or factor as people write it: 0.9, 1, 1/6."""
    value = Fraction(value)
    if 10**4 % value.denominator == 0:
        return str(Decimal(value.numerator) / Decimal(value.denominator))
    return str(value)


def list_tables(season: Season) -> list[StandingsTable]:
    """The season's stored lists, without rows, in round order (1 query)."""
    return list(
        StandingsTable.objects.filter(season=season, kind=standings.KIND_LIST).order_by("position")
    )


def with_rows(tables: list[StandingsTable]) -> list[StandingsTable]:
    """Each table's row details in rank order as `row_details` (1 query)."""
    details: dict[int, list[dict]] = defaultdict(list)
    rows = StandingsRow.objects.filter(table__in=tables).order_by("table_id", "position")
    for table_id, detail in rows.values_list("table_id", "detail"):
        details[table_id].append(detail)
    for table in tables:
        table.row_details = details[table.pk]
    return tables


def round_tables(season: Season) -> list[StandingsTable]:
    """The season's stored evenings, in order (1 query)."""
    return list(
        StandingsTable.objects.filter(season=season, kind=standings.KIND_ROUND).order_by("position")
    )


def explained_rows(
    season: Season,
    listed: StandingsTable,
    before: StandingsTable | None,
    evenings: list[StandingsTable],
    people: People,
) -> list[dict]:
    """The rows of a list, each with the breakdown of its score ("every number explains
    itself"): per round the result, the value it is a share of in the list after the previous
    round, the factor and the points; and the fading start points."""
    after = listed.data["after"]
    factors = standings.factors_of(listed.data["factors"])
    values_before = (
        {r["player"]: r["value"] for r in before.row_details} if before is not None else {}
    )
    outcomes = standings.breakdown_rounds(evenings)
    weight = Fraction(listed.data["weight"])
    rows = []
    for row in listed.row_details:
        lines = standings.breakdown(row["player"], after, outcomes, values_before, factors)
        start = Fraction(row["start_points"]).limit_denominator(10**4)
        rows.append(
            {
                **people.decorate(row),
                "after": after,
                "before": after - 1,
                "weight": share(weight),
                "start_part": shown(weight * start),
                "start_shown": str(start) if start.denominator == 1 else shown(start),
                "lines": [line_data(line, people) for line in lines],
                "top": listed.data["top"],
                "step": listed.data["step"],
            }
        )
    return rows


def line_data(line: engine.BreakdownLine, people: People) -> dict:
    opponent = line.outcome.opponent
    return {
        "round": line.round,
        "label": OUTCOME_LABELS.get(line.outcome.kind, line.outcome.kind),
        "opponent": opponent,
        "opponent_name": people.name(opponent) if opponent else "",
        "opponent_url": player_url(people.series.slug, opponent) if opponent else "",
        "result": line.outcome.result,
        "colour": line.outcome.colour,
        "value": line.value,
        "valued": line.valued,
        "factor": str(line.factor),
        "points": shown(line.points),
    }
