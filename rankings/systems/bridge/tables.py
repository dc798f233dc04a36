"""django-tables2 tables of the bridge ladder's public pages. Rows are dicts from the stored
standings; every Elo change opens its duels, every total its parts (rules.md §5)."""

from decimal import ROUND_HALF_UP, Decimal

import django_tables2 as tables
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from rankings.tables import (
    BaseTable,
    LinesTable,
    PlayerColumn,
    RankColumn,
    deciding,
    local_decimal,
    rounding_gap,
    rounding_text,
    shown_number,
    signed_gap,
)

from .standings import challenge_of

NUMBER = {"td": {"class": "text-end text-nowrap"}, "th": {"class": "text-end"}}
# A column hidden on phones, where the player and the numbers matter most.
WIDE_ONLY = {
    "td": {"class": "text-end d-none d-md-table-cell"},
    "th": {"class": "text-end d-none d-md-table-cell"},
}
MINUS = "\u2212"


def imps_text(value) -> str:
    """IMPs as the club writes them: 12.5, −3, 0 (12,5 in Dutch, Swedish and Norwegian; a
    missed challenge: "–")."""
    if value is None:
        return "–"
    text = format(Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP), "f")
    text = text.rstrip("0").rstrip(".") if "." in text else text
    if text in ("-0", ""):
        return "0"
    return local_decimal(text.replace("-", MINUS))


def signed(value: int) -> str:
    """A whole-number change with its sign: +50, −25, 0."""
    if value > 0:
        return f"+{value}"
    return f"{MINUS}{-value}" if value < 0 else "0"


def decimals(value: float, places: int, sign: bool = False) -> str:
    """A number to `places` decimals, rounded half up, in the page language's separator."""
    text = format(Decimal(str(value)).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP), "f")
    if sign and not text.startswith("-") and Decimal(text) != 0:
        text = "+" + text
    return local_decimal(text.replace("-", MINUS))


def move_badge(move: str, provisional: bool = False) -> str:
    # A provisional move is drawn in the pale variant of its colour (a faded badge read 2.8:1,
    # below WCAG AA's 4.5:1).
    labels = {
        "up": ("text-bg-success", "bg-success-subtle text-success-emphasis", "▲", _("up")),
        "down": ("text-bg-danger", "bg-danger-subtle text-danger-emphasis", "▼", _("down")),
        "stay": ("text-bg-light border", "text-bg-light border", "=", _("stays")),
    }
    css, pale, arrow, label = labels[move]
    return format_html(
        '<span class="badge {}" title="{}">{} <span class="d-none d-sm-inline">{}</span>'
        '<span class="visually-hidden d-sm-none">{}</span></span>',
        f"{pale} border" if provisional else css,
        label,
        arrow,
        label,
        label,
    )


def challenges_with_before(detail: dict) -> list[dict]:
    """A stored row's challenges as objects, each with the whole-number rating before it: the
    one after the challenge before, or the round's start (so no rounding drift)."""
    result = []
    before = detail["start_shown"]
    for stored in detail["challenges"]:
        challenge = challenge_of(stored)
        result.append({**challenge, "before_shown": before})
        before = challenge["after_shown"]
    return result


SCORES = {1: "1", 0.5: "½", 0: "0"}


def change_explained(challenge: dict, names: dict[str, str]) -> str:
    """An Elo change that opens its duels: opponent, his rating before, score, expected score,
    K and the sum (rules.md §5)."""
    score = sum(d[2] for d in challenge["duels"])
    expected = sum(d[3] for d in challenge["duels"])
    gap = rounding_gap(expected, [d[3] for d in challenge["duels"]], 3)
    return render_to_string(
        "rankings/bridge/_change.html",
        {
            "c": challenge,
            "shown": signed(challenge["change_shown"]),
            "duels": [
                {
                    "name": names.get(opponent, opponent),
                    "elo": elo,
                    "score": SCORES.get(points, points),
                    "expected": decimals(expected, 3),
                }
                for opponent, elo, points, expected in challenge["duels"]
            ],
            "score": f"{int(score)}½" if score % 1 else str(int(score)),
            "expected": decimals(expected, 3),
            "rounding": signed_gap(gap) if gap else "",
            "elo_rounding": _elo_rounding(challenge),
            "exact": decimals(challenge["change"], 2, sign=True),
        },
    )


