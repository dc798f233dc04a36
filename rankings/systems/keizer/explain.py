"""Every number explains itself: the HTML that opens a score, a value or a ranking key into its
computation (the shared `<details class="explain">` markup; no script). Built in Python, not in
a template: a list of 60 players after 35 rounds has 2,100 breakdown lines."""

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from rankings.tables import display_points


def _details(summary: str, body: SafeString) -> SafeString:
    return format_html(
        '<details class="explain"><summary>{}</summary><div class="explain-body">{}</div>'
        "</details>",
        summary,
        body,
    )


def breakdown_table(record: dict) -> SafeString:
    """The lines of a score: round, result and opponent, value, share, points; and the sum."""
    lines = format_html_join(
        "",
        '<tr><td class="text-end">{}</td><td>{} {}</td><td class="text-end">{}</td>'
        '<td class="text-end">{}</td><td class="text-end">{}</td></tr>',
        (
            (
                line["round"],
                line["label"],
                line["opponent_link"],
                line["value"],
                line["factor"],
                line["points"],
            )
            for line in record["lines"]
        ),
    )
    return format_html(
        '<table class="table table-sm mb-1"><thead><tr><th class="text-end">{}</th><th>{}</th>'
        '<th class="text-end">{}</th><th class="text-end">×</th><th class="text-end">{}</th>'
        '</tr></thead><tbody>{}</tbody><tfoot><tr><th colspan="4">{}</th>'
        '<th class="text-end">{}</th></tr></tfoot></table>',
        _("Rd"),
        _("Result"),
        _("Value"),
        _("Points"),
        lines,
        _("Score"),
        display_points(record["score"]),
    )


def start_text(record: dict) -> str:
    return _(
        "Start points %(sp)s × weight %(w)s = %(part)s. Ranking key = %(score)s + %(part)s = "
        "%(key)s."
    ) % {
        "sp": record["start_shown"],
        "w": record["weight"],
        "part": record["start_part"],
        "score": display_points(record["score"]),
        "key": display_points(record["key"]),
    }


def score(record: dict) -> SafeString:
    if record["after"]:
        intro = _(
            "Score after round %(after)s: every result is a share of a value in the list after "
            "round %(before)s, the list round %(after)s was paired from."
        ) % {"after": record["after"], "before": record["before"]}
    else:
        intro = _("No round played yet.")
    body = format_html(
        '<div class="small mb-1"><strong>{}</strong> · {}</div>{}<div class="small">{}</div>',
        record["name"],
        intro,
        breakdown_table(record) if record["lines"] else "",
        start_text(record),
    )
    return _details(display_points(record["score"]), body)


def value(record: dict) -> SafeString:
    text = _(
        "The value of place %(rank)s: top value %(top)s − %(step)s × (%(rank)s − 1) = "
        "%(value)s. Results against this player in the next round are a share of it."
    ) % {
        "rank": record["rank"],
        "top": record["top"],
        "step": record["step"],
        "value": record["value"],
    }
    return _details(str(record["value"]), format_html('<div class="small">{}</div>', text))


def key(record: dict) -> SafeString:
    text = _(
        "Score %(score)s + start points %(sp)s × weight %(w)s (%(part)s) = %(key)s. The list is "
        "ordered by this key; equal keys keep the order of the initial list."
    ) % {
        "score": display_points(record["score"]),
        "sp": record["start_shown"],
        "w": record["weight"],
        "part": record["start_part"],
        "key": display_points(record["key"]),
    }
    return _details(display_points(record["key"]), format_html('<div class="small">{}</div>', text))
