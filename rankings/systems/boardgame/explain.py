"""Every number explains itself (board-game circuit): the computation behind a score, a bonus, a
yearly total, a LUDO value, a per-game value and the cap, with its inputs, as the small HTML
table a page opens under the number. Built once per row, every input escaped."""

import html
from fractions import Fraction
from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.html import format_html
from django.utils.safestring import SafeData, SafeString
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

from competitions.text import isolated
from rankings.tables import ROUNDING_NOTE, points_writer, rounding_gap, signed_gap


def _e(value) -> str:
    """What django.utils.html.conditional_escape writes, without its lazy-string wrapper (a
    page of the circuit writes thousands of explanation cells)."""
    return str(value) if isinstance(value, SafeData) else html.escape(str(value))


def _rounded_rows(rows: list, gap, label: str, width: int) -> list:
    """The rows with, when the shown parts do not add up to the shown total (`gap`, see
    rankings.tables.rounding_gap), a last row "Rounding" and the gap in the last column."""
    if not gap:
        return rows
    return [*rows, (label, *[""] * (width - 2), signed_gap(gap))]


def _rounding_note(gap) -> str:
    return f" {ROUNDING_NOTE}" if gap else ""


def _table(header: tuple, rows, footer: SafeString | str = "") -> SafeString:
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in r) + "</tr>" for r in rows)
    foot = f'<div class="small">{_e(footer)}</div>' if footer else ""
    return SafeString(
        f'<table class="table table-sm mb-1"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>{foot}"
    )


# The phrases of the explanations a tournament page writes for every line and seat (about 200
# a page, 1,000 translations): looked up once per language, not once per explanation.
PART = gettext_noop("Part")
POINTS = gettext_noop("Points")
PLACEMENT = gettext_noop("Placement: 100 × (%(x)s − %(p)s) / (%(x)s − 1)")
WIN_BONUS = gettext_noop("Win bonus (best rank at the table)")
TIE_BREAK = gettext_noop("Tie-break: placement / (50 × %(x)s)")
SCORE = gettext_noop("Score = %(score)s")
TABLE = gettext_noop("table %(n)s, %(game)s")
ROUND = gettext_noop("Round")
TABLE_HEADER = gettext_noop("Table")
PARTS = gettext_noop("Placement + bonus + tie-break")
SCORE_HEADER = gettext_noop("Score")
DAILY_TOTAL = gettext_noop("Daily total = %(total)s")
BONUS_UNCAPPED = gettext_noop("X − P + 1 = %(x)s − %(p)s + 1")
BONUS_CAPPED = gettext_noop("max(0, min(X, C) − P + 1) = max(0, min(%(x)s, %(c)s) − %(p)s + 1)")
BONUS_IS = gettext_noop("= %(bonus)s")
BONUS_TERMS = gettext_noop(
    "X participants, C the season's cap, P the daily rank; it does not change the ranking."
)
TOURNAMENT_POINTS = gettext_noop("Daily total %(daily)s + bonus %(bonus)s = %(points)s")
ROUNDING = gettext_noop("Rounding")
PHRASES = (
    PART,
    POINTS,
    PLACEMENT,
    WIN_BONUS,
    TIE_BREAK,
    SCORE,
    TABLE,
    ROUND,
    TABLE_HEADER,
    PARTS,
    SCORE_HEADER,
    DAILY_TOTAL,
    BONUS_UNCAPPED,
    BONUS_CAPPED,
    BONUS_IS,
    BONUS_TERMS,
    TOURNAMENT_POINTS,
    ROUNDING,
)
_LANGUAGES: dict[str | None, tuple[dict[str, str], Any]] = {}


@receiver(setting_changed)
def _forget_languages(**kwargs) -> None:
    """A changed setting (translations, number formats: as Django's own caches of them) makes
    the phrases and number writers be looked up again."""
    _LANGUAGES.clear()


def _in_language() -> tuple[dict[str, str], Any]:
    """The phrases above in the active language and its number writer (`points_writer`)."""
    language = get_language()
    found = _LANGUAGES.get(language)
    if found is None:
        found = _LANGUAGES[language] = ({p: _(p) for p in PHRASES}, points_writer())
    return found


def seat_score(result: dict, players: int) -> SafeString:
    """A round score: placement points + win bonus + tie-break fraction (rules.md §1.1)."""
    t, pts = _in_language()
    gap = rounding_gap(
        result["score"], [(result["placement"], 2), (result["bonus"], 0), (result["fraction"], 2)]
    )
    rows = [
        (t[PLACEMENT] % {"x": players, "p": pts(result["place"], 2)}, pts(result["placement"])),
        (t[WIN_BONUS], pts(result["bonus"], 0)),
        (t[TIE_BREAK] % {"x": players}, pts(result["fraction"])),
    ]
    return _table(
        (t[PART], t[POINTS]),
        _rounded_rows(rows, gap, t[ROUNDING], 2),
        t[SCORE] % {"score": pts(result["score"])} + _rounding_note(gap),
    )