def _elo_rounding(challenge: dict) -> str:
    """Where the table shows the Elo before the challenge beside the change and the Elo after,
    each rounded on its own: the sentence on the rounding when they do not add up."""
    if "before_shown" not in challenge or not challenge["duels"]:
        return ""
    before, change = challenge["before_shown"], challenge["change_shown"]
    gap = challenge["after_shown"] - before - change
    if not gap:
        return ""
    return _(
        "Elo %(before)s %(change)s, rounding %(gap)s: %(after)s (each number is rounded on "
        "its own)."
    ) % {
        "before": before,
        "change": signed(change),
        "gap": signed(gap),
        "after": challenge["after_shown"],
    }


# Tables whose cells open an explanation are not wrapped in a scrolling box, which would clip
# it; they are narrow enough for a phone.
UNWRAPPED = "django_tables2/clubsite-unwrapped.html"


class ExplainedMixin:
    """Tables whose cells explain themselves need the players' names for the duels."""

    def __init__(self, *args, names: dict[str, str] | None = None, **kwargs):
        self.names = names or {}
        super().__init__(*args, **kwargs)


class MoveColumn(tables.Column):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("verbose_name", _("Move"))
        kwargs.setdefault("attrs", {"td": {"class": "text-center"}, "th": {"class": "text-center"}})
        super().__init__(*args, **kwargs)

    def render(self, value, record):
        return move_badge(value, record.get("provisional", False))

    def value(self, value):
        return value


class ImpsColumn(tables.Column):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", NUMBER)
        super().__init__(*args, **kwargs)

    def render(self, value):
        return imps_text(value)

    def value(self, value):
        return shown_number(value, 2)


class EloColumn(tables.Column):
    """A rating shown as a whole number (rounded half up from the exact value); exported as
    shown (the JSON download keeps the full precision)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("verbose_name", _("Elo"))
        kwargs.setdefault("attrs", NUMBER)
        super().__init__(*args, **kwargs)

    def render(self, value, record):
        return record["elo_shown"]

    def value(self, record):
        return record["elo_shown"]


class PoolTable(BaseTable):
    """A pool's standings on the ladder page."""

    rank = RankColumn()
    player = PlayerColumn()
    imps = deciding(ImpsColumn(verbose_name=_("IMPs")))
    elo = EloColumn()
    move = MoveColumn(verbose_name="")

    class Meta(BaseTable.Meta):
        orderable = False


class RoundTable(BaseTable):
    """Every pool of a round in one table: the round's download."""

    pool = tables.Column(verbose_name=_("Pool"), attrs=NUMBER)
    rank = RankColumn()
    player = PlayerColumn()
    imps = ImpsColumn(verbose_name=_("IMPs"))
    elo = EloColumn()
    move = MoveColumn()


class PoolStandingsTable(ExplainedMixin, BaseTable):
    """A pool's standings with the IMPs of each challenge, total and Elo explained."""

    rank = RankColumn()
    player = PlayerColumn()
    imps = deciding(ImpsColumn(verbose_name=_("Total IMPs")))
    elo = EloColumn(verbose_name=_("Elo after"))
    move = MoveColumn()

    class Meta(BaseTable.Meta):
        orderable = False
        template_name = UNWRAPPED

    def render_imps(self, value, record):
        parts = [
            imps_text(c["imps"])
            for c in record["challenges"]
            if c["duels"] or c["imps"] is not None  # not the challenges the pool did not play
        ]
        body = format_html(
            "{} = {}",
            " + ".join(f"({p})" if p.startswith(MINUS) else p for p in parts) or "0",
            imps_text(value),
        )
        note = _("A missed challenge (–) counts 0.")
        return format_html(
            '<details class="explain"><summary>{}</summary><div class="explain-body">{}'
            '<div class="small text-body-secondary">{}</div></div></details>',
            imps_text(value),
            body,
            note,
        )

    def render_elo(self, value, record):
        changes = (
            " ".join(signed(c["change_shown"]) for c in record["challenges"] if c["duels"]) or "0"
        )
        return format_html(
            '<details class="explain"><summary>{}</summary><div class="explain-body">{}</div>'
            "</details>",
            record["elo_shown"],
            _("%(start)s at the start of the round, changes %(changes)s: %(end)s")
            % {"start": record["start_shown"], "changes": changes, "end": record["elo_shown"]}
            + rounding_text(
                rounding_gap(
                    record["elo"],
                    [record["start"], *(c["change"] for c in record["challenges"] if c["duels"])],
                    0,
                )
            ),
        )

    def value_imps(self, value):
        return shown_number(value, 2)

    def value_elo(self, record):
        return record["elo_shown"]


