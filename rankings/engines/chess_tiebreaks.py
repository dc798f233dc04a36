"""Configurable chess tie-breaks (chess-othello-options.md §1): the NSF qualities of today and
FIDE's codes (C.07, 2023), with the unplayed-rounds rules `fide2023`, `fide2026` and `fide2009`.

Pure functions on a group's rounds as `chess.group_scaled` reads them: per player and round a
tuple (kind, points in quarter points, opponent, colour). Every value is exact: point values are
whole numbers of quarter points (`UNIT`), counts and ratings whole numbers.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

# The list's grammar and options live with the settings (a pure module of the data layer).
from competitions.systems.chess.tiebreak_codes import (
    AUTO,
    FIDE2009,
    FIDE2023,
    FIDE2026,
    LOT,
    MONRAD,
    NSF,
    ROUND_ROBIN,
    SHARE,
    expand,
    is_nsf_default,
    is_points,
)

UNIT = 4  # quarter points, as chess.UNIT

# Round kinds (the values of chess.py's constants, which imports this module).
WIN, DRAWN, LOSS = "win", "draw", "loss"
FORFEIT_WIN, FORFEIT_LOSS, WALKOVER = "forfeit-win", "forfeit-loss", "walkover"
NOT_PLAYED, UNFINISHED, HALF_BYE = "none", "pending", "half-bye"
REAL = frozenset((WIN, DRAWN, LOSS))
FORFEITS = frozenset((FORFEIT_WIN, FORFEIT_LOSS))
# §1.2: a voluntarily unplayed round (F23 16.1).
VUR = frozenset((FORFEIT_LOSS, NOT_PLAYED, HALF_BYE))
BLACK = "S"

__all__ = [
    "AUTO",
    "FIDE2009",
    "FIDE2023",
    "FIDE2026",
    "LOT",
    "MONRAD",
    "NSF",
    "ROUND_ROBIN",
    "SHARE",
    "expand",
    "is_nsf_default",
    "is_points",
]


@dataclass(frozen=True)
class Item:
    """A round's part of BH or SB (§1.3b/c): opponent value v, the player's points s, VUR flag,
    the round number (1-based), the FIDE category of an unplayed round ("" when played), whether
    v is a dummy, and cut: "" kept, "low" or "high"."""

    round: int
    v: int  # quarters
    s: int  # quarters
    vur: bool
    category: str
    dummy: bool
    cut: str = ""


@dataclass(frozen=True)
class Context:
    """A group's rounds as the tie-breaks read them."""

    players: tuple[str, ...]
    results: tuple[tuple[tuple, ...], ...]  # per player (start order), per round
    scale: dict[str, int]  # kind -> quarters (WIN, DRAWN, LOSS)
    rule: str = FIDE2023
    group_format: str = AUTO
    ratings: tuple[int | None, ...] = ()
    aro_unrated: int | None = None
    monrad_long_from: int = 7

    @property
    def win(self) -> int:
        return self.scale[WIN]

    @property
    def draw(self) -> int:
        return self.scale[DRAWN]