def daily_total(player_tables: list, daily) -> SafeString:
    """A daily total: the sum of the player's round scores (rules.md §1.2)."""
    t, pts = _in_language()
    table = t[TABLE]
    rows = [
        (
            r,
            table % {"n": n, "game": game},
            f"{pts(res['placement'])} + {pts(res['bonus'], 0)} + {pts(res['fraction'])}",
            pts(res["score"]),
        )
        for r, n, game, res in sorted(player_tables, key=lambda t: (t[0], t[1]))
    ]
    gap = rounding_gap(daily, [seat[3]["score"] for seat in player_tables])
    return _table(
        (t[ROUND], t[TABLE_HEADER], t[PARTS], t[SCORE_HEADER]),
        _rounded_rows(rows, gap, t[ROUNDING], 4),
        t[DAILY_TOTAL] % {"total": pts(daily)} + _rounding_note(gap),
    )


def tournament_bonus(participants: int, cap, rank: int, bonus) -> SafeString:
    """max(0, min(X, C) − P + 1), or X − P + 1 without a cap (rules.md §1.2)."""
    t, pts = _in_language()
    if cap is None:
        formula = t[BONUS_UNCAPPED] % {"x": participants, "p": rank}
    else:
        formula = t[BONUS_CAPPED] % {"x": participants, "c": cap, "p": rank}
    return format_html(
        "<div>{}</div><div>{}</div><div class='small'>{}</div>",
        formula,
        t[BONUS_IS] % {"bonus": pts(bonus, 0)},
        t[BONUS_TERMS],
    )


def tournament_points(daily, bonus, points) -> SafeString:
    t, pts = _in_language()
    return format_html(
        "<div>{}</div>",
        t[TOURNAMENT_POINTS] % {"daily": pts(daily), "bonus": pts(bonus, 0), "points": pts(points)},
    )


def yearly(detail: dict, names: dict[str, str], best_n: int) -> SafeString:
    """The best N regular tournaments plus the final (rules.md §1.3)."""
    pts = points_writer()
    counted = detail.get("counted_points", [])
    rows = [
        (isolated(names.get(key, key)), pts(value))
        for key, value in zip(detail["counted"], counted, strict=False)
    ]
    gap = rounding_gap(detail["points"], counted)
    return _table(
        (_("Counted tournament"), _("Tournament points")),
        _rounded_rows(rows, gap, _("Rounding"), 2),
        _("The best %(n)s regular tournaments and the final; sum = %(total)s")
        % {"n": best_n, "total": pts(detail["points"])}
        + _rounding_note(gap),
    )


def ludo(detail: dict, seasons: list) -> SafeString:
    """LUDO(Y) = yearly(Y−2) / 3 + 2 × yearly(Y−1) / 3 + yearly(Y) (rules.md §1.4)."""
    pts = points_writer()
    y2, y1, y = detail.get("terms", [0, 0, 0])
    labels = [s or "?" for s in seasons] if seasons else ["Y−2", "Y−1", "Y"]
    # Each season's share, shown: the LUDO total is their sum (with its rounding line).
    shares = [Fraction(y2) / 3, 2 * Fraction(y1) / 3, Fraction(y)]
    rows = [
        (label, pts(term), weight, pts(share))
        for label, term, weight, share in zip(
            labels, (y2, y1, y), ("1/3", "2/3", "1"), shares, strict=True
        )
    ]
    gap = rounding_gap(detail["points"], shares)
    return _table(
        (_("Season"), _("Yearly points"), _("Weight"), _("Share")),
        _rounded_rows(rows, gap, _("Rounding"), 4),
        _("LUDO = %(total)s") % {"total": pts(detail["points"])} + _rounding_note(gap),
    )


def per_game(detail: dict, names: dict[str, str]) -> SafeString:
    """The round scores at a game's tables / (max(N, 3) + 1) (rules.md §1.5)."""
    pts = points_writer()
    tables = detail.get("tables", [])
    rows = [
        (isolated(names.get(t, t)), r, n, pts(score))
        for t, r, n, score in sorted(tables, key=lambda x: (x[0], x[1], x[2]))
    ]
    total = sum(row[3] for row in tables)
    divisor = max(len(tables), 3) + 1
    gap = rounding_gap(total, [row[3] for row in tables])
    return _table(
        (_("Tournament"), _("Round"), _("Table"), _("Score")),
        _rounded_rows(rows, gap, _("Rounding"), 4),
        _("(%(total)s) / (max(%(n)s, 3) + 1 = %(d)s) = %(value)s")
        % {"total": pts(total), "n": len(tables), "d": divisor, "value": pts(detail["points"])}
        + _rounding_note(gap),
    )


def cap(source: dict) -> SafeString:
    """Where the season's cap comes from (rules.md §1.2)."""
    pts = points_writer()
    kind = source.get("source")
    if kind == "manual":
        text = _("Set by hand by the administrator.")
    elif kind == "off":
        text = _("Switched off by the administrator: the bonus is X − P + 1.")
    elif kind == "none":
        text = _("No previous season and no value by hand: no cap.")
    else:
        counts = source.get("counts", [])
        average = sum(counts) / len(counts) if counts else 0
        origin = (
            _("participants of the regular tournaments of %(season)s")
            % {"season": source.get("season", "")}
            if kind == "previous_season"
            else _("participants per tournament of the previous season (imported)")
        )
        text = _(
            "The average of the %(origin)s: %(counts)s → %(average)s, rounded half up to "
            "tens: %(cap)s."
        ) % {
            "origin": origin,
            "counts": ", ".join(str(c) for c in counts),
            "average": pts(average, 1),
            "cap": source.get("cap"),
        }
    return format_html("<div>{}</div>", text)
