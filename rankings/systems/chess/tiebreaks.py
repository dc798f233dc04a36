"""The crosstable's tie-break columns when a group is ranked by a list other than today's
(chess-othello-options.md §1): one column per code, headed by its FIDE acronym, each value
opening its explanation (for BH and SB every round's opponent value, the dummy of an unplayed
round, the player's points and the cut)."""

from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competitions.systems.chess import tiebreak_codes as codes
from competitions.text import isolated
from rankings.people import People

from .tables import chess_number

# What each code is, as its column's tooltip and the first line of its explanation.
NAMES = {
    "MK": gettext_lazy("Monrad quality (NSF): the opponents' final points, real games only"),
    "BK": gettext_lazy("Berger quality (NSF): beaten opponents' points plus half of those drawn"),
    "BH": gettext_lazy("Buchholz: the sum of the opponents' adjusted scores"),
    "SB": gettext_lazy("Sonneborn-Berger: each opponent's adjusted score times the points scored"),
    "DE": gettext_lazy("Direct encounter among the players tied at this point (1 is best)"),
    "WIN": gettext_lazy("Rounds won, with or without playing"),
    "WON": gettext_lazy("Games won over the board"),
    "BPG": gettext_lazy("Games played with black"),
    "BWG": gettext_lazy("Games won with black"),
    "PS": gettext_lazy("Progressive score: the sum of the running totals after each round"),
    "REP": gettext_lazy("Rounds one elected to play (not a forfeit loss, absence or bye)"),
    "ARO": gettext_lazy("Average rating of the opponents in real games"),
    "KS": gettext_lazy("Koya: points scored against opponents with at least half the points"),
}
RULES = {
    codes.FIDE2023: gettext_lazy(
        "An unplayed round counts a dummy opponent with the player's own final points (FIDE 2023)."
    ),
    codes.FIDE2026: gettext_lazy(
        "An unplayed round counts a dummy opponent with the player's own final points, capped "
        "at the scheduled opponent's score for a forfeit and at a draw in every round otherwise "
        "(FIDE 2026)."
    ),
    codes.FIDE2009: gettext_lazy(
        "An unplayed round counts a virtual opponent: the player's points before it, the "
        "opposite result, and a draw in every later round (FIDE 2009)."
    ),
}
CUTS = {
    "": "",
    "C1": gettext_lazy("The lowest value is cut (an unplayed round of one's own choice first)."),
    "C2": gettext_lazy(
        "The two lowest values are cut (unplayed rounds of one's own choice first)."
    ),
    "M1": gettext_lazy("The lowest and the highest value are cut."),
    "M2": gettext_lazy("The two lowest and the two highest values are cut."),
}


def title(code: str) -> str:
    """A code's tooltip: what it is."""
    name = NAMES.get(code.partition("/")[0], "")
    modifier = code.partition("/")[2]
    if code == "PS/C1":
        return f"{name}, {_('without the first round')}"
    if modifier == "C1" and code.startswith(("MK", "ARO")):
        return f"{name}, {_('without the lowest')}"
    if modifier == "C2":
        return f"{name}, {_('without the two lowest')}"
    if code.startswith("KS/L"):
        return f"{name} ({modifier})"
    return str(name)


def is_custom(data: dict) -> bool:
    """Whether the group was ranked by a list other than today's, whose columns the crosstable
    shows as always (M1, M2, (M3,) Berger)."""
    found = data.get("codes")
    if not found:
        return False
    return tuple(found) != (codes.NSF_LONG if data["columns"] == 3 else codes.NSF_SHORT)


def _mk_explain(row: dict, cut: int, people: People) -> str:
    """MK/Ck: the Monrad terms, the k lowest struck through (the earliest round among equals)."""
    terms = row["terms"]
    lowest = set(sorted(range(len(terms)), key=lambda i: terms[i]["value"])[:cut])
    body = format_html_join(
        "",
        '<tr class="{}"><td>{}</td><td>{}</td><td class="text-end">{}</td></tr>',
        (
            (
                "text-decoration-line-through text-body-secondary" if i in lowest else "",
                term["round"],
                isolated(people.name(term["opponent"])) if term["opponent"] else _("no real game"),
                chess_number(term["value"]),
            )
            for i, term in enumerate(terms)
        ),
    )
    return format_html(
        '<table class="table table-sm mb-1"><thead><tr><th>{}</th><th>{}</th>'
        '<th class="text-end">{}</th></tr></thead><tbody>{}</tbody></table>',
        _("Round"),
        _("Opponent"),
        _("Points"),
        body,
    )