class Computed:
    """Everything the codes read, computed once per group."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        n = len(ctx.players)
        self.index = {p: i for i, p in enumerate(ctx.players)}
        rounds = len(ctx.results[0]) if n else 0
        # NSF: every round, a pending game counting 0 (today).
        self.final_all = [sum(item[1] for item in mine) for mine in ctx.results]
        # FIDE: complete rounds only (§1.2 Decision).
        self.complete = [
            r for r in range(rounds) if all(ctx.results[i][r][0] != UNFINISHED for i in range(n))
        ]
        self.R = len(self.complete)
        self.rows = [[ctx.results[i][r] for r in self.complete] for i in range(n)]
        self.pts = [sum(item[1] for item in mine) for mine in self.rows]
        self.last_ok = []
        for mine in self.rows:
            ok = [k for k, item in enumerate(mine, 1) if item[0] not in VUR]
            self.last_ok.append(ok[-1] if ok else 0)
        self.adj = []
        self.adj2009 = []
        for i, mine in enumerate(self.rows):
            adj = adj09 = 0
            for k, (kind, q, _o, _c) in enumerate(mine, 1):
                late = kind in (NOT_PLAYED, HALF_BYE) and k >= self.last_ok[i]
                adj += ctx.draw if late else q
                adj09 += q if kind in REAL else ctx.draw
            self.adj.append(adj)
            self.adj2009.append(adj09)
        self.round_robin = self._round_robin()

    def _round_robin(self) -> bool:
        fmt = self.ctx.group_format
        if fmt != AUTO:
            return fmt == ROUND_ROBIN
        n = len(self.ctx.players)
        if n < 2:
            return False
        met = set()
        for i, mine in enumerate(self.ctx.results):
            for kind, _q, o, _c in mine:
                if kind in REAL or kind in FORFEITS:
                    met.add(frozenset((i, self.index[o])))
        return len(met) == n * (n - 1) // 2

    def category(self, i: int, k: int, kind: str) -> str:
        """F23 16.2 category of player i's unplayed round k (1-based among complete rounds)."""
        if kind == WALKOVER:
            return "16.2.1"
        if kind == FORFEIT_WIN:
            return "16.2.2"
        if kind == FORFEIT_LOSS:
            return "16.2.4"
        return "16.2.3" if k < self.last_ok[i] else "16.2.5"

    def items(self, i: int) -> list[Item]:
        """§1.3b (and §1.5 in a round robin): the rounds of player i as BH/SB items."""
        ctx = self.ctx
        out = []
        before = 0
        for k, (kind, q, o, _c) in enumerate(self.rows[i], 1):
            if self.round_robin:
                if o is not None:  # a round without a scheduled opponent contributes nothing
                    out.append(Item(k, self.pts[self.index[o]], q, False, "", False))
            elif kind in REAL:
                opp = self.index[o]
                v = self.adj2009[opp] if ctx.rule == FIDE2009 else self.adj[opp]
                out.append(Item(k, v, q, False, "", False))
            else:
                if ctx.rule == FIDE2023:
                    v = self.pts[i]
                elif ctx.rule == FIDE2026:
                    cap = self.adj[self.index[o]] if kind in FORFEITS else ctx.draw * self.R
                    v = min(self.pts[i], cap)
                else:  # fide2009: the virtual opponent
                    if q == ctx.win:
                        opposite = ctx.scale[LOSS]
                    elif q == ctx.draw:
                        opposite = ctx.draw
                    else:
                        opposite = ctx.win
                    v = before + opposite + ctx.draw * (self.R - k)
                vur = kind in VUR and ctx.rule != FIDE2009
                out.append(Item(k, v, q, vur, self.category(i, k, kind), True))
            before += q
        return out


def _contribution(item: Item, sb: bool) -> int:
    return item.v * item.s // UNIT if sb else item.v


def cut_items(items: list[Item], low: int, high: int, sb: bool) -> list[Item]:
    """§1.3c: the items with their cut marks (low cuts first, a VUR item preferred; then high
    cuts)."""
    kept = list(range(len(items)))
    marks = [""] * len(items)

    def c(j: int) -> int:
        return _contribution(items[j], sb)

    low = min(low, len(kept))
    for _ in range(low):
        least = min(kept, key=lambda j: (items[j].v, c(j)))
        vurs = [j for j in kept if items[j].vur]
        if vurs:
            lv = min(vurs, key=lambda j: (items[j].v, c(j)))
            gone = least if c(least) > c(lv) else lv
        else:
            gone = least
        kept.remove(gone)
        marks[gone] = "low"
    for _ in range(min(high, len(kept))):
        top = max(kept, key=lambda j: (items[j].v, c(j)))
        kept.remove(top)
        marks[top] = "high"
    return [
        Item(it.round, it.v, it.s, it.vur, it.category, it.dummy, marks[j])
        for j, it in enumerate(items)
    ]


