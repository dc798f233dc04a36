"""Every number explains itself: the HTML that opens a score, a value or a ranking key into its
computation (the shared `<details class="explain">` markup; no script). Built in Python, not in
a template: a list of 60 players after 35 rounds has 2,100 breakdown lines."""

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from competitions.text import isolated
from rankings.tables import (
    ROUNDING,
    ROUNDING_NOTE,
    display_points,
    escaped,
    rounding_text,
    signed_gap,
)


def _details(summary: str, body: str) -> SafeString:
    return SafeString(
        f'<details class="explain"><summary>{escaped(summary)}</summary>'
        f'<div class="explain-body">{escaped(body)}</div></details>'
    )


def breakdown_table(record: dict) -> SafeString:
    """The lines of a score: round, result and opponent, value, share, points; and the sum.
    Every cell escaped unless it is safe HTML already (the opponent's link)."""
    lines = "".join(
        f'<tr><td class="text-end">{escaped(line["round"])}</td>'
        f"<td>{escaped(line['label'])} {escaped(line['opponent_link'])}"
        + (
            f'<div class="small text-body-secondary">{escaped(line["note"])}</div>'
            if line.get("note")
            else ""
        )
        + "</td>"
        f'<td class="text-end">{escaped(line["value"])}</td>'
        f'<td class="text-end">{escaped(line["factor"])}</td>'
        f'<td class="text-end">{escaped(line["points"])}</td></tr>'
        for line in record["lines"]
    )
    head, score_label = _breakdown_head()
    gap = record.get("score_gap")
    if gap:  # the shown points do not add up to the shown score: the difference, as a line
        lines += (
            f'<tr><td colspan="4">{escaped(ROUNDING)}</td>'
            f'<td class="text-end">{escaped(signed_gap(gap))}</td></tr>'
        )
    note = f'<div class="small">{escaped(ROUNDING_NOTE)}</div>' if gap else ""
    return SafeString(
        f'{head}<tbody>{lines}</tbody><tfoot><tr><th colspan="4">{score_label}</th>'
        f'<th class="text-end">{escaped(display_points(record["score"]))}</th></tr></tfoot>'
        f"</table>{note}"
    )


# The breakdown table's head and its sum's label per language: the same for every line of a
# list (a club's list of 60 players writes 60 of them), so translated once.
_HEADS: dict[str | None, tuple[str, str]] = {}


@receiver(setting_changed)
def _forget_heads(**kwargs) -> None:
    _HEADS.clear()


def _breakdown_head() -> tuple[str, str]:
    language = get_language()
    found = _HEADS.get(language)
    if found is None:
        # Outside the f-string: makemessages does not look inside one (it dropped "Rd").
        rd, result, value, points = _("Rd"), _("Result"), _("Value"), _("Points")
        found = _HEADS[language] = (
            f'<table class="table table-sm mb-1"><thead><tr><th class="text-end">'
            f"{escaped(rd)}</th><th>{escaped(result)}</th>"
            f'<th class="text-end">{escaped(value)}</th><th class="text-end">×</th>'
            f'<th class="text-end">{escaped(points)}</th></tr></thead>',
            escaped(_("Score")),
        )
    return found


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
    } + rounding_text(record.get("key_gap"))


def valuation_text(record: dict) -> str:
    """How the list's results were valued (keizer-variants.md §1.5): with the list before it,
    or with itself (a fixed point, a cycle, or the bound)."""
    variant = record.get("variant")
    if not variant or variant["options"]["valuation"] != "current":
        if not record["after"]:
            return ""
        return _(
            "Score after round %(after)s: every result is a share of a value in the list after "
            "round %(before)s, the list round %(after)s was paired from."
        ) % {"after": record["after"], "before": record["before"]}
    passes = {"passes": variant["passes"], "after": record["after"]}
    if variant["end"] == "cycle":
        return (
            _(
                "Score after round %(after)s: every result is a share of a value in this list "
                "itself. Recomputing went round in a cycle of lists (after %(passes)s "
                "computations), so every value, score and key is the mean over that cycle."
            )
            % passes
        )
    if variant["end"] == "bound":
        return (
            _(
                "Score after round %(after)s: recomputing stopped at the limit of %(passes)s "
                "computations before the list settled; every result is a share of a value in the "
                "list of the computation before the last."
            )
            % passes
        )
    return (
        _(
            "Score after round %(after)s: every result is a share of a value in this list itself; "
            "recomputed until the list stays the same (a fixed point, after %(passes)s "
            "computations)."
        )
        % passes
    )


def score(record: dict) -> SafeString:
    intro = valuation_text(record) or _("No round played yet.")
    table = breakdown_table(record) if record["lines"] else ""
    body = SafeString(
        f'<div class="small mb-1"><strong>{isolated(record["name"])}</strong> · {escaped(intro)}'
        f'</div>{table}<div class="small">{escaped(start_text(record))}</div>'
    )
    return _details(display_points(record["score"]), body)


def value(record: dict) -> SafeString:
    variant = record.get("variant")
    if variant and variant["options"]["normalised_values"]:
        text = _(
            "The value of place %(rank)s on the normalised scale, from %(top)s for the first "
            "place down to 1 for the last in equal steps. Results against this player in the "
            "next round are a share of it."
        ) % {"rank": record["rank"], "top": record["top"], "value": record["value"]}
        return _details(
            str(record["value"]), SafeString(f'<div class="small">{escaped(text)}</div>')
        )
    text = _(
        "The value of place %(rank)s: top value %(top)s − %(step)s × (%(rank)s − 1) = "
        "%(value)s. Results against this player in the next round are a share of it."
    ) % {
        "rank": record["rank"],
        "top": record["top"],
        "step": record["step"],
        "value": record["value"],
    }
    return _details(str(record["value"]), SafeString(f'<div class="small">{escaped(text)}</div>'))


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
    } + rounding_text(record.get("key_gap"))
    return _details(
        display_points(record["key"]), SafeString(f'<div class="small">{escaped(text)}</div>')
    )