def _items_explain(row: dict, code: str, items: list, data: dict, people: People) -> str:
    """BH or SB: per round the opponent (or the dummy), his value, the player's points, the
    category of an unplayed round and the cut."""
    sb = code.startswith("SB")
    opponents = row.get("opponents") or []
    rows = format_html_join(
        "",
        '<tr class="{}"><td>{}</td><td>{}</td><td class="text-end">{}</td>'
        '<td class="text-end">{}</td>{}</tr>',
        (
            (
                "text-decoration-line-through text-body-secondary" if cut else "",
                number,
                (
                    format_html("{} <small>({})</small>", _("dummy"), category)
                    if dummy
                    else isolated(people.name(opponents[number - 1]))
                    if number - 1 < len(opponents) and opponents[number - 1]
                    else ""
                ),
                chess_number(v),
                chess_number(s),
                format_html('<td class="text-end">{}</td>', chess_number(_product(v, s)))
                if sb
                else "",
            )
            for number, v, s, category, dummy, cut in items
        ),
    )
    notes = [str(NAMES[code[:2]]) + "."]
    if data.get("round_robin"):
        notes.append(_("Round robin: each opponent's final points; a forfeit counts as a game."))
    else:
        notes.append(
            _(
                "An opponent's adjusted score counts a draw for each round after their last "
                "round played or scheduled."
            )
        )
        notes.append(str(RULES.get(data.get("unplayed_rounds"), "")))
    cut = str(CUTS.get(code.partition("/")[2], ""))
    if cut:
        notes.append(cut)
    return format_html(
        '<div class="small mb-1">{}</div><table class="table table-sm mb-1"><thead><tr>'
        '<th>{}</th><th>{}</th><th class="text-end">{}</th><th class="text-end">{}</th>{}'
        "</tr></thead><tbody>{}</tbody></table>",
        " ".join(n for n in notes if n),
        _("Round"),
        _("Opponent"),
        _("Value"),
        _("Scored"),
        format_html('<th class="text-end">{}</th>', _("Product")) if sb else "",
        rows,
    )


def _product(v, s):
    value = v * s
    return int(value) if value == int(value) else value


def explain(row: dict, code: str, value, data: dict, people: People, berger) -> str:
    """The explanation of one tie-break value of a row."""
    name = code.partition("/")[0]
    if name == "MK":
        cut = int(code[-1]) if "/" in code else 0
        return format_html(
            '<div class="small mb-1">{}</div>{}<div class="small">{}</div>',
            title(code),
            _mk_explain(row, cut, people),
            _("Sum: %(sum)s") % {"sum": chess_number(value)},
        )
    if name == "BK":
        return berger(row, people)
    items = (row.get("tiebreak_terms") or {}).get(code)
    if items is not None:
        return format_html(
            '{}<div class="small">{}</div>',
            _items_explain(row, code, items, data, people),
            _("Sum: %(sum)s") % {"sum": chess_number(value)},
        )
    if name == "DE" and value is None:
        return format_html("{}", _("Not tied with anyone at this point."))
    return format_html("{}", title(code))


def columns(rows: list[dict], stored: list[dict], data: dict, people: People, berger) -> None:
    """Adds the tie-break values (`tb1`, `tb2`, …) and their explanations to the page's rows."""
    for row, r in zip(rows, stored, strict=True):
        for k, item in enumerate(r.get("tiebreaks", []), start=1):
            row[f"tb{k}"] = item["value"]
            row[f"tb{k}_explain"] = explain(r, item["code"], item["value"], data, people, berger)


def legend(data: dict) -> str:
    """The footer line naming the list: each code and what it is."""
    found = data.get("codes") or []
    parts = format_html_join("; ", "<abbr>{}</abbr> {}", ((c, title(c)) for c in found))
    warning = ""
    if data.get("round_robin") and any(c.startswith("BH") for c in found):
        # §1.5 Decision: FIDE (2026) says Buchholz must not be used in round robins.
        warning = _("This group is a round robin: FIDE advises against Buchholz here.")
    return format_html(
        "{} {}. {}",
        _("Tie-breaks after points, in order:"),
        parts,
        warning,
    )


def headers(data: dict) -> list[tuple[str, str]] | None:
    """The crosstable's tie-break columns (code, tooltip), or None for today's columns."""
    if not is_custom(data):
        return None
    return [(code, title(code)) for code in data["codes"]]