def _cuts(code: str) -> tuple[int, int]:
    mod = code.partition("/")[2]
    if mod.startswith("C"):
        return int(mod[1]), 0
    if mod.startswith("M"):
        return int(mod[1]), int(mod[1])
    return 0, 0


def value(comp: Computed, code: str, i: int) -> int:
    """The value of one (number) code for player i: points codes in quarter points (UNIT),
    counts and ARO as they are."""
    ctx = comp.ctx
    name = code.partition("/")[0]
    if name == "MK":
        return mk_values(comp, i, int(code[-1]) if "/" in code else 0)
    if name == "BK":
        return bk_value(comp, i)
    if name in ("BH", "SB"):
        low, high = _cuts(code)
        sb = name == "SB"
        items = cut_items(comp.items(i), low, high, sb)
        return sum(_contribution(it, sb) for it in items if not it.cut)
    rows = comp.rows[i]
    if name == "WIN":
        return sum(1 for item in rows if item[1] == ctx.win and item[0] != HALF_BYE)
    if name == "WON":
        return sum(1 for item in rows if item[0] == WIN)
    if name == "BPG":
        return sum(1 for item in rows if item[0] in REAL and item[3] == BLACK)
    if name == "BWG":
        return sum(1 for item in rows if item[0] == WIN and item[3] == BLACK)
    if name == "REP":
        return comp.R - sum(1 for item in rows if item[0] in VUR)
    if name == "PS":
        total = running = 0
        for item in rows:
            running += item[1]
            total += running
        if code == "PS/C1" and rows:
            total -= rows[0][1]
        return total
    if name == "ARO":
        ratings = []
        for kind, _q2, o, _c in rows:
            if kind in REAL:
                rating = ctx.ratings[comp.index[o]] if ctx.ratings else None
                if rating is None:
                    rating = ctx.aro_unrated
                if rating is not None:
                    ratings.append(rating)
        if code == "ARO/C1" and ratings:
            ratings.remove(min(ratings))
        if not ratings:
            return 0
        return (2 * sum(ratings) + len(ratings)) // (2 * len(ratings))  # rounded half up
    if name == "KS":
        # 2T in quarters: W × R ± k half points (k × UNIT / 2 quarters, doubled)
        twice = ctx.win * comp.R
        mod = code.partition("/")[2]
        if mod:
            twice += (1 if mod[1] == "+" else -1) * int(mod[2]) * UNIT
        total = 0
        for _kind, q, o, _c in rows:
            if o is not None and 2 * comp.pts[comp.index[o]] >= twice:
                total += q
        return total
    raise ValueError(f"unknown tie-break code {code!r}")


def mk_values(comp: Computed, i: int, cut: int) -> int:
    """NSF Monrad quality with the `cut` lowest terms left out (today's column), in quarters."""
    values = monrad_terms(comp, i)
    return sum(sorted(values)[cut:])


def monrad_terms(comp: Computed, i: int) -> list[int]:
    return [
        comp.final_all[comp.index[o]] if kind in REAL else 0
        for kind, _q2, o, _c in comp.ctx.results[i]
    ]


def bk_value(comp: Computed, i: int) -> int:
    total = 0
    for kind, _q2, o, _c in comp.ctx.results[i]:
        if kind == WIN:
            total += comp.final_all[comp.index[o]]
        elif kind == DRAWN:
            total += comp.final_all[comp.index[o]] // 2
    return total


