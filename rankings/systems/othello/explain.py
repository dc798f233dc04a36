""" "Every number explains itself": the computation behind each number of the GP pages, as HTML
(`<details class="explain">`), from what the stored tables hold. Nothing here queries."""

from django.template.loader import render_to_string
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from competitions.text import isolated, local_date
from rankings.engines.othello import DIRECT
from rankings.tables import decimal_separator, local_decimal


def details(value, body: str) -> str:
    """The shared explain markup: the number, which opens its computation."""
    return format_html(
        '<details class="explain"><summary>{}</summary><div class="explain-body">{}</div>'
        "</details>",
        value,
        body,
    )


def x_text(x: float | None) -> str:
    """The series factor as the pages show it, to 6 decimals in the page language's separator."""
    return "–" if x is None else local_decimal(f"{x:.6f}")


def series_text(series: list[int]) -> str:
    """A points series, its trailing zeros summed up: "15, 8, 4, 2, 1, 0 ×3"."""
    zeros = len(series) - len([g for g in series if g])
    shown = [str(g) for g in series if g]
    if zeros == 1:
        shown.append("0")
    elif zeros:
        shown.append(f"0\u00a0×{zeros}")
    return ", ".join(shown)


def _text(message: str, **values) -> str:
    """A translated sentence with its values escaped (as `{% blocktranslate %}` renders it;
    the msgids are those of the explain templates, so their translations hold)."""
    return message % {name: conditional_escape(value) for name, value in values.items()}


def nr(entry: dict, tournament: dict) -> str:
    """A participant's Nordic-equivalent rating and contribution to the ranking sum. Built
    as text, not from a template: a page shows one per line."""
    sep = decimal_separator()
    c = {name: local_decimal(str(value), sep) for name, value in tournament["coefficients"].items()}
    number = {
        name: None if entry[name] is None else local_decimal(str(entry[name]), sep)
        for name in ("nr", "ffo_used", "contribution")
    }
    rule = entry["rule"]
    if rule == "nordic":
        how = _text(_("Nordic rating: NR = %(nr)s."), nr=number["nr"])
    elif rule == "ffo":
        how = _text(
            _("No Nordic rating; FFO rating r = %(r)s: NR = %(a)s × %(r)s + %(b)s = %(nr)s."),
            a=c["nr_factor"],
            b=c["nr_offset"],
            r=number["ffo_used"],
            nr=number["nr"],
        )
    elif rule == "provisional":
        how = _text(
            _(
                "Provisional FFO rating: r = max(rating − uncertainty, %(floor)s) = %(r)s; NR "
                "= %(a)s × %(r)s + %(b)s = %(nr)s."
            ),
            a=c["nr_factor"],
            b=c["nr_offset"],
            r=number["ffo_used"],
            floor=c["provisional_floor"],
            nr=number["nr"],
        )
    else:
        how = _text(_("No rating (debutant): NR = %(nr)s."), nr=number["nr"])
    adds = _text(
        _("Adds max(0, %(nr)s − %(floor)s) = %(value)s to the ranking sum."),
        floor=c["rating_floor"],
        nr=number["nr"],
        value=number["contribution"],
    )
    label = _("Rating entry")  # outside the f-string, where makemessages finds it
    body = (
        f'<div class="small"><div class="text-body-secondary mb-1">'
        f"{conditional_escape(entry['country'])} · {conditional_escape(label)}: "
        f"{conditional_escape(entry['rating_text'])}</div>\n{how}\n"
        f'<div class="mt-1">{adds}</div></div>'
    )
    return details(number["nr"], mark_safe(body))


