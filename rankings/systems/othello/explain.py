""" "Every number explains itself": the computation behind each number of the GP pages, as HTML
(`<details class="explain">`), from what the stored tables hold. Nothing here queries."""

from django.template.loader import render_to_string
from django.utils.html import format_html


def details(value, body: str) -> str:
    """The shared explain markup: the number, which opens its computation."""
    return format_html(
        '<details class="explain"><summary>{}</summary><div class="explain-body">{}</div>'
        "</details>",
        value,
        body,
    )


def x_text(x: float | None) -> str:
    return "–" if x is None else f"{x:.6f}"


def series_text(series: list[int]) -> str:
    """A points series, its trailing zeros summed up: "15, 8, 4, 2, 1, 0 ×3"."""
    zeros = len(series) - len([g for g in series if g])
    shown = [str(g) for g in series if g]
    if zeros == 1:
        shown.append("0")
    elif zeros:
        shown.append(f"0\u00a0×{zeros}")
    return ", ".join(shown)


def nr(entry: dict, tournament: dict) -> str:
    """A participant's Nordic-equivalent rating and contribution to the ranking sum."""
    body = render_to_string(
        "rankings/othello/explain/nr.html",
        {"e": entry, "c": tournament["coefficients"]},
    )
    return details(entry["nr"], body)


def points(entry: dict, tournament: dict) -> str:
    """The points of a place (the entry's `k`-th of the series): g1 = floor(M), then the
    floored chain, and who receives them."""
    k = entry["k"]
    series = tournament["series"]
    above = series[k - 2] if k > 1 else None
    x = tournament["x"]
    body = render_to_string(
        "rankings/othello/explain/points.html",
        {
            "e": entry,
            "t": tournament,
            "k": k,
            "above": above,
            "product": None if above is None or x is None else f"{above * x:.6f}",
            "x": x_text(x),
            "exponent": tournament["participants"] - 1,
        },
    )
    return details(received(entry["points"], entry["series_points"]), body)


def computation(
    tournament: dict,
    entries: list[dict],
    highlight: str | None = None,
    whole: str | None = None,
) -> str:
    """The computation of a tournament: each participant's rating entry -> NR -> contribution
    (of `entries`: all participants, or the lines around the player's, with `whole` the
    address of the page that has them all), then S, M, x and the series (the player page's
    explanation of a result)."""
    return render_to_string(
        "rankings/othello/explain/computation.html",
        {
            "t": tournament,
            "entries": entries,
            "highlight": highlight,
            "whole": whole,
            "x": x_text(tournament["x"]),
            "series": series_text(tournament["series"]),
        },
    )


def received(points: int | None, series_points: int) -> str:
    """What a participant received; a foreign player's place shows its points in brackets,
    greyed: they exist, but nobody receives them."""
    if points is None:
        return format_html('<span class="text-body-secondary">({})</span>', series_points)
    return str(points)


def result(
    entry: dict, tournament: dict, entries: list[dict], player: str, whole: str | None = None
) -> str:
    """A player's GP points at a tournament, opening the tournament's computation."""
    return details(
        received(entry["points"], entry["series_points"]),
        computation(tournament, entries, highlight=player, whole=whole),
    )


def total(row: dict, names: dict[str, str], best_n: int) -> str:
    """A player's season total: the results that counted and those that did not."""
    counted = set(row["counted"])
    results = [
        {
            "name": names.get(r["tournament"], r["tournament"]),
            "points": r["points"],
            "counted": r["tournament"] in counted,
            "counts": r["counts"],
        }
        for r in row["results"]
    ]
    body = render_to_string(
        "rankings/othello/explain/total.html",
        {"row": row, "results": results, "best_n": best_n},
    )
    return details(row["points"], body)