def direct_encounter(comp: Computed, group: list[int], forfeits: bool) -> list[list[int]]:
    """§1.4.1: the ordered tiers of a tied group (TEC compute_basic_direct_encounter)."""
    if len(group) <= 1:
        return [list(group)]
    forfeits = forfeits or comp.round_robin
    members = set(group)
    games: dict[tuple[int, int], list[int]] = {}
    for i in group:
        for kind, q, o, _c in comp.rows[i]:
            if o is None:
                continue
            j = comp.index[o]
            if j in members and (kind in REAL or (forfeits and kind in FORFEITS)):
                games.setdefault((i, j), []).append(q)
    s = {i: Fraction(0) for i in group}
    met = dict.fromkeys(group, 0)
    for (i, _j), qs in games.items():
        s[i] += Fraction(sum(qs), len(qs))
        met[i] += 1
    size = len(group)
    if all(met[i] == size - 1 for i in group):
        values = sorted({s[i] for i in group}, reverse=True)
        tiers = [[i for i in group if s[i] == v] for v in values]
        result = []
        for tier in tiers:
            if 1 < len(tier) < size:
                result.extend(direct_encounter(comp, tier, forfeits))
            else:
                result.append(tier)
        return result
    best = {i: s[i] + comp.ctx.win * (size - 1 - met[i]) for i in group}
    ordered = sorted(group, key=lambda i: -s[i])  # stable: start order among equals
    tiers = []
    k = 0
    while k < size - 1 and s[ordered[k]] > max(best[j] for j in ordered[k + 1 :]):
        tiers.append([ordered[k]])
        k += 1
    rest = ordered[k:]
    if tiers and len(rest) >= 2:
        tiers.extend(direct_encounter(comp, sorted(rest), forfeits))
    else:
        tiers.append(sorted(rest))
    return tiers


@dataclass(frozen=True)
class Ranked:
    """The result of applying the list: places per player (start index), the values per code
    (None where a DE player was not tied), and the final sets in order."""

    places: list[int]
    order: list[int]  # player indices in table order
    values: list[tuple]  # per player, per code


def rank(
    comp: Computed,
    points: list[int],
    codes: tuple[str, ...],
    final_ties: str = SHARE,
    seed: int | str | None = None,
) -> Ranked:
    """§1.6: order by points, split the sets still equal code by code; players equal at the end
    share the place, or are ordered by the lot of `seed`."""
    n = len(points)
    values: list[list] = [[None] * len(codes) for _ in range(n)]
    sets = _split([list(range(n))], lambda i: points[i])
    for position, code in enumerate(codes):
        if code.startswith("DE"):
            new_sets = []
            for group in sets:
                if len(group) == 1:
                    new_sets.append(group)
                    continue
                tiers = direct_encounter(comp, group, code == "DE/P")
                number = 1
                for tier in tiers:
                    for i in tier:
                        values[i][position] = number
                    number += len(tier)
                    new_sets.append(sorted(tier))
            sets = new_sets
        else:
            column = [value(comp, code, i) for i in range(n)]
            for i in range(n):
                values[i][position] = column[i]
            sets = _split(sets, column.__getitem__)
    places = [0] * n
    order: list[int] = []
    lot = None
    if final_ties == LOT and seed is not None:
        permutation = list(range(n))
        random.Random(seed).shuffle(permutation)
        lot = {player: k for k, player in enumerate(permutation)}
    for group in sets:
        start = len(order) + 1
        if lot is not None:
            group = sorted(group, key=lot.__getitem__)
            for k, i in enumerate(group):
                places[i] = start + k
        else:
            for i in group:
                places[i] = start
        order.extend(group)
    return Ranked(places=places, order=order, values=[tuple(v) for v in values])


def _split(sets: list[list[int]], key) -> list[list[int]]:
    """Split every set by key, higher first; each part keeps start order."""
    out = []
    for group in sets:
        if len(group) == 1:
            out.append(group)
            continue
        for v in sorted({key(i) for i in group}, reverse=True):
            out.append([i for i in group if key(i) == v])
    return out


def explain(comp: Computed, code: str, i: int) -> list[Item]:
    """The BH or SB items of player i with their cut marks, for the explain view."""
    low, high = _cuts(code)
    return cut_items(comp.items(i), low, high, code.startswith("SB"))