def points(entry: dict, tournament: dict) -> str:
    """The points of a place (the entry's `k`-th of the series): g1 = floor(M), then the
    floored chain, and who receives them. Built as text, like `nr`."""
    k = entry["k"]
    series = tournament["series"]
    above = series[k - 2] if k > 1 else None
    x = tournament["x"]
    m = local_decimal(tournament["max_points_text"])
    g = entry["series_points"]
    if k > 1 and tournament.get("series_rule") == DIRECT:
        n = tournament["participants"]
        formula = _text(
            _(
                "Place %(k)s gets g%(k)s = floor(M · x^%(km)s) = floor(%(m)s^(%(nk)s/%(n1)s)) "
                "= %(g)s (direct reading)."
            ),
            k=k,
            km=k - 1,
            m=m,
            nk=n - k,
            n1=n - 1,
            g=g,
        )
        exact_text = _text(
            _(
                "Exact: %(g)s is the largest whole number h with h^%(n1)s ≤ %(m)s^%(nk)s, so "
                "no float rounding decides it."
            ),
            g=g,
            n1=n - 1,
            m=m,
            nk=n - k,
        )
        how = f'<div>{formula}</div>\n<div class="text-body-secondary mt-1">{exact_text}</div>'
    elif k == 1:
        how = "<div>{}</div>".format(
            _text(_("Place 1 gets g1 = floor(M) = floor(%(m)s) = %(g)s."), m=m, g=g)
        )
    else:
        chain = _text(
            _("Place %(k)s gets g%(k)s = floor(g%(km)s · x) = floor(%(prev)s × x) = %(g)s"),
            g=g,
            prev=above,
            km=k - 1,
            k=k,
        )
        if above is not None and x is not None:
            product = local_decimal(f"{above * x:.6f}")
            chain += f" ({above} × {conditional_escape(x_text(x))} = {product})"
        exponent = tournament["participants"] - 1
        exact_text = _text(
            _(
                "Exact: %(g)s is the largest whole number h with h^%(n)s × %(m)s ≤ "
                "%(prev)s^%(n)s (x = M^(−1/%(n)s)), so no float rounding decides it."
            ),
            g=g,
            prev=above,
            n=exponent,
            m=m,
        )
        how = f'<div>{chain}.</div>\n<div class="text-body-secondary mt-1">{exact_text}</div>'
    if entry["points"] is None:
        who = _text(
            _(
                "This player plays for %(country)s: only %(home)s players receive points, so "
                "the place's %(g)s points go to nobody."
            ),
            country=entry["country"],
            home=tournament["country"],
            g=g,
        )
    else:
        who = _text(_("Received: %(g)s."), g=entry["points"])
    body = f'<div class="small">\n{how}\n<div class="mt-1">{who}</div>\n</div>'
    return details(received(entry["points"], g), mark_safe(body))


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


# The tie-break keys of chess-othello-options.md §3.3 as a reader sees them.
TIEBREAK_NAMES = {
    "SM": lambda: _("SM points"),
    "WOF": lambda: _("WOF rating"),
    "WORLD": lambda: _("world ranking"),
    "NR": lambda: _("rating"),
    "LOT": lambda: _("lot"),
}


def tiebreak_name(key: str, wof_list_date=None) -> str:
    """A tie-break key as a reader sees it; the WOF rating with its list's date when the
    season gives one (chess-othello-options.md §3.3)."""
    if key == "WOF" and wof_list_date is not None:
        return _("WOF rating (list of %(date)s)") % {"date": local_date(wof_list_date)}
    return TIEBREAK_NAMES[key]() if key in TIEBREAK_NAMES else key


def total(row: dict, names: dict[str, str], best_n: int, wof_list_date=None) -> str:
    """A player's season total: the results that counted and those that did not. Built as
    text, like `nr`: the standings show one per line."""
    counted = set(row["counted"])
    no_count = None
    items = []
    for r in row["results"]:
        points = conditional_escape(r["points"])
        if r["tournament"] in counted:
            shown = f"<strong>✔ {points}</strong>"
        else:
            shown = f'<span class="text-body-secondary">({points})</span>'
        name = isolated(names.get(r["tournament"], r["tournament"]))
        note = ""
        if not r["counts"]:
            if no_count is None:
                no_count = conditional_escape(_("European GP without a Swedish GP: does not count"))
            note = f' <span class="text-body-secondary">· {no_count}</span>'
        items.append(f"<li>{shown} {name}{note}</li>")
    tie = ""
    if row.get("tiebreaks"):
        tie = '<div class="text-body-secondary">{}</div>'.format(
            _text(
                _("Tie-breaks in turn: %(values)s."),
                values=" · ".join(
                    f"{tiebreak_name(key, wof_list_date)} "
                    + ("–" if value is None else local_decimal(value))
                    for key, value in row["tiebreaks"]
                ),
            )
        )
    elif row.get("sm_points") is not None:
        tie = '<div class="text-body-secondary">{}</div>'.format(
            _text(
                _("Tie-break: SM points %(sm)s, then rating %(rating)s."),
                sm=row["sm_points"],
                rating=local_decimal(str(row.get("rating_text") or "–")),
            )
        )
    body = (
        '<div class="small">\n<div class="mb-1">{best}</div>\n'
        '<ul class="list-unstyled mb-1">{items}</ul>\n<div>{total}</div>\n{tie}</div>'
    ).format(
        best=_text(_("The best %(best_n)s results count:"), best_n=best_n),
        items="".join(items),
        total=_text(_("Total: %(total)s"), total=row["points"]),
        tie=f"{tie}\n" if tie else "",
    )
    return details(row["points"], mark_safe(body))