class ChallengeTable(ExplainedMixin, BaseTable):
    """One challenge of a pool: IMPs and the Elo change of each player, with its duels."""

    player = PlayerColumn()
    imps = ImpsColumn(verbose_name=_("IMPs"))
    before = tables.Column(verbose_name=_("Elo before"), accessor="before_shown", attrs=NUMBER)
    change = tables.Column(verbose_name=_("Change"), attrs=NUMBER)
    after = tables.Column(verbose_name=_("Elo after"), attrs=NUMBER)

    class Meta(BaseTable.Meta):
        orderable = False
        template_name = UNWRAPPED

    def render_after(self, value, record):
        return record["after_shown"]

    def value_after(self, record):
        return record["after_shown"]

    def render_change(self, value, record):
        return change_explained(record, self.names)

    def value_change(self, record):
        return record["change_shown"]


class EloTable(LinesTable):
    """The club's Elo ranking: the stored lines of the season's Elo table."""

    rank = RankColumn(order_by=("position",))
    player = PlayerColumn()
    elo = deciding(EloColumn(accessor="detail__elo", order_by=("points", "position")))
    pool = tables.Column(
        verbose_name=_("Pool now"),
        accessor="detail__pool",
        order_by=("detail__pool", "position"),
        attrs=NUMBER,
    )
    rounds = tables.Column(
        verbose_name=_("Rounds"),
        accessor="detail__rounds",
        order_by=("detail__rounds", "position"),
        attrs=NUMBER,
    )

    def render_elo(self, record):
        return record.detail["elo_shown"]

    def value_elo(self, record):
        return record.detail["elo_shown"]

    def render_pool(self, value):
        return value if value is not None else "–"


class PlayerEloTable(ExplainedMixin, BaseTable):
    """A player's Elo after every challenge of a season (the chart's numbers)."""

    round = tables.Column(verbose_name=_("Round"), attrs=NUMBER)
    challenge = tables.Column(verbose_name=_("Challenge"), attrs=NUMBER)
    pool = tables.Column(verbose_name=_("Pool"), attrs=WIDE_ONLY)
    imps = ImpsColumn(verbose_name=_("IMPs"))
    change = tables.Column(verbose_name=_("Change"), attrs=NUMBER)
    after = tables.Column(verbose_name=_("Elo"), attrs=NUMBER)

    class Meta(BaseTable.Meta):
        orderable = False
        template_name = UNWRAPPED

    def render_change(self, value, record):
        return change_explained(record, self.names)

    def value_change(self, record):
        return record["change_shown"]

    def render_after(self, value, record):
        return record["after_shown"]

    def value_after(self, record):
        return record["after_shown"]


class PlayerPoolTable(BaseTable):
    """A player's pools, round by round."""

    round = tables.Column(
        verbose_name=_("Round"), attrs=NUMBER, linkify=lambda record: record["url"]
    )
    pool = tables.Column(verbose_name=_("Pool"), attrs=NUMBER)
    rank = RankColumn(verbose_name=_("Place"))
    imps = ImpsColumn(verbose_name=_("IMPs"))
    elo = EloColumn(verbose_name=_("Elo after"))
    move = MoveColumn()

    class Meta(BaseTable.Meta):
        orderable = False
